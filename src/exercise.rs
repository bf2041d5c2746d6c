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
pub mod calls;
pub mod catalog;
pub mod halt;
pub mod hazards;
pub mod interp;
pub mod log;
pub mod metrics;
pub mod native;
pub mod parse;
pub mod printf;
pub mod state;
pub mod verdict;

pub use catalog::validate;
pub use hazards::{Hazard, HazardKind};
pub use verdict::{Verdict, check};

/// One exercise, ready to check (read by `catalog`, graded by `verdict`: here, above both, so
/// that neither imports the other for it).
#[derive(Debug, Clone)]
pub struct Exercise {
    pub id: String,
    pub lesson: String,
    pub title: String,
    pub task: String,
    pub overlap: bool,
    pub hints: Vec<String>,
    pub criteria: Vec<verdict::Criterion>,
    pub starter: &'static str,
    pub solution: &'static str,
    /// `(id, solution)` of every other exercise a criterion takes as its reference (its
    /// `exercise = "id"`), resolved by `catalog` when it loads this one.
    pub reference_solutions: Vec<(String, &'static str)>,
}

/// A verdict passed by message between the worker and the app (cheap to clone; equal when it is
/// the same verdict). Here, beside [`Verdict`], so that `worker` need not import `app`.
#[derive(Debug, Clone)]
pub struct SharedVerdict(pub std::sync::Arc<Verdict>);

impl PartialEq for SharedVerdict {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The largest exercise file read (by `exercise check` and the TUI's editor alike): far beyond
/// any exercise, small enough to parse at once.
pub const SOURCE_CAP: crate::bounded_read::Cap = crate::bounded_read::Cap {
    bytes: 1 << 20,
    what: "an exercise file",
};

/// The seed of `fill_input`: the same as `ACADEMY_FILL_SEED` in `academy.cuh`.
pub const FILL_SEED: u32 = 7;

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
