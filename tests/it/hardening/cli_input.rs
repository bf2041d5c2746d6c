//! Review 2026-12-01b CL1, CL3, CL4 (issue 29): what the command line takes from outside. A C1
//! control in an invalid argument never reaches stderr raw through clap's echo; `exercise check
//! ID -` (or `/dev/stdin`) reads a piped program, bounded; an unknown `CUDA_ACADEMY_CUPTI` word
//! is said, with the accepted ones.

use std::io::Write;
use std::process::{Output, Stdio};

use super::{assert_no_crash, bin, text};

/// `cuda-academy ARGS` with `input` piped to its stdin.
fn piped(args: &[&str], input: &[u8], env: &[(&str, &str)]) -> Output {
    let state = tempfile::tempdir().unwrap();
    let mut cmd = bin(state.path());
    cmd.args(args)
        .env("CUDA_ACADEMY_HIDE_DRIVER", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A command that refuses early closes its end: a failed write is then its answer.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// C1 controls (U+009D OSC, U+009C ST, U+009B CSI) as UTF-8.
const C1_ARG: &str = "\u{9d}0;C1TITLE\u{9c}\u{9b}2J";

fn has_c1(bytes: &[u8]) -> bool {
    text(bytes)
        .chars()
        .any(|c| ('\u{80}'..='\u{9f}').contains(&c))
}

#[test]
fn clap_never_echoes_a_c1_control_raw() {
    for args in [
        &["run", C1_ARG][..],
        &[C1_ARG][..],
        &["exercise", C1_ARG][..],
        &["run", "pinned-alloc", "--size", C1_ARG][..],
        &["--color", C1_ARG, "list"][..],
    ] {
        let out = piped(args, b"", &[]);
        assert_no_crash(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!has_c1(&out.stderr), "{args:?}: {:?}", text(&out.stderr));
        assert!(!out.stderr.contains(&0x1b), "{args:?}");
        assert!(
            text(&out.stderr).contains("error:"),
            "{}",
            text(&out.stderr)
        );
    }
    // Help still prints, on stdout, exit 0.
    let out = piped(&["--help"], b"", &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("Usage:"));
}

fn starter() -> Vec<u8> {
    let out = piped(&["exercise", "show", "time-a-copy"], b"", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    out.stdout
}

/// CL3: a program piped in, named `-` or `/dev/stdin`, is checked (exit 1: the starter does not
/// pass yet), and the verdict names it `<stdin>`.
#[test]
fn a_piped_program_is_checked() {
    let program = starter();
    for name in ["-", "/dev/stdin"] {
        let args = ["exercise", "check", "time-a-copy", name, "--backend", "sim"];
        let out = piped(&args, &program, &[]);
        assert_no_crash(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("checks:"),
            "{}",
            text(&out.stdout)
        );
    }
}

/// Standard input is bounded like a file: more than 1 MiB is refused (usage error, exit 2),
/// and so is text that is not UTF-8.
#[test]
fn a_piped_program_is_bounded() {
    let args = ["exercise", "check", "time-a-copy", "-", "--backend", "sim"];
    let big = vec![b' '; (1 << 20) + 10];
    let out = piped(&args, &big, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("standard input holds more than 1048576 bytes"),
        "{}",
        text(&out.stderr)
    );
    let out = piped(&args, b"int main() { \xff }", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not UTF-8"),
        "{}",
        text(&out.stderr)
    );
}

/// A named pipe given by path is still refused, and the message says how to pass a pipe.
#[cfg(unix)]
#[test]
fn a_fifo_by_name_says_how_to_pipe_a_program() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("prog.cu");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let args = [
        "exercise",
        "check",
        "time-a-copy",
        fifo.to_str().unwrap(),
        "--backend",
        "sim",
    ];
    let out = piped(&args, b"", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("pass `-` as FILE"),
        "{}",
        text(&out.stderr)
    );
}

/// CL4: an unknown word is said, with the accepted ones, and the run still goes on; known
/// words say nothing.
#[test]
fn an_unknown_cupti_setting_is_said() {
    let run = ["run", "pinned-alloc", "--size", "1M", "--backend", "sim"];
    let out = piped(&run, b"", &[("CUDA_ACADEMY_CUPTI", "atach-once,\u{9b}2J")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("unknown setting `atach-once`"), "{err}");
    assert!(err.contains("`attach-once`, `no-tags`"), "{err}");
    assert!(!has_c1(&out.stderr), "{err:?}");
    let out = piped(&run, b"", &[("CUDA_ACADEMY_CUPTI", "attach-once, no-tags")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}
