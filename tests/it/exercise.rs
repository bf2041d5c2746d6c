//! Hands-on exercises: parser diagnostics, the interpreter's limits, the hazard checker, and
//! every shipped exercise graded on the simulator backend (starter fails, solution passes).
//! Everything runs on `SimGpu` through the `Gpu` trait, the same backend and calls as the
//! experiments: there is no second, test-only backend to drift from it.

// Test helpers outside `#[test]` functions may fail loudly too.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod alternatives;
mod behaviour;
mod catalog;
mod cli;
mod corpus;
mod costs;
mod course;
mod first_attempts;
mod hazards;
mod learner_cxx;
mod parse;
mod shortcuts;
mod sim_backend;
mod subset;
mod subset_calls;
mod subset_nvtx;
mod twins;

use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::interp::{self, Limits, Outcome};
use cuda_academy::exercise::parse::parse as parse_src;
use cuda_academy::gpu::profile::Profile;
use cuda_academy::gpu::sim::SimGpu;

/// A fresh simulator with the built-in H200 profile, opened as `tests/it` opens it for the
/// experiments.
pub fn sim() -> SimGpu {
    SimGpu::new(Profile::builtin("h200").unwrap(), "test".into())
}

/// Parse and run `src` on a fresh simulator; panics on parse errors.
pub fn run(src: &str) -> Outcome {
    run_with(src, Limits::default())
}

pub fn run_with(src: &str, limits: Limits) -> Outcome {
    let program = parse_src(src).unwrap_or_else(|d| panic!("does not parse: {d:?}"));
    interp::run(&program, &mut sim(), limits, &AtomicBool::new(false))
}

/// `body` inside `int main()`, after the header include.
pub fn program(body: &str) -> String {
    format!("#include \"academy.cuh\"\n\nint main()\n{{\n{body}\n    return 0;\n}}\n")
}
