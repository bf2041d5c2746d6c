//! Hardening (issue 9, the reliability review's 78 cases): hostile text never reaches the
//! terminal, the driver cannot crash or hang a command, write errors are errors, memory limits
//! are refusals, and lesson parsing stays linear. Each test would have caught one of the
//! review's failures. The signal cases are in `e2e_pty.rs`.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "hardening/c_semantics.rs"]
mod c_semantics;
#[path = "hardening/check_output.rs"]
mod check_output;
#[path = "hardening/cli_input.rs"]
mod cli_input;
#[path = "hardening/concurrent.rs"]
mod concurrent;
#[path = "hardening/depth.rs"]
mod depth;
#[path = "hardening/driver.rs"]
mod driver;
#[path = "hardening/editor_files.rs"]
mod editor_files;
#[cfg(unix)]
#[path = "hardening/editor_signal.rs"]
mod editor_signal;
#[path = "hardening/file_size.rs"]
mod file_size;
#[path = "hardening/hostile.rs"]
mod hostile;
#[path = "hardening/lessons.rs"]
mod lessons;
#[path = "hardening/limits.rs"]
mod limits;
#[path = "hardening/partial_driver.rs"]
mod partial_driver;
#[path = "hardening/profiles.rs"]
mod profiles;
#[cfg(unix)]
#[path = "hardening/reads.rs"]
mod reads;
#[cfg(unix)]
#[path = "hardening/save_limits.rs"]
mod save_limits;
#[path = "hardening/wall_clock.rs"]
mod wall_clock;
#[path = "hardening/writes.rs"]
mod writes;

use std::path::Path;
use std::process::{Command, Output};

/// The binary with its own state dir, no colour, and `RUST_BACKTRACE=1` (so a panic anywhere
/// would print a backtrace that the assertions would see).
pub fn bin(state: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cuda-academy"));
    cmd.env("CUDA_ACADEMY_STATE_DIR", state)
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "1")
        .env_remove("CUDA_ACADEMY_HIDE_DRIVER");
    cmd
}

/// Run `cuda-academy ARGS` with a throwaway state dir.
pub fn run(args: &[&str]) -> Output {
    let state = tempfile::tempdir().unwrap();
    bin(state.path()).args(args).output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Neither stream shows a panic, and the exit status is not a panic's or a signal's.
#[track_caller]
pub fn assert_no_crash(out: &Output) {
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        !all.contains("panicked") && !all.contains("stack backtrace"),
        "panic text in output:\n{all}"
    );
    assert!(
        out.status.code().is_some(),
        "killed by a signal: {:?}",
        out.status
    );
    assert_ne!(out.status.code(), Some(101), "exit 101 is a panic:\n{all}");
}

/// Neither stream carries a byte that could drive a terminal: both are valid UTF-8 and hold no
/// C0 control but tab and newline, no DEL and no C1 character.
#[track_caller]
pub fn assert_terminal_safe(what: &str, out: &Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let text = std::str::from_utf8(bytes)
            .unwrap_or_else(|e| panic!("{what}: {stream} is not UTF-8 ({e})"));
        if let Some(c) = text.chars().find(|&c| cuda_academy::sanitize::is_unsafe(c)) {
            panic!(
                "{what}: raw U+{:04X} on {stream}:\n{}",
                u32::from(c),
                text.escape_debug()
            );
        }
    }
}
