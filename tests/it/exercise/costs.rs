//! Review 2026-12-01 K8 (R2, R3): the step budget counts work, not statements, and a check has
//! a wall-clock limit that its verdict names. A helper that works in proportion to its size
//! (`fill_input` over part of a buffer, `check_output`, a host `memcpy`, `printf` of a long
//! text) is charged for that work, so a small budget stops a single call that used to count
//! once. The wall-clock test uses a 1 ms limit and an unlimited step budget: only the clock can
//! stop its endless loop (a thread and a generous guard keep a failure from hanging the run).
//! No assertion is made on how long anything takes.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cuda_academy::exercise::catalog;
use cuda_academy::exercise::interp::Limits;

use super::{program, run_with, sim};

const BUDGET: u64 = 10_000;

fn small_budget() -> Limits {
    Limits {
        max_steps: BUDGET,
        ..Limits::default()
    }
}

#[track_caller]
fn assert_stopped_by_budget(body: &str) {
    let out = run_with(&program(body), small_budget());
    let err = out.error.unwrap_or_else(|| panic!("not stopped: {body}"));
    assert!(
        err.message.starts_with(&format!(
            "stopped after {BUDGET} steps: the check's step budget was reached"
        )),
        "{body}: {}",
        err.message
    );
}

#[test]
fn a_partial_fill_costs_in_proportion_to_its_floats() {
    // One call over 16 Mi floats of a larger buffer: a step per 1024 floats, over the budget.
    assert_stopped_by_budget(
        "    float *h;\n    cudaMallocHost(&h, ((1 << 24) + 1) * 4);\n    fill_input(h + 1, 1 << 24);",
    );
}

#[test]
fn check_output_and_host_memcpy_cost_steps_by_their_size() {
    let alloc = "    size_t n = 1 << 24;\n    float *a;\n    float *b;\n    \
                 cudaMallocHost(&a, n * 4);\n    cudaMallocHost(&b, n * 4);\n";
    assert_stopped_by_budget(&format!("{alloc}    check_output(a, n);"));
    assert_stopped_by_budget(&format!("{alloc}    memcpy(a, b, n * 4);"));
    assert_stopped_by_budget(&format!("{alloc}    fill_input(a, n);"));
}

#[test]
fn printf_of_a_long_text_costs_steps_by_its_length() {
    let long = "A".repeat(1 << 20);
    assert_stopped_by_budget(&format!("    printf(\"{long}\");"));
}

#[test]
fn small_programs_stay_well_inside_the_budget() {
    // The costs must not make ordinary calls expensive: a fill and a check of 4,096 floats.
    let out = run_with(
        &program(
            "    float *h;\n    cudaMallocHost(&h, 4096 * 4);\n    fill_input(h, 4096);\n    \
             check_output(h, 4096);\n    printf(\"%d\\n\", 1);\n    cudaFreeHost(h);",
        ),
        Limits {
            max_steps: 100,
            ..Limits::default()
        },
    );
    assert!(out.error.is_none(), "{:?}", out.error);
}

#[test]
fn the_wall_clock_limit_stops_a_check_and_the_verdict_says_so() {
    let src = program(
        "    float *h;\n    cudaMallocHost(&h, (65536 + 1) * 4);\n    \
         while (true) { fill_input(h, 65536); }",
    );
    let limits = Limits {
        max_steps: u64::MAX,
        max_wall: Duration::from_millis(1),
        ..Limits::default()
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let ex = catalog::find("time-a-copy").unwrap();
        let verdict =
            cuda_academy::exercise::check(ex, &src, &mut sim(), limits, &AtomicBool::new(false));
        let _ = tx.send(verdict);
    });
    let verdict = rx
        .recv_timeout(Duration::from_secs(600))
        .expect("the wall-clock limit never stopped the check");
    assert!(!verdict.passed);
    let said = verdict
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect::<Vec<_>>();
    assert!(
        said.iter()
            .any(|m| m.starts_with("stopped after 1 ms: the wall-clock limit for a check")),
        "{said:?}"
    );
}
