//! The TUI's panic hook and the experiment worker: a panic on the worker thread is caught there
//! and shown in the panel, so the hook must only log it (no terminal restore, no message over
//! the screen); any other thread's panic is a crash and is reported as one.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cuda_academy::tui::panic::{install, is_worker_thread};
use cuda_academy::worker::THREAD_NAME;

#[test]
fn the_hook_only_logs_a_worker_panic() {
    assert!(is_worker_thread(Some(THREAD_NAME)));
    assert!(!is_worker_thread(Some("main")) && !is_worker_thread(None));
    let dir = tempfile::tempdir().unwrap();
    install(Some(dir.path().to_path_buf()));
    let joined = std::thread::Builder::new()
        .name(THREAD_NAME.into())
        .spawn(|| panic!("boom in an experiment"))
        .unwrap()
        .join();
    let _ = std::panic::take_hook();
    assert!(joined.is_err());
    let logs: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert!(logs[0].contains("experiment worker panicked (caught, shown in the panel)"));
    assert!(logs[0].contains("boom in an experiment"));
    // A crash report would carry a backtrace; the worker's log is one line.
    assert!(!logs[0].contains("crashed"), "{}", logs[0]);
}
