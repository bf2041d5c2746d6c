//! Drives the real binary in a pseudo-terminal and reads the screen through a terminal emulator
//! (vt100): launch, move through cards, answer a question, quit, relaunch and see it resume; and
//! check that a signal restores the terminal.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use cuda_academy::app::fixture;

use crate::pty::{DOWN, RIGHT, Tui};

const COLS: u16 = 100;
const ROWS: u16 = 30;

fn launch(lessons: &Path, state: &Path) -> Tui {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cuda-academy"));
    cmd.arg("--lessons").arg(lessons).arg("--no-mouse");
    cmd.env("CUDA_ACADEMY_STATE_DIR", state);
    Tui::spawn(cmd, COLS, ROWS)
}

/// How a person uses it: wait to see something, press a key and let the app draw.
trait Person {
    fn wait_for(&mut self, needle: &str);
    fn keys(&mut self, keys: &str);
}

impl Person for Tui {
    #[track_caller]
    fn wait_for(&mut self, needle: &str) {
        self.wait_for_within(needle, Duration::from_secs(15));
    }

    /// No pause after the keys: the terminal queues them and the app reads them in order, and
    /// every check that follows waits for the screen to show its result.
    fn keys(&mut self, keys: &str) {
        self.send(keys);
        self.pump();
    }
}

fn lesson_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in fixture::sample_files() {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn answer_quit_relaunch_and_resume() {
    let lessons = lesson_dir();
    let state = tempfile::tempdir().unwrap();
    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 1/3");
    tui.keys(RIGHT);
    tui.wait_for("Lesson 1/4 · card 2/3");
    tui.keys("\t");
    tui.keys(DOWN);
    tui.keys("\r");
    tui.wait_for("✓ Correct");
    tui.keys("q");
    let (code, screen) = tui.exit_code();
    assert_eq!(code, 0);
    assert!(
        !screen.contains("Lesson"),
        "the TUI stayed on screen:\n{screen}"
    );

    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 2/3");
    tui.wait_for("✓ Correct");
    tui.wait_for("score 1/1");
    tui.keys("\x03");
    assert_eq!(tui.exit_code().0, 0, "Ctrl-C quits normally");
}

#[test]
fn sigterm_saves_and_restores_the_terminal() {
    let lessons = lesson_dir();
    let state = tempfile::tempdir().unwrap();
    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 1/3");
    tui.keys(RIGHT);
    tui.wait_for("card 2/3");
    let pid = tui.pid();
    let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(status.success());
    let (code, screen) = tui.exit_code();
    assert_eq!(code, 128 + 15, "exit status 128 + SIGTERM");
    assert!(
        !screen.contains("Lesson"),
        "the TUI stayed on screen:\n{screen}"
    );
    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 2/3");
    tui.keys("q");
    tui.exit_code();
}
