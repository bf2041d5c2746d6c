//! The simulated backend: a deterministic discrete-event model of a GPU and its host, calibrated
//! by a [`Profile`].
//!
//! Two clocks, one time line. The *host clock* (`sim/host_clock.rs`) advances by each API
//! call's cost from the profile (an async copy call, a launch, an allocation) and jumps forward
//! when a call blocks: a stream or device sync, a pageable copy (staged by the host through a
//! pinned buffer, so the call returns only after the whole copy, in both directions, as measured
//! on the H200; only an upload of at most `pageable_async_h2d_max_bytes` returns once staged),
//! freeing pinned or device memory. The *device* (`sim/engines.rs`) runs copies on
//! an H2D and a D2H copy engine and kernels on a compute engine, with in-order streams and the
//! legacy default stream's barriers (`sim/scheduler.rs`), per-copy latency plus bytes over the
//! bandwidth of the host memory kind and direction (`sim/costs.rs`), and a fluid model of the
//! shared link when both directions run. Nothing reads the wall clock and nothing is random: the
//! same calls give the same ops and times, bit for bit.
//!
//! Buffers hold real bytes (`sim/buffers.rs`): copies copy, `Transform` computes `x * a + b`
//! (recorded at launch, applied on read, bit-identical to computing at once), so the experiments
//! verify their results exactly as on the GPU. Data is applied when an op is issued, which
//! equals device order for every program without races. For long sweeps, turn data movement off
//! with [`SimGpu::set_move_data`]: timing is unchanged and reading what was not really written is
//! an error, never a wrong value.

use crate::gpu::profile::Profile;
use crate::gpu::{DevBuf, DeviceInfo, Gpu, GpuError, HostBuf, Kernel, StreamId, StreamKind};
use crate::report::{BackendInfo, BackendKind, HostMemKind, Op, TimingSource};

mod affine;
mod buffers;
mod costs;
mod engines;
mod host_clock;
mod issue;
mod memory;
mod pool;
mod ranges;
mod scheduler;

use buffers::Bytes;
use engines::Device;
use host_clock::HostClock;
use pool::Pool;
use scheduler::Streams;

/// A host buffer: its bytes, its memory kind, whether its pages have been touched.
#[derive(Debug)]
struct HostEntry {
    bytes: Bytes,
    kind: HostMemKind,
    touched: bool,
}

/// A simulated GPU and host on one virtual clock. See the module documentation.
#[derive(Debug)]
pub struct SimGpu {
    profile: Profile,
    info: DeviceInfo,
    move_data: bool,
    clock: HostClock,
    device: Device,
    streams: Streams,
    host: Pool<HostEntry>,
    dev: Pool<Bytes>,
    recording: bool,
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
            kernels_available: true,
        };
        SimGpu {
            device: Device::new(
                profile.copy_engines,
                costs::bidirectional_bytes_per_us(&profile),
            ),
            host: Pool::new("host", profile.host_total_bytes),
            dev: Pool::new("device", profile.device_total_bytes),
            profile,
            info,
            move_data: true,
            clock: HostClock::default(),
            streams: Streams::new(),
            recording: false,
        }
    }

    /// Whether copies and kernels move real bytes (default `true`).
    ///
    /// With `false`, every call costs exactly the same simulated time, but nothing is copied or
    /// computed: the bytes a copy or kernel would have written are marked stale, and
    /// [`Gpu::host_read_f32`] of a stale value returns [`GpuError::Invalid`] until it is written
    /// again with data on. [`Gpu::host_fill`] always writes real data. Use it to time a sweep
    /// cheaply, then run the configuration you verify with data on (after a fresh `host_fill`).
    pub fn set_move_data(&mut self, on: bool) {
        self.move_data = on;
    }

    /// See [`SimGpu::set_move_data`].
    pub fn move_data(&self) -> bool {
        self.move_data
    }

    /// The profile the model runs on.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }
}

/// The simulator's side of the contract. Every call costs host time from the profile; calls
/// naming a stream queue device work. [`Gpu::set_move_data`] is honoured (see
/// [`SimGpu::set_move_data`]): with it off, timing is unchanged, nothing is copied, and reading
/// a value that was not really written is a [`GpuError::Invalid`], never a wrong number.
impl Gpu for SimGpu {
    fn info(&self) -> &DeviceInfo {
        &self.info
    }
    fn set_move_data(&mut self, on: bool) {
        SimGpu::set_move_data(self, on);
    }
    fn host_alloc(&mut self, bytes: u64, kind: HostMemKind) -> Result<HostBuf, GpuError> {
        self.alloc_host(bytes, kind)
    }
    fn host_free(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.free_host(buf)
    }
    fn host_touch(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.touch_host(buf)
    }
    fn host_register(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.register_host(buf)
    }
    fn host_unregister(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.unregister_host(buf)
    }
    fn host_fill(&mut self, buf: HostBuf, seed: u32) -> Result<(), GpuError> {
        self.fill_host(buf, seed)
    }
    fn host_read_f32(&mut self, buf: HostBuf, index: u64) -> Result<f32, GpuError> {
        self.host.get(buf.0)?.bytes.read_f32(index)
    }
    fn device_alloc(&mut self, bytes: u64) -> Result<DevBuf, GpuError> {
        self.alloc_device(bytes)
    }
    fn device_free(&mut self, buf: DevBuf) -> Result<(), GpuError> {
        self.free_device(buf)
    }
    fn stream_create(&mut self, kind: StreamKind) -> Result<StreamId, GpuError> {
        self.clock.spend(self.profile.api_call_us);
        Ok(self.streams.create(kind))
    }
    fn stream_destroy(&mut self, stream: StreamId) -> Result<(), GpuError> {
        self.clock.spend(self.profile.api_call_us);
        self.streams.destroy(stream)
    }
    fn copy_h2d_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.h2d(stream, dst, dst_off, src, src_off, bytes)
    }
    fn copy_d2h_async(
        &mut self,
        stream: StreamId,
        dst: HostBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.d2h(stream, dst, dst_off, src, src_off, bytes)
    }
    fn launch(
        &mut self,
        stream: StreamId,
        kernel: Kernel,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.launch_kernel(stream, kernel, buf, off, bytes)
    }
    fn stream_sync(&mut self, stream: StreamId) -> Result<(), GpuError> {
        self.sync_stream(stream)
    }
    fn device_sync(&mut self) -> Result<(), GpuError> {
        self.sync_device()
    }
    fn host_now_us(&mut self) -> f64 {
        self.clock.since_origin()
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
