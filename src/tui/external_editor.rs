//! Ctrl-E: the learner's own editor (`$VISUAL`, else `$EDITOR`, else `vi`) on the exercise
//! file, as git and lazygit do: the input thread is paused (so it does not steal the editor's
//! keys), the terminal leaves raw mode and the alternate screen, the editor runs in the
//! foreground, and then the TUI comes back and redraws from scratch.
//!
//! Job control is a shell's, as for any job: the editor runs in its own process group, which
//! is given the terminal (`tcsetpgrp`). Ctrl-C and Ctrl-\ then reach the editor only, never
//! the tutorial; Ctrl-Z stops the editor, and the tutorial (waiting with `WUNTRACED`) takes the
//! terminal back and stops itself, so the learner's shell sees one stopped job; on `fg` the
//! tutorial gives the terminal back to the editor and continues it. Where there is no
//! controlling terminal to hand over, the editor simply runs and is waited for.

use std::os::unix::process::{CommandExt, ExitStatusExt};

use nix::errno::Errno;
use nix::sys::signal::{self, SigSet, SigmaskHow, Signal};
use nix::sys::wait::{self, WaitPidFlag, WaitStatus};
use nix::unistd::{self, Pid};
use std::path::Path;
use std::process::{Command, ExitStatus};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::events::{INPUT_IDLE, INPUT_PAUSED};

/// The terminal the editor borrows: given up before it runs, set up again after (the shell's
/// [`super::terminal::Terminal`]; a trait here so that this file needs nothing of it).
pub trait Handover: Sized {
    /// Leave raw mode and the alternate screen.
    fn restore(&mut self);
    /// The terminal set up again, as it was.
    fn enter_again(&self) -> anyhow::Result<Self>;
}

/// The editor command line to run (a program and its arguments, split on whitespace).
fn editor_command() -> Vec<String> {
    let value = ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".into());
    split_command(&value, |p| Path::new(p).is_file())
}

/// `value` split on whitespace (no shell, no quoting), except that a value which as a whole
/// names a file (`is_file`) is that one program: review 2026-12-01 E4, `/path/my editor/ed.sh`
/// was split at the space and could not be run.
fn split_command(value: &str, is_file: impl Fn(&str) -> bool) -> Vec<String> {
    let whole = value.trim();
    if whole.contains(char::is_whitespace) && is_file(whole) {
        return vec![whole.to_string()];
    }
    whole.split_whitespace().map(str::to_string).collect()
}

/// Suspend the TUI, edit `file`, come back. The inner `Err` says why the editor did not run (the
/// TUI is back); the outer one that the terminal could not be taken back (the tutorial ends).
pub fn edit<T: Handover>(term: &mut T, file: &Path) -> anyhow::Result<Result<(), String>> {
    INPUT_PAUSED.store(true, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_millis(500);
    while !INPUT_IDLE.load(Ordering::SeqCst) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    term.restore();
    let argv = editor_command();
    let status = match argv.split_first() {
        Some((program, args)) => run_as_job(Command::new(program).args(args).arg(file)),
        None => Err(std::io::Error::other("no editor set")),
    };
    let back = term.enter_again();
    INPUT_PAUSED.store(false, Ordering::SeqCst);
    *term = back?;
    Ok(match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{} exited with {s}", argv.join(" "))),
        Err(e) if argv.len() > 1 => Err(format!(
            "cannot run {:?} (the program of {:?}: the value is split at spaces, without \
             quoting): {e}; set $VISUAL or $EDITOR to your editor",
            argv[0],
            argv.join(" ")
        )),
        Err(e) => Err(format!(
            "cannot run {:?}: {e}; set $VISUAL or $EDITOR to your editor",
            argv.join(" ")
        )),
    })
}

/// How long the editor has to end after the tutorial passed it a terminating signal, before
/// it is killed.
const EDITOR_GRACE: Duration = Duration::from_secs(2);

/// How often the editor is looked at while it runs (a signal to the tutorial is noticed within
/// this).
const EDITOR_POLL: Duration = Duration::from_millis(20);

/// Run `cmd` as a foreground job of its own, as a shell does (see the module's notes). A signal
/// that ends the tutorial (SIGTERM, SIGHUP, ...) while it runs is passed on to the editor, which
/// is killed if it has not ended [`EDITOR_GRACE`] later; the caller then takes the terminal
/// back, and the loop saves, restores and exits on that signal (review 2026-12-01 E10).
fn run_as_job(cmd: &mut Command) -> std::io::Result<ExitStatus> {
    let tty = std::io::stdin();
    let own = unistd::getpgrp();
    // Without a terminal of ours to hand over (or when we are not its foreground): no job
    // control, the editor stays in our group.
    let job = unistd::tcgetpgrp(&tty).ok() == Some(own);
    if job {
        cmd.process_group(0);
    }
    let child = cmd.spawn()?;
    let pid = Pid::from_raw(i32::try_from(child.id()).map_err(std::io::Error::other)?);
    let signal_editor = |sig: Signal| {
        let _ = if job {
            signal::killpg(pid, sig)
        } else {
            signal::kill(pid, sig)
        };
    };
    if job {
        give_terminal(pid);
    }
    // Stops are the job's business only where we run the job.
    let flags = if job {
        WaitPidFlag::WUNTRACED | WaitPidFlag::WNOHANG
    } else {
        WaitPidFlag::WNOHANG
    };
    let mut ending: Option<Instant> = None;
    let status = loop {
        match wait::waitpid(pid, Some(flags)) {
            Err(Errno::EINTR) => {}
            Err(e) => {
                if job {
                    give_terminal(own);
                }
                return Err(e.into());
            }
            Ok(WaitStatus::StillAlive) => {
                match ending {
                    None if super::events::ending_signal().is_some() => {
                        // SIGTERM rather than the signal itself: SIGINT or SIGQUIT would be
                        // the learner's keys to the editor, which some editors ignore.
                        signal_editor(Signal::SIGTERM);
                        signal_editor(Signal::SIGCONT);
                        ending = Some(Instant::now());
                    }
                    Some(at) if at.elapsed() > EDITOR_GRACE => signal_editor(Signal::SIGKILL),
                    _ => {}
                }
                std::thread::sleep(EDITOR_POLL);
            }
            // Stopped for touching the terminal before it was handed over: go on.
            Ok(WaitStatus::Stopped(_, Signal::SIGTTIN | Signal::SIGTTOU)) if job => {
                give_terminal(pid);
                let _ = signal::killpg(pid, Signal::SIGCONT);
            }
            // Ctrl-Z in the editor: stop the whole job, as the shell expects; on `fg` the shell
            // continues us and gives us the terminal, which we pass on to the editor.
            Ok(WaitStatus::Stopped(..)) if job && ending.is_none() => {
                give_terminal(own);
                super::events::stop_self();
                give_terminal(pid);
                let _ = signal::killpg(pid, Signal::SIGCONT);
            }
            Ok(WaitStatus::Stopped(..)) => signal_editor(Signal::SIGCONT),
            Ok(WaitStatus::Exited(_, code)) => break ExitStatus::from_raw((code & 0xff) << 8),
            Ok(WaitStatus::Signaled(_, sig, _)) => break ExitStatus::from_raw(sig as i32),
            Ok(_) => {}
        }
    };
    if job {
        give_terminal(own);
    }
    Ok(status)
}

/// Make process group `pgrp` the terminal's foreground group. From a background group that
/// raises SIGTTOU, so it is blocked for the call.
fn give_terminal(pgrp: Pid) {
    let mut ttou = SigSet::empty();
    ttou.add(Signal::SIGTTOU);
    let mut old = SigSet::empty();
    let blocked = signal::pthread_sigmask(SigmaskHow::SIG_BLOCK, Some(&ttou), Some(&mut old));
    let _ = unistd::tcsetpgrp(std::io::stdin(), pgrp);
    if blocked.is_ok() {
        let _ = signal::pthread_sigmask(SigmaskHow::SIG_SETMASK, Some(&old), None);
    }
}

#[cfg(test)]
mod tests {
    use super::split_command;

    /// Review 2026-12-01 E4: a path with a space is one program when it names a file;
    /// otherwise the value is split at whitespace, as before (no shell involved).
    #[test]
    fn a_whole_value_naming_a_file_is_one_program() {
        let only = |p: &str| p == "/path/my editor/ed.sh";
        assert_eq!(
            split_command(" /path/my editor/ed.sh ", only),
            ["/path/my editor/ed.sh"]
        );
        assert_eq!(split_command("vim -u NONE", only), ["vim", "-u", "NONE"]);
        assert_eq!(
            split_command("true;touch PWNED", only),
            ["true;touch", "PWNED"]
        );
        assert_eq!(split_command("nano", |_| true), ["nano"]);
    }
}
