//! The driver role of [`super::Gpu`]: allocation, copies, launches, streams, events and
//! synchronisation, each the plain CUDA driver call it names.
//!
//! Every call that names a stream is asynchronous with respect to the host exactly when the
//! real driver call would be. Device ops issued here (copies, kernels, memsets) appear on the
//! timeline being recorded.

use super::{
    Access, BatchCopy, DevBuf, EventId, GpuError, HostBuf, Kernel, Operand, Side, SrcAccessOrder,
    StreamId, StreamKind, UnifiedBuf, UnifiedKind,
};
use crate::report::HostMemKind;

/// The CUDA driver primitives experiments and exercises issue.
#[allow(clippy::too_many_arguments)]
pub trait Driver {
    /// Allocate host memory of the given kind. `Registered` allocates pageable memory and
    /// page-locks it with `cuMemHostRegister`. Contents are unspecified until written.
    fn host_alloc(&mut self, bytes: u64, kind: HostMemKind) -> Result<HostBuf, GpuError>;
    /// Free (and, for `Registered`, unregister) a host buffer.
    fn host_free(&mut self, buf: HostBuf) -> Result<(), GpuError>;
    /// Write every page of a pageable buffer once (first touch), as the OS needs before use.
    fn host_touch(&mut self, buf: HostBuf) -> Result<(), GpuError>;
    /// Page-lock an existing pageable buffer (`cuMemHostRegister`), making it `Registered`.
    fn host_register(&mut self, buf: HostBuf) -> Result<(), GpuError>;
    /// Undo [`Driver::host_register`].
    fn host_unregister(&mut self, buf: HostBuf) -> Result<(), GpuError>;

    /// `cuMemAlloc`. Contents are unspecified until written.
    fn device_alloc(&mut self, bytes: u64) -> Result<DevBuf, GpuError>;
    /// `cuMemFree` (synchronises with the device first, as the driver does).
    fn device_free(&mut self, buf: DevBuf) -> Result<(), GpuError>;
    /// `cuMemAllocAsync(bytes, stream)`: stream-ordered allocation; the memory may be used by
    /// work ordered after this call in `stream`.
    fn device_alloc_async(&mut self, stream: StreamId, bytes: u64) -> Result<DevBuf, GpuError>;
    /// `cuMemFreeAsync(buf, stream)`: the memory goes back to the pool when the work queued on
    /// `stream` before it has finished; the host does not wait.
    fn device_free_async(&mut self, stream: StreamId, buf: DevBuf) -> Result<(), GpuError>;

    /// `cuMemAllocManaged` (`CU_MEM_ATTACH_GLOBAL`) or `cuMemHostAlloc` with
    /// `CU_MEMHOSTALLOC_DEVICEMAP` (see [`UnifiedKind`]). Contents are unspecified until
    /// written. A backend without them answers [`GpuError::Invalid`].
    fn unified_alloc(&mut self, bytes: u64, kind: UnifiedKind) -> Result<UnifiedBuf, GpuError> {
        let _ = (bytes, kind);
        Err(no_unified())
    }
    /// `cuMemFree` of managed memory, `cuMemFreeHost` of mapped memory (each synchronises
    /// with the device first, as the driver does).
    fn unified_free(&mut self, buf: UnifiedBuf) -> Result<(), GpuError> {
        let _ = buf;
        Err(no_unified())
    }
    /// `cuMemPrefetchAsync` (CUDA 13's `_v2`, with a `CUmemLocation`): migrate every page of a
    /// managed buffer to `to` in stream order. Mapped memory is refused.
    fn prefetch_async(
        &mut self,
        stream: StreamId,
        buf: UnifiedBuf,
        to: Side,
    ) -> Result<(), GpuError> {
        let _ = (stream, buf, to);
        Err(no_unified())
    }
    /// `kernels/strided.cu`: `dst[i] = src[i] * TRANSFORM_A + TRANSFORM_B` for every
    /// `access.stride`-th of the first `bytes / 4` floats, `access.passes` times over, in
    /// `stream`; either side may be device memory or a unified buffer.
    fn launch_strided(
        &mut self,
        stream: StreamId,
        src: Operand,
        dst: Operand,
        bytes: u64,
        access: Access,
    ) -> Result<(), GpuError> {
        let _ = (stream, src, dst, bytes, access);
        Err(no_unified())
    }

    fn stream_create(&mut self, kind: StreamKind) -> Result<StreamId, GpuError>;
    fn stream_destroy(&mut self, stream: StreamId) -> Result<(), GpuError>;

    /// `cuMemcpyHtoDAsync(dst + dst_off, src + src_off, bytes, stream)`.
    fn copy_h2d_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError>;
    /// `cuMemcpyBatchAsync` (CUDA 13.0's prototype): every copy of `copies` host-to-device in
    /// one call on `stream`, each under `order` ([`SrcAccessOrder`]). The batch runs in stream
    /// order; its copies have no order among themselves. The legacy default stream is refused.
    /// A backend without the call answers [`GpuError::Invalid`].
    fn copy_h2d_batch_async(
        &mut self,
        stream: StreamId,
        copies: &[BatchCopy],
        order: SrcAccessOrder,
    ) -> Result<(), GpuError> {
        let _ = (stream, copies, order);
        Err(GpuError::Invalid(
            "this backend has no batched copies (cuMemcpyBatchAsync)".into(),
        ))
    }
    /// `cuMemcpyDtoHAsync(dst + dst_off, src + src_off, bytes, stream)`.
    fn copy_d2h_async(
        &mut self,
        stream: StreamId,
        dst: HostBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError>;
    /// `cuMemcpyDtoDAsync(dst + dst_off, src + src_off, bytes, stream)`.
    fn copy_d2d_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError>;
    /// `cuMemsetD8Async(dst + off, byte, bytes, stream)`.
    fn memset_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        off: u64,
        bytes: u64,
        byte: u8,
    ) -> Result<(), GpuError>;

    /// Launch `kernel` in place over the `f32`s in `buf[off .. off + bytes]` in `stream`.
    fn launch(
        &mut self,
        stream: StreamId,
        kernel: Kernel,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<(), GpuError>;
    /// The exercises' `transform(in, out, n)`: `out[i] = in[i] * TRANSFORM_A + TRANSFORM_B` over
    /// the `f32`s of `src[src_off ..][.. bytes]` into `dst[dst_off ..]`, in `stream`.
    fn launch_transform_into(
        &mut self,
        stream: StreamId,
        src: DevBuf,
        src_off: u64,
        dst: DevBuf,
        dst_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError>;
    /// The exercises' `spin(cycles)`: one kernel that waits `cycles` SM clock cycles and touches
    /// no memory.
    fn launch_spin_cycles(&mut self, stream: StreamId, cycles: u64) -> Result<(), GpuError>;
    /// The exercises' `spin(cycles, x, n)`: the same wait, and `x[i] += SPIN_ADD` over the
    /// `f32`s of `buf[off ..][.. bytes]`, in `stream` (compute whose result the next stage reads).
    fn launch_spin_add(
        &mut self,
        stream: StreamId,
        cycles: u64,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<(), GpuError>;

    /// `cuStreamQuery`: whether every op issued to `stream` has completed (`CUDA_SUCCESS`) or
    /// not (`CUDA_ERROR_NOT_READY`); the host does not wait.
    fn stream_query(&mut self, stream: StreamId) -> Result<bool, GpuError>;
    /// `cuEventQuery`: whether the event's last record has completed (true for an event never
    /// recorded, as the driver answers); the host does not wait.
    fn event_query(&mut self, ev: EventId) -> Result<bool, GpuError>;
    /// [`Driver::event_query`] for the caller's own bookkeeping, not a call of the program: the
    /// interpreter looks at its host functions' markers with it after every call. The
    /// simulator answers without spending host time (a real query costs about a microsecond).
    fn event_reached(&mut self, ev: EventId) -> Result<bool, GpuError> {
        self.event_query(ev)
    }
    /// `cuStreamSynchronize`.
    fn stream_sync(&mut self, stream: StreamId) -> Result<(), GpuError>;
    /// `cuCtxSynchronize`.
    fn device_sync(&mut self) -> Result<(), GpuError>;

    /// `cuEventCreate`, with `CU_EVENT_DISABLE_TIMING` when `timing` is false.
    fn event_create(&mut self, timing: bool) -> Result<EventId, GpuError>;
    /// `cuEventDestroy`.
    fn event_destroy(&mut self, ev: EventId) -> Result<(), GpuError>;
    /// `cuEventRecord(ev, stream)`: the event completes when the work issued to `stream` before
    /// it has (on the legacy default stream, with its implicit barrier).
    fn event_record(&mut self, ev: EventId, stream: StreamId) -> Result<(), GpuError>;
    /// `cuEventSynchronize`: the host waits until the event's last record has completed (at
    /// once for an event never recorded).
    fn event_sync(&mut self, ev: EventId) -> Result<(), GpuError>;
    /// `cuEventElapsedTime(start, end)` in milliseconds: both recorded, completed, and created
    /// with timing.
    fn event_elapsed_ms(&mut self, start: EventId, end: EventId) -> Result<f32, GpuError>;
    /// `cuStreamWaitEvent(stream, ev, 0)`: work issued to `stream` from now on waits for the
    /// event's last record (no wait for an event never recorded).
    fn stream_wait_event(&mut self, stream: StreamId, ev: EventId) -> Result<(), GpuError>;
}

/// What a backend without managed or mapped memory answers.
pub(super) fn no_unified() -> GpuError {
    GpuError::Invalid("this backend has no managed or mapped memory".into())
}
