//! What stops a check from outside its program, in every phase (the parse, the run, the
//! reference run, the hazard search, grading): Esc, the wall-clock limit, counted from the
//! start of the check, not of each phase (review 2026-12-01 R1: a check whose run ended in time
//! spent minutes more in the hazard search), and a memory budget: how much the process's
//! resident memory may grow while the check runs (review 2026-12-01b CK1, CK5: a check grew to
//! 10 and 13 GB and aborted the process). Explicit limits (array sizes, GPU operations, the
//! host budget) bound each large allocation before it is made; the budget is the backstop for
//! the sum of many small ones that no count foresees.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a cancelled run says, at the statement it stopped before.
pub const CANCELLED: &str = "cancelled";

/// The most a check's memory may grow: 2 GiB, far above every shipped solution (a few MiB) and
/// well below the machines the tutorial runs on.
pub const MAX_CHECK_MEMORY: u64 = 2 << 30;

/// The smallest budget, on a machine with little memory left: a check below it always runs.
const MIN_CHECK_MEMORY: u64 = 256 << 20;

/// How often the resident size is read at most: reading `/proc/self/status` costs about 20 µs,
/// so polling it at every step would cost more than the step.
const MEMORY_READ_EVERY: Duration = Duration::from_millis(50);

/// Why a check was stopped from outside its program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halted {
    /// The cancel flag (Esc in the editor).
    Cancelled,
    /// The wall-clock limit, whose length it holds.
    OutOfTime(Duration),
    /// The process's resident memory grew by more than the check's budget, in bytes.
    OutOfMemory(u64),
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
            Halted::OutOfMemory(budget) => format!(
                "stopped: the check used more than {} MiB of memory, its limit; the program declares, allocates or logs too much (many arrays, very many calls): make it do less",
                budget >> 20
            ),
        }
    }
}

/// The cancel flag, the check's deadline and its memory budget, shared by every phase of one
/// check. Looking is cheap (a relaxed load, a clock read, and a resident size read at most
/// every 50 ms), so phases look often enough to stop within 100 ms: the run at every step (the
/// clock and memory every `CLOCK_EVERY` steps, 256), the hazard search at every log entry,
/// grading every few thousand ops.
#[derive(Debug, Clone, Copy)]
pub struct Halt<'a> {
    cancel: &'a AtomicBool,
    started: Instant,
    max_wall: Duration,
    /// The resident size when the check started, `None` where it cannot be read (off Linux):
    /// then only the explicit limits bound memory.
    rss_start: Option<u64>,
    max_growth: u64,
}

impl<'a> Halt<'a> {
    /// A check starting now, stopped by `cancel`, after `max_wall`, or when its memory grows
    /// by more than [`memory_budget`].
    pub fn new(cancel: &'a AtomicBool, max_wall: Duration) -> Halt<'a> {
        Halt::with_memory(cancel, max_wall, memory_budget())
    }

    /// [`Halt::new`] with a memory budget of `max_growth` bytes.
    pub fn with_memory(cancel: &'a AtomicBool, max_wall: Duration, max_growth: u64) -> Halt<'a> {
        Halt {
            cancel,
            started: Instant::now(),
            max_wall,
            rss_start: resident_fresh(),
            max_growth,
        }
    }

    /// Only the cancel flag (no deadline, no memory budget: a search callers bound themselves).
    pub fn cancel_only(cancel: &'a AtomicBool) -> Halt<'a> {
        Halt {
            rss_start: None,
            ..Halt::with_memory(cancel, Duration::MAX, u64::MAX)
        }
    }

    /// The cancel flag is set.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// How long the whole check may take.
    pub fn max_wall(&self) -> Duration {
        self.max_wall
    }

    /// How much the check's memory may grow, in bytes.
    pub fn max_growth(&self) -> u64 {
        self.max_growth
    }

    /// The deadline has passed.
    pub fn out_of_time(&self) -> bool {
        self.started.elapsed() >= self.max_wall
    }

    /// The process's resident memory (read at most every 50 ms) grew past the budget.
    pub fn out_of_memory(&self) -> bool {
        self.out_of_memory_beyond(0)
    }

    /// [`Halt::out_of_memory`], not counting `allowed` bytes the program holds by right: the
    /// host buffers it allocated on a backend where they take real memory (a live GPU's
    /// `cudaMallocHost` of 256 MiB is the exercise, not a runaway), which the host budget bounds.
    pub fn out_of_memory_beyond(&self, allowed: u64) -> bool {
        self.grown_past(resident(), allowed)
    }

    /// Whether a resident size of `now` bytes is more than the budget (and `allowed`) above
    /// the start.
    fn grown_past(&self, now: Option<u64>, allowed: u64) -> bool {
        match (self.rss_start, now) {
            (Some(start), Some(now)) => {
                now.saturating_sub(start) > self.max_growth.saturating_add(allowed)
            }
            _ => false,
        }
    }

    /// Why to stop now, if at all (a cancel first: the learner asked for it).
    pub fn halted(&self) -> Option<Halted> {
        if self.cancelled() {
            Some(Halted::Cancelled)
        } else if self.out_of_time() {
            Some(Halted::OutOfTime(self.max_wall))
        } else if self.out_of_memory() {
            Some(Halted::OutOfMemory(self.max_growth))
        } else {
            None
        }
    }
}

/// The memory budget of a check: [`MAX_CHECK_MEMORY`], or half of what this process has left
/// (free memory, or the room under `ulimit -v`) when that is less, but never below 256 MiB.
pub fn memory_budget() -> u64 {
    budget_for(crate::experiment::fit::host_available())
}

fn budget_for(available: Option<u64>) -> u64 {
    match available {
        Some(a) => (a / 2).clamp(MIN_CHECK_MEMORY, MAX_CHECK_MEMORY),
        None => MAX_CHECK_MEMORY,
    }
}

/// When the resident size was last read (in ms from [`epoch`], plus one; 0: never) and what
/// it was. Process-wide, as the resident size is: checks running at once share one reading.
static LAST_READ: AtomicU64 = AtomicU64::new(0);
static LAST_RSS: AtomicU64 = AtomicU64::new(0);

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// The resident size, read anew only when the last reading is older than 50 ms.
fn resident() -> Option<u64> {
    let now_ms = epoch().elapsed().as_millis() as u64 + 1;
    let last = LAST_READ.load(Ordering::Relaxed);
    if last != 0 && now_ms.saturating_sub(last) < MEMORY_READ_EVERY.as_millis() as u64 {
        return Some(LAST_RSS.load(Ordering::Relaxed));
    }
    resident_fresh()
}

/// The resident size read now (and remembered for [`resident`]).
fn resident_fresh() -> Option<u64> {
    let now_ms = epoch().elapsed().as_millis() as u64 + 1;
    // A kernel pseudo-file: small generated text, never a FIFO or device.
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let rss = crate::meminfo::field(&status, "VmRSS:")?;
    LAST_RSS.store(rss, Ordering::Relaxed);
    LAST_READ.store(now_ms, Ordering::Relaxed);
    Some(rss)
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
        let memory = Halted::OutOfMemory(2 << 30).message();
        assert!(
            memory.contains("the check used more than 2048 MiB"),
            "{memory}"
        );
        let cancel = AtomicBool::new(false);
        let halt = Halt::new(&cancel, Duration::from_secs(3600));
        assert_eq!(halt.halted(), None);
        cancel.store(true, Ordering::Relaxed);
        assert_eq!(halt.halted(), Some(Halted::Cancelled));
        let never = AtomicBool::new(false);
        let late = Halt::new(&never, Duration::ZERO);
        assert_eq!(late.halted(), Some(Halted::OutOfTime(Duration::ZERO)));
    }

    /// Issue 29: growth past the budget stops the check; growth within it, a shrink, or a
    /// size that cannot be read does not.
    #[test]
    fn memory_growth_past_the_budget_stops_the_check() {
        let never = AtomicBool::new(false);
        let halt = Halt {
            rss_start: Some(100 << 20),
            ..Halt::with_memory(&never, Duration::from_secs(3600), 64 << 20)
        };
        assert!(!halt.grown_past(Some(164 << 20), 0), "exactly the budget");
        assert!(halt.grown_past(Some((164 << 20) + 1), 0));
        assert!(
            !halt.grown_past(Some((164 << 20) + 1), 1),
            "the program's own"
        );
        assert!(!halt.grown_past(Some(10 << 20), 0), "a shrink");
        assert!(!halt.grown_past(None, 0), "unreadable");
        let unknown = Halt {
            rss_start: None,
            ..halt
        };
        assert!(!unknown.grown_past(Some(u64::MAX), 0));
    }

    /// The real reading: a budget of 0 and 64 MiB touched after the start stop the check.
    #[test]
    fn a_real_allocation_past_a_tiny_budget_is_seen() {
        let never = AtomicBool::new(false);
        let halt = Halt::with_memory(&never, Duration::from_secs(3600), 0);
        if halt.rss_start.is_none() {
            return; // not Linux: nothing to read
        }
        let big = std::hint::black_box(vec![1u8; 64 << 20]);
        assert!(halt.grown_past(resident_fresh(), 0), "{}", big.len());
        assert_eq!(
            halt.halted(),
            Some(Halted::OutOfMemory(0)),
            "fresh reading was cached"
        );
    }

    #[test]
    fn the_budget_is_half_of_what_is_left_within_bounds() {
        assert_eq!(budget_for(None), MAX_CHECK_MEMORY);
        assert_eq!(budget_for(Some(64 << 30)), MAX_CHECK_MEMORY);
        assert_eq!(budget_for(Some(1 << 30)), 512 << 20);
        assert_eq!(budget_for(Some(100 << 20)), MIN_CHECK_MEMORY);
    }
}
