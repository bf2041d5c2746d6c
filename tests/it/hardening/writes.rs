//! Review M3 and minor 1: output that cannot be written is an error (only a closed pipe is
//! quiet), and a failed `--trace` keeps the run's results and says its cause once.

use std::process::Stdio;

use super::{assert_no_crash, bin, run, text};

#[test]
fn a_full_stdout_is_an_error_for_run_and_info() {
    for args in [
        &[
            "run",
            "pinned-alloc",
            "--backend",
            "sim",
            "--size",
            "1M",
            "--json",
        ][..],
        &["run", "pinned-alloc", "--backend", "sim", "--size", "1M"][..],
        &["info", "--backend", "sim"][..],
        &["info", "--backend", "sim", "--json"][..],
    ] {
        let state = tempfile::tempdir().unwrap();
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = bin(state.path())
            .args(args)
            .stdout(Stdio::from(full))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_no_crash(&out);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}: exit 0 on /dev/full",
            args.join(" ")
        );
        assert!(
            text(&out.stderr).contains("No space left on device"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_failed_trace_keeps_the_results_and_says_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("missing-folder").join("t.json");
    let out = run(&[
        "run",
        "pinned-alloc",
        "--backend",
        "sim",
        "--size",
        "1M",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("pinned-alloc  size"),
        "results lost: {}",
        text(&out.stdout)
    );
    let err = text(&out.stderr);
    assert!(err.contains("could not write the trace"), "{err}");
    assert_eq!(
        err.matches("os error 2").count(),
        1,
        "cause repeated: {err}"
    );
}

/// `--trace` onto an existing profile-like file replaces it atomically, through a symlink.
#[test]
fn a_trace_is_written_through_a_symlink_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.json");
    std::fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = run(&[
        "run",
        "pinned-alloc",
        "--backend",
        "sim",
        "--size",
        "1M",
        "--trace",
        link.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&real).unwrap()).unwrap();
    assert!(v["traceEvents"].is_array());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temp file left"
    );
}
