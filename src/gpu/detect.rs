//! Choosing the backend: the real GPU when it works, else the calibrated simulator, always with
//! the reason. Nothing here panics when the driver, the device, NVRTC or CUPTI is missing.

use crate::cli::BackendChoice;
use crate::gpu::cuda::{CudaGpu, context, cupti, kernels};
use crate::gpu::sim::SimGpu;
use crate::gpu::{Gpu, GpuError};
use crate::report::BackendKind;

/// What is available on this machine, and which backend `--backend auto` would run.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BackendStatus {
    /// libcuda loads.
    pub driver: bool,
    /// `cuDriverGetVersion`, e.g. 13000.
    pub driver_version: Option<i32>,
    /// CUDA devices found (0 without a driver).
    pub devices: u32,
    /// libnvrtc loads.
    pub nvrtc: bool,
    /// libcupti loads and its activity API registers.
    pub cupti: bool,
    /// Why CUPTI is unusable, if it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cupti_reason: Option<String>,
    /// The backend `auto` picks: `cuda` or `simulated`.
    pub chosen: BackendKind,
    /// Why.
    pub reason: String,
}

/// Probe the machine without opening a context (cheap enough for a status bar).
pub fn probe() -> BackendStatus {
    probe_device(0)
}

/// As [`probe`], for device `ordinal`.
pub fn probe_device(ordinal: u32) -> BackendStatus {
    let driver = context::driver_present();
    let count = if driver {
        context::init_and_count()
    } else {
        Ok(0)
    };
    let devices = *count.as_ref().unwrap_or(&0);
    let driver_version = if driver {
        context::driver_version().ok()
    } else {
        None
    };
    let cupti_reason = if driver {
        cupti::available().err()
    } else {
        None
    };
    let (chosen, reason) = match (&count, driver) {
        (_, false) => (BackendKind::Simulated, no_driver_reason()),
        (Err(e), true) => (BackendKind::Simulated, e.to_string()),
        (Ok(n), true) if ordinal >= *n => (
            BackendKind::Simulated,
            GpuError::NoDevice { ordinal, count: *n }.to_string(),
        ),
        (Ok(_), true) => (BackendKind::Cuda, format!("CUDA device {ordinal} found")),
    };
    BackendStatus {
        driver,
        driver_version,
        devices,
        nvrtc: kernels::nvrtc_present(),
        cupti: driver && cupti_reason.is_none(),
        cupti_reason: if driver {
            cupti_reason
        } else {
            Some("no CUDA driver".into())
        },
        chosen,
        reason,
    }
}

fn no_driver_reason() -> String {
    format!("no CUDA driver found ({})", context::NO_DRIVER_REASON)
}

/// Open the backend `choice` asks for. `Gpu` fails with the reason when no GPU works; `Auto`
/// falls back to the simulator and records why in its [`crate::report::BackendInfo`].
pub fn open(choice: BackendChoice, device: u32) -> Result<Box<dyn Gpu + Send>, GpuError> {
    match choice {
        BackendChoice::Gpu => {
            let mut g = open_cuda(device)?;
            g.set_reason("--backend gpu".into());
            Ok(Box::new(g))
        }
        BackendChoice::Sim => open_sim("--backend sim".into()),
        BackendChoice::Auto => match open_cuda(device) {
            Ok(mut g) => {
                g.set_reason(format!("CUDA device {device} found (--backend auto)"));
                Ok(Box::new(g))
            }
            Err(e) => open_sim(format!("no usable GPU: {e}")),
        },
    }
}

/// Open the real GPU. A panic inside the CUDA libraries (a driver missing a symbol cudarc
/// expects) becomes an error rather than taking the program down.
pub fn open_cuda(device: u32) -> Result<CudaGpu, GpuError> {
    match std::panic::catch_unwind(|| CudaGpu::open(device)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a CUDA library panicked".into());
            Err(GpuError::Driver {
                call: "opening the CUDA device".into(),
                message: msg,
            })
        }
    }
}

/// The simulator with the active profile (`--profile FILE`, else the built-in H200 one),
/// labelled with `reason`.
pub fn open_sim(reason: String) -> Result<Box<dyn Gpu + Send>, GpuError> {
    let profile = crate::gpu::profile::active()
        .map_err(|e| GpuError::Invalid(format!("the simulator profile is unusable: {e}")))?;
    Ok(Box::new(SimGpu::new(profile, reason)))
}

/// The backend `choice` would give, when that is known without initialising CUDA (which can
/// take a second): with `--backend sim`, or when no driver is installed. `None` when only
/// opening the GPU can tell. The TUI uses it so that its first frame already names the backend.
pub fn known_without_init(
    choice: BackendChoice,
    device: u32,
) -> Option<Result<crate::gpu::DeviceInfo, String>> {
    if choice == BackendChoice::Sim || !context::driver_present() {
        let opened = open(choice, device);
        return Some(opened.map(|g| g.info().clone()).map_err(|e| e.to_string()));
    }
    None
}
