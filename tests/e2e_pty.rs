//! Drives the real binary in a pseudo-terminal and reads the screen through a terminal emulator
//! (vt100): launch, move through cards, answer a question, quit, relaunch and see it resume; and
//! check that a signal restores the terminal.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use cuda_academy::app::fixture;
use expectrl::Session;
use expectrl::process::unix::WaitStatus;

const COLS: u16 = 100;
const ROWS: u16 = 30;
const RIGHT: &str = "\x1b[C";
const DOWN: &str = "\x1b[B";

/// A running tutorial and what its screen shows.
struct Tui {
    session: expectrl::session::OsSession,
    screen: vt100::Parser,
}

impl Tui {
    fn launch(lessons: &Path, state: &Path) -> Tui {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cuda-academy"));
        cmd.arg("--lessons").arg(lessons).arg("--no-mouse");
        cmd.env("CUDA_ACADEMY_STATE_DIR", state)
            .env("TERM", "xterm-256color");
        let mut session = Session::spawn(cmd).expect("spawn cuda-academy in a pty");
        session
            .get_process_mut()
            .set_window_size(COLS, ROWS)
            .unwrap();
        Tui {
            session,
            screen: vt100::Parser::new(ROWS.try_into().unwrap(), COLS.try_into().unwrap(), 0),
        }
    }

    /// Read what is there; false once the program has closed the terminal.
    fn pump(&mut self) -> bool {
        let mut buf = [0u8; 8192];
        loop {
            match self.session.try_read(&mut buf) {
                Ok(0) => return false,
                Ok(n) => self.screen.process(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return true,
                Err(_) => return false,
            }
        }
    }

    fn text(&self) -> String {
        self.screen.screen().contents()
    }

    #[track_caller]
    fn wait_for(&mut self, needle: &str) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(15) {
            let open = self.pump();
            if self.text().contains(needle) {
                return;
            }
            assert!(
                open,
                "the program ended before showing {needle:?}:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!(
            "{needle:?} did not appear in 15 s; the screen:\n{}",
            self.text()
        );
    }

    fn keys(&mut self, keys: &str) {
        self.session.write_all(keys.as_bytes()).unwrap();
        self.session.flush().unwrap();
        // Let the app draw before the next key, as a person would.
        std::thread::sleep(Duration::from_millis(150));
        self.pump();
    }

    /// Wait for the process to end; returns its exit code and the screen left behind.
    fn exit_code(mut self) -> (i32, String) {
        let start = Instant::now();
        loop {
            self.pump();
            // `status` reaps the child once it has ended, so it is asked only here.
            match self.session.get_process().status().unwrap() {
                WaitStatus::StillAlive => {}
                WaitStatus::Exited(_, code) => {
                    self.pump();
                    return (code, self.text());
                }
                other => panic!("ended abnormally: {other:?}\n{}", self.text()),
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "did not exit:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
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
    let mut tui = Tui::launch(lessons.path(), state.path());
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

    let mut tui = Tui::launch(lessons.path(), state.path());
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
    let mut tui = Tui::launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 1/3");
    tui.keys(RIGHT);
    tui.wait_for("card 2/3");
    let pid = tui.session.get_process().pid().to_string();
    let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(status.success());
    let (code, screen) = tui.exit_code();
    assert_eq!(code, 128 + 15, "exit status 128 + SIGTERM");
    assert!(
        !screen.contains("Lesson"),
        "the TUI stayed on screen:\n{screen}"
    );
    let mut tui = Tui::launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 2/3");
    tui.keys("q");
    tui.exit_code();
}
