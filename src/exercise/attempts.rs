//! The learner's attempts at each exercise, beside the passes: `exercises/attempts.json` in the
//! state folder, a map from exercise id to how many checks of a changed file (not the untouched
//! starter) were made and whether the solution was viewed before the exercise passed. Saved as
//! `passed.json` is (`state.rs`): under a lock, re-read and merged, written atomically; an
//! unreadable file is never overwritten.
//!
//! The solution gate reads it, as rustlings does: the solution shows once the exercise has
//! passed; before that only when asked with force (`--force`, a y/n in the tutorial) and only
//! after [`CHECKS_BEFORE_SOLUTION`] checks of a changed file; viewing it then is recorded, and
//! a later pass is "passed after viewing the solution" (`exercise list`, `list`, the tutorial).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::atomic_file;
use crate::bounded_read::{self, Cap};

/// Checks of a changed file before the solution may be forced open.
pub const CHECKS_BEFORE_SOLUTION: u32 = 3;

/// One exercise's attempts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// Checks of a file that differs from the starter.
    #[serde(default)]
    pub changed_checks: u32,
    /// The solution was shown before the exercise passed.
    #[serde(default)]
    pub solution_viewed: bool,
}

/// The file, under `state_dir`.
pub fn attempts_file(state_dir: &Path) -> PathBuf {
    state_dir.join("exercises").join("attempts.json")
}

const CAP: Cap = Cap {
    bytes: 16 << 20,
    what: "the exercise attempts file",
};

const LOCK_NAME: &str = ".attempts.json.lock";

/// Every exercise's attempts; an absent file is none.
pub fn load(state_dir: &Path) -> anyhow::Result<BTreeMap<String, Attempt>> {
    let path = attempts_file(state_dir);
    match bounded_read::read(&path, CAP) {
        Ok(bytes) => serde_json::from_slice(&bytes).with_context(|| {
            format!(
                "{} is not a JSON map of exercise attempts; move it aside to start afresh",
                bounded_read::shown(&path)
            )
        }),
        Err(e) if e.is_not_found() => Ok(BTreeMap::new()),
        Err(e) => Err(e.into()),
    }
}

/// `id`'s attempts (none yet: the default).
pub fn of(state_dir: &Path, id: &str) -> anyhow::Result<Attempt> {
    Ok(load(state_dir)?.get(id).copied().unwrap_or_default())
}

/// Change `id`'s attempts with `f` under the lock; returns them as saved.
fn update(state_dir: &Path, id: &str, f: impl FnOnce(&mut Attempt)) -> anyhow::Result<Attempt> {
    let path = attempts_file(state_dir);
    let dir = path.parent().unwrap_or(state_dir);
    let shown_dir = bounded_read::shown(dir);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {shown_dir}"))?;
    // The lock's error names the lock file and what to do (held elsewhere; a directory).
    let _lock = atomic_file::lock(&dir.join(LOCK_NAME))?;
    let mut all = load(state_dir)?;
    let entry = all.entry(id.to_string()).or_default();
    f(entry);
    let saved = *entry;
    let json = atomic_file::json_within(&all, CAP)
        .with_context(|| format!("will not save {}", bounded_read::shown(&path)))?;
    atomic_file::write(&path, &json)
        .with_context(|| format!("cannot save {}", bounded_read::shown(&path)))?;
    Ok(saved)
}

/// A check of `source` for exercise `starter`: counted when the file differs from the starter
/// (whitespace at line ends and the file's end aside).
pub fn record_check(
    state_dir: &Path,
    id: &str,
    source: &str,
    starter: &str,
) -> anyhow::Result<Attempt> {
    if !changed(source, starter) {
        return of(state_dir, id);
    }
    update(state_dir, id, |a| {
        a.changed_checks = a.changed_checks.saturating_add(1)
    })
}

/// The solution was shown before a pass.
pub fn record_solution_view(state_dir: &Path, id: &str) -> anyhow::Result<Attempt> {
    update(state_dir, id, |a| a.solution_viewed = true)
}

/// Whether `source` differs from `starter` beyond trailing whitespace.
pub fn changed(source: &str, starter: &str) -> bool {
    let norm = |s: &str| -> Vec<String> {
        let mut v: Vec<String> = s.lines().map(|l| l.trim_end().to_string()).collect();
        while v.last().is_some_and(String::is_empty) {
            v.pop();
        }
        v
    };
    norm(source) != norm(starter)
}

/// What the gate says about showing the solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gate {
    /// Passed: show it, nothing to record.
    Open,
    /// Not passed, forced, enough changed checks: show it and record the view.
    Forced,
    /// Not yet: why, in words.
    Closed(String),
}

/// The gate for an exercise passed or not, with `attempt`, asked with `force` or not.
pub fn gate(passed: bool, attempt: Attempt, force: bool) -> Gate {
    if passed {
        return Gate::Open;
    }
    let n = attempt.changed_checks;
    if n < CHECKS_BEFORE_SOLUTION {
        return Gate::Closed(format!(
            "the solution shows once the exercise passes, or (forced) after {CHECKS_BEFORE_SOLUTION} checks of your changed file: {n} so far"
        ));
    }
    if !force {
        return Gate::Closed(
            "not passed yet: viewing the solution now records the exercise as \"passed after viewing the solution\" when it passes; ask again with --force to see it".into(),
        );
    }
    Gate::Forced
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_untouched_starter_never_counts_and_a_changed_file_does() {
        let dir = tempfile::tempdir().unwrap();
        let starter = "int main()\n{\n}\n";
        for _ in 0..5 {
            record_check(dir.path(), "x", "int main()  \n{\n}\n\n", starter).unwrap();
        }
        assert_eq!(of(dir.path(), "x").unwrap().changed_checks, 0);
        record_check(dir.path(), "x", "int main()\n{ return 0; }\n", starter).unwrap();
        assert_eq!(of(dir.path(), "x").unwrap().changed_checks, 1);
        assert_eq!(of(dir.path(), "y").unwrap(), Attempt::default());
    }

    #[test]
    fn the_gate_opens_on_a_pass_or_when_forced_after_three_changed_checks() {
        let a = |n| Attempt {
            changed_checks: n,
            solution_viewed: false,
        };
        assert_eq!(gate(true, a(0), false), Gate::Open);
        assert!(matches!(gate(false, a(2), true), Gate::Closed(m) if m.contains("2 so far")));
        assert!(matches!(gate(false, a(3), false), Gate::Closed(m) if m.contains("--force")));
        assert_eq!(gate(false, a(3), true), Gate::Forced);
    }

    #[test]
    fn a_view_is_kept_beside_the_counts() {
        let dir = tempfile::tempdir().unwrap();
        record_check(dir.path(), "x", "changed", "starter").unwrap();
        record_solution_view(dir.path(), "x").unwrap();
        let a = of(dir.path(), "x").unwrap();
        assert!(a.solution_viewed);
        assert_eq!(a.changed_checks, 1);
    }
}
