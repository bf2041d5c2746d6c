//! What the interpreter runs an exercise on: one method per GPU primitive of the contract
//! between the exercise and the `Gpu` trait (issue 8), so the adapter onto `&mut dyn Gpu` is
//! one line per method once every primitive exists there. Until then [`GpuMachine`] forwards the
//! primitives `Gpu` already has and answers [`MachineError::Missing`] for the others, so a
//! program that needs one stops with a clear message instead of a made-up result.

mod gpu_adapter;

pub use gpu_adapter::GpuMachine;

use crate::gpu::{DevBuf, DeviceInfo, GpuError, HostBuf, StreamId, StreamKind};
use crate::report::{HostMemKind, Op};

/// A CUDA event (`cudaEvent_t`): the backend's own handle.
pub use crate::gpu::EventId;

/// Why a machine call failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MachineError {
    /// The backend does not offer this primitive yet.
    #[error(
        "this needs the GPU primitive `{0}`, which this build's backends do not offer yet; the exercise cannot run here until they do"
    )]
    Missing(&'static str),
    #[error("{0}")]
    Gpu(#[from] GpuError),
}

pub type MResult<T> = Result<T, MachineError>;

/// The primitives an exercise program drives, mirroring the `Gpu` contract one to one.
/// Offsets and sizes are in bytes; every call that names a stream is asynchronous exactly when
/// the CUDA call it stands for is.
#[allow(clippy::too_many_arguments)]
pub trait Machine {
    fn info(&self) -> &DeviceInfo;
    fn host_alloc(&mut self, bytes: u64, kind: HostMemKind) -> MResult<HostBuf>;
    fn host_free(&mut self, buf: HostBuf) -> MResult<()>;
    fn host_register(&mut self, buf: HostBuf) -> MResult<()>;
    fn host_unregister(&mut self, buf: HostBuf) -> MResult<()>;
    /// Write the input pattern (`gpu::fill_pattern_f32(seed, i)`) into every float of `buf`.
    fn host_fill(&mut self, buf: HostBuf, seed: u32) -> MResult<()>;
    fn host_read_f32(&mut self, buf: HostBuf, index: u64) -> MResult<f32>;
    fn host_write_f32(&mut self, buf: HostBuf, index: u64, value: f32) -> MResult<()>;
    fn host_copy(
        &mut self,
        dst: HostBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()>;
    /// Whether float `i` of `buf[off .. off + bytes]` is `pattern(seed, i) * A + B`, for every
    /// `i` (exactly `check_output` of `academy.cuh`).
    fn host_holds_transform_of_fill(
        &mut self,
        buf: HostBuf,
        off: u64,
        bytes: u64,
        seed: u32,
    ) -> MResult<bool>;
    fn device_alloc(&mut self, bytes: u64) -> MResult<DevBuf>;
    fn device_free(&mut self, buf: DevBuf) -> MResult<()>;
    fn stream_create(&mut self, kind: StreamKind) -> MResult<StreamId>;
    fn stream_destroy(&mut self, stream: StreamId) -> MResult<()>;
    fn stream_sync(&mut self, stream: StreamId) -> MResult<()>;
    fn device_sync(&mut self) -> MResult<()>;
    fn copy_h2d_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()>;
    fn copy_d2h_async(
        &mut self,
        stream: StreamId,
        dst: HostBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()>;
    fn copy_d2d_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()>;
    fn memset_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        off: u64,
        bytes: u64,
        byte: u8,
    ) -> MResult<()>;
    /// `transform`: `dst[i] = src[i] * A + B` over `bytes / 4` floats.
    fn launch_transform_into(
        &mut self,
        stream: StreamId,
        src: DevBuf,
        src_off: u64,
        dst: DevBuf,
        dst_off: u64,
        bytes: u64,
    ) -> MResult<()>;
    fn launch_spin_cycles(&mut self, stream: StreamId, cycles: u64) -> MResult<()>;
    fn event_create(&mut self, timing: bool) -> MResult<EventId>;
    fn event_destroy(&mut self, ev: EventId) -> MResult<()>;
    fn event_record(&mut self, ev: EventId, stream: StreamId) -> MResult<()>;
    fn event_sync(&mut self, ev: EventId) -> MResult<()>;
    fn event_elapsed_ms(&mut self, start: EventId, end: EventId) -> MResult<f32>;
    fn stream_wait_event(&mut self, stream: StreamId, ev: EventId) -> MResult<()>;
    /// The host clock in microseconds from the last [`Machine::timeline_begin`].
    fn host_now_us(&mut self) -> f64;
    /// `host_work`: the host is busy for `us` microseconds.
    fn host_busy_us(&mut self, us: f64) -> MResult<()>;
    fn timeline_begin(&mut self) -> MResult<()>;
    fn timeline_end(&mut self) -> MResult<Vec<Op>>;
}
