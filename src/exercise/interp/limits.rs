//! How far a program may go: the step budget, the cap on GPU operations, the host memory
//! budget, a wall-clock limit, and the cancel flag, polled at every step (every statement and
//! every loop iteration), so a cancel stops even a loop with an empty body at once.
//!
//! A step is a statement or an expression, and a helper that does work in proportion to its
//! size is charged for that work ([`Interp::charge`]): a `fill_input` over part of a buffer
//! writes float by float (one step each), and `check_output`, a whole-buffer `fill_input` and a
//! host `memcpy` cost one step per [`ELEMENTS_PER_STEP`] floats. So the budget bounds time,
//! not just statements (one call used to count once and cost 65 ms). The wall-clock limit is
//! the backstop for work no count foresees; its verdict says that it fired.
//!
//! The run polls [`Halt`] (`crate::exercise::halt`), which stops a check from outside its program.

use std::time::Duration;

use super::eval::stop;
use super::{Interp, Res, Stop};
use crate::exercise::ast::Pos;
pub use crate::exercise::halt::{CANCELLED, Halt, Halted};

/// How far a program may go before it is stopped.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_steps: u64,
    pub max_gpu_ops: u64,
    /// Host memory a program may allocate in all.
    pub max_host_bytes: u64,
    /// Wall-clock time a whole check may take: the run, the reference run, the hazard search
    /// and grading together (see [`Halt`]).
    pub max_wall: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: MAX_STEPS,
            max_gpu_ops: 100_000,
            max_host_bytes: 8 << 30,
            // Every shipped solution runs in well under a second on the simulator; a minute is
            // far beyond any honest program and short enough that a runaway one is noticed.
            max_wall: Duration::from_secs(60),
        }
    }
}

/// The default step budget: enough for a host loop that verifies the exercises' largest
/// buffers element by element (`for (int i = 0; i < 16 << 20; i++) if (h[i] != want) bad++;`
/// is 19 steps an element, 320 million in all) with room to spare. A runaway loop meets this
/// or the wall-clock limit, whichever comes first: at the debug build's 60 ns a step
/// (BENCHMARKS.md) they come about together.
pub const MAX_STEPS: u64 = 1_000_000_000;

/// Floats a bulk host helper (`check_output`, a whole-buffer `fill_input`, a host `memcpy`)
/// handles per step: a 64 Mi-float check costs 65,536 steps.
pub const ELEMENTS_PER_STEP: u64 = 1024;

/// Array elements the program's arrays may hold at once, all scopes together: 256 arrays of the
/// longest kind. Each element is a 40-byte interpreter value, so this is 40 MiB; arrays hold
/// streams and events, and every shipped solution declares fewer than 100 elements (review
/// 2026-12-01b CK1: `##` macros declared 65,536 arrays of 4,096, 10.7 GB, and aborted).
pub const MAX_ARRAY_ELEMENTS: u64 = 1 << 20;

/// The steps of one iteration of a simple verifying loop (`for (…; i < n; i++) if (h[i] !=
/// want) bad++;`), as the budget's message counts them.
const STEPS_PER_ITERATION: u64 = 20;

/// A step count in words: "1000 million", "50 million", "5000".
fn budget_words(n: u64) -> String {
    if n >= 10_000_000 {
        format!("{} million", n / 1_000_000)
    } else {
        n.to_string()
    }
}

/// A byte count in words: "200 MiB", "64 KiB", "512 bytes".
fn bytes_words(n: u64) -> String {
    match n {
        n if n >= 1 << 20 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// Steps between two looks at the clock (reading it costs about as much as a cheap step).
const CLOCK_EVERY: u64 = 256;

/// The steps a bulk helper over `elements` floats is charged: at least one.
pub(super) fn bulk_steps(elements: u64) -> u64 {
    elements.div_ceil(ELEMENTS_PER_STEP).max(1)
}

/// Bytes of text `printf` formats per step: a short format costs nothing beyond its call,
/// a 1 MB literal (copied and formatted on every call) 16,384 steps.
pub const TEXT_BYTES_PER_STEP: u64 = 64;

/// The extra steps `printf` is charged for `bytes` of format text.
pub(super) fn text_steps(bytes: usize) -> u64 {
    bytes as u64 / TEXT_BYTES_PER_STEP
}

impl Interp<'_> {
    /// Count one step; stop on a cancellation or the budget.
    pub(super) fn step(&mut self, pos: Pos) -> Res<()> {
        // One relaxed load per step: cheap next to evaluating the statement.
        if self.halt.cancelled() {
            return Err(Stop {
                pos,
                message: CANCELLED.into(),
                cancelled: true,
                exited: None,
            });
        }
        self.out.steps += 1;
        if self.out.steps > self.limits.max_steps {
            return Err(self.over_budget(pos));
        }
        if self.out.steps.is_multiple_of(CLOCK_EVERY) {
            self.check_clock(pos)?;
        }
        Ok(())
    }

    /// Charge `steps` more for work a helper is about to do (its own step was counted with its
    /// call); stops, before the work, on the budget or the clock.
    pub(super) fn charge(&mut self, pos: Pos, steps: u64) -> Res<()> {
        self.out.steps = self.out.steps.saturating_add(steps);
        if self.out.steps > self.limits.max_steps {
            return Err(self.over_budget(pos));
        }
        self.check_clock(pos)
    }

    /// Book an array of `len` elements against [`MAX_ARRAY_ELEMENTS`] before it is made.
    pub(super) fn hold_array(&mut self, pos: Pos, len: u64) -> Res<()> {
        let held = self.array_elements.saturating_add(len);
        if held > MAX_ARRAY_ELEMENTS {
            return Err(stop(
                pos,
                format!(
                    "too many array elements at once: the arrays declared so far hold {} elements, and this one {len} more; the checker keeps at most {MAX_ARRAY_ELEMENTS} (40 MiB) in all: declare fewer or smaller arrays",
                    self.array_elements
                ),
            ));
        }
        self.array_elements = held;
        Ok(())
    }

    /// Drop the scopes from `keep` on, giving back what their arrays held.
    pub(super) fn drop_scopes(&mut self, keep: usize) {
        let freed: u64 = self
            .scopes
            .drain(keep.min(self.scopes.len())..)
            .flat_map(|scope| scope.into_values())
            .filter(|v| v.array)
            .map(|v| v.slots.len() as u64)
            .sum();
        self.array_elements = self.array_elements.saturating_sub(freed);
    }

    fn over_budget(&self, pos: Pos) -> Stop {
        stop(
            pos,
            format!(
                "stopped after {} steps: the check's step budget was reached (a step is a statement, an expression, or {ELEMENTS_PER_STEP} floats of a helper's work; the budget is {}, room for a loop of about {} iterations of a few statements, e.g. a check of every float of a {} buffer); does a loop never end, or run far more often than it needs to? Make the program do less",
                self.limits.max_steps,
                budget_words(self.limits.max_steps),
                budget_words(self.limits.max_steps / STEPS_PER_ITERATION),
                bytes_words(self.limits.max_steps / STEPS_PER_ITERATION * 4),
            ),
        )
    }

    /// Stop once the check has taken longer than its wall-clock limit, or its memory grew
    /// past its budget (the resident size is read at most every 50 ms).
    fn check_clock(&self, pos: Pos) -> Res<()> {
        if self.halt.out_of_time() {
            return Err(self.out_of_time(pos));
        }
        // Host buffers that take real memory (a live GPU's) are the host budget's to bound.
        let own = if self.gpu.info().holds_host_bytes {
            self.host_bytes
        } else {
            0
        };
        if self.halt.out_of_memory_beyond(own) {
            return Err(stop(
                pos,
                Halted::OutOfMemory(self.halt.max_growth()).message(),
            ));
        }
        Ok(())
    }

    /// The stop the wall-clock limit makes at `pos`.
    pub(super) fn out_of_time(&self, pos: Pos) -> Stop {
        stop(pos, Halted::OutOfTime(self.halt.max_wall()).message())
    }

    /// Count a GPU operation against the cap.
    pub(super) fn gpu_op(&mut self, pos: Pos) -> Res<()> {
        self.gpu_ops += 1;
        if self.gpu_ops > self.limits.max_gpu_ops {
            return Err(stop(
                pos,
                format!(
                    "stopped after {} GPU operations: does a loop issue work without end?",
                    self.limits.max_gpu_ops
                ),
            ));
        }
        Ok(())
    }
}
