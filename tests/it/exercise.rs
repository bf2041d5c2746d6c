//! Hands-on exercises: parser diagnostics, the interpreter's limits, the hazard checker, and
//! every shipped exercise graded on an in-memory machine (starter fails, solution passes).

// Test helpers outside `#[test]` functions may fail loudly too.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod adapter;
mod catalog;
mod cli;
mod fake_machine;
mod hazards;
mod parse;

use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::interp::{self, Limits, Outcome};
use cuda_academy::exercise::parse::parse as parse_src;
use fake_machine::FakeMachine;

/// Parse and run `src` on a fresh fake machine; panics on parse errors.
pub fn run(src: &str) -> Outcome {
    run_with(src, Limits::default())
}

pub fn run_with(src: &str, limits: Limits) -> Outcome {
    let program = parse_src(src).unwrap_or_else(|d| panic!("does not parse: {d:?}"));
    interp::run(
        &program,
        &mut FakeMachine::new(),
        limits,
        &AtomicBool::new(false),
    )
}

/// `body` inside `int main()`, after the header include.
pub fn program(body: &str) -> String {
    format!("#include \"academy.cuh\"\n\nint main()\n{{\n{body}\n    return 0;\n}}\n")
}
