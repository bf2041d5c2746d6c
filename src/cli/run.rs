//! `cuda-academy run`.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, RunArgs};

/// Carry out `cuda-academy run`; errors go to stderr through the caller.
pub fn run(args: &RunArgs, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let _ = (args, global);
    anyhow::bail!("`cuda-academy run` is not available in this build yet")
}
