//! The real-GPU backend: [`Gpu`](crate::gpu::Gpu) through raw CUDA driver calls (cudarc's `sys`/`result` level).
//!
//! Why raw calls: cudarc's safe API tracks an event per device buffer and makes streams wait on
//! each other through them (views share their parent's events), and a `PinnedHostSlice` has one
//! event, so streams sharing it serialise. Either would hide the overlap the lessons measure, so
//! every copy, launch, stream and event here is the plain driver call, synchronised by hand.
//!
//! Threads: the backend is `Send` and binds its context (`cuCtxSetCurrent`) at the start of every
//! call, so it may be created on one thread and used on a worker thread (one thread at a time,
//! which `&mut self` guarantees). It uses the device's primary context, whose null stream is the
//! *legacy* default stream: we call the non-`_ptsz` driver entry points, so stream 0 synchronises
//! with every blocking stream, as lesson 3 teaches.
#![allow(unsafe_code)]

use std::collections::HashMap;

use cudarc::driver::sys::{self, CUcontext, CUdevice, CUevent, CUstream};

use crate::gpu::{DevBuf, DeviceInfo, GpuError, HostBuf, Kernel, StreamId};
use crate::report::{BackendInfo, BackendKind, OpKind, TimingSource};

mod batch;
pub mod context;
pub mod cupti;
pub mod error;
mod events;
mod gpu_impl;
mod host_access;
pub mod init;
pub mod kernels;
pub mod memory;
mod ops;
pub mod pcie;
pub mod symbols;
pub mod timeline;
mod unified;

use context::DeviceProps;
use error::{Poison, check};
use memory::{DevAlloc, HostAlloc};
use timeline::Recorder;

/// A CUDA device opened for experiments. Everything it allocates is freed on drop.
pub struct CudaGpu {
    info: DeviceInfo,
    props: DeviceProps,
    device: CUdevice,
    ctx: CUcontext,
    host: HashMap<u32, HostAlloc>,
    dev: HashMap<u32, DevAlloc>,
    /// Managed and mapped buffers (the `alternatives` experiment).
    unified: HashMap<u32, unified::UnifiedAlloc>,
    streams: HashMap<u32, CUstream>,
    /// The program's own events (`Driver::event_create`).
    events: HashMap<u32, CUevent>,
    next_id: u32,
    kernels: Result<kernels::Loaded, String>,
    recorder: Recorder,
    /// Tiny buffers for the ops that let CUPTI set itself up before a timeline's origin.
    warm: Option<(HostAlloc, DevAlloc)>,
    poison: Poison,
}

// SAFETY: the raw pointers are a CUDA context, streams, a module and host allocations owned
// exclusively by this value. The driver API may be called from any thread; every method first
// makes the context current on the calling thread, and `&mut self` keeps calls on one thread at
// a time.
unsafe impl Send for CudaGpu {}

impl std::fmt::Debug for CudaGpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaGpu").field("info", &self.info).finish()
    }
}

impl CudaGpu {
    /// Open device `ordinal`: probe the driver (never panics when it is missing), retain the
    /// primary context, compile and warm up the kernels, and probe CUPTI.
    pub fn open(ordinal: u32) -> Result<CudaGpu, GpuError> {
        let device = context::device(ordinal)?;
        // Before anything is retained: a driver lacking a call made later (clean-up included)
        // is refused here, with the names, instead of panicking in the middle (review DR4).
        symbols::require_backend()?;
        let props = context::props(device)?;
        // SAFETY: `device` came from `cuDeviceGet`; released in Drop.
        let ctx = unsafe { cudarc::driver::result::primary_ctx::retain(device) }
            .map_err(|e| error::map("cuDevicePrimaryCtxRetain", e))?;
        let cupti_unavailable = cupti::available().err();
        let timing = if cupti_unavailable.is_none() {
            TimingSource::Cupti
        } else {
            TimingSource::Events
        };
        let mut gpu = CudaGpu {
            info: DeviceInfo {
                backend: BackendInfo {
                    kind: BackendKind::Cuda,
                    device: props.name.clone(),
                    profile: None,
                    reason: None,
                    timing,
                },
                name: props.name.clone(),
                compute_capability: props.compute_capability,
                total_mem: props.total_mem,
                free_mem: 0,
                copy_engines: props.copy_engines,
                machine: props.machine.clone(),
                kernels_available: false,
                holds_host_bytes: true,
                simulated_host_bytes: None,
            },
            props,
            device,
            ctx,
            host: HashMap::new(),
            dev: HashMap::new(),
            unified: HashMap::new(),
            streams: HashMap::new(),
            events: HashMap::new(),
            next_id: 1,
            kernels: Err("not loaded yet".into()),
            recorder: Recorder::new(cupti_unavailable),
            warm: None,
            poison: Poison::default(),
        };
        gpu.bind()?;
        gpu.info.free_mem = context::mem_info()?.0;
        gpu.kernels = gpu.load_kernels();
        gpu.info.kernels_available = gpu.kernels.is_ok();
        Ok(gpu)
    }

    /// Compile (once per process), load and warm up the kernels: modules load lazily on first
    /// launch, so one launch of each happens here, before anything is timed.
    fn load_kernels(&mut self) -> Result<kernels::Loaded, String> {
        let image = kernels::image_for(self.props.compute_capability)?;
        let loaded = kernels::Loaded::load(&image, self.props.multiprocessors)
            .map_err(|e| format!("loading the {} kernels failed: {e}", image.format))?;
        let buf = DevAlloc::new(4096).map_err(|e| e.to_string())?;
        let null = std::ptr::null_mut();
        loaded
            .launch(null, Kernel::Transform { a: 1.0, b: 0.0 }, buf.ptr, 1024)
            .and_then(|()| loaded.launch(null, Kernel::Spin { iterations: 1 }, buf.ptr, 1024))
            .and_then(|()| context::synchronize())
            .map_err(|e| format!("warm-up launch failed: {e}"))?;
        Ok(loaded)
    }

    /// Set why this backend runs (shown by `info` and in reports).
    pub fn set_reason(&mut self, reason: String) {
        self.info.backend.reason = Some(reason);
    }

    /// The device's properties (PCI bus id, driver version, SM count, ...).
    pub fn props(&self) -> &DeviceProps {
        &self.props
    }

    /// How the kernels were built (`cubin sm_90`, ...), or why they are unavailable.
    pub fn kernel_status(&self) -> Result<&str, &str> {
        match &self.kernels {
            Ok(k) => Ok(&k.format),
            Err(e) => Err(e),
        }
    }

    /// Why CUPTI is not used (timing falls back to events), if it is not.
    pub fn cupti_status(&self) -> Option<&str> {
        self.recorder.cupti_unavailable.as_deref()
    }

    /// Whether a sticky error has made the context unusable.
    pub fn is_poisoned(&self) -> bool {
        self.poison.is_poisoned()
    }

    /// Refuse work on a poisoned context, then make the context current on this thread.
    fn bind(&self) -> Result<(), GpuError> {
        self.poison.check()?;
        // SAFETY: `self.ctx` is the retained primary context, alive until Drop.
        check("cuCtxSetCurrent", unsafe { sys::cuCtxSetCurrent(self.ctx) })
    }

    fn stream(&self, id: StreamId) -> Result<CUstream, GpuError> {
        if id == StreamId::LEGACY_DEFAULT {
            return Ok(std::ptr::null_mut());
        }
        self.streams
            .get(&id.0)
            .copied()
            .ok_or_else(|| GpuError::Invalid(format!("unknown stream {}", id.0)))
    }

    fn new_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        id
    }

    fn host_buf(&mut self, buf: HostBuf) -> Result<&mut HostAlloc, GpuError> {
        self.host
            .get_mut(&buf.0)
            .ok_or_else(|| GpuError::Invalid(format!("unknown host buffer {}", buf.0)))
    }

    fn dev_buf(&self, buf: DevBuf) -> Result<&DevAlloc, GpuError> {
        self.dev
            .get(&buf.0)
            .ok_or_else(|| GpuError::Invalid(format!("unknown device buffer {}", buf.0)))
    }

    /// Run `f` with the context bound, remembering sticky errors.
    fn with<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, GpuError>) -> Result<T, GpuError> {
        let r = self.bind().and_then(|()| f(self));
        self.poison.track(r)
    }

    fn record(&mut self, stream: CUstream, op: timeline::Issued) -> Result<(), GpuError> {
        self.recorder.push(stream, op)
    }
}

impl Drop for CudaGpu {
    fn drop(&mut self) {
        // Errors are ignored in Drop (a poisoned context fails these calls, and there is nothing
        // better to do then); each call is made only when the driver exports it, so a partial
        // library can never panic here, where a panic during unwinding would abort.
        let ctx = self.ctx;
        // SAFETY: the context is alive until released below.
        symbols::cleanup(c"cuCtxSetCurrent", || unsafe { sys::cuCtxSetCurrent(ctx) });
        // SAFETY: no arguments; acts on the context just made current.
        symbols::cleanup(c"cuCtxSynchronize", || unsafe { sys::cuCtxSynchronize() });
        self.host.clear();
        self.dev.clear();
        self.unified.clear();
        self.warm = None;
        for (_, e) in self.events.drain() {
            // SAFETY: created by `cuEventCreate`, destroyed once.
            symbols::cleanup(c"cuEventDestroy_v2", || unsafe {
                sys::cuEventDestroy_v2(e)
            });
        }
        for (_, s) in self.streams.drain() {
            // SAFETY: created by `cuStreamCreate`, destroyed once.
            symbols::cleanup(c"cuStreamDestroy_v2", || unsafe {
                sys::cuStreamDestroy_v2(s)
            });
        }
        self.kernels = Err("dropped".into());
        self.recorder.destroy();
        let device = self.device;
        // SAFETY: retained in `open`, released once.
        symbols::cleanup(c"cuDevicePrimaryCtxRelease_v2", || unsafe {
            sys::cuDevicePrimaryCtxRelease_v2(device)
        });
    }
}

fn op_label(kind: OpKind, kernel: Option<Kernel>) -> &'static str {
    match (kind, kernel) {
        (OpKind::H2d, _) => "H2D",
        (OpKind::D2h, _) => "D2H",
        (_, Some(Kernel::Transform { .. })) => "transform",
        (_, Some(Kernel::Spin { .. })) => "spin",
        _ => "op",
    }
}
