//! The simulated backend: a deterministic discrete-event model of a GPU, calibrated by a
//! [`Profile`].
//!
//! Skeleton: the public API is final; the model is being filled in.

use crate::gpu::profile::Profile;
use crate::gpu::{DevBuf, DeviceInfo, Gpu, GpuError, HostBuf, Kernel, StreamId, StreamKind};
use crate::report::{BackendInfo, BackendKind, HostMemKind, Op, TimingSource};

/// A simulated GPU and host on one virtual clock.
#[derive(Debug)]
pub struct SimGpu {
    profile: Profile,
    info: DeviceInfo,
    move_data: bool,
}

impl SimGpu {
    /// A simulator for `profile`; `reason` says why it runs (e.g. "--backend sim").
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
            profile,
            info,
            move_data: true,
        }
    }

    /// Whether copies and kernels move real bytes (default `true`). With `false` the timing is
    /// identical but nothing is copied or computed, and every byte they would have written is
    /// marked stale: reading it with [`Gpu::host_read_f32`] is an error until it is written again
    /// with data on. `host_fill` always writes real data.
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

fn todo() -> GpuError {
    GpuError::Invalid("the simulator is not written yet".to_string())
}

impl Gpu for SimGpu {
    fn info(&self) -> &DeviceInfo {
        &self.info
    }
    fn host_alloc(&mut self, _bytes: u64, _kind: HostMemKind) -> Result<HostBuf, GpuError> {
        Err(todo())
    }
    fn host_free(&mut self, _buf: HostBuf) -> Result<(), GpuError> {
        Err(todo())
    }
    fn host_touch(&mut self, _buf: HostBuf) -> Result<(), GpuError> {
        Err(todo())
    }
    fn host_register(&mut self, _buf: HostBuf) -> Result<(), GpuError> {
        Err(todo())
    }
    fn host_unregister(&mut self, _buf: HostBuf) -> Result<(), GpuError> {
        Err(todo())
    }
    fn host_fill(&mut self, _buf: HostBuf, _seed: u32) -> Result<(), GpuError> {
        Err(todo())
    }
    fn host_read_f32(&mut self, _buf: HostBuf, _index: u64) -> Result<f32, GpuError> {
        Err(todo())
    }
    fn device_alloc(&mut self, _bytes: u64) -> Result<DevBuf, GpuError> {
        Err(todo())
    }
    fn device_free(&mut self, _buf: DevBuf) -> Result<(), GpuError> {
        Err(todo())
    }
    fn stream_create(&mut self, _kind: StreamKind) -> Result<StreamId, GpuError> {
        Err(todo())
    }
    fn stream_destroy(&mut self, _stream: StreamId) -> Result<(), GpuError> {
        Err(todo())
    }
    fn copy_h2d_async(
        &mut self,
        _stream: StreamId,
        _dst: DevBuf,
        _dst_off: u64,
        _src: HostBuf,
        _src_off: u64,
        _bytes: u64,
    ) -> Result<(), GpuError> {
        Err(todo())
    }
    fn copy_d2h_async(
        &mut self,
        _stream: StreamId,
        _dst: HostBuf,
        _dst_off: u64,
        _src: DevBuf,
        _src_off: u64,
        _bytes: u64,
    ) -> Result<(), GpuError> {
        Err(todo())
    }
    fn launch(
        &mut self,
        _stream: StreamId,
        _kernel: Kernel,
        _buf: DevBuf,
        _off: u64,
        _bytes: u64,
    ) -> Result<(), GpuError> {
        Err(todo())
    }
    fn stream_sync(&mut self, _stream: StreamId) -> Result<(), GpuError> {
        Err(todo())
    }
    fn device_sync(&mut self) -> Result<(), GpuError> {
        Err(todo())
    }
    fn host_now_us(&mut self) -> f64 {
        0.0
    }
    fn timeline_begin(&mut self) -> Result<(), GpuError> {
        Err(todo())
    }
    fn timeline_end(&mut self) -> Result<Vec<Op>, GpuError> {
        Err(todo())
    }
}
