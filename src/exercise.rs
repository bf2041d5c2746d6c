//! Hands-on exercises (issue 8): the learner writes CUDA host code in a `.cu` file that also
//! compiles with nvcc against `exercises/academy.cuh`; this module parses it with tree-sitter
//! (`parse`), runs it on the backend's [`crate::gpu::Gpu`] (`interp`: the live GPU or the
//! simulator, through the same calls the experiments make), checks the calls it made for stream
//! races (`hazards`), and grades it against the exercise's criteria (`verdict`).
//!
//! ```text
//! file.cu ──parse──> Program ──interp on Gpu──> Outcome { call log, metrics, timeline }
//! call log ──happens-before──> hazards;  Outcome + hazards + criteria ──> Verdict
//! ```

pub mod api;
pub mod ast;
pub mod attempts;
pub mod catalog;
pub mod hazards;
pub mod interp;
pub mod log;
pub mod metrics;
pub mod parse;
pub mod printf;
pub mod state;
pub mod verdict;

pub use catalog::{Exercise, validate};
pub use hazards::{Hazard, HazardKind};
pub use verdict::{Verdict, check};

/// The largest exercise file read (by `exercise check` and the TUI's editor alike): far beyond
/// any exercise, small enough to parse at once.
pub const SOURCE_CAP: crate::bounded_read::Cap = crate::bounded_read::Cap {
    bytes: 1 << 20,
    what: "an exercise file",
};

/// `transform`'s multiplier: the same as `ACADEMY_TRANSFORM_A` in `academy.cuh`.
pub const TRANSFORM_A: f32 = 2.0;
/// `transform`'s offset: the same as `ACADEMY_TRANSFORM_B` in `academy.cuh`.
pub const TRANSFORM_B: f32 = 1.0;
/// The seed of `fill_input`: the same as `ACADEMY_FILL_SEED` in `academy.cuh`.
pub const FILL_SEED: u32 = 7;

/// What `transform` makes of one input float.
pub fn transform_value(x: f32) -> f32 {
    x * TRANSFORM_A + TRANSFORM_B
}

/// A problem in the learner's file at a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl Diagnostic {
    pub fn at(line: u32, column: u32, message: impl Into<String>) -> Self {
        Diagnostic {
            line: line.max(1),
            column: column.max(1),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}
