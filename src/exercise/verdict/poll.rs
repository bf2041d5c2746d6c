//! How grading looks at the check's [`Halt`] (Esc, the wall-clock limit, the memory budget):
//! criteria call [`Poll::tick`] once per unit of work (a timed pair, a log entry), and every
//! [`POLL_EVERY`] ticks it looks; a stop turns into the criterion's `Err`, and [`Poll::stopped`]
//! tells `verdict::check` to grade nothing more (review 2026-12-01b ED6: Esc could not stop
//! 25 minutes of grading).

use std::cell::Cell;

use crate::exercise::halt::{Halt, Halted};

/// Units of work between two looks: a look costs a clock read; 4,096 pair queries or log
/// entries take well under a millisecond.
pub const POLL_EVERY: u64 = 4096;

/// Grading's view of the check's stop.
pub struct Poll<'h> {
    halt: Halt<'h>,
    ticks: Cell<u64>,
    stopped: Cell<Option<Halted>>,
}

impl<'h> Poll<'h> {
    pub fn new(halt: Halt<'h>) -> Poll<'h> {
        Poll {
            halt,
            ticks: Cell::new(0),
            stopped: Cell::new(None),
        }
    }

    /// One unit of work; `Err` with the stop's message once the check must stop.
    pub fn tick(&self) -> Result<(), String> {
        let n = self.ticks.get() + 1;
        self.ticks.set(n);
        if n.is_multiple_of(POLL_EVERY) {
            self.look()
        } else {
            Ok(())
        }
    }

    /// Look now (between two criteria).
    pub fn look(&self) -> Result<(), String> {
        if let Some(why) = self.stopped.get() {
            return Err(why.message());
        }
        match self.halt.halted() {
            Some(why) => {
                self.stopped.set(Some(why));
                Err(why.message())
            }
            None => Ok(()),
        }
    }

    /// Why grading stopped, once it did.
    pub fn stopped(&self) -> Option<Halted> {
        self.stopped.get()
    }

    /// Units of work counted so far (tests bound grading's work by it).
    #[cfg(test)]
    pub fn ticks(&self) -> u64 {
        self.ticks.get()
    }
}
