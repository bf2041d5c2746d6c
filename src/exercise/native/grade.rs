//! A native run graded: the exercise's criteria that a trace can judge (`judgeable`), by the
//! interpreter's own graders (`verdict::grade_run`) over the run's [`Native`] outcome and the
//! one hazard checker; the rest listed as not judged natively, never passed.

use serde::Serialize;

use super::judgeable;
use super::outcome::Native;
use crate::exercise::verdict::{self, CheckResult, Verdict};
use crate::exercise::{Exercise, hazards, parse};

/// A criterion left out of a native verdict, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotJudged {
    pub name: String,
    pub why: &'static str,
}

/// A native check's verdict: `verdict.passed` says the judged criteria all passed.
#[derive(Debug, Clone, Default)]
pub struct NativeVerdict {
    pub verdict: Verdict,
    pub not_judged: Vec<NotJudged>,
    /// What the trace could not show (said, so that no finding about it means nothing).
    pub not_watched: Vec<String>,
}

/// How the program ended: its exit code, or the signal that killed it; whether the trace was
/// closed by the library's exit flush.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ending {
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub complete: bool,
}

/// The host accesses a trace has: only the header's helpers'.
pub const HOST_ACCESSES: &str = "host accesses other than check_output's and fill_input's (your own `h[i]` reads and writes): not watched, so read-before-sync and write-while-in-flight are found only for those two helpers";

/// Kernels whose parameters the trace lacks: their bytes are unknown.
pub const KERNEL_BYTES: &str = "device races with kernels whose parameters the trace lacks: not watched (which bytes such a kernel touches is unknown)";

/// Kernels whose ranges come from their parameters: what was assumed.
pub const KERNEL_RANGES_ASSUMED: &str = "kernels' ranges are assumed from their parameters: each pointer from its address for as many elements as the kernel's last integer parameter (the header's `n`), or to the end of its allocation";

/// Grade `run` against `ex`. `source` is the learner's file (parsed only for `checks-errors`);
/// `reference(id)` is the traced run of the solution a criterion compares with (`None`: this
/// exercise's).
pub fn grade<'a>(
    ex: &Exercise,
    source: &str,
    run: &Native,
    ending: Ending,
    mut reference: impl FnMut(Option<&str>) -> Result<&'a crate::exercise::interp::Outcome, String>,
) -> NativeVerdict {
    let out = &run.outcome;
    let mut nv = NativeVerdict::default();
    let v = &mut nv.verdict;
    v.metrics =
        crate::exercise::metrics::describe(&out.metrics, crate::report::TimingSource::Cupti);
    v.timeline = out.timeline.clone();
    v.output = out.output.clone();
    nv.not_watched.push(HOST_ACCESSES.into());
    if run.kernels_unwatched > 0 {
        nv.not_watched.push(KERNEL_BYTES.into());
    }
    if run.kernels_assumed > 0 {
        nv.not_watched.push(KERNEL_RANGES_ASSUMED.into());
    }
    if run.bad_marks > 0 {
        nv.not_watched.push(format!(
            "{} of academy.cuh's marks did not parse and were left out",
            run.bad_marks
        ));
    }
    if run.unplaced > 0 {
        nv.not_watched.push(format!(
            "{} check_output/fill_input call(s) on memory no traced allocation holds (a stack or global array): their bytes are not placed",
            run.unplaced
        ));
    }
    let ended = match (ending.code, ending.signal) {
        (Some(0), _) if ending.complete => Ok("exit code 0".to_string()),
        (Some(0), _) => Err("the program ended without the trace's exit flush (`_exit` or `abort`?), so the last records may be missing".to_string()),
        (Some(c), _) => Err(format!("the program exited with code {c}")),
        (None, Some(s)) => Err(format!("the program was killed by signal {s}")),
        (None, None) => Err("the program's end is unknown".to_string()),
    };
    v.hazards = hazards::check(&out.log, &out.region_names, ex.overlap);
    match ended {
        Ok(detail) => v.checks.push(CheckResult {
            name: "runs to the end".into(),
            passed: true,
            detail,
        }),
        Err(detail) => {
            v.checks.push(CheckResult {
                name: "runs to the end".into(),
                passed: false,
                detail,
            });
            v.hazards
                .retain(|h| h.kind != crate::exercise::HazardKind::Leak);
            return nv;
        }
    }
    let program = parse::parse(source).ok();
    for c in &ex.criteria {
        if let Some(why) = judgeable::why_not(c, program.is_some()) {
            nv.not_judged.push(NotJudged {
                name: c.title(),
                why,
            });
            continue;
        }
        let refs = c.reference().map(&mut reference);
        let empty = crate::exercise::ast::Program::default();
        nv.verdict.checks.push(verdict::grade_run(
            c,
            out,
            &nv.verdict.hazards,
            program.as_ref().unwrap_or(&empty),
            refs,
        ));
    }
    nv.verdict.passed = nv.verdict.checks.iter().all(|c| c.passed);
    nv
}
