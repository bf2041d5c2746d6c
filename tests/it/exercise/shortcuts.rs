//! Known shortcuts (issue 18): for every exercise, programs in `tests/fixtures/shortcuts/<id>/`
//! that pass without doing what the exercise teaches (hard-coded figures, timers around
//! nothing, the loop cut short, the subject API left out, a value copied from the solution's
//! output). Each must fail its check with a message naming what is missing, given on its
//! `// expect:` line; the solution passes. The exercises about overlap also pass with their
//! unchanged solutions on a simulated PCIe Gen3 x8 link (`tests/fixtures/profiles`).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::catalog::{self, Exercise};
use cuda_academy::exercise::interp::Limits;
use cuda_academy::exercise::{self, Verdict};
use cuda_academy::gpu::Gpu;
use cuda_academy::gpu::profile::Profile;
use cuda_academy::gpu::sim::SimGpu;

use super::sim;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shortcuts")
}

fn check_on(ex: &Exercise, src: &str, gpu: &mut dyn Gpu) -> Verdict {
    exercise::check(ex, src, gpu, Limits::default(), &AtomicBool::new(false))
}

/// `(file name, what it expects in a failed check, source)` of every shortcut of `id`.
fn shortcuts(id: &str) -> Vec<(String, String, String)> {
    let dir = fixtures().join(id);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let src = std::fs::read_to_string(&path).unwrap();
        let expect = src
            .lines()
            .find_map(|l| l.strip_prefix("// expect: "))
            .unwrap_or_else(|| panic!("{}: no `// expect:` line", path.display()))
            .to_string();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        out.push((name, expect, src));
    }
    out.sort();
    out
}

#[test]
fn every_exercise_has_shortcuts_and_each_fails_naming_what_is_missing() {
    // Every fixture is checked before the test fails, so one run lists every one that misses.
    let mut wrong: Vec<String> = Vec::new();
    for ex in catalog::all() {
        let cases = shortcuts(&ex.id);
        assert!(!cases.is_empty(), "{}: no shortcut fixtures", ex.id);
        for (name, expect, src) in cases {
            let v = check_on(ex, &src, &mut sim());
            if v.passed {
                wrong.push(format!("{}/{name} passed: {:#?}", ex.id, v.checks));
                continue;
            }
            let failed: Vec<String> = v
                .checks
                .iter()
                .filter(|c| !c.passed)
                .map(|c| format!("{}: {}", c.name, c.detail))
                .chain(v.hazards.iter().map(|h| h.kind.name().to_string()))
                .collect();
            if !failed.iter().any(|f| f.contains(&expect)) {
                wrong.push(format!(
                    "{}/{name}: no failed check says {expect:?}: {failed:#?}",
                    ex.id
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `(file name, source)` of every honest alternative of `id` in `tests/fixtures/honest/<id>/`.
fn honest(id: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/honest")
        .join(id);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out: Vec<(String, String)> = entries
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_honest_alternative_passes() {
    // Other ways to do the task (a registered buffer where pinned memory is asked, a `check()`
    // function instead of a `CHECK` macro, several large copies instead of one): the criteria
    // hold the task, not the solution's text.
    // Host functions queued in the stream (issue 27: `cudaLaunchHostFunc` enqueues) among them.
    let mut seen = Vec::new();
    for ex in catalog::all() {
        for (name, src) in honest(&ex.id) {
            let v = check_on(ex, &src, &mut sim());
            assert!(v.passed, "{}/{name} failed: {:#?}", ex.id, v.checks);
            seen.push(format!("{}/{name}", ex.id));
        }
    }
    for want in [
        "overlap-host-work/host-func.cu",
        "staging-ring/host-func.cu",
    ] {
        assert!(seen.iter().any(|n| n == want), "{want} missing: {seen:?}");
    }
    assert!(
        seen.len() >= 7,
        "only {} honest alternatives found",
        seen.len()
    );
}

#[test]
fn staging_ring_is_timed_against_the_same_work_as_wait_for_it() {
    // `staging-ring`'s time limit is `wait-for-it`'s solution: like with like only when the two
    // solutions do the same work. The work is the `same-work` check's detail.
    let work = |id: &str| {
        let ex = catalog::find(id).unwrap();
        let v = check_on(ex, ex.solution, &mut sim());
        assert!(v.passed, "{id}: {:#?}", v.checks);
        let c = v.checks.iter().find(|c| c.name == "does the task's work");
        c.unwrap_or_else(|| panic!("{id} has no same-work check"))
            .detail
            .clone()
    };
    let ring = work("staging-ring");
    assert!(ring.contains("moved 64 MiB host-to-device"), "{ring}");
    assert_eq!(ring, work("wait-for-it"));
}

#[test]
fn the_time_criteria_hold_the_reported_figures_to_the_timeline() {
    // The solution of double-buffer with its timer stopped before the work: 0 ms reported.
    let ex = catalog::find("double-buffer").unwrap();
    let src =
        std::fs::read_to_string(fixtures().join("double-buffer/timer-around-nothing.cu")).unwrap();
    let v = check_on(ex, &src, &mut sim());
    let c = v
        .checks
        .iter()
        .find(|c| c.name == "pipeline_ms matches the timeline")
        .unwrap();
    assert!(!c.passed && c.detail.contains("= 0.000"), "{c:?}");
    // The solution itself: its figure agrees with what the timeline measured.
    let good = check_on(ex, ex.solution, &mut sim());
    let c = good
        .checks
        .iter()
        .find(|c| c.name == "pipeline_ms matches the timeline")
        .unwrap();
    assert!(c.passed, "{c:?}");
}

fn gen3x8() -> SimGpu {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/profiles/gen3x8.toml");
    SimGpu::new(Profile::load(&path).unwrap(), "test".into())
}

#[test]
fn overlap_and_pipeline_pass_on_a_gen3_x8_link_with_their_unchanged_solutions() {
    for id in [
        "overlap-host-work",
        "double-buffer",
        "wait-for-it",
        "two-streams",
        "staging-ring",
    ] {
        let ex = catalog::find(id).unwrap();
        let v = check_on(ex, ex.solution, &mut gen3x8());
        assert!(v.passed, "{id} on Gen3 x8: {:#?}", v.checks);
        let starter = check_on(ex, ex.starter, &mut gen3x8());
        assert!(!starter.passed, "{id} starter passed on Gen3 x8");
    }
}

#[test]
fn the_gen3_x8_link_is_slower_than_the_h200s() {
    // The fixture changes the link: the pinned upload of time-a-copy's solution is about
    // 7.9 GB/s there and about 55 on the H200 profile, and the solution passes on both.
    let ex = catalog::find("time-a-copy").unwrap();
    let slow = check_on(ex, ex.solution, &mut gen3x8());
    let fast = check_on(ex, ex.solution, &mut sim());
    assert!(slow.passed && fast.passed, "{:#?}", slow.checks);
    let pinned = |v: &Verdict| v.metrics["pinned_gbps"].value;
    assert!(pinned(&slow) < 8.0 && pinned(&fast) > 50.0);
}
