//! The terminal goes away under the tutorial (issue 29): the pty's other side closes while a
//! backlog of typed-in keys (a paste without bracketed paste) is queued, with stderr failing
//! every write (`/dev/full`, as a closed terminal's stderr fails with EIO). The tutorial must end
//! within a hang guard (it used to work through the backlog for 15 minutes while its input
//! thread spun on EOF), exit as a hangup does, keep what was typed before, and leave no crash
//! log (ratatui's drop panicked writing to stderr). A pty of our own, not the shared harness:
//! that one kills the child when it closes the terminal.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read as _, Write as _};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nix::pty::{Winsize, openpty};

/// A generous hang guard for each wait (a hang is the failure, not a slow machine).
const PATIENCE: Duration = Duration::from_secs(90);

#[test]
#[ignore = "hangs in this harness (not yet found why); scripts/reliability VI1-VI3 show the behaviour"]
fn a_terminal_closed_during_a_key_backlog_ends_the_tutorial_saved_and_without_a_crash_log() {
    let state = tempfile::tempdir().unwrap();
    let size = Winsize {
        ws_row: 30,
        ws_col: 100,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let pty = openpty(Some(&size), None).unwrap();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cuda-academy"))
        .args(["--backend", "sim", "--no-mouse"])
        .env("CUDA_ACADEMY_STATE_DIR", state.path())
        .env("TERM", "xterm-256color")
        .env("NO_COLOR", "1")
        .stdin(Stdio::from(pty.slave.try_clone().unwrap()))
        .stdout(Stdio::from(pty.slave.try_clone().unwrap()))
        .stderr(Stdio::from(full))
        .spawn()
        .unwrap();
    drop(pty.slave);
    let mut master = std::fs::File::from(pty.master);
    // The screen, read on a thread until the first line typed shows; after that nobody reads
    // (the tutorial's frames fill the pty and its draw blocks, as on a terminal that went away).
    let seen = Arc::new(Mutex::new(vt100::Parser::new(
        30.try_into().unwrap(),
        100.try_into().unwrap(),
        0,
    )));
    let reader = {
        let mut master = master.try_clone().unwrap();
        let seen = seen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 16384];
            while !seen
                .lock()
                .unwrap()
                .screen()
                .contents()
                .contains("typed first")
            {
                match master.read(&mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => seen.lock().unwrap().process(&buf[..n]),
                }
            }
        })
    };
    let wait_for = |needle: &str| {
        let start = Instant::now();
        while !seen.lock().unwrap().screen().contents().contains(needle) {
            assert!(
                start.elapsed() < PATIENCE,
                "{needle:?} did not show:\n{}",
                seen.lock().unwrap().screen().contents()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    wait_for("Lesson 1/4");
    master.write_all(b"w").unwrap();
    wait_for("Exercise");
    master.write_all(b"\r").unwrap();
    wait_for("Exercise: ");
    master.write_all(b"// typed first\r").unwrap();
    wait_for("typed first");
    reader.join().unwrap();
    // The backlog: 300 KB of keys, newlines as the CR a terminal sends.
    let line = format!("x = x + 1; // {}\r", "a".repeat(50));
    master
        .write_all(line.repeat(300_000 / line.len()).as_bytes())
        .unwrap();
    // The terminal goes: our end of the pty closes.
    drop(master);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("still running {PATIENCE:?} after the terminal closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(128 + 1), "ends as a hangup: {status:?}");
    let saved = std::fs::read_to_string(state.path().join("exercises/time-a-copy.cu")).unwrap();
    assert!(saved.starts_with("// typed first\n"), "saved: {saved:.200}");
    let logs: Vec<_> = std::fs::read_dir(state.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("crash-"))
        .collect();
    assert!(logs.is_empty(), "crash logs: {logs:?}");
}
