//! The native judge on hand-written traces in the library's format: academy.cuh's marks become
//! `check_output`'s answers, the reported figures and the helpers' host accesses (placed by
//! time between the driver calls), the GPU's activity becomes the timeline on the log's lines,
//! and each criterion is graded by the interpreter's grader or listed as not judged natively.

#![allow(clippy::unwrap_used, clippy::panic)]

use super::grade::{self, Ending};
use super::outcome;
use crate::attach::file::{self, Trace};
use crate::exercise::Exercise;
use crate::exercise::verdict::Criterion;

const HEADER: &str = r#"{"t":"header","format_version":1,"tool_version":"0.1.0","pid":1,"status":"ok","detail":"","driver_version":13000,"cupti_version":130001}"#;
const DEV: u64 = 0x7000_0000;
const PINNED: u64 = 0x6000_0000;
const BYTES: u64 = 4096;

fn trace(lines: &[String]) -> Trace {
    let mut text = String::from(HEADER);
    for l in lines {
        text.push('\n');
        text.push_str(l);
    }
    text.push_str("\n{\"t\":\"end\",\"reason\":\"exit\",\"lost_lines\":0}\n");
    file::read(text.as_bytes()).unwrap()
}

/// A driver call that ran from `at` to `at + 1` (ns).
fn api(name: &str, corr: u32, at: u64, fields: &str) -> String {
    format!(
        r#"{{"t":"api","name":"{name}","corr":{corr},"start":{at},"end":{},"ret":0{fields}}}"#,
        at + 1
    )
}

fn mark(at: u64, name: &str) -> String {
    format!(r#"{{"t":"marker","flags":1,"timestamp":{at},"id":1,"name":"{name}","domain":""}}"#)
}

fn check_mark(at: u64, line: u32, bytes: u64, pass: bool) -> String {
    mark(
        at,
        &format!(
            "academy:check_output line={line} ptr={PINNED:x} bytes={bytes} spins=0 pass={}",
            u8::from(pass)
        ),
    )
}

/// Pinned and device buffers, an upload and a download on stream 100, each timed by the GPU;
/// `sync` puts a `cudaStreamSynchronize` at 600 between the download and the marks after it.
fn pipeline(sync: bool) -> Vec<String> {
    let mut v = vec![
        api(
            "cuMemHostAlloc",
            1,
            100,
            &format!(r#","mem":"pinned","bytes":{BYTES},"ptr":{PINNED}"#),
        ),
        mark(
            150,
            &format!("academy:fill_input line=8 ptr={PINNED:x} bytes={BYTES}"),
        ),
        api(
            "cuMemAlloc_v2",
            2,
            200,
            &format!(r#","mem":"device","bytes":{BYTES},"ptr":{DEV}"#),
        ),
        api(
            "cuStreamCreate",
            3,
            300,
            r#","flags":1,"stream":100,"stream_id":13"#,
        ),
        api(
            "cuMemcpyHtoDAsync_v2",
            4,
            400,
            &format!(
                r#","copy":"htod","dst":{DEV},"src":{PINNED},"bytes":{BYTES},"stream":100,"stream_id":13"#
            ),
        ),
        api(
            "cuMemcpyDtoHAsync_v2",
            5,
            500,
            &format!(
                r#","copy":"dtoh","dst":{PINNED},"src":{DEV},"bytes":{BYTES},"stream":100,"stream_id":13"#
            ),
        ),
        format!(
            r#"{{"t":"memcpy","copy_kind":1,"src_kind":2,"dst_kind":3,"bytes":{BYTES},"start":1000,"end":3000,"device":0,"stream_id":13,"corr":4}}"#
        ),
        format!(
            r#"{{"t":"memcpy","copy_kind":2,"src_kind":3,"dst_kind":2,"bytes":{BYTES},"start":3000,"end":5000,"device":0,"stream_id":13,"corr":5}}"#
        ),
    ];
    if sync {
        v.push(api("cuStreamSynchronize", 6, 600, r#","stream":100"#));
    }
    v.push(api("cuStreamDestroy_v2", 9, 850, r#","stream":100"#));
    v.push(api(
        "cuMemFreeHost",
        7,
        900,
        &format!(r#","mem":"pinned","ptr":{PINNED}"#),
    ));
    v.push(api(
        "cuMemFree_v2",
        8,
        950,
        &format!(r#","mem":"device","ptr":{DEV}"#),
    ));
    v
}

fn exercise(criteria: Vec<Criterion>) -> Exercise {
    Exercise {
        id: "synthetic".into(),
        lesson: "lesson".into(),
        title: "t".into(),
        task: "t".into(),
        overlap: false,
        hints: Vec::new(),
        criteria,
        starter: "",
        solution: "",
        reference_solutions: Vec::new(),
    }
}

const ENDED: Ending = Ending {
    code: Some(0),
    signal: None,
    complete: true,
};

fn graded(lines: &[String], criteria: Vec<Criterion>, ending: Ending) -> grade::NativeVerdict {
    let native = outcome::of_trace(&trace(lines), String::new(), 0);
    let ex = exercise(criteria);
    grade::grade(&ex, "not C++ the subset parses {", &native, ending, |_| {
        Err("no reference in this test".to_string())
    })
}

fn result<'a>(
    v: &'a grade::NativeVerdict,
    name: &str,
) -> &'a crate::exercise::verdict::CheckResult {
    v.verdict
        .checks
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no check {name:?} in {:?}", v.verdict.checks))
}

#[test]
fn a_passing_check_over_the_whole_result_after_a_sync_passes_output_correct_and_no_hazards() {
    let mut lines = pipeline(true);
    lines.push(check_mark(700, 30, BYTES, true));
    let v = graded(
        &lines,
        vec![Criterion::OutputCorrect { spins: 0 }, Criterion::NoHazards],
        ENDED,
    );
    assert!(
        v.verdict.passed,
        "{:?} {:?}",
        v.verdict.checks, v.verdict.hazards
    );
    assert!(
        result(&v, "output is correct")
            .detail
            .contains("all 4096 bytes")
    );
}

#[test]
fn a_check_that_returned_false_or_covered_half_the_result_fails_output_correct() {
    let mut lines = pipeline(true);
    lines.push(check_mark(700, 31, BYTES, false));
    let v = graded(&lines, vec![Criterion::OutputCorrect { spins: 0 }], ENDED);
    let c = result(&v, "output is correct");
    assert!(
        !c.passed && c.detail.contains("line 31 returned false"),
        "{c:?}"
    );
    let mut lines = pipeline(true);
    lines.push(check_mark(700, 31, BYTES / 2, true));
    let v = graded(&lines, vec![Criterion::OutputCorrect { spins: 0 }], ENDED);
    let c = result(&v, "output is correct");
    assert!(
        !c.passed && c.detail.contains("only from byte 0 to 2048"),
        "{c:?}"
    );
    let v = graded(
        &pipeline(true),
        vec![Criterion::OutputCorrect { spins: 0 }],
        ENDED,
    );
    assert!(
        !result(&v, "output is correct").passed,
        "no check_output at all"
    );
}

#[test]
fn check_output_reading_the_download_before_any_sync_is_a_read_before_sync() {
    let mut lines = pipeline(false);
    // At 520: after the download was issued (500), before the free (900), with no sync.
    lines.push(check_mark(520, 32, BYTES, true));
    let v = graded(&lines, vec![Criterion::NoHazards], ENDED);
    let kinds: Vec<&str> = v.verdict.hazards.iter().map(|h| h.kind.name()).collect();
    assert!(kinds.contains(&"read-before-sync"), "{kinds:?}");
    assert!(!result(&v, "no hazards").passed);
}

#[test]
fn reported_figures_reach_metrics_reported_and_a_missing_one_fails_it() {
    let mut lines = pipeline(true);
    lines.push(mark(800, "academy:report line=40 value=2.5 name=total_ms"));
    let want = |m: &[&str]| Criterion::MetricsReported {
        metrics: m.iter().map(|s| s.to_string()).collect(),
    };
    let v = graded(&lines, vec![want(&["total_ms"])], ENDED);
    assert!(v.verdict.passed, "{:?}", v.verdict.checks);
    assert_eq!(v.verdict.metrics["total_ms"].value, 2.5);
    let v = graded(&lines, vec![want(&["total_ms", "h2d_ms"])], ENDED);
    assert!(!v.verdict.passed);
}

#[test]
fn the_timeline_holds_each_timed_op_on_its_log_line_and_stream() {
    let native = outcome::of_trace(&trace(&pipeline(true)), String::new(), 0);
    let tl = &native.outcome.timeline;
    assert_eq!(tl.len(), 2, "{tl:?}");
    assert_eq!(tl[0].line, Some(4), "the upload is driver call 4");
    assert_eq!(tl[1].kind, crate::report::OpKind::D2h);
    assert!((tl[1].duration_us() - 2.0).abs() < 1e-9, "{:?}", tl[1]);
    assert_eq!(tl[0].stream, tl[1].stream);
    assert_eq!(native.outcome.output_region.map(|r| r.1), Some(BYTES));
}

#[test]
fn criteria_a_trace_cannot_read_are_listed_not_judged_never_passed() {
    let mut lines = pipeline(true);
    lines.push(check_mark(700, 30, BYTES, true));
    let v = graded(
        &lines,
        vec![
            Criterion::OutputCorrect { spins: 0 },
            Criterion::SameWork,
            Criterion::ChecksErrors {
                calls: vec!["cudaMalloc".into()],
            },
        ],
        ENDED,
    );
    let names: Vec<&str> = v.not_judged.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(
        names,
        ["does the task's work", "checks the errors of cudaMalloc"]
    );
    assert!(
        v.verdict
            .checks
            .iter()
            .all(|c| c.name != "does the task's work")
    );
    assert!(
        v.verdict.passed,
        "the judged ones pass: {:?}",
        v.verdict.checks
    );
}

#[test]
fn a_program_that_failed_or_was_killed_does_not_run_to_the_end_and_grades_nothing_more() {
    let lines = pipeline(true);
    for (ending, says) in [
        (
            Ending {
                code: Some(3),
                ..ENDED
            },
            "exited with code 3",
        ),
        (
            Ending {
                code: None,
                signal: Some(9),
                complete: false,
            },
            "killed by signal 9",
        ),
        (
            Ending {
                complete: false,
                ..ENDED
            },
            "exit flush",
        ),
    ] {
        let v = graded(&lines, vec![Criterion::NoHazards], ending);
        assert!(!v.verdict.passed);
        assert_eq!(v.verdict.checks.len(), 1);
        assert!(
            v.verdict.checks[0].detail.contains(says),
            "{:?}",
            v.verdict.checks
        );
    }
}
