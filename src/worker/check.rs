//! An exercise check on the worker's backend: the one place the exercise engine is handed the
//! worker's `Gpu`.

use std::sync::atomic::AtomicBool;

use crate::exercise::interp::Limits;
use crate::exercise::verdict::CheckResult;
use crate::exercise::{self, Verdict, catalog};
use crate::gpu::Gpu;

/// How the worker checks an exercise: `(exercise id, the learner's text, backend, cancel)`
/// (tests pass one that panics).
pub type CheckRunner = fn(&str, &str, &mut dyn Gpu, &AtomicBool) -> Verdict;

/// Check `text` as exercise `id` on `gpu`, stopping early when `cancel` is set.
pub fn check_exercise(id: &str, text: &str, gpu: &mut dyn Gpu, cancel: &AtomicBool) -> Verdict {
    let Some(ex) = catalog::find(id) else {
        return failed_verdict(format!("unknown exercise {id:?}"));
    };
    exercise::check(ex, text, gpu, Limits::default(), cancel)
}

/// A verdict with one failed check, `runs`, saying why the program could not run at all.
pub fn failed_verdict(detail: String) -> Verdict {
    let mut v = Verdict::default();
    v.checks.push(CheckResult {
        name: "runs".into(),
        passed: false,
        detail,
    });
    v
}
