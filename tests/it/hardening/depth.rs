//! Review 2026-12-01 K6 (X17, X18): a syntax error under 50,000 nested parentheses (100 KB,
//! under the 1 MiB cap) is a diagnostic, not a stack overflow: in `exercise check` (the main
//! thread) and on a thread with the check worker's default 2 MiB stack (the TUI, where 6,000
//! levels aborted the whole process). A stack overflow aborts the test binary, so the old walk
//! fails these tests.

use cuda_academy::exercise::parse::parse;

use super::{assert_no_crash, bin, text};

/// `int x = ((((…1 @…))));` with `levels` parentheses, inside `main`.
fn nested_error(levels: usize) -> String {
    format!(
        "int main()\n{{\n    int x = {}1 @{};\n    return 0;\n}}\n",
        "(".repeat(levels),
        ")".repeat(levels)
    )
}

#[test]
fn deep_nesting_with_an_error_is_a_diagnostic_in_exercise_check() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deep.cu");
    std::fs::write(&file, nested_error(50_000)).unwrap();
    let out = bin(state.path())
        .args(["exercise", "check", "time-a-copy"])
        .arg(&file)
        .args(["--backend", "sim"])
        .output()
        .unwrap();
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("syntax error"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn deep_nesting_with_an_error_is_a_diagnostic_on_a_worker_sized_stack() {
    let source = nested_error(50_000);
    let diags = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || parse(&source).map(|_| ()))
        .unwrap()
        .join()
        .unwrap()
        .unwrap_err();
    assert!(
        diags.iter().any(|d| d.message.starts_with("syntax error")),
        "{diags:?}"
    );
}
