//! The one interface every experiment runs on: a small set of CUDA driver primitives.
//!
//! Experiments (`crate::experiment`) and the exercise interpreter are written once against
//! [`Gpu`]; `gpu::cuda` implements it with real driver calls through cudarc, `gpu::sim` with a
//! deterministic discrete-event model calibrated from a real GPU. Because both sides take the same
//! calls in the same order, the simulator reproduces what the program *does* (which stream, which
//! order, which host memory), not a canned answer.
//!
//! [`Gpu`] is three roles in one object: [`Driver`] (allocate, copy, launch, synchronise,
//! streams, events), [`Recording`] (the host clock and the timeline) and [`HostAccess`] (what the
//! host program writes and reads, and verification). A backend implements each role; `&mut dyn
//! Gpu` offers all of them.
//!
//! Times: [`Recording::host_now_us`] and the ops returned by [`Recording::timeline_end`] share one
//! clock whose origin is the last [`Recording::timeline_begin`].

use crate::report::{BackendInfo, Op};

mod batch;
mod driver;
mod host_access;
mod unified;

pub use batch::{BatchCopy, LEGACY_STREAM_REFUSED, SrcAccessOrder, total_bytes};
pub use driver::Driver;
pub use host_access::{Expect, HostAccess, Mismatch, same_value};
pub use unified::{Access, HostView, Operand, Side, UnifiedBuf, UnifiedKind, strided_pattern_sum};

/// A host buffer owned by the backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HostBuf(pub u32);

/// A device buffer owned by the backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DevBuf(pub u32);

/// An event (`cuEventCreate`), owned by the backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventId(pub u32);

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

/// The multiplier of the standard transform (`kernels/transform.cu`, the exercises' `transform`).
pub const TRANSFORM_A: f32 = 2.0;
/// The addend of the standard transform.
pub const TRANSFORM_B: f32 = 1.0;
/// What the exercises' `spin(cycles, x, n)` adds to each float it passes over
/// (`kernels/spin_cycles.cu`'s `spin_add`, `ACADEMY_SPIN_ADD` in `academy.cuh`).
pub const SPIN_ADD: f32 = 1.0;

impl Kernel {
    /// The standard transform, `x * TRANSFORM_A + TRANSFORM_B`.
    pub const TRANSFORM: Kernel = Kernel::Transform {
        a: TRANSFORM_A,
        b: TRANSFORM_B,
    };

    /// The host reference of [`Kernel::Transform`], used to verify results. Exact for the fill
    /// pattern and the standard constants whether or not the device fuses it into an FMA (see
    /// [`fill_pattern_f32`]).
    pub fn transform_host(x: f32, a: f32, b: f32) -> f32 {
        x * a + b
    }
}

/// The period, in `f32`s, of the pattern [`fill_pattern_f32`] writes: odd, so chunks at any
/// power-of-two offset differ, and large, so no experiment's chunk is a whole period.
pub const FILL_PATTERN_PERIOD: u64 = 65_521 * 17;

/// The `f32` number `index` of the pattern [`HostAccess::host_fill`] writes with `seed`, on every backend.
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
    /// The rest of what decides where the lessons' rules hold ([`machine::notes`]).
    pub machine: machine::MachineFacts,
    /// Whether kernels can run (NVRTC present and the kernels compiled).
    pub kernels_available: bool,
    /// Whether host buffers take real host memory. The simulator's do not (it stores a
    /// description of their contents), so a size check against the host's free memory applies
    /// only when this is true.
    pub holds_host_bytes: bool,
    /// The simulated machine's host memory (its profile's `host_total_bytes`) when the backend
    /// simulates one: sizes are checked against it, since the simulator refuses what its profiled
    /// host could not hold. `None` on a live GPU.
    pub simulated_host_bytes: Option<u64>,
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

/// One backend: the three roles of a GPU plus what it knows about its device.
///
/// `&mut dyn Gpu` offers every method of [`Driver`], [`Recording`] and [`HostAccess`] with only
/// `Gpu` in scope.
pub trait Gpu: Driver + Recording + HostAccess {
    fn info(&self) -> &DeviceInfo;

    /// "Explain my number" (issue 10 §4): short notes on what bounds the host-device
    /// bandwidths `gbps` (name, GB/s) besides the code: their share of the link's
    /// per-direction limit, a link below its maximum generation or width, the GPU's NUMA node
    /// against this process's CPUs. A backend with no link to read says nothing.
    fn bandwidth_notes(&self, gbps: &[(&str, f64)]) -> Vec<String> {
        let _ = gbps;
        Vec::new()
    }
}

/// Recording: the host clock and the timeline of device ops.
pub trait Recording {
    /// The host clock, in microseconds from the last [`Recording::timeline_begin`].
    fn host_now_us(&mut self) -> f64;
    /// Keep the host busy for `us` microseconds (the exercises' `host_work`): the simulator
    /// advances its host clock, a real backend spins.
    fn host_busy_us(&mut self, us: f64);
    /// Start recording device ops; sets the time origin for this and
    /// [`Recording::host_now_us`].
    fn timeline_begin(&mut self) -> Result<(), GpuError>;
    /// Stop recording (synchronising the device first) and return the ops since
    /// [`Recording::timeline_begin`], sorted by start, on its origin. Host ops are not included:
    /// experiments add their own from [`Recording::host_now_us`].
    fn timeline_end(&mut self) -> Result<Vec<Op>, GpuError>;
    /// The experiment run is over: release what recording keeps between its recordings (the
    /// CUDA backend detaches CUPTI, attached once per run), so nothing that runs next, such as
    /// another experiment's unrecorded timings, pays for it.
    fn run_finished(&mut self) {}
    /// The line of the learner's program issuing the ops that follow (exercise checks), or
    /// `None`; recorded ops carry it, so a hazard is drawn on the op its line issued.
    fn set_source_line(&mut self, line: Option<u32>) {
        let _ = line;
    }
}

pub mod cuda;
pub mod detect;
pub mod machine;
pub mod profile;
pub mod quiet;
pub mod sim;
