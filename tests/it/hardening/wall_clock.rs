//! The wall-clock limit of a check covers every phase, not only the interpreter's walk (review
//! 2026-12-01 R1: a run that ended in time spent minutes more in the hazard search). The limit
//! is injected (`Limits::max_wall`), so these tests take no time and assert no duration: a
//! limit of zero has passed by the first look at the clock, whichever phase looks first.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cuda_academy::exercise::interp::{self, Halt, Halted, Limits};
use cuda_academy::exercise::{self, catalog, hazards, parse};

use crate::exercise::sim;

fn main_with(body: &str) -> String {
    format!("int main()\n{{\n{body}\n    return 0;\n}}\n")
}

fn limits(wall: Duration) -> Limits {
    Limits {
        max_steps: u64::MAX,
        max_wall: wall,
        ..Limits::default()
    }
}

fn messages(v: &exercise::Verdict) -> Vec<String> {
    v.checks
        .iter()
        .map(|c| c.detail.clone())
        .chain(v.diagnostics.iter().map(|d| d.message.clone()))
        .collect()
}

#[test]
fn an_expensive_step_program_is_stopped_by_the_wall_clock_limit_with_a_message() {
    // R2's expensive step: fill_input on part of a buffer, forever; the step budget is off.
    let src = main_with(
        "    float *h;\n    cudaMallocHost(&h, (65536 + 1) * 4);\n    \
         while (true) { fill_input(h + 1, 65536); }",
    );
    let ex = catalog::find("time-a-copy").unwrap();
    let v = exercise::check(
        ex,
        &src,
        &mut sim(),
        limits(Duration::from_millis(1)),
        &AtomicBool::new(false),
    );
    assert!(!v.passed && !v.cancelled);
    let said = messages(&v);
    assert!(
        said.iter().any(
            |m| m.contains("stopped after 1 ms: the wall-clock limit for a check")
                && m.contains("make it do less")
        ),
        "{said:?}"
    );
}

#[test]
fn the_limit_reaches_the_phases_after_the_run() {
    // A run of a few steps (the interpreter looks at the clock every 256 steps, so it ends
    // unstopped): the hazard search is the first phase to look, and says the limit fired.
    let src = main_with(
        "    float *h;\n    cudaMallocHost(&h, 64);\n    h[0] = 1;\n    cudaFreeHost(h);",
    );
    let ex = catalog::find("time-a-copy").unwrap();
    let v = exercise::check(
        ex,
        &src,
        &mut sim(),
        limits(Duration::ZERO),
        &AtomicBool::new(false),
    );
    assert!(!v.passed && !v.cancelled);
    let said = messages(&v);
    assert!(
        said.iter()
            .any(|m| m.contains("the wall-clock limit for a check")
                && m.contains("checked for hazards")),
        "{said:?}"
    );
    // The same program with the default limit runs to the end, so the limit made the stop.
    let ok = exercise::check(
        ex,
        &src,
        &mut sim(),
        Limits::default(),
        &AtomicBool::new(false),
    );
    assert!(
        ok.checks
            .iter()
            .any(|c| c.name == "runs to the end" && c.passed),
        "{:?}",
        messages(&ok)
    );
}

#[test]
fn the_hazard_search_stops_on_the_deadline_and_on_cancel() {
    let src = main_with(
        "    float *h;\n    float *d;\n    cudaStream_t s;\n    cudaStreamCreate(&s);\n    \
         cudaMallocHost(&h, 4096);\n    cudaMalloc(&d, 4096);\n    \
         for (int i = 0; i < 100; i++) {\n        cudaMemcpyAsync(h, d, 4096, cudaMemcpyDeviceToHost, s);\n    }\n    \
         float x = h[0];",
    );
    let program = parse::parse(&src).unwrap();
    let no = AtomicBool::new(false);
    let out = interp::run(&program, &mut sim(), Limits::default(), &no);
    assert!(out.error.is_none(), "{:?}", out.error);
    let found = hazards::check_within(
        &out.log,
        &out.region_names,
        false,
        Halt::new(&no, Duration::from_secs(3600)),
    )
    .unwrap();
    assert!(!found.is_empty(), "the read before the sync is found");
    assert_eq!(
        hazards::check_within(
            &out.log,
            &out.region_names,
            false,
            Halt::new(&no, Duration::ZERO)
        ),
        Err(Halted::OutOfTime(Duration::ZERO))
    );
    let yes = AtomicBool::new(true);
    assert_eq!(
        hazards::check_within(
            &out.log,
            &out.region_names,
            false,
            Halt::new(&yes, Duration::from_secs(3600))
        ),
        Err(Halted::Cancelled)
    );
}
