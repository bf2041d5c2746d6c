//! Helpers for the CLI tests: the real binary with an isolated state dir, and lesson files.

use std::path::Path;
use std::process::{Command, Output};

/// The built binary, with its state dir pointed at `state` so no test reads real progress.
pub fn bin(state: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cuda-academy"));
    cmd.env("CUDA_ACADEMY_STATE_DIR", state)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE");
    cmd
}

/// Run `cuda-academy ARGS` with a throwaway state dir.
pub fn run(args: &[&str]) -> Output {
    let state = tempfile::tempdir().unwrap();
    bin(state.path()).args(args).output().unwrap()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// No sign of a crash in what the process printed.
pub fn assert_no_panic(out: &Output) {
    let all = format!("{}{}", stdout(out), stderr(out));
    assert!(
        !all.contains("panicked") && !all.contains("RUST_BACKTRACE"),
        "panic text in output:\n{all}"
    );
    assert_ne!(out.status.code(), Some(101), "exit code 101 is a panic");
}

/// A valid lesson: 2 cards (the second starts at line 20, its code fence at 22), one quiz question, `order`.
pub fn lesson(id: &str, title: &str, order: u32) -> String {
    format!(
        r#"+++
id = "{id}"
title = "{title}"
order = {order}
experiments = ["async-copy"]

[[quiz]]
id = "q1"
prompt = "Which memory makes cudaMemcpyAsync non-blocking?"
choices = ["pageable", "pinned"]
answer = 1
explanation = "Only page-locked memory can be DMA'd directly."
+++
# First card

Hello.

---

# Second card

```cuda
kernel<<<1, 1>>>();
```
"#
    )
}

/// A folder holding `files` (name, contents).
pub fn folder(files: &[(&str, Vec<u8>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    dir
}

/// The three-lesson folder most tests use.
pub fn good_folder() -> tempfile::TempDir {
    folder(&[
        ("b.md", lesson("streams", "Streams", 2).into_bytes()),
        ("a.md", lesson("pageable", "Pageable", 1).into_bytes()),
        (
            "c.md",
            lesson(
                "overlap",
                "A very long title that goes on and on well past the width of any sensible terminal column",
                3,
            )
            .into_bytes(),
        ),
    ])
}
