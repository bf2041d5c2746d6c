//! `cuda-academy info`.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, InfoArgs};

/// Carry out `cuda-academy info`; errors go to stderr through the caller.
pub fn info(args: &InfoArgs, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let _ = (args, global);
    anyhow::bail!("`cuda-academy info` is not available in this build yet")
}
