//! `cuda-academy calibrate`.

use std::process::ExitCode;

use crate::cli::{CalibrateArgs, GlobalArgs};

/// Carry out `cuda-academy calibrate`; errors go to stderr through the caller.
pub fn calibrate(args: &CalibrateArgs, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let _ = (args, global);
    anyhow::bail!("`cuda-academy calibrate` is not available in this build yet")
}
