//! What stops a check from outside its program, in every phase (the parse, the run, the
//! reference run, the hazard search, grading): Esc and the wall-clock limit, counted from the
//! start of the check, not of each phase (review 2026-12-01 R1: a check whose run ended in time
//! spent minutes more in the hazard search).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What a cancelled run says, at the statement it stopped before.
pub const CANCELLED: &str = "cancelled";

/// Why a check was stopped from outside its program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halted {
    /// The cancel flag (Esc in the editor).
    Cancelled,
    /// The wall-clock limit, whose length it holds.
    OutOfTime(Duration),
}

impl Halted {
    /// What the verdict says: "cancelled", or which limit fired and what to do.
    pub fn message(self) -> String {
        match self {
            Halted::Cancelled => CANCELLED.into(),
            Halted::OutOfTime(limit) => format!(
                "stopped after {}: the wall-clock limit for a check; the program's work (or the check of it) takes too long: make it do less (fewer calls, fewer loop iterations)",
                wall_words(limit)
            ),
        }
    }
}

/// The cancel flag and the check's deadline, shared by every phase of one check. Looking is
/// cheap (a relaxed load, and a clock read), so phases look often enough to stop within
/// 100 ms: the run at every step (the clock every `CLOCK_EVERY` steps, 256), the hazard search
/// at every log entry.
#[derive(Debug, Clone, Copy)]
pub struct Halt<'a> {
    cancel: &'a AtomicBool,
    started: Instant,
    max_wall: Duration,
}

impl<'a> Halt<'a> {
    /// A check starting now, stopped by `cancel` or after `max_wall`.
    pub fn new(cancel: &'a AtomicBool, max_wall: Duration) -> Halt<'a> {
        Halt {
            cancel,
            started: Instant::now(),
            max_wall,
        }
    }

    /// Only the cancel flag (no deadline: a search callers bound themselves).
    pub fn cancel_only(cancel: &'a AtomicBool) -> Halt<'a> {
        Halt::new(cancel, Duration::MAX)
    }

    /// The cancel flag is set.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// How long the whole check may take.
    pub fn max_wall(&self) -> Duration {
        self.max_wall
    }

    /// The deadline has passed.
    pub fn out_of_time(&self) -> bool {
        self.started.elapsed() >= self.max_wall
    }

    /// Why to stop now, if at all (a cancel first: the learner asked for it).
    pub fn halted(&self) -> Option<Halted> {
        if self.cancelled() {
            Some(Halted::Cancelled)
        } else if self.out_of_time() {
            Some(Halted::OutOfTime(self.max_wall))
        } else {
            None
        }
    }
}

/// A limit in words: "60 s", or "0.5 s" / "1 ms" for the small ones tests use.
fn wall_words(d: Duration) -> String {
    if d.as_millis() >= 1000 && d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else if d.as_millis() >= 1000 {
        format!("{:.1} s", d.as_secs_f64())
    } else {
        format!("{} ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_messages_say_what_fired_and_what_to_do() {
        let wall = Halted::OutOfTime(Duration::from_secs(60)).message();
        assert!(
            wall.starts_with("stopped after 60 s: the wall-clock limit"),
            "{wall}"
        );
        assert!(wall.contains("make it do less"), "{wall}");
        assert_eq!(Halted::Cancelled.message(), CANCELLED);
        let cancel = AtomicBool::new(false);
        let halt = Halt::new(&cancel, Duration::from_secs(3600));
        assert_eq!(halt.halted(), None);
        cancel.store(true, Ordering::Relaxed);
        assert_eq!(halt.halted(), Some(Halted::Cancelled));
        let never = AtomicBool::new(false);
        let late = Halt::new(&never, Duration::ZERO);
        assert_eq!(late.halted(), Some(Halted::OutOfTime(Duration::ZERO)));
    }
}
