//! How the program ended, as the first check of every verdict (`runs to the end`): the exit
//! status of a run that went to its end, by `main` returning or by `exit(status)`.
//!
//! A status of 0 passes. A non-zero status fails the check, naming the status, the line that
//! ended the run and the last line the program wrote to `stderr`: in C a non-zero status says
//! the program failed, a shell and CI read it so, and the native check fails it too
//! (`native/grade.rs`). When a CUDA call had returned an error before that, the detail says
//! so plainly: the program's own error check (a `CHECK` macro's `exit(1)` or `return 1`) ended
//! it because that call failed. The criteria are still graded on what ran ("verdict intact"),
//! so the learner sees what the program did before it stopped as well as why it stopped.

use super::CheckResult;
use crate::exercise::interp::Outcome;

/// The name of the check, which a run that stops early fails too (`verdict.rs`).
pub(super) const RUNS_TO_THE_END: &str = "runs to the end";

/// The `runs to the end` check of a run that was not stopped (no `Outcome::error`).
pub(super) fn ended(out: &Outcome) -> CheckResult {
    let status = out.exit_code;
    if status == 0 {
        // Short: it is the first line of every verdict that passed this far.
        let ended = match out.exit_line {
            Some(line) => format!("`exit(0)` at line {line}"),
            None => "exit status 0".to_string(),
        };
        return CheckResult {
            name: RUNS_TO_THE_END.into(),
            passed: true,
            detail: format!("{} steps; {ended}", out.steps),
        };
    }
    let how = match (out.exit_line, out.return_line) {
        (Some(line), _) => format!("`exit({status})` at line {line}"),
        (None, Some(line)) => format!("`main` returned {status} at line {line}"),
        (None, None) => "`main` ended".to_string(),
    };
    let mut detail = format!("the program exited with status {status} ({how})");
    if let Some(line) = &out.last_stderr_line {
        detail += &format!(": {line}");
    }
    if let Some(e) = out.cuda_errors.last() {
        detail += &format!(
            ". A CUDA call failed before it, and the program's error check ended the run: `{}` on line {} returned {}: {}",
            e.call, e.line, e.name, e.message
        );
    } else {
        detail += ". No CUDA call had failed: find why the program chose to stop there";
    }
    CheckResult {
        name: RUNS_TO_THE_END.into(),
        passed: false,
        detail,
    }
}
