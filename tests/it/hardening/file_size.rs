//! Review 2026-12-01 U1, U2: under `ulimit -f` a write past the limit raised SIGXFSZ, which
//! killed the process with no message (exit 153) and left a `.cuda-academy-tmp-*` file or a
//! truncated output behind. SIGXFSZ is now ignored: the write fails with "File too large", the
//! command says so and exits 1, and no partial file stays under any name.

use super::{assert_no_crash, bin, text};

#[test]
fn a_file_size_limit_is_an_error_not_a_kill() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.json");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 10 && exec \"$0\" \"$@\"")
        .arg(bin(state.path()).get_program())
        .args(["run", "pipeline", "--backend", "sim", "--trace"])
        .arg(&trace)
        .env("CUDA_ACADEMY_STATE_DIR", state.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("File too large"),
        "{}",
        text(&out.stderr)
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}
