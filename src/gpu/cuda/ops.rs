//! The timed operations: async copies and kernel launches, each noted by the recorder while a
//! timeline is open. Plain `cuMemcpy*Async` / `cuLaunchKernel` calls: no cudarc event tracking
//! (see the module docs of `gpu::cuda`).
#![allow(unsafe_code)]

use cudarc::driver::sys;

use super::CudaGpu;
use super::error::check;
use super::kernels::Loaded;
use super::memory::check_range;
use super::memory::{DevAlloc, HostAlloc};
use super::timeline::Issued;
use crate::gpu::{DevBuf, GpuError, HostBuf, Kernel, StreamId};
use crate::report::OpKind;

impl CudaGpu {
    /// One async copy between `dev[dev_off..]` and `host[host_off..]`, direction from `kind`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn copy(
        &mut self,
        kind: OpKind,
        stream: StreamId,
        dev: DevBuf,
        dev_off: u64,
        host: HostBuf,
        host_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        let s = self.stream(stream)?;
        let d = self.dev_buf(dev)?;
        check_range("device", d.bytes, dev_off, bytes)?;
        let dptr = d.ptr + dev_off;
        let h = self.host_buf(host)?;
        check_range("host", h.bytes, host_off, bytes)?;
        let host_mem = Some(h.kind);
        let off = usize::try_from(host_off).map_err(|_| GpuError::Invalid("offset".into()))?;
        // SAFETY: `off` is inside the allocation (checked above).
        let hptr = unsafe { h.ptr().add(off) };
        let n = usize::try_from(bytes).map_err(|_| GpuError::Invalid("size".into()))?;
        let issue_us = if self.recorder.recording() {
            self.recorder.before_issue()
        } else {
            0.0
        };
        // SAFETY: both ranges lie inside live allocations owned by `self`; the host buffer stays
        // alive and unmoved until `host_free` (or `host_unregister`), which synchronises the
        // context first whatever order a learner's program frees in; the host touches these bytes
        // only through volatile raw-pointer access (`HostAlloc::read_f32`), never a reference, so
        // a racy program's read during the copy is a wrong value, not undefined behaviour; `s` is
        // a live stream of this context or null (legacy default stream).
        let rc = unsafe {
            match kind {
                OpKind::H2d => sys::cuMemcpyHtoDAsync_v2(dptr, hptr.cast_const().cast(), n, s),
                _ => sys::cuMemcpyDtoHAsync_v2(hptr.cast(), dptr, n, s),
            }
        };
        let call = if kind == OpKind::H2d {
            "cuMemcpyHtoDAsync"
        } else {
            "cuMemcpyDtoHAsync"
        };
        check(call, rc)?;
        if self.recorder.recording() {
            let label = super::op_label(kind, None);
            let op = Issued {
                line: self.recorder.source_line,
                stream: stream.0,
                kind,
                bytes,
                host_mem,
                label,
                issue_us,
                end_event: None,
            };
            self.record(s, op)?;
        }
        Ok(())
    }

    /// Launch `kernel` over the f32s of `buf[off .. off + bytes]`.
    pub(super) fn launch_kernel(
        &mut self,
        stream: StreamId,
        kernel: Kernel,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        let loaded = match &self.kernels {
            Ok(k) => k,
            Err(reason) => return Err(GpuError::KernelsUnavailable(reason.clone())),
        };
        if !off.is_multiple_of(4) || !bytes.is_multiple_of(4) {
            return Err(GpuError::Invalid(format!(
                "kernel range must be whole f32s (offset {off}, {bytes} bytes)"
            )));
        }
        let s = self.stream(stream)?;
        let d = self.dev_buf(buf)?;
        check_range("device", d.bytes, off, bytes)?;
        let ptr = d.ptr + off;
        let issue_us = if self.recorder.recording() {
            self.recorder.before_issue()
        } else {
            0.0
        };
        loaded.launch(s, kernel, ptr, bytes / 4)?;
        if self.recorder.recording() {
            let op = Issued {
                line: self.recorder.source_line,
                stream: stream.0,
                kind: OpKind::Kernel,
                bytes,
                host_mem: None,
                label: super::op_label(OpKind::Kernel, Some(kernel)),
                issue_us,
                end_event: None,
            };
            self.record(s, op)?;
        }
        Ok(())
    }
}

impl CudaGpu {
    /// A device range's address, after checking it lies inside its buffer.
    pub(super) fn dev_ptr(
        &self,
        what: &str,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<u64, GpuError> {
        let d = self.dev_buf(buf)?;
        check_range(what, d.bytes, off, bytes)?;
        Ok(d.ptr + off)
    }

    pub(super) fn loaded(&self) -> Result<&Loaded, GpuError> {
        self.kernels
            .as_ref()
            .map_err(|reason| GpuError::KernelsUnavailable(reason.clone()))
    }

    /// Note a kernel just launched in `stream` on the timeline being recorded.
    pub(super) fn note_kernel(
        &mut self,
        stream: StreamId,
        label: &'static str,
        bytes: u64,
        issue_us: f64,
    ) -> Result<(), GpuError> {
        if !self.recorder.recording() {
            return Ok(());
        }
        let s = self.stream(stream)?;
        let op = Issued {
            line: self.recorder.source_line,
            stream: stream.0,
            kind: OpKind::Kernel,
            bytes,
            host_mem: None,
            label,
            issue_us,
            end_event: None,
        };
        self.record(s, op)
    }

    // Memsets and device-to-device copies are not noted on the timeline: CUPTI reports them as
    // record kinds the recorder does not match yet (it would pair them with kernels).

    /// `cuMemcpyDtoDAsync`.
    pub(super) fn copy_d2d(
        &mut self,
        stream: StreamId,
        (dst, dst_off): (DevBuf, u64),
        (src, src_off): (DevBuf, u64),
        bytes: u64,
    ) -> Result<(), GpuError> {
        let s = self.stream(stream)?;
        let to = self.dev_ptr("D2D destination", dst, dst_off, bytes)?;
        let from = self.dev_ptr("D2D source", src, src_off, bytes)?;
        // SAFETY: both ranges lie inside live device allocations; `s` is live or null.
        check("cuMemcpyDtoDAsync", unsafe {
            sys::cuMemcpyDtoDAsync_v2(to, from, bytes as usize, s)
        })
    }

    /// `cuMemsetD8Async`.
    pub(super) fn memset(
        &mut self,
        stream: StreamId,
        (dst, off): (DevBuf, u64),
        bytes: u64,
        byte: u8,
    ) -> Result<(), GpuError> {
        let s = self.stream(stream)?;
        let to = self.dev_ptr("memset", dst, off, bytes)?;
        // SAFETY: the range lies inside a live device allocation; `s` is live or null.
        check("cuMemsetD8Async", unsafe {
            sys::cuMemsetD8Async(to, byte, bytes as usize, s)
        })
    }

    /// The exercises' `transform(in, out, n)` with the standard constants.
    pub(super) fn transform_into(
        &mut self,
        stream: StreamId,
        (src, src_off): (DevBuf, u64),
        (dst, dst_off): (DevBuf, u64),
        bytes: u64,
    ) -> Result<(), GpuError> {
        if ![src_off, dst_off, bytes]
            .iter()
            .all(|v| v.is_multiple_of(4))
        {
            return Err(GpuError::Invalid(format!(
                "transform range must be whole f32s (offsets {src_off}, {dst_off}, {bytes} bytes)"
            )));
        }
        let s = self.stream(stream)?;
        let from = self.dev_ptr("transform input", src, src_off, bytes)?;
        let to = self.dev_ptr("transform output", dst, dst_off, bytes)?;
        let issue_us = self.recorder.now_us();
        let consts = (crate::gpu::TRANSFORM_A, crate::gpu::TRANSFORM_B);
        self.loaded()?
            .launch_transform_into(s, (from, to), bytes / 4, consts)?;
        self.note_kernel(stream, "transform", bytes, issue_us)
    }

    /// The exercises' `spin(cycles)`.
    pub(super) fn spin_cycles(&mut self, stream: StreamId, cycles: u64) -> Result<(), GpuError> {
        let s = self.stream(stream)?;
        let issue_us = self.recorder.now_us();
        self.loaded()?.launch_spin_cycles(s, cycles)?;
        self.note_kernel(stream, "spin", 0, issue_us)
    }

    /// The exercises' `spin(cycles, x, n)`.
    pub(super) fn spin_add(
        &mut self,
        stream: StreamId,
        cycles: u64,
        (buf, off): (DevBuf, u64),
        bytes: u64,
    ) -> Result<(), GpuError> {
        if ![off, bytes].iter().all(|v| v.is_multiple_of(4)) {
            return Err(GpuError::Invalid(format!(
                "spin range must be whole f32s (offset {off}, {bytes} bytes)"
            )));
        }
        let s = self.stream(stream)?;
        let x = self.dev_ptr("spin", buf, off, bytes)?;
        let issue_us = self.recorder.now_us();
        self.loaded()?
            .launch_spin_add(s, cycles, x, bytes / 4, crate::gpu::SPIN_ADD)?;
        self.note_kernel(stream, "spin", bytes, issue_us)
    }
}

/// A 4 KiB H2D copy, a kernel and a D2H copy in the legacy default stream and in each of
/// `streams`, then a device synchronisation: CUPTI instruments streams lazily, on their first op
/// after activity recording is enabled, which would otherwise delay the first timed ops.
pub(super) fn warm_up(
    bufs: Option<&(HostAlloc, DevAlloc)>,
    kernels: Option<&Loaded>,
    streams: &[sys::CUstream],
) -> Result<(), GpuError> {
    let Some((h, d)) = bufs else {
        return Ok(());
    };
    let n = 4096usize;
    for &s in std::iter::once(&std::ptr::null_mut()).chain(streams) {
        // SAFETY: both 4 KiB buffers are owned by the backend and outlive the synchronisation
        // below; `s` is a live stream or null.
        check("cuMemcpyHtoDAsync", unsafe {
            sys::cuMemcpyHtoDAsync_v2(d.ptr, h.ptr().cast_const().cast(), n, s)
        })?;
        if let Some(k) = kernels {
            k.launch(s, Kernel::Transform { a: 1.0, b: 0.0 }, d.ptr, 1024)?;
        }
        // SAFETY: as above.
        check("cuMemcpyDtoHAsync", unsafe {
            sys::cuMemcpyDtoHAsync_v2(h.ptr().cast(), d.ptr, n, s)
        })?;
    }
    super::context::synchronize()
}
