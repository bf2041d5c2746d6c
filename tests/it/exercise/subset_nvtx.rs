//! NVTX annotations in an exercise file (lesson 3, "Profile your own program"): the include of
//! `<nvtx3/nvToolsExt.h>` and the calls `nvtxRangePushA`, `nvtxRangePop` and `nvtxMarkA` are
//! accepted, answer what NVTX 3 answers with no tool attached, and change nothing: every shipped
//! exercise's starter and solution check the same with them as without.

use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::interp::Limits;
use cuda_academy::exercise::{self, Verdict, catalog};

use super::{program, run, sim};

/// The calls inserted after a statement.
const CALLS: &str = r#" nvtxRangePushA("step"); nvtxMarkA("here"); nvtxRangePop();"#;

/// `src` with the NVTX include on a first line of its own and the three calls after every
/// indented statement that may be followed by another (not a one-line `if`/`for`/`while`
/// body, nor one before an `else`).
fn with_nvtx(src: &str) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = String::from("#include <nvtx3/nvToolsExt.h>\n");
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        let t = line.trim();
        let control = ["if", "else", "for", "while"]
            .iter()
            .any(|k| t.starts_with(k));
        let before_else = lines
            .get(i + 1)
            .is_some_and(|n| n.trim_start().starts_with("else"));
        if line.starts_with("    ") && t.ends_with(';') && !control && !before_else {
            out.push_str(CALLS);
        }
        out.push('\n');
    }
    out
}

/// What a verdict says, without line numbers (the include moves every line down by one).
fn gist(v: &Verdict) -> String {
    let checks: Vec<(&str, bool)> = v
        .checks
        .iter()
        .map(|c| (c.name.as_str(), c.passed))
        .collect();
    let hazards: Vec<&str> = v.hazards.iter().map(|h| h.kind.name()).collect();
    let metrics: Vec<(&String, f64)> = v.metrics.iter().map(|(k, m)| (k, m.value)).collect();
    let ops: Vec<(u32, String, f64, f64, u64)> = v
        .timeline
        .iter()
        .map(|o| {
            (
                o.stream,
                format!("{:?}", o.kind),
                o.start_us,
                o.end_us,
                o.bytes,
            )
        })
        .collect();
    format!(
        "passed {}\nchecks {checks:?}\nhazards {hazards:?}\nmetrics {metrics:?}\ndiagnostics {}\noutput {:?}\nops {ops:?}",
        v.passed,
        v.diagnostics.len(),
        v.output
    )
}

#[test]
fn nvtx_calls_answer_as_with_no_tool_attached_and_reach_nothing() {
    let body = "    float *h;\n    cudaMallocHost(&h, 1024);\n    cudaFreeHost(h);\n";
    let annotated = "    int depth = nvtxRangePushA(\"alloc\");\n    float *h;\n    cudaMallocHost(&h, 1024);\n    nvtxMarkA(\"allocated\");\n    int popped = nvtxRangePop();\n    cudaFreeHost(h);\n    printf(\"%d %d\\n\", depth, popped);\n";
    let plain = run(&program(body));
    let src = format!("#include <nvtx3/nvToolsExt.h>\n{}", program(annotated));
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    // NVTX_NO_PUSH_POP_TRACKING: what push and pop return when no profiler is attached.
    assert_eq!(out.output, "-2 -2\n");
    let calls = |o: &cuda_academy::exercise::interp::Outcome| {
        o.log.iter().map(|e| e.call.clone()).collect::<Vec<_>>()
    };
    assert_eq!(calls(&out), calls(&plain), "NVTX reached the call log");
    let spans = |o: &cuda_academy::exercise::interp::Outcome| {
        o.timeline
            .iter()
            .map(|op| (op.start_us, op.end_us))
            .collect::<Vec<_>>()
    };
    assert_eq!(spans(&out), spans(&plain), "NVTX took host or device time");
}

#[test]
fn nvtx_calls_are_checked_as_their_prototypes_say() {
    for (call, want) in [
        ("nvtxRangePushA(1)", "must be a string"),
        ("nvtxMarkA()", "takes 1 arguments"),
        ("nvtxRangePop(\"x\")", "takes 0 arguments"),
    ] {
        let err = run(&program(&format!("    {call};\n"))).error;
        let err = err.unwrap_or_else(|| panic!("{call} ran"));
        assert!(err.message.contains(want), "{call}: {err:?}");
    }
}

#[test]
fn every_exercise_checks_the_same_with_nvtx_calls_as_without() {
    let cancel = AtomicBool::new(false);
    for ex in catalog::all() {
        for (which, src) in [("starter", ex.starter), ("solution", ex.solution)] {
            let annotated = with_nvtx(src);
            assert!(
                annotated.matches("nvtxRangePop").count() >= 5,
                "{} {which}: too few statements annotated",
                ex.id
            );
            let check = |s: &str| exercise::check(ex, s, &mut sim(), Limits::default(), &cancel);
            let (plain, with) = (check(src), check(&annotated));
            assert_eq!(
                gist(&with),
                gist(&plain),
                "{} {which} checks differently with NVTX calls:\n{annotated}",
                ex.id
            );
        }
    }
}
