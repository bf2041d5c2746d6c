//! The simulated backend: a deterministic discrete-event model of a GPU and its host, calibrated
//! by a [`Profile`].
//!
//! Two clocks, one time line. The *host clock* (`sim/host_clock.rs`) advances by each API
//! call's cost from the profile (an async copy call, a launch, an allocation) and jumps forward
//! when a call blocks: a stream or device sync, a pageable copy (staged by the host through a
//! pinned buffer, so the call returns only after the whole copy, in both directions, as measured
//! on the H200; only an upload of at most `pageable_async_h2d_max_bytes` returns once staged),
//! freeing pinned or device memory; what each call waits for is the rules table's `observed`
//! (`ordering::rules`, read by `sim/host_wait.rs`). The *device* (`sim/engines.rs`) runs copies on
//! an H2D and a D2H copy engine and kernels on a compute engine, with in-order streams and the
//! legacy default stream's barriers (`sim/scheduler.rs`), per-copy latency plus bytes over the
//! bandwidth of the host memory kind and direction (`sim/costs.rs`), and a fluid model of the
//! shared link when both directions run. Nothing reads the wall clock and nothing is random: the
//! same calls give the same ops and times, bit for bit.
//!
//! Buffers hold no bytes (`sim/contents.rs`): each holds a description of its contents (which
//! fill, then which copies, memsets and kernels), so copies move descriptions, a float is
//! computed only when the host reads it, and verification compares descriptions exactly. A run
//! needs kilobytes whatever its size. An op's effect on contents is applied when it ends on the
//! device (`sim/effects.rs`), so a race shows in the data as on a GPU.
//!
//! Events (`sim/events.rs`) are markers in their stream that take no device time: a record ends
//! when the work before it has, and a stream waiting on an event queues a marker that depends on
//! it.

use crate::gpu::profile::Profile;
use crate::gpu::{DeviceInfo, Gpu, GpuError, Recording};
use crate::report::{BackendInfo, BackendKind, HostMemKind, Op, TimingSource};

mod batch;
mod contents;
mod costs;
mod driver_impl;
mod effects;
mod engines;
mod events;
mod host_access;
mod host_clock;
mod host_wait;
mod issue;
mod launch;
mod memory;
mod pool;
mod query;
mod scheduler;
mod unified;

use contents::Contents;
use engines::Device;
use events::Events;
use host_clock::HostClock;
use pool::Pool;
use scheduler::Streams;

/// A host buffer: a description of its contents, its memory kind, whether its pages have been
/// touched.
#[derive(Debug)]
struct HostEntry {
    contents: Contents,
    kind: HostMemKind,
    touched: bool,
}

/// A simulated GPU and host on one virtual clock. See the module documentation.
#[derive(Debug)]
pub struct SimGpu {
    profile: Profile,
    info: DeviceInfo,
    clock: HostClock,
    device: Device,
    streams: Streams,
    events: Events,
    host: Pool<HostEntry>,
    dev: Pool<Contents>,
    /// Managed and mapped buffers (`sim/unified.rs`).
    unified: Pool<unified::UnifiedEntry>,
    recording: bool,
    /// The learner's line issuing ops now ([`Recording::set_source_line`]).
    source_line: Option<u32>,
    /// Effects on contents of ops not yet ended (`sim/effects.rs`).
    pending: std::collections::HashMap<engines::OpId, effects::Effect>,
}

impl SimGpu {
    /// A simulator for `profile` (validate it first: [`Profile::load`] and [`Profile::builtin`]
    /// do); `reason` says why it runs (e.g. "--backend sim", "no CUDA driver found").
    pub fn new(profile: Profile, reason: String) -> SimGpu {
        let info = DeviceInfo {
            backend: BackendInfo {
                kind: BackendKind::Simulated,
                device: profile.device_name.clone(),
                profile: Some(profile.name.clone()),
                reason: Some(reason),
                timing: TimingSource::Model,
            },
            name: profile.device_name.clone(),
            compute_capability: (profile.compute_capability[0], profile.compute_capability[1]),
            total_mem: profile.device_total_bytes,
            free_mem: profile.device_total_bytes,
            copy_engines: profile.copy_engines,
            machine: profile.machine.clone(),
            kernels_available: true,
            holds_host_bytes: false,
            simulated_host_bytes: Some(profile.host_total_bytes),
        };
        SimGpu {
            device: Device::new(
                profile.copy_engines,
                costs::bidirectional_bytes_per_us(&profile),
            )
            .with_copy_queues(profile.copy_engines_per_direction),
            host: Pool::per_buffer("host", profile.host_total_bytes),
            dev: Pool::new("device", profile.device_total_bytes),
            unified: Pool::per_buffer("managed or mapped", profile.host_total_bytes),
            profile,
            info,
            clock: HostClock::default(),
            streams: Streams::new(),
            events: Events::default(),
            recording: false,
            source_line: None,
            pending: std::collections::HashMap::new(),
        }
    }

    /// The profile the model runs on.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }
}

impl Gpu for SimGpu {
    fn info(&self) -> &DeviceInfo {
        &self.info
    }
}

/// The virtual host clock and the device ops recorded between begin and end.
impl Recording for SimGpu {
    fn host_now_us(&mut self) -> f64 {
        self.clock.since_origin()
    }
    fn host_busy_us(&mut self, us: f64) {
        self.clock.spend(us.max(0.0));
    }
    fn set_source_line(&mut self, line: Option<u32>) {
        self.source_line = line;
    }
    fn timeline_begin(&mut self) -> Result<(), GpuError> {
        self.clock.set_origin();
        self.recording = true;
        self.device.take_recorded();
        Ok(())
    }
    fn timeline_end(&mut self) -> Result<Vec<Op>, GpuError> {
        self.sync_device()?;
        self.recording = false;
        let origin = self.clock.origin();
        let mut ops = self.device.take_recorded();
        ops.sort_by(|a, b| a.1.start_us.total_cmp(&b.1.start_us).then(a.0.cmp(&b.0)));
        Ok(ops
            .into_iter()
            .map(|(_, mut op)| {
                op.start_us -= origin;
                op.end_us -= origin;
                op
            })
            .collect())
    }
}
