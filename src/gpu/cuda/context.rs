//! Finding the driver and the device, and reading what the device is.
//!
//! cudarc loads libcuda lazily and **panics** if it is missing, so [`driver_present`] must be the
//! first thing anyone asks. After that every call returns a `Result`: [`init_and_count`] refuses
//! a library that lacks a call of the probe (`super::symbols`) before making one after `cuInit`, and
//! [`crate::gpu::quiet::catch_quietly`] around every entry remains the last guard. Values no
//! device has (review DR2) are refused ([`absurd`]).
//! `cuInit` runs once per process with a time limit, first in a child process (see
//! [`super::init`]), so a hung or crashing driver is a message rather than a hang or a crash.
#![allow(unsafe_code)]

use cudarc::driver::result;
use cudarc::driver::sys::{self, CUdevice, CUdevice_attribute};

use super::error::{check, map};
pub use super::init::{INIT_TIMEOUT_ENV, init_failed};
use super::init::{Init, init_once};
use crate::gpu::GpuError;
use crate::gpu::machine::{Addressing, DriverModel, MachineFacts};

/// The reason used when libcuda cannot be loaded.
pub const NO_DRIVER_REASON: &str = "libcuda.so could not be loaded";

/// Set (to anything but empty or `0`) to act as if no driver were installed: for tests that must
/// exercise the no-driver paths on a machine that has one, and for users who want the simulator
/// without touching the driver at all.
pub const HIDE_DRIVER_ENV: &str = "CUDA_ACADEMY_HIDE_DRIVER";

/// Whether libcuda can be loaded. Safe to call anywhere, never panics.
pub fn driver_present() -> bool {
    if std::env::var_os(HIDE_DRIVER_ENV).is_some_and(|v| !v.is_empty() && v != "0") {
        return false;
    }
    // SAFETY: `is_culib_present` only tries `dlopen` on candidate names and drops what it opened;
    // it does not touch cudarc's loader state (cudarc PR #430).
    unsafe { sys::is_culib_present() }
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
    // A library lacking a call of the probe is refused by name here, before any is made (after
    // `cuInit`, whose own failures, a stub's or a hang, say more than a missing name).
    super::symbols::require(super::symbols::PROBE)?;
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
    /// Addressing mode, registered-pointer use, integration, driver model (no link: `info`
    /// reads that from sysfs).
    pub machine: MachineFacts,
}

/// A value no working device or driver reports (every attribute -1, no memory, no
/// multiprocessor): the library is broken or not NVIDIA's, so the device is not used (review
/// DR2: `auto` picked such a device over the simulator, and every run then failed).
pub fn absurd(call: &str, what: &str, value: impl std::fmt::Display) -> GpuError {
    GpuError::Driver {
        call: call.to_string(),
        message: format!(
            "the driver reported {what} {value}, which no working device has (the CUDA driver \
             library is broken or not NVIDIA's); reinstall the NVIDIA driver, or use --backend \
             sim"
        ),
    }
}

/// An integer attribute; one outside `min..` is [`absurd`] (`what` names it).
fn attr(dev: CUdevice, a: CUdevice_attribute, what: &str, min: u32) -> Result<u32, GpuError> {
    // SAFETY: `dev` came from `cuDeviceGet`; the attribute is a plain integer query.
    let v = unsafe { result::device::get_attribute(dev, a) }
        .map_err(|e| map("cuDeviceGetAttribute", e))?;
    match u32::try_from(v) {
        Ok(v) if v >= min => Ok(v),
        _ => Err(absurd("cuDeviceGetAttribute", what, v)),
    }
}

/// Read the device's properties (no context needed), refusing values no device has.
pub fn props(dev: CUdevice) -> Result<DeviceProps, GpuError> {
    use CUdevice_attribute as A;
    let name = result::device::get_name(dev).map_err(|e| map("cuDeviceGetName", e))?;
    let major = attr(
        dev,
        A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
        "a compute capability major version of",
        1,
    )?;
    let minor = attr(
        dev,
        A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
        "a compute capability minor version of",
        0,
    )?;
    // SAFETY: `dev` came from `cuDeviceGet`.
    let total =
        unsafe { result::device::total_mem(dev) }.map_err(|e| map("cuDeviceTotalMem", e))?;
    if total == 0 {
        return Err(absurd("cuDeviceTotalMem", "a total memory of", "0 bytes"));
    }
    Ok(DeviceProps {
        name,
        compute_capability: (major, minor),
        total_mem: total as u64,
        // 0 is a real answer (a device that cannot copy while it computes).
        copy_engines: attr(
            dev,
            A::CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT,
            "a copy engine count of",
            0,
        )?,
        multiprocessors: attr(
            dev,
            A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            "a multiprocessor count of",
            1,
        )?,
        pci_bus_id: pci_bus_id(dev),
        driver_version: driver_version()?,
        machine: machine_facts(dev),
    })
}

/// A yes/no attribute; `None` when the driver does not answer (an older driver that lacks it).
fn flag(dev: CUdevice, a: CUdevice_attribute) -> Option<bool> {
    // SAFETY: `dev` came from `cuDeviceGet`; the attribute is a plain integer query.
    unsafe { result::device::get_attribute(dev, a) }
        .ok()
        .map(|v| v != 0)
}

/// The facts `info` and the lessons' "where the rules change" need.
fn machine_facts(dev: CUdevice) -> MachineFacts {
    use CUdevice_attribute as A;
    let pageable = flag(dev, A::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS);
    let host_tables = flag(
        dev,
        A::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES,
    );
    MachineFacts {
        addressing: pageable.map(|p| Addressing::from_attributes(p, host_tables == Some(true))),
        can_use_host_pointer_for_registered_mem: flag(
            dev,
            A::CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM,
        ),
        concurrent_managed_access: flag(dev, A::CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS),
        integrated: flag(dev, A::CU_DEVICE_ATTRIBUTE_INTEGRATED),
        driver_model: flag(dev, A::CU_DEVICE_ATTRIBUTE_TCC_DRIVER)
            .map(DriverModel::of_this_platform),
        host_link: None,
    }
}

/// `cuDriverGetVersion`: 1000 * major + 10 * minor; one below 1.0 is [`absurd`].
pub fn driver_version() -> Result<i32, GpuError> {
    let mut v: std::ffi::c_int = 0;
    // SAFETY: writes one int through a valid pointer.
    check("cuDriverGetVersion", unsafe {
        sys::cuDriverGetVersion(&mut v)
    })?;
    if v < 1000 {
        return Err(absurd("cuDriverGetVersion", "the CUDA version", v));
    }
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

/// Free and total device memory of the current context (`cuMemGetInfo`); no memory, or more
/// free than there is, is [`absurd`].
pub fn mem_info() -> Result<(u64, u64), GpuError> {
    let (free, total) = result::mem_get_info().map_err(|e| map("cuMemGetInfo", e))?;
    let (free, total) = (free as u64, total as u64);
    if total == 0 || free > total {
        return Err(absurd(
            "cuMemGetInfo",
            "memory of",
            format!("{free} bytes free of {total}"),
        ));
    }
    Ok((free, total))
}

/// `cuCtxSynchronize` on the current context.
pub fn synchronize() -> Result<(), GpuError> {
    // SAFETY: no arguments; acts on the current context.
    check("cuCtxSynchronize", unsafe { sys::cuCtxSynchronize() })
}
