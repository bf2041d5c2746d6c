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
    let out = traced_run(trace.to_str().unwrap());
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
    let out = traced_run(link.to_str().unwrap());
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

/// Review rerun: `--trace` and `calibrate --out` onto a special file write into it, as a shell's
/// `>` does: `/dev/stdout` gets the trace (it used to fail on a temp file in `/proc/self/fd`), and
/// a FIFO stays a FIFO (a temp file was renamed over `/dev/full`, and would be over any device
/// as root). The FIFO stands for the devices, so the old behaviour fails here harmlessly.
/// `calibrate --out` into a FIFO is in the next test (one calibration for both).
#[test]
fn traces_go_into_special_files_never_over_them() {
    let out = traced_run("/dev/stdout");
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("traceEvents"),
        "no trace on stdout"
    );
    let (fifo, reader, _dir) = fifo_with_reader("trace.fifo");
    let out = traced_run(fifo.to_str().unwrap());
    assert_no_crash(&out);
    assert_still_a_fifo(&fifo);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(reader.join().unwrap().contains("traceEvents"));
}

/// A FIFO at `name` in a new temporary folder (kept alive by the returned guard) and a thread
/// that reads it to the end.
/// A small simulated run that writes its trace to `dest`.
fn traced_run(dest: &str) -> std::process::Output {
    run(&[
        "run",
        "pinned-alloc",
        "--backend",
        "sim",
        "--size",
        "1M",
        "--trace",
        dest,
    ])
}

fn fifo_with_reader(
    name: &str,
) -> (
    std::path::PathBuf,
    std::thread::JoinHandle<String>,
    tempfile::TempDir,
) {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join(name);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let reader = std::thread::spawn({
        let fifo = fifo.clone();
        move || std::fs::read_to_string(fifo).unwrap()
    });
    (fifo, reader, dir)
}

fn assert_still_a_fifo(fifo: &std::path::Path) {
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata(fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced by a {kind:?}");
}

/// Review rerun: `calibrate` printed its summary with `println!`, which panics on a closed pipe
/// (`calibrate --out p.toml | head -c 10`), and a full stderr made its progress lines fail the
/// whole calibration. Now a closed pipe is quiet (exit 0) and a full stderr does not matter.
/// The profile goes into a FIFO, which stays a FIFO (see the test above). All in one run: a
/// calibration is the costliest command there is.
#[test]
fn calibrate_writes_into_a_fifo_with_a_closed_stdout_and_a_full_stderr() {
    let (fifo, reader, _dir) = fifo_with_reader("profile.fifo");
    let state = tempfile::tempdir().unwrap();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    // A pipe whose reading end is closed before the command starts: the summary line meets a
    // closed pipe whatever the timing.
    let (closed, stdout) = std::io::pipe().unwrap();
    drop(closed);
    let status = bin(state.path())
        .args(["calibrate", "--backend", "sim", "--out"])
        .arg(&fifo)
        .stdout(stdout)
        .stderr(Stdio::from(full))
        .status()
        .unwrap();
    assert_eq!(
        status.code(),
        Some(0),
        "a closed stdout or a full stderr failed calibrate (a panic exits 101)"
    );
    assert_still_a_fifo(&fifo);
    let profile = reader.join().unwrap();
    assert!(profile.contains("format_version"), "{profile}");
}
