//! The interactive tutorial: terminal setup and restore, the event loop.
//!
//! INTERIM: entry point only; the TUI work fills it in.

use crate::cli::GlobalArgs;

/// Run the tutorial until the learner quits. The caller has checked that stdin and stdout are
/// terminals.
pub fn run(args: &GlobalArgs) -> anyhow::Result<()> {
    let _ = args;
    anyhow::bail!("the tutorial is not available in this build yet")
}
