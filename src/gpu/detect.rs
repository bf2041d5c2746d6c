//! Choosing the backend: the real GPU when it works, else the calibrated simulator, always with
//! the reason. Nothing here panics when the driver, the device, NVRTC or CUPTI is missing.

use crate::gpu::cuda::{CudaGpu, context, cupti, kernels};
use crate::gpu::profile::{self, Profile};
use crate::gpu::sim::SimGpu;
use crate::gpu::{Gpu, GpuError};
use crate::report::BackendKind;

/// Which backend runs experiments: `gpu` the real GPU (through cudarc), `sim` the calibrated
/// simulator, `auto` the GPU when one works, else the simulator (and it says why). The command
/// line reads it as `--backend`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendChoice {
    Auto,
    Gpu,
    Sim,
}

/// Which backend to open and with what: the `--backend` choice, the CUDA device and the
/// simulator's profile. Built once from the command line and passed down to whatever opens a
/// backend (the CLI commands, the TUI's worker, exercise checks), so nothing reads a global.
#[derive(Debug, Clone, PartialEq)]
pub struct BackendSpec {
    /// `--backend`.
    pub choice: BackendChoice,
    /// `--device`: the CUDA device ordinal.
    pub device: u32,
    /// `--profile FILE`, loaded; `None` runs the simulator on the built-in H200 profile.
    pub profile: Option<Profile>,
}

impl BackendSpec {
    /// `choice` on `device`, the simulator with the built-in profile.
    pub fn new(choice: BackendChoice, device: u32) -> BackendSpec {
        BackendSpec {
            choice,
            device,
            profile: None,
        }
    }

    /// The same, with the simulator on `profile` (`None`: the built-in one).
    pub fn with_profile(self, profile: Option<Profile>) -> BackendSpec {
        BackendSpec { profile, ..self }
    }
}

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

/// As [`probe`], for device `ordinal`. A driver library that panics (lacks a symbol cudarc
/// binds) or hangs in `cuInit` makes the simulator the choice, with the reason.
pub fn probe_device(ordinal: u32) -> BackendStatus {
    let driver = context::driver_present();
    let count = if driver {
        catch_quietly(context::init_and_count).and_then(|r| r)
    } else {
        Ok(0)
    };
    let devices = *count.as_ref().unwrap_or(&0);
    // After a failed cuInit, other queries would only fail (or hang) again.
    let usable = driver && count.is_ok();
    let driver_version = if usable {
        catch_quietly(context::driver_version).and_then(|r| r).ok()
    } else {
        None
    };
    let cupti_reason = if usable {
        catch_quietly(cupti::available)
            .unwrap_or_else(|e| Err(e.to_string()))
            .err()
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
        cupti: usable && cupti_reason.is_none(),
        cupti_reason: match (driver, usable) {
            (_, true) => cupti_reason,
            (true, false) => Some("the CUDA driver is not usable".into()),
            (false, _) => Some("no CUDA driver".into()),
        },
        chosen,
        reason,
    }
}

fn no_driver_reason() -> String {
    format!("no CUDA driver found ({})", context::NO_DRIVER_REASON)
}

/// How the reason of an `auto` backend that fell back to the simulator begins.
pub const NO_USABLE_GPU: &str = "no usable GPU";

/// Open the backend `spec` asks for. `Gpu` fails with the reason when no GPU works; `Auto`
/// falls back to the simulator and records why in its [`crate::report::BackendInfo`].
pub fn open(spec: &BackendSpec) -> Result<Box<dyn Gpu + Send>, GpuError> {
    let (device, profile) = (spec.device, spec.profile.as_ref());
    match spec.choice {
        BackendChoice::Gpu => {
            let mut g = open_cuda(device)?;
            g.set_reason("--backend gpu".into());
            Ok(Box::new(g))
        }
        BackendChoice::Sim => open_sim(profile, "--backend sim".into()),
        BackendChoice::Auto => match open_cuda(device) {
            Ok(mut g) => {
                g.set_reason(format!("CUDA device {device} found (--backend auto)"));
                Ok(Box::new(g))
            }
            Err(e) => open_sim(profile, format!("{NO_USABLE_GPU}: {e}")),
        },
    }
}

/// Open the real GPU. A panic inside the CUDA libraries (a driver missing a symbol cudarc
/// expects) becomes an error rather than taking the program down.
pub fn open_cuda(device: u32) -> Result<CudaGpu, GpuError> {
    catch_quietly(|| CudaGpu::open(device)).and_then(|r| r)
}

/// The simulator on `profile` (`--profile FILE`; `None`: the built-in H200 one), labelled with
/// `reason`.
pub fn open_sim(
    profile: Option<&Profile>,
    reason: String,
) -> Result<Box<dyn Gpu + Send>, GpuError> {
    let profile = profile::chosen_or_builtin(profile)
        .map_err(|e| GpuError::Invalid(format!("the simulator profile is unusable: {e}")))?;
    Ok(Box::new(SimGpu::new(profile, reason)))
}

/// The backend `spec` would give, when that is known without initialising CUDA (which can
/// take a second): with `--backend sim`, or when no driver is installed. `None` when only
/// opening the GPU can tell. The TUI uses it so that its first frame already names the backend.
pub fn known_without_init(spec: &BackendSpec) -> Option<Result<crate::gpu::DeviceInfo, String>> {
    if spec.choice == BackendChoice::Sim || !context::driver_present() {
        let opened = open(spec);
        return Some(opened.map(|g| g.info().clone()).map_err(|e| e.to_string()));
    }
    None
}

// Kept here by their old names: `tui::panic` and the CLI call them as `detect::…`.
pub use super::quiet::{catch_quietly, panics_silenced};
