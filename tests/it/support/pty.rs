//! The real binary in a pseudo-terminal (expectrl), its screen read back through a terminal
//! emulator (vt100): the harness the end-to-end tests share.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};

use expectrl::Session;
use expectrl::process::unix::WaitStatus;

pub const RIGHT: &str = "\x1b[C";
pub const DOWN: &str = "\x1b[B";

/// A running program and what its screen shows.
pub struct Tui {
    session: expectrl::session::OsSession,
    screen: vt100::Parser,
}

impl Tui {
    /// Start `cmd` in a `cols` x `rows` pseudo-terminal.
    /// `TERM` is `xterm-256color` unless `cmd` sets it.
    pub fn spawn(mut cmd: Command, cols: u16, rows: u16) -> Tui {
        if !cmd.get_envs().any(|(k, _)| k == "TERM") {
            cmd.env("TERM", "xterm-256color");
        }
        let mut session = Session::spawn(cmd).expect("spawn cuda-academy in a pty");
        session
            .get_process_mut()
            .set_window_size(cols, rows)
            .unwrap();
        Tui {
            session,
            screen: vt100::Parser::new(rows.try_into().unwrap(), cols.try_into().unwrap(), 0),
        }
    }

    /// Read what is there; false once the program has closed the terminal.
    pub fn pump(&mut self) -> bool {
        let mut buf = [0u8; 16384];
        loop {
            match self.session.try_read(&mut buf) {
                Ok(0) => return false,
                Ok(n) => self.screen.process(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return true,
                Err(_) => return false,
            }
        }
    }

    /// The child's process id (to send it signals).
    pub fn pid(&self) -> String {
        self.session.get_process().pid().to_string()
    }

    /// Whether the program has the alternate screen on (it does while the TUI is drawn).
    pub fn alternate_screen(&self) -> bool {
        self.screen.screen().alternate_screen()
    }

    /// Wait (at most `limit`) until `done` holds for this terminal.
    #[track_caller]
    pub fn wait_until(&mut self, what: &str, limit: Duration, done: impl Fn(&Tui) -> bool) {
        let start = Instant::now();
        while start.elapsed() < limit {
            self.pump();
            if done(self) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!(
            "{what} did not happen in {limit:?}; the screen:\n{}",
            self.text()
        );
    }

    pub fn text(&self) -> String {
        self.screen.screen().contents()
    }

    /// Wait (at most `limit`) until `needle` shows; returns how long that took.
    #[track_caller]
    pub fn wait_for_within(&mut self, needle: &str, limit: Duration) -> Duration {
        let start = Instant::now();
        while start.elapsed() < limit {
            let open = self.pump();
            if self.text().contains(needle) {
                return start.elapsed();
            }
            assert!(
                open,
                "the program ended before showing {needle:?}:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        panic!(
            "{needle:?} did not appear in {limit:?}; the screen:\n{}",
            self.text()
        );
    }

    /// Write `keys` to the terminal.
    pub fn send(&mut self, keys: &str) {
        self.session.write_all(keys.as_bytes()).unwrap();
        self.session.flush().unwrap();
    }

    /// Wait for the process to end; returns its exit code and the screen left behind.
    pub fn exit_code(mut self) -> (i32, String) {
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
