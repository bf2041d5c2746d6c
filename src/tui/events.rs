//! The sources of the loop's one channel: terminal input (a thread polling
//! `crossterm::event::read`, paused while `Ctrl-E`'s editor owns the terminal) and signals through
//! signal-hook: SIGTERM, SIGHUP, SIGINT and SIGQUIT end the tutorial (saved, restored), and so
//! do the signals whose default action would kill it with the terminal left broken (SIGUSR1,
//! SIGUSR2, SIGALRM, SIGVTALRM, and SIGXCPU, the soft CPU-time limit, which leaves time to save
//! before the hard one); SIGTSTP suspends it like vim or less; SIGCONT redraws. (SIGXFSZ is
//! ignored for every command, in `main`: a write past `ulimit -f` then fails with EFBIG.)
//!
//! A lost terminal (the other side of the pty closed, a hangup) is watched for on a thread of
//! its own ([`spawn_hangup_watch`]): crossterm's reader spins on a terminal at EOF instead of
//! failing. An ending signal and a lost terminal are also flags ([`ending_signal`],
//! [`terminal_lost`]) that the loop reads between queued events, so that neither waits behind a
//! backlog of keys (review 2026-12-01b: 15 minutes of typed-in paste after the pane closed).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread;
use std::time::Duration;

use ratatui::crossterm::event::{self, Event as TermEvent, MouseEventKind};
use signal_hook::consts::{
    SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2, SIGVTALRM,
    SIGXCPU,
};
use signal_hook::iterator::Signals;

use crate::app::Msg;

/// Set while another program owns the terminal (`external_editor`): the input thread stops
/// reading.
pub static INPUT_PAUSED: AtomicBool = AtomicBool::new(false);
/// The input thread's answer: it has seen the pause and is not inside a read.
pub static INPUT_IDLE: AtomicBool = AtomicBool::new(false);

/// The last signal that ends the tutorial (0: none yet), for code that cannot read the loop's
/// channel while it waits: `external_editor`, waiting for `$EDITOR` (review 2026-12-01 E10:
/// SIGTERM waited for the editor to exit).
static ENDING: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// The signal that is ending the tutorial, if one arrived.
pub fn ending_signal() -> Option<i32> {
    Some(ENDING.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

/// Set once the terminal is gone (hung up, or at EOF): nothing more can be read or drawn.
static LOST: AtomicBool = AtomicBool::new(false);

/// Why the terminal can no longer be used, once it is gone.
pub const TERMINAL_LOST: &str = "the terminal closed (hangup or end of input)";

/// Whether the terminal is gone (see [`spawn_hangup_watch`]).
pub fn terminal_lost() -> bool {
    LOST.load(Ordering::SeqCst)
}

/// What arrives on the loop's channel.
#[derive(Debug)]
pub enum Event {
    /// For [`crate::app::App::update`].
    App(Msg),
    /// SIGTERM, SIGHUP, SIGINT or SIGQUIT: save, restore, leave.
    Signal(i32),
    /// SIGTSTP (`kill -TSTP`; Ctrl-Z is a key in raw mode): save, restore, stop.
    Suspend,
    /// SIGCONT: the terminal may have been used by others meanwhile; take it back and redraw.
    Continued,
    /// Reading the terminal failed (it went away).
    InputFailed(String),
}

/// Forward terminal events until the receiver is gone. Mouse motion is dropped here: with
/// capture on, every pointer move is an event, and none of them changes the screen.
pub fn spawn_input(tx: Sender<Event>) {
    thread::spawn(move || {
        loop {
            if terminal_lost() {
                return;
            }
            // While the learner's own editor has the terminal, do not read its keys.
            let paused = INPUT_PAUSED.load(Ordering::SeqCst);
            INPUT_IDLE.store(paused, Ordering::SeqCst);
            if paused || !event::poll(Duration::from_millis(50)).unwrap_or(true) {
                if paused {
                    thread::sleep(Duration::from_millis(20));
                }
                continue;
            }
            let msg = match event::read() {
                Ok(TermEvent::Key(key)) => Msg::Key(key),
                Ok(TermEvent::Mouse(m)) if !matches!(m.kind, MouseEventKind::Moved) => {
                    Msg::Mouse(m)
                }
                Ok(TermEvent::Resize(w, h)) => Msg::Resize(w, h),
                Ok(TermEvent::Paste(text)) => Msg::Paste(text),
                Ok(_) => continue,
                Err(err) => {
                    LOST.store(true, Ordering::SeqCst);
                    let _ = tx.send(Event::InputFailed(err.to_string()));
                    return;
                }
            };
            if tx.send(Event::App(msg)).is_err() {
                return;
            }
        }
    });
}

/// Watch standard input (the terminal the tutorial reads, as crossterm does) for a hangup: a
/// `poll` asking for no events still reports POLLHUP, POLLERR and POLLNVAL, and reads nothing,
/// so it takes no key from the input thread. When the terminal goes, set the flag the loop reads
/// between events and say so on the channel (for a loop that was idle).
pub fn spawn_hangup_watch(tx: Sender<Event>) {
    thread::spawn(move || {
        if wait_for_hangup(&std::io::stdin()) {
            LOST.store(true, Ordering::SeqCst);
            let _ = tx.send(Event::InputFailed(TERMINAL_LOST.to_string()));
        }
    });
}

/// Whether the terminal has hung up, asked now without waiting (a failed draw may be the first
/// to know); sets the flag when it has.
pub fn hung_up_now() -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let stdin = std::io::stdin();
    let mut fds = [PollFd::new(&stdin, PollFlags::empty())];
    let zero = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    let gone = matches!(poll(&mut fds, Some(&zero)), Ok(n) if n > 0);
    if gone {
        LOST.store(true, Ordering::SeqCst);
    }
    gone
}

/// Block until `fd` hangs up or fails; `false` when it cannot be watched at all (the input
/// thread's own errors still end the loop then).
fn wait_for_hangup(fd: &impl std::os::fd::AsFd) -> bool {
    use rustix::event::{PollFd, PollFlags, poll};
    loop {
        let mut fds = [PollFd::new(fd, PollFlags::empty())];
        match poll(&mut fds, None) {
            Ok(_) if !fds[0].revents().is_empty() => return true,
            Ok(_) | Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return false,
        }
    }
}

/// Forward SIGTERM, SIGHUP, SIGINT and SIGQUIT (from `kill`; Ctrl-C and Ctrl-\\ in raw mode are
/// keys) to the loop, which wakes, saves progress and restores the terminal; and SIGTSTP and
/// SIGCONT, which suspend and resume it. (Handling SIGTSTP replaces its default stop: the loop
/// stops the process itself, once the terminal is restored.)
pub fn spawn_signals(tx: Sender<Event>) -> anyhow::Result<()> {
    let mut signals = Signals::new([
        SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGCONT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
        SIGXCPU,
    ])
    .map_err(|e| anyhow::anyhow!("cannot install signal handlers: {e}"))?;
    thread::spawn(move || {
        for sig in signals.forever() {
            let event = match sig {
                SIGTSTP => Event::Suspend,
                SIGCONT => Event::Continued,
                sig => {
                    ENDING.store(sig, Ordering::SeqCst);
                    Event::Signal(sig)
                }
            };
            if tx.send(event).is_err() {
                return;
            }
        }
    });
    Ok(())
}

/// Make room for SIGXCPU before the kernel's SIGKILL: `ulimit -t N` sets the soft and the hard
/// CPU-time limits to the same N, and reaching it then kills at once (review 2026-12-01 S3: the
/// terminal left broken, the typed line lost). With the soft limit a little lower, SIGXCPU
/// comes first and ends the tutorial as SIGTERM does. Best effort: lowering a soft limit is
/// always allowed.
pub fn leave_room_before_cpu_kill() {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    if let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_CPU)
        && let Some(lower) = soft_cpu_limit(soft, hard)
    {
        let _ = setrlimit(Resource::RLIMIT_CPU, lower, hard);
    }
}

/// The soft CPU-time limit (seconds) to set, when the soft one gives no warning before the hard
/// one: two seconds below a finite hard limit, or half of a hard limit under four seconds.
fn soft_cpu_limit(soft: u64, hard: u64) -> Option<u64> {
    let infinite = nix::sys::resource::RLIM_INFINITY;
    if hard == infinite || hard < 2 || soft < hard {
        return None;
    }
    Some(hard - (hard / 2).min(2))
}

/// Stop this process (as the default SIGTSTP action would) until a SIGCONT.
pub fn stop_self() {
    // SIGSTOP cannot be caught: the process stops here and carries on after SIGCONT.
    let _ = signal_hook::low_level::raise(signal_hook::consts::SIGSTOP);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::{soft_cpu_limit, wait_for_hangup};
    use nix::sys::resource::RLIM_INFINITY;

    /// Review 2026-12-01b: the input thread spun on a closed terminal. The watch answers when
    /// the other side goes (a pipe's write end closing hangs up its read end, as the master of
    /// a pty closing hangs up the terminal), and reads nothing meanwhile.
    #[test]
    fn the_watch_answers_when_the_other_side_closes() {
        let (read, write) = std::io::pipe().unwrap();
        let watch = std::thread::spawn(move || wait_for_hangup(&read));
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!watch.is_finished(), "no hangup yet: still waiting");
        drop(write);
        assert!(watch.join().unwrap(), "the hangup is seen");
    }

    /// Review 2026-12-01 S3: `ulimit -t 6` (soft = hard = 6) killed the TUI with no warning.
    #[test]
    fn equal_cpu_limits_get_a_lower_soft_one() {
        assert_eq!(soft_cpu_limit(6, 6), Some(4));
        assert_eq!(soft_cpu_limit(3, 3), Some(2));
        assert_eq!(soft_cpu_limit(2, 2), Some(1));
        // Nothing to do: no limit, a warning already due, or no room for one.
        assert_eq!(soft_cpu_limit(RLIM_INFINITY, RLIM_INFINITY), None);
        assert_eq!(soft_cpu_limit(4, 6), None);
        assert_eq!(soft_cpu_limit(1, 1), None);
    }
}
