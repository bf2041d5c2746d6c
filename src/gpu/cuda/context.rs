//! Finding the driver and the device, and reading what the device is.
//!
//! cudarc loads libcuda lazily and **panics** if it is missing, so [`driver_present`] must be the
//! first thing anyone asks. After that every call returns a `Result`; a panic from a library
//! that lacks a symbol is caught by [`crate::gpu::detect::catch_quietly`] around every entry.
//! `cuInit` runs once per process, on its own thread with a time limit, so a hung driver is a
//! message rather than a hang.
#![allow(unsafe_code)]

use std::sync::Mutex;
use std::sync::mpsc;
use std::time::Duration;

use cudarc::driver::result;
use cudarc::driver::sys::{self, CUdevice, CUdevice_attribute};

use super::error::{check, map};
use crate::gpu::GpuError;

/// The reason used when libcuda cannot be loaded.
pub const NO_DRIVER_REASON: &str = "libcuda.so could not be loaded";

/// Set (to anything but empty or `0`) to act as if no driver were installed: for tests that must
/// exercise the no-driver paths on a machine that has one, and for users who want the simulator
/// without touching the driver at all.
pub const HIDE_DRIVER_ENV: &str = "CUDA_ACADEMY_HIDE_DRIVER";

/// Seconds `cuInit` may take before the driver is reported as not answering (default 30: a
/// cold start of many GPUs without persistence mode takes seconds, never this long).
pub const INIT_TIMEOUT_ENV: &str = "CUDA_ACADEMY_CUINIT_TIMEOUT_S";

/// Whether libcuda can be loaded. Safe to call anywhere, never panics.
pub fn driver_present() -> bool {
    if std::env::var_os(HIDE_DRIVER_ENV).is_some_and(|v| !v.is_empty() && v != "0") {
        return false;
    }
    // SAFETY: `is_culib_present` only tries `dlopen` on candidate names and drops what it opened;
    // it does not touch cudarc's loader state (cudarc PR #430).
    unsafe { sys::is_culib_present() }
}

/// What `cuInit` said, remembered for the process (it is a process-wide call).
#[derive(Debug, Clone)]
enum Init {
    Ready,
    NoDevice,
    Failed(GpuError),
}

static INIT: Mutex<Option<Init>> = Mutex::new(None);

/// `cuInit`, once, on a thread of its own; a driver that does not answer in time is an error
/// (the stuck thread is left behind, and no later call touches the driver).
fn init_once() -> Init {
    let mut slot = INIT.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(done) = &*slot {
        return done.clone();
    }
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("cuda-init".into())
        .spawn(move || {
            let outcome = crate::gpu::detect::catch_quietly(|| match result::init() {
                Ok(()) => Init::Ready,
                Err(e) if e.0 == sys::CUresult::CUDA_ERROR_NO_DEVICE => Init::NoDevice,
                Err(e) => Init::Failed(map("cuInit", e)),
            });
            let _ = tx.send(outcome.unwrap_or_else(Init::Failed));
        });
    let limit = init_timeout();
    let outcome = match spawned {
        Err(e) => Init::Failed(GpuError::Driver {
            call: "cuInit".into(),
            message: format!("cannot start a thread for it: {e}"),
        }),
        Ok(_) => rx.recv_timeout(limit).unwrap_or_else(|_| {
            Init::Failed(GpuError::Driver {
                call: "cuInit".into(),
                message: format!(
                    "the driver did not answer within {} s; check the GPU with `nvidia-smi`, \
                     or use --backend sim",
                    limit.as_secs_f64()
                ),
            })
        }),
    };
    *slot = Some(outcome.clone());
    outcome
}

fn init_timeout() -> Duration {
    std::env::var(INIT_TIMEOUT_ENV)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e6)
        .map_or(Duration::from_secs(30), Duration::from_secs_f64)
}

/// Whether `cuInit` has run and failed: later driver queries are skipped (a hung or stub driver
/// would only hang or fail again).
pub fn init_failed() -> bool {
    matches!(
        &*INIT.lock().unwrap_or_else(|p| p.into_inner()),
        Some(Init::Failed(_))
    )
}

/// `cuInit` and the device count, with errors a user can act on.
pub fn init_and_count() -> Result<u32, GpuError> {
    if !driver_present() {
        return Err(GpuError::NoDriver(NO_DRIVER_REASON.to_string()));
    }
    match init_once() {
        Init::Ready => {}
        Init::NoDevice => return Ok(0),
        Init::Failed(e) => return Err(e),
    }
    let count = result::device::get_count().map_err(|e| map("cuDeviceGetCount", e))?;
    Ok(u32::try_from(count).unwrap_or(0))
}

/// The device handle for `ordinal`, or [`GpuError::NoDevice`].
pub fn device(ordinal: u32) -> Result<CUdevice, GpuError> {
    let count = init_and_count()?;
    if ordinal >= count {
        return Err(GpuError::NoDevice { ordinal, count });
    }
    let ord = i32::try_from(ordinal).map_err(|_| GpuError::NoDevice { ordinal, count })?;
    result::device::get(ord).map_err(|e| map("cuDeviceGet", e))
}

/// What `info` shows about a device.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceProps {
    pub name: String,
    pub compute_capability: (u32, u32),
    pub total_mem: u64,
    pub copy_engines: u32,
    pub multiprocessors: u32,
    /// `dddd:bb:dd.f`, lowercase, as in `/sys/bus/pci/devices/`.
    pub pci_bus_id: Option<String>,
    /// e.g. 13000 for CUDA 13.0.
    pub driver_version: i32,
}

fn attr(dev: CUdevice, a: CUdevice_attribute) -> Result<u32, GpuError> {
    // SAFETY: `dev` came from `cuDeviceGet`; the attribute is a plain integer query.
    let v = unsafe { result::device::get_attribute(dev, a) }
        .map_err(|e| map("cuDeviceGetAttribute", e))?;
    Ok(u32::try_from(v).unwrap_or(0))
}

/// Read the device's properties (no context needed).
pub fn props(dev: CUdevice) -> Result<DeviceProps, GpuError> {
    let name = result::device::get_name(dev).map_err(|e| map("cuDeviceGetName", e))?;
    let major = attr(
        dev,
        CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
    )?;
    let minor = attr(
        dev,
        CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
    )?;
    // SAFETY: `dev` came from `cuDeviceGet`.
    let total =
        unsafe { result::device::total_mem(dev) }.map_err(|e| map("cuDeviceTotalMem", e))?;
    Ok(DeviceProps {
        name,
        compute_capability: (major, minor),
        total_mem: total as u64,
        copy_engines: attr(
            dev,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT,
        )?,
        multiprocessors: attr(
            dev,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
        )?,
        pci_bus_id: pci_bus_id(dev),
        driver_version: driver_version()?,
    })
}

/// `cuDriverGetVersion`: 1000 * major + 10 * minor.
pub fn driver_version() -> Result<i32, GpuError> {
    let mut v: std::ffi::c_int = 0;
    // SAFETY: writes one int through a valid pointer.
    check("cuDriverGetVersion", unsafe {
        sys::cuDriverGetVersion(&mut v)
    })?;
    Ok(v)
}

fn pci_bus_id(dev: CUdevice) -> Option<String> {
    let mut buf = [0u8; 32];
    // SAFETY: the driver writes at most `len` bytes, NUL-terminated, into `buf`.
    let rc = unsafe { sys::cuDeviceGetPCIBusId(buf.as_mut_ptr().cast(), buf.len() as _, dev) };
    rc.result().ok()?;
    let s = std::ffi::CStr::from_bytes_until_nul(&buf).ok()?;
    Some(s.to_string_lossy().to_lowercase())
}

/// Free and total device memory of the current context (`cuMemGetInfo`).
pub fn mem_info() -> Result<(u64, u64), GpuError> {
    let (free, total) = result::mem_get_info().map_err(|e| map("cuMemGetInfo", e))?;
    Ok((free as u64, total as u64))
}

/// `cuCtxSynchronize` on the current context.
pub fn synchronize() -> Result<(), GpuError> {
    // SAFETY: no arguments; acts on the current context.
    check("cuCtxSynchronize", unsafe { sys::cuCtxSynchronize() })
}
