//! The one interface every experiment runs on: a small set of CUDA driver primitives.
//!
//! Experiments (`crate::experiment`) are written once against [`Gpu`]; `gpu::cuda` implements it
//! with real driver calls through cudarc, `gpu::sim` with a deterministic discrete-event model
//! calibrated from a real GPU. Because both sides take the same calls in the same order, the
//! simulator reproduces what the program *does* (which stream, which order, which host memory),
//! not a canned answer.
//!
//! Times: [`Gpu::host_now_us`] and the ops returned by [`Gpu::timeline_end`] share one clock whose
//! origin is the last [`Gpu::timeline_begin`].

use crate::report::{BackendInfo, HostMemKind, Op};

/// A host buffer owned by the backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HostBuf(pub u32);

/// A device buffer owned by the backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DevBuf(pub u32);

/// A stream. [`StreamId::LEGACY_DEFAULT`] is the legacy default stream (`0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StreamId(pub u32);

impl StreamId {
    /// The legacy default stream, which synchronises with every blocking stream.
    pub const LEGACY_DEFAULT: StreamId = StreamId(0);
}

/// How a created stream relates to the legacy default stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamKind {
    /// `cudaStreamCreate` / flags 0: synchronises with the legacy default stream.
    Blocking,
    /// `cudaStreamNonBlocking`: does not.
    NonBlocking,
}

/// The kernels in `kernels/`, by what they do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kernel {
    /// `kernels/transform.cu`: `x[i] = x[i] * a + b` over `f32`s, in place, grid-stride;
    /// memory-bound (the pipeline's "light kernel").
    Transform { a: f32, b: f32 },
    /// `kernels/spin.cu`: each thread does `iterations` dependent FMAs on its element, so the
    /// kernel's duration is set by `iterations`, not by memory.
    Spin { iterations: u32 },
}

impl Kernel {
    /// The host reference of [`Kernel::Transform`], used to verify results.
    pub fn transform_host(x: f32, a: f32, b: f32) -> f32 {
        x * a + b
    }
}

/// The period, in `f32`s, of the pattern [`fill_pattern_f32`] writes: odd, so chunks at any
/// power-of-two offset differ, and large, so no experiment's chunk is a whole period.
pub const FILL_PATTERN_PERIOD: u64 = 65_521 * 17;

/// The `f32` number `index` of the pattern [`Gpu::host_fill`] writes with `seed`, on every backend.
///
/// Values are multiples of 1/16 in [-64, 65), so `x * a + b` with small power-of-two `a` and `b`
/// is exact whether or not the device fuses it into an FMA. The pattern repeats every
/// [`FILL_PATTERN_PERIOD`] floats, so a backend may compute one period and copy it.
pub fn fill_pattern_f32(seed: u32, index: u64) -> f32 {
    let (block, i) = (index % FILL_PATTERN_PERIOD / 65_521, index % 65_521);
    // SplitMix64 finaliser: cheap, deterministic, well mixed across neighbouring indices.
    let mut z = ((u64::from(seed) << 32) ^ i).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    ((z % 2048) as f32 - 1024.0 + block as f32) / 16.0
}

/// What a backend knows about its device.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceInfo {
    pub backend: BackendInfo,
    pub name: String,
    /// e.g. (9, 0).
    pub compute_capability: (u32, u32),
    pub total_mem: u64,
    pub free_mem: u64,
    /// `CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT`.
    pub copy_engines: u32,
    /// Whether kernels can run (NVRTC present and the kernels compiled).
    pub kernels_available: bool,
}

/// Why a GPU primitive failed. Messages say what happened and what to do.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GpuError {
    #[error("no CUDA driver found ({0}); install the NVIDIA driver or use --backend sim")]
    NoDriver(String),
    #[error(
        "no CUDA device {ordinal} (found {count}); pick one with --device N or use --backend sim"
    )]
    NoDevice { ordinal: u32, count: u32 },
    #[error(
        "out of {what} memory: asked for {requested} bytes, {free} bytes free; try a smaller --size"
    )]
    OutOfMemory {
        what: &'static str,
        requested: u64,
        free: u64,
    },
    #[error("kernels unavailable: {0}")]
    KernelsUnavailable(String),
    #[error("CUDA error in {call}: {message}")]
    Driver { call: String, message: String },
    #[error(
        "the CUDA context is unusable after {call}: {message}; restart cuda-academy or use --backend sim"
    )]
    ContextPoisoned { call: String, message: String },
    #[error("invalid use of the GPU interface: {0}")]
    Invalid(String),
    #[error("cancelled")]
    Cancelled,
}

/// The driver primitives experiments use. Every call that names a stream is asynchronous with
/// respect to the host exactly when the real driver call would be.
pub trait Gpu {
    fn info(&self) -> &DeviceInfo;

    /// Allocate host memory of the given kind. `Registered` allocates pageable memory and
    /// page-locks it with `cuMemHostRegister`. Contents are unspecified until written.
    fn host_alloc(&mut self, bytes: u64, kind: HostMemKind) -> Result<HostBuf, GpuError>;
    /// Free (and, for `Registered`, unregister) a host buffer.
    fn host_free(&mut self, buf: HostBuf) -> Result<(), GpuError>;
    /// Write every page of a pageable buffer once (first touch), as the OS needs before use.
    fn host_touch(&mut self, buf: HostBuf) -> Result<(), GpuError>;
    /// Page-lock an existing pageable buffer (`cuMemHostRegister`), making it `Registered`.
    fn host_register(&mut self, buf: HostBuf) -> Result<(), GpuError>;
    /// Undo [`Gpu::host_register`].
    fn host_unregister(&mut self, buf: HostBuf) -> Result<(), GpuError>;
    /// Fill a host buffer's `f32`s with a deterministic pattern derived from `seed`.
    fn host_fill(&mut self, buf: HostBuf, seed: u32) -> Result<(), GpuError>;
    /// Read back `f32` number `index` of a host buffer (for verification).
    fn host_read_f32(&mut self, buf: HostBuf, index: u64) -> Result<f32, GpuError>;

    fn device_alloc(&mut self, bytes: u64) -> Result<DevBuf, GpuError>;
    fn device_free(&mut self, buf: DevBuf) -> Result<(), GpuError>;

    fn stream_create(&mut self, kind: StreamKind) -> Result<StreamId, GpuError>;
    fn stream_destroy(&mut self, stream: StreamId) -> Result<(), GpuError>;

    /// `cuMemcpyHtoDAsync(dst + dst_off, src + src_off, bytes, stream)`.
    #[allow(clippy::too_many_arguments)]
    fn copy_h2d_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError>;
    /// `cuMemcpyDtoHAsync(dst + dst_off, src + src_off, bytes, stream)`.
    #[allow(clippy::too_many_arguments)]
    fn copy_d2h_async(
        &mut self,
        stream: StreamId,
        dst: HostBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError>;
    /// Launch `kernel` over the `f32`s in `buf[off .. off + bytes]` in `stream`.
    fn launch(
        &mut self,
        stream: StreamId,
        kernel: Kernel,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<(), GpuError>;

    /// `cuStreamSynchronize`.
    fn stream_sync(&mut self, stream: StreamId) -> Result<(), GpuError>;
    /// `cuCtxSynchronize`.
    fn device_sync(&mut self) -> Result<(), GpuError>;

    /// The host clock, in microseconds from the last [`Gpu::timeline_begin`].
    fn host_now_us(&mut self) -> f64;
    /// Start recording device ops; sets the time origin for this and [`Gpu::host_now_us`].
    fn timeline_begin(&mut self) -> Result<(), GpuError>;
    /// Stop recording (synchronising the device first) and return the ops since
    /// [`Gpu::timeline_begin`], sorted by start, on its origin. Host ops are not included:
    /// experiments add their own from [`Gpu::host_now_us`].
    fn timeline_end(&mut self) -> Result<Vec<Op>, GpuError>;

    /// A hint from timing sweeps: `false` means the data of copies and kernels issued from now on
    /// will not be read back, so a simulator may skip moving real bytes (its timing must not
    /// change); `true` turns data movement back on before a verified run. Real GPUs always move
    /// data, so the default ignores it.
    fn set_move_data(&mut self, on: bool) {
        let _ = on;
    }
}

pub mod cuda;
pub mod detect;
pub mod profile;
pub mod sim;
