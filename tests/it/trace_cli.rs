//! `cuda-academy trace` without a GPU: the program runs unmodified and its stdin, stdout,
//! stderr and exit status pass through; a missing or non-executable program gets the shell's
//! 127 or 126; with no driver (or no CUDA in the program) the tool says nothing was traced and
//! why; `trace --open` summarises a recorded trace as text and as versioned JSON, with outside
//! text cleaned.

// Test helpers outside #[test] functions may fail loudly too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/trace-programs/sample.trace.jsonl"
);

/// `cuda-academy trace ARGS` in `dir`, with the library cached there too.
fn trace_in(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cuda-academy"));
    cmd.current_dir(dir)
        .arg("trace")
        .args(args)
        .env("CUDA_ACADEMY_CACHE_DIR", dir.join("cache"))
        .env("CUDA_ACADEMY_STATE_DIR", dir.join("state"))
        .env("NO_COLOR", "1")
        .env_remove("CUDA_INJECTION64_PATH");
    cmd
}

fn run(args: &[&str]) -> (Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let out = trace_in(dir.path(), args).output().unwrap();
    (out, dir)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What `trace` says after a program that never got a trace written: it depends on whether this
/// machine has a CUDA driver, which the same function `trace` uses answers.
fn nothing_traced_reason() -> &'static str {
    if cuda_academy::gpu::cuda::context::driver_present() {
        "no CUDA activity: the program never started CUDA"
    } else {
        "nothing could be traced: there is no CUDA driver on this machine"
    }
}

#[test]
fn exit_code_stdout_and_stderr_pass_through() {
    let (out, dir) = run(&[
        "--",
        "sh",
        "-c",
        "echo to-stdout; echo to-stderr >&2; exit 3",
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        text(&out.stdout),
        "to-stdout\n",
        "stdout is the program's alone"
    );
    let err = text(&out.stderr);
    assert!(err.starts_with("to-stderr\n"), "{err}");
    assert!(err.contains(nothing_traced_reason()), "{err}");
    assert!(
        !dir.path().join("cuda-academy-trace.jsonl").exists(),
        "no trace of a program without CUDA"
    );
    let cached: Vec<_> = std::fs::read_dir(dir.path().join("cache"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(cached.len(), 1, "the library is written to the cache once");
}

#[test]
fn a_program_that_succeeds_exits_zero_and_quiet_says_nothing() {
    let (out, _dir) = run(&["--quiet", "--", "true"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stderr), "");
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn stdin_reaches_the_program_and_arguments_keep_their_dashes() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = trace_in(
        dir.path(),
        &[
            "-q",
            "--",
            "sh",
            "-c",
            "cat; echo \"$1\"",
            "sh",
            "--not-a-trace-flag",
        ],
    )
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .spawn()
    .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"from stdin\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "from stdin\n--not-a-trace-flag\n");
}

#[test]
fn a_signal_death_is_128_plus_the_signal() {
    let (out, _dir) = run(&["-q", "--", "sh", "-c", "kill -9 $$"]);
    assert_eq!(out.status.code(), Some(137));
}

#[test]
fn a_missing_program_is_127_and_a_non_executable_one_126() {
    let (out, _dir) = run(&["--", "/nonexistent/program"]);
    assert_eq!(out.status.code(), Some(127));
    assert!(
        text(&out.stderr).contains("/nonexistent/program: command not found"),
        "{}",
        text(&out.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.txt");
    std::fs::write(&plain, "not a program").unwrap();
    let out = trace_in(dir.path(), &["--", plain.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(126));
    assert!(
        text(&out.stderr).contains("not executable"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_program_name_with_escapes_is_cleaned_in_the_message() {
    let (out, _dir) = run(&["--", "/nonexistent/\u{1b}]0;pwned\u{7}"]);
    assert_eq!(out.status.code(), Some(127));
    let err = text(&out.stderr);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
}

#[test]
fn a_trace_file_that_cannot_be_written_fails_before_the_program_runs() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let script = format!("touch {}", marker.display());
    let out = trace_in(
        dir.path(),
        &[
            "--trace-file",
            "/nonexistent/dir/t.jsonl",
            "--",
            "sh",
            "-c",
            &script,
        ],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot write the trace file"),
        "{}",
        text(&out.stderr)
    );
    assert!(!marker.exists(), "the program must not run");
}

#[test]
fn no_program_is_a_usage_error() {
    let (out, _dir) = run(&[]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn open_summarises_per_stream_and_cleans_outside_text() {
    let (out, _dir) = run(&["--open", SAMPLE]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("program: exit code 0; trace complete"), "{s}");
    assert!(s.contains("3 driver API calls (0 failed)"), "{s}");
    assert!(
        s.contains("stream 13 (device 0): uploads 1 (1 MiB, 0.002 ms)\n"),
        "{s}"
    );
    assert!(s.contains("stream 14 (device 0): downloads 1 (1 MiB, 1 pageable, 0.002 ms), kernels 1 (0.003 ms), syncs 1\n  _Z5scalePfi\u{FFFD}[2J: 1 launches, 0.003 ms\n"), "{s}");
    assert!(
        s.contains("uploads: 1 of 1 overlapped a kernel (0.001 ms of 0.002 ms)"),
        "{s}"
    );
    assert!(s.contains("downloads: 0 of 1 overlapped a kernel"), "{s}");
    assert!(!s.contains('\u{1b}') && !s.contains('\u{7}'), "{s:?}");
}

#[test]
fn open_json_is_versioned() {
    let (out, _dir) = run(&["--open", SAMPLE, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema_version"], 2);
    assert!(v["findings"]["findings"].is_array(), "{v}");
    assert!(
        v["findings"]["not_watched"]
            .as_array()
            .is_some_and(|n| !n.is_empty()),
        "a judged trace lists what it did not watch: {v}"
    );
    assert!(v["overlap_report"].is_object(), "{v}");
    assert_eq!(v["status"], "ok");
    assert_eq!(v["complete"], true);
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["streams"].as_array().unwrap().len(), 2);
    assert_eq!(v["uploads_vs_kernels"]["overlapped_ns"], 1000);
    assert_eq!(v["streams"][1]["syncs"], 1);
}

#[test]
fn open_of_a_file_that_is_not_a_trace_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.jsonl");
    std::fs::write(&junk, "{\"t\":\"memcpy\"}\nhello\n").unwrap();
    let out = trace_in(dir.path(), &["--open", junk.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not a cuda-academy trace"),
        "{}",
        text(&out.stderr)
    );
    std::fs::write(&junk, "").unwrap();
    let out = trace_in(dir.path(), &["--open", junk.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is empty"),
        "{}",
        text(&out.stderr)
    );
    let out = trace_in(dir.path(), &["--open", "/nonexistent.jsonl"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// `trace --open --json` of a trace recorded on the H200 (`tests/fixtures/trace-programs/h200/`,
/// by `scripts/trace-live.sh` on 2026-12-02), parsed.
fn recorded(name: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/trace-programs/h200")
        .join(format!("{name}.trace.jsonl"));
    let (out, _dir) = run(&["--open", path.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_str(&text(&out.stdout)).unwrap()
}

fn total(v: &serde_json::Value, dir: &str, field: &str) -> u64 {
    v["streams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s[dir][field].as_u64().unwrap())
        .sum()
}

#[test]
fn the_traces_recorded_on_the_h200_hold_what_their_programs_did() {
    // two_streams.cu: 8 MiB up and down on each of two streams, a kernel on each.
    let two = recorded("two_streams");
    assert_eq!(two["complete"], true, "{two}");
    assert_eq!(two["exit_code"], 0);
    let streams = two["streams"].as_array().unwrap();
    assert_eq!(streams.len(), 2, "{two}");
    for s in streams {
        assert_eq!(s["uploads"]["bytes"], 8 << 20, "{s}");
        assert_eq!(s["downloads"]["bytes"], 8 << 20, "{s}");
        assert_eq!(s["kernels"], 1, "{s}");
        assert_eq!(s["uploads"]["pageable"], 0, "pinned buffers: {s}");
    }
    // pageable_async.cu: cudaMemcpyAsync from and to malloc memory.
    let pageable = recorded("pageable_async");
    assert_eq!(total(&pageable, "uploads", "count"), 1, "{pageable}");
    assert_eq!(total(&pageable, "uploads", "pageable"), 1, "{pageable}");
    assert_eq!(total(&pageable, "downloads", "pageable"), 1, "{pageable}");
    // exit_from_thread.cu: exit(3) from a thread; the exit flush still ran.
    let exited = recorded("exit_from_thread");
    assert_eq!(exited["exit_code"], 3, "{exited}");
    assert_eq!(exited["complete"], true, "{exited}");
    // Two uploads and two kernels ran; the two of each after them were cut off by the exit
    // (CUPTI records them with no timestamps) and are left out of every time.
    assert_eq!(total(&exited, "uploads", "count"), 2, "{exited}");
    let never_ran: u64 = exited["streams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["never_ran"].as_u64().unwrap())
        .sum();
    assert_eq!(never_ran, 4, "{exited}");
    assert!(
        exited["span_ns"].as_u64().unwrap() < 1_000_000_000,
        "{exited}"
    );
    // killed_self.cu: SIGKILL before any exit flush: what reached the file, marked incomplete.
    let killed = recorded("killed_self");
    assert_eq!(killed["complete"], false, "{killed}");
    assert_eq!(killed["signal"], 9, "{killed}");
}
