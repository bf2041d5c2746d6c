//! Review 2026-12-01 K2-K4 (X5, X7, X11-X15): every file the program reads goes through one
//! bounded, non-blocking read. For each read path (exercise source, `passed.json`,
//! `progress.json`, a lesson, a profile, the TUI editor's read) a FIFO with no writer, a link to
//! `/dev/zero`, a directory and an oversize (sparse) file each give a clear error or a clean
//! refusal: no hang, no unbounded growth.
//!
//! The commands run under `ulimit -v` (an unbounded read then dies of an allocation failure,
//! a signal the assertions see) and a generous watchdog (a blocked open is killed and fails the
//! test instead of hanging the run). Neither is a timing assertion.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{assert_no_crash, assert_terminal_safe, text};

/// Long enough for any honest run on a loaded machine; only a hang reaches it.
const WATCHDOG: Duration = Duration::from_secs(120);

/// The binary, under a 2 GB address-space limit, with its own state folder.
fn guarded(state: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -v 2000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_cuda-academy"))
        .args(args)
        .env("CUDA_ACADEMY_STATE_DIR", state)
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > WATCHDOG {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "cuda-academy {args:?} hung (killed by the watchdog); stderr:\n{}",
                text(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// One hostile stand-in for a file: what it is, and the words its refusal must hold.
struct Hostile {
    label: &'static str,
    path: PathBuf,
    words: &'static str,
}

/// At `path`: a FIFO, a link to `/dev/zero`, a directory and a sparse file of `cap + 1` bytes,
/// one after the other (each made by `make` in turn, after `clear` removes the previous one).
fn each_hostile(path: &Path, cap: u64, mut check: impl FnMut(&Hostile)) {
    let clear = |p: &Path| {
        let _ = std::fs::remove_file(p);
        let _ = std::fs::remove_dir(p);
    };
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();

    clear(path);
    let made = Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    check(&Hostile {
        label: "a FIFO",
        path: path.into(),
        words: "is a FIFO (named pipe), not a regular file",
    });

    clear(path);
    std::os::unix::fs::symlink("/dev/zero", path).unwrap();
    check(&Hostile {
        label: "a link to /dev/zero",
        path: path.into(),
        words: "is a character device, not a regular file",
    });

    clear(path);
    std::fs::create_dir(path).unwrap();
    check(&Hostile {
        label: "a directory",
        path: path.into(),
        words: "is a directory",
    });

    clear(path);
    let f = std::fs::File::create(path).unwrap();
    f.set_len(cap + 1).unwrap();
    drop(f);
    check(&Hostile {
        label: "an oversize file",
        path: path.into(),
        words: "bytes; ",
    });
    clear(path);
}

#[test]
fn exercise_check_refuses_non_regular_and_oversize_sources() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.cu");
    each_hostile(&file, 1 << 20, |h| {
        let out = guarded(
            state.path(),
            &["exercise", "check", "time-a-copy", h.path.to_str().unwrap()],
        );
        assert_no_crash(&out);
        assert_terminal_safe(h.label, &out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}: {}",
            h.label,
            text(&out.stderr)
        );
        let err = text(&out.stderr);
        assert!(
            err.contains(h.words) && err.contains("mine.cu"),
            "{}: {err}",
            h.label
        );
    });
}

#[test]
fn a_hostile_passed_json_is_reported_in_list_and_check_never_read_whole() {
    let state = tempfile::tempdir().unwrap();
    let passed = state.path().join("exercises").join("passed.json");
    let solution = Path::new("exercises/time-a-copy/solution.cu");
    each_hostile(&passed, 16 << 20, |h| {
        let list = guarded(state.path(), &["exercise", "list"]);
        assert_no_crash(&list);
        assert_eq!(list.status.code(), Some(0), "{}", h.label);
        let err = text(&list.stderr);
        assert!(
            err.contains("passed exercises unknown") && err.contains(h.words),
            "{}: {err}",
            h.label
        );
        let check = guarded(
            state.path(),
            &[
                "exercise",
                "check",
                "time-a-copy",
                solution.to_str().unwrap(),
            ],
        );
        assert_no_crash(&check);
        assert_eq!(check.status.code(), Some(0), "{}", h.label);
        let err = text(&check.stderr);
        assert!(
            err.contains("the pass is not recorded") && err.contains(h.words),
            "{}: {err}",
            h.label
        );
    });
}

#[test]
fn a_hostile_progress_json_leaves_list_working() {
    let state = tempfile::tempdir().unwrap();
    let progress = state.path().join("progress.json");
    each_hostile(&progress, 256 << 20, |h| {
        let out = guarded(state.path(), &["list"]);
        assert_no_crash(&out);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            h.label,
            text(&out.stderr)
        );
    });
    // The library's loader says why in its banner and never moves the file aside.
    each_hostile(&progress, 256 << 20, |h| {
        let loaded = cuda_academy::progress::load(state.path());
        let banner = loaded.banner.unwrap_or_default();
        assert!(banner.contains(h.words), "{}: {banner}", h.label);
    });
}

#[test]
fn a_hostile_lesson_file_is_that_lessons_problem() {
    let state = tempfile::tempdir().unwrap();
    let lessons = tempfile::tempdir().unwrap();
    each_hostile(&lessons.path().join("x.md"), 16 << 20, |h| {
        let out = guarded(state.path(), &["check", lessons.path().to_str().unwrap()]);
        assert_no_crash(&out);
        assert_eq!(out.status.code(), Some(1), "{}", h.label);
        assert!(text(&out.stdout).contains("x.md"), "{}", h.label);
    });
}

#[test]
fn a_hostile_profile_is_refused_by_name() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    each_hostile(&dir.path().join("p.toml"), 1 << 20, |h| {
        let args = [
            "--profile",
            h.path.to_str().unwrap(),
            "run",
            "pinned-alloc",
            "--backend",
            "sim",
            "--size",
            "1M",
        ];
        let out = guarded(state.path(), &args);
        assert_no_crash(&out);
        assert_ne!(out.status.code(), Some(0), "{}", h.label);
        let err = text(&out.stderr);
        assert!(
            err.contains("p.toml") && err.contains(h.words),
            "{}: {err}",
            h.label
        );
    });
}

/// The TUI editor's read (`w`, Enter, and every poll after an outside change) uses the same
/// function; a thread keeps a blocked open from hanging the test run.
#[test]
fn the_editors_read_refuses_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    each_hostile(&dir.path().join("time-a-copy.cu"), 1 << 20, |h| {
        let path = h.path.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ =
                tx.send(cuda_academy::tui::exercise_store::read(&path).map_err(|e| e.to_string()));
        });
        let got = rx
            .recv_timeout(WATCHDOG)
            .expect("the editor's read blocked");
        let err = got.unwrap_err();
        assert!(err.contains(h.words), "{}: {err}", h.label);
    });
}
