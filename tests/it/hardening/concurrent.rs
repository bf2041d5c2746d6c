//! Review 2026-12-01 K12 (P1): `exercise check` runs at the same time on one state folder kept
//! only some of their passes in `exercises/passed.json` (load, insert, rename: the last writer
//! won). Twelve or more processes (every solution, three of them twice) start together; every
//! exercise must be recorded.

use std::process::Stdio;

use super::{bin, text};

#[test]
fn twelve_concurrent_checks_keep_every_pass() {
    let state = tempfile::tempdir().unwrap();
    let ids = cuda_academy::exercise::catalog::ids();
    let runs: Vec<String> = ids
        .iter()
        .chain(ids.iter().take(3))
        .map(|s| s.to_string())
        .collect();
    assert!(
        runs.len() >= 12,
        "too few exercises to race twelve checks: {ids:?}"
    );
    let children: Vec<_> = runs
        .iter()
        .map(|id| {
            bin(state.path())
                .args(["exercise", "check", id])
                .arg(format!("exercises/{id}/solution.cu"))
                .args(["--backend", "sim"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (id, child) in runs.iter().zip(children) {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{id}: {}", text(&out.stderr));
        assert!(
            !text(&out.stderr).contains("not recorded"),
            "{id}: {}",
            text(&out.stderr)
        );
    }
    let kept = cuda_academy::exercise::state::load_passed(state.path()).unwrap();
    let want: std::collections::BTreeSet<String> = ids.iter().map(|s| s.to_string()).collect();
    assert_eq!(kept, want);
}
