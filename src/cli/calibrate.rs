//! `cuda-academy calibrate --out FILE [--name NAME]`: measure the opened backend and write a
//! simulator profile (TOML) recording the device name, the date and how it was measured.
//!
//! Without a GPU there is nothing real to measure: `--backend auto` then refuses instead of
//! quietly re-measuring the simulator, which only `--backend sim` asks for. The profile is
//! written atomically (the old file survives any failure).

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::Context;

use crate::cli::{BackendChoice, BackendSpec, CalibrateArgs};
use crate::experiment::RunContext;
use crate::experiment::calibrate::calibrate as fit_profile;
use crate::gpu::profile::Profile;
use crate::report::BackendKind;

/// Carry out `cuda-academy calibrate`; errors go to stderr through the caller.
pub fn calibrate(args: &CalibrateArgs, backend: &BackendSpec) -> anyhow::Result<ExitCode> {
    let template = Profile::builtin("h200")?;
    let mut gpu = crate::cli::run::open_backend(backend)?;
    if gpu.info().backend.kind == BackendKind::Simulated && backend.choice != BackendChoice::Sim {
        let why = gpu.info().backend.reason.clone().unwrap_or_default();
        anyhow::bail!(
            "there is no GPU to measure ({why}); calibrating the simulator would only re-measure \
             its own profile. Run it on a machine with an NVIDIA GPU, or pass --backend sim to \
             do that anyway"
        );
    }
    let cancel = AtomicBool::new(false);
    // Progress is a courtesy: a full or closed stderr must not fail (or panic) the calibration.
    let progress = |phase: &str| {
        let _ = writeln!(std::io::stderr(), "{phase}");
    };
    let ctx = RunContext {
        cancel: &cancel,
        progress: &progress,
    };
    let profile = crate::gpu::detect::catch_quietly(|| {
        fit_profile(gpu.as_mut(), args.name.as_deref(), &template, &ctx)
    })
    .map_err(crate::experiment::ExperimentError::from)
    .and_then(|r| r)
    .context("calibration failed")?;
    profile
        .save(&args.out)
        .with_context(|| format!("cannot write the profile to {}", args.out.display()))?;
    let summary = format!(
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
    // The name and the device name are outside text (`--name`, the driver). A write error is
    // the command's error (`println!` would panic on a closed pipe; main keeps that quiet).
    writeln!(std::io::stdout(), "{}", crate::sanitize::clean(&summary))?;
    Ok(ExitCode::SUCCESS)
}
