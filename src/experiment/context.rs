//! How a caller watches and stops a running experiment: a cancel flag checked between steps and
//! a progress callback that receives phase text such as `pinned H2D 64 MiB (3/24)`.

use std::sync::atomic::{AtomicBool, Ordering};

use super::ExperimentError;

/// Cancel flag and progress sink for one run (the TUI's worker thread passes its own).
pub struct RunContext<'a> {
    /// Set to `true` (from any thread) to stop the run at the next step.
    pub cancel: &'a AtomicBool,
    /// Receives a short description of each phase as it starts.
    pub progress: &'a dyn Fn(&str),
}

static NEVER_CANCELLED: AtomicBool = AtomicBool::new(false);

fn ignore_progress(_: &str) {}

impl RunContext<'static> {
    /// A context that never cancels and reports nothing (CLI `--json`, tests).
    pub fn silent() -> RunContext<'static> {
        RunContext {
            cancel: &NEVER_CANCELLED,
            progress: &ignore_progress,
        }
    }
}

impl RunContext<'_> {
    /// Start a phase: fail with [`ExperimentError::Cancelled`] if cancellation was asked for,
    /// else report `phase`.
    pub fn step(&self, phase: &str) -> Result<(), ExperimentError> {
        self.check()?;
        (self.progress)(phase);
        Ok(())
    }

    /// Fail with [`ExperimentError::Cancelled`] if cancellation was asked for.
    pub fn check(&self) -> Result<(), ExperimentError> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(ExperimentError::Cancelled)
        } else {
            Ok(())
        }
    }
}
