//! `cuda-academy calibrate --out FILE [--name NAME]`: measure the opened backend and write a
//! simulator profile (TOML) recording the device name, the date and how it was measured.

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::Context;

use crate::cli::{BackendChoice, CalibrateArgs, GlobalArgs};
use crate::experiment::RunContext;
use crate::experiment::calibrate::calibrate as fit_profile;
use crate::gpu::Gpu;
use crate::gpu::profile::Profile;
use crate::gpu::sim::SimGpu;

/// Carry out `cuda-academy calibrate`; errors go to stderr through the caller.
pub fn calibrate(args: &CalibrateArgs, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let template = Profile::builtin("h200")?;
    let mut gpu = open_backend(global)?;
    let cancel = AtomicBool::new(false);
    let progress = |phase: &str| eprintln!("{phase}");
    let ctx = RunContext {
        cancel: &cancel,
        progress: &progress,
    };
    let profile = fit_profile(gpu.as_mut(), args.name.as_deref(), &template, &ctx)
        .context("calibration failed")?;
    profile
        .save(&args.out)
        .with_context(|| format!("cannot write the profile to {}", args.out.display()))?;
    println!(
        "wrote profile `{}` for {} to {}: pinned H2D/D2H {:.1}/{:.1} GB/s, pageable {:.1}/{:.1} GB/s, both ways {:.1} GB/s",
        profile.name,
        profile.device_name,
        args.out.display(),
        profile.pinned_h2d_gbps,
        profile.pinned_d2h_gbps,
        profile.pageable_h2d_gbps,
        profile.pageable_d2h_gbps,
        profile.bidirectional_gbps
    );
    Ok(ExitCode::SUCCESS)
}

/// Open the backend the flags ask for.
///
/// Interim, as in `cli::run`: replace with `crate::gpu::detect::open(global.backend,
/// global.device)` when the cudarc work is merged. Calibrating the simulator reproduces its own
/// profile, which is how the fitting is tested.
fn open_backend(global: &GlobalArgs) -> anyhow::Result<Box<dyn Gpu>> {
    let reason = match global.backend {
        BackendChoice::Sim => "--backend sim",
        BackendChoice::Auto => "the CUDA backend is not part of this build yet",
        BackendChoice::Gpu => anyhow::bail!(
            "--backend gpu: the CUDA backend is not part of this build yet; use --backend sim"
        ),
    };
    Ok(Box::new(SimGpu::new(
        Profile::builtin("h200")?,
        reason.to_string(),
    )))
}
