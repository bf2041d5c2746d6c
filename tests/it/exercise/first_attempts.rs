//! Issue 27: what a C++ programmer's first attempt at each exercise looks like
//! (`tests/fixtures/first-attempts/<exercise>.cu`: plain, natural code for the task, the
//! classic error macros and NVIDIA-sample idioms included), each run through
//! `cuda-academy exercise check` on the simulator. Each must get a real verdict: the program ran
//! to its end (no "not supported" refusal, no stop), and these attempts, being correct, pass.

use std::path::Path;
use std::process::Command;

const DIR: &str = "tests/fixtures/first-attempts";

#[test]
fn every_first_attempt_runs_and_gets_a_real_verdict() {
    let mut seen = 0;
    for entry in std::fs::read_dir(DIR).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("cu") {
            continue;
        }
        let id = path.file_stem().unwrap().to_str().unwrap().to_string();
        assert!(
            cuda_academy::exercise::catalog::find(&id).is_some(),
            "{}: named after no exercise",
            path.display()
        );
        let (code, text) = check(&id, &path);
        assert!(!text.contains("not supported"), "{id}: refused\n{text}");
        assert!(
            text.contains("[pass] runs to the end"),
            "{id}: did not run\n{text}"
        );
        assert_eq!(code, Some(0), "{id}: a correct attempt passes\n{text}");
        seen += 1;
    }
    assert!(seen >= 2, "only {seen} first attempts in {DIR}");
}

/// `exercise check ID FILE` on the simulator: its exit code and what it printed.
fn check(id: &str, file: &Path) -> (Option<i32>, String) {
    let state = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cuda-academy"))
        .env("CUDA_ACADEMY_STATE_DIR", state.path())
        .env("NO_COLOR", "1")
        .args(["--backend", "sim", "exercise", "check", id])
        .arg(file)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}
