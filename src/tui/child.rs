//! Short-lived helper processes the tutorial asks something (today: `tmux display-message`),
//! each with a time limit: a helper that hangs (review 2026-12-01 U5: tmux at `ulimit -n 8`
//! never answered, and the tutorial never started) is killed and counts as no answer. The
//! learner's own programs (`$EDITOR`, the browser opener) are not helpers: the editor has the
//! terminal for as long as the learner wants, and the opener is never waited on.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Most bytes of a helper's output kept (a helper's answer is a line).
const OUTPUT_CAP: u64 = 64 * 1024;

/// How often the child is looked at while it runs.
const POLL: Duration = Duration::from_millis(5);

/// Run `command` with stdin and stderr closed and return its exit status and stdout, or `None`
/// when it cannot start or has not ended within `limit` (it is then killed and reaped).
pub fn output_within(mut command: Command, limit: Duration) -> Option<(ExitStatus, Vec<u8>)> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let stdout = child.stdout.take()?;
    // Read on a thread: a child that fills its pipe must not block, nor one whose own child
    // keeps the pipe open after it exits.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.take(OUTPUT_CAP).read_to_end(&mut out);
        let _ = tx.send(out);
    });
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let left = deadline.saturating_duration_since(Instant::now());
                let out = rx.recv_timeout(left.max(POLL)).unwrap_or_default();
                return Some((status, out));
            }
            Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn an_answer_comes_back() {
        let mut c = Command::new("sh");
        c.args(["-c", "echo hyperlinks"]);
        let (status, out) = output_within(c, Duration::from_secs(60)).unwrap();
        assert!(status.success());
        assert_eq!(String::from_utf8_lossy(&out).trim(), "hyperlinks");
    }

    #[test]
    fn a_helper_that_hangs_is_no_answer_and_is_killed() {
        let mut c = Command::new("sh");
        // `exec`: the shell becomes the sleep, so killing the child kills it.
        c.args(["-c", "exec sleep 1000"]);
        assert!(output_within(c, Duration::from_millis(50)).is_none());
    }

    #[test]
    fn a_missing_program_is_no_answer() {
        let c = Command::new("/nonexistent/cuda-academy-helper");
        assert!(output_within(c, Duration::from_secs(60)).is_none());
    }
}
