//! How far a program may go: the step budget, the cap on GPU operations, the host memory
//! budget, and the cancel flag, polled at every step (every statement and every loop
//! iteration), so a cancel stops even a loop with an empty body at once.

use std::sync::atomic::Ordering;

use super::eval::stop;
use super::{Interp, Res, Stop};
use crate::exercise::ast::Pos;

/// How far a program may go before it is stopped.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_steps: u64,
    pub max_gpu_ops: u64,
    /// Host memory a program may allocate in all.
    pub max_host_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 5_000_000,
            max_gpu_ops: 100_000,
            max_host_bytes: 8 << 30,
        }
    }
}

/// What a cancelled run says, at the statement it stopped before.
pub const CANCELLED: &str = "cancelled";

impl Interp<'_> {
    /// Count one step; stop on a cancellation or the budget.
    pub(super) fn step(&mut self, pos: Pos) -> Res<()> {
        // One relaxed load per step: cheap next to evaluating the statement.
        if self.cancel.load(Ordering::Relaxed) {
            return Err(Stop {
                pos,
                message: CANCELLED.into(),
                cancelled: true,
            });
        }
        self.out.steps += 1;
        if self.out.steps > self.limits.max_steps {
            return Err(stop(
                pos,
                format!(
                    "stopped after {} steps: does a loop never end?",
                    self.limits.max_steps
                ),
            ));
        }
        Ok(())
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
