//! Every shipped exercise on the simulator: the starter fails its check with a reason, the
//! solution passes; lessons and exercises agree.

use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::catalog;
use cuda_academy::exercise::interp::Limits;
use cuda_academy::exercise::log::{Call, DeviceOpKind};
use cuda_academy::exercise::{self, validate};

use super::sim;

#[test]
fn the_built_in_lessons_list_every_exercise_of_theirs() {
    let catalog = cuda_academy::lesson::Catalog::embedded();
    assert!(catalog.problems().is_empty(), "{:?}", catalog.problems());
    for ex in catalog::all() {
        let lesson = catalog
            .entries
            .iter()
            .filter_map(|e| e.lesson())
            .find(|l| l.id() == ex.lesson);
        let lesson = lesson.unwrap_or_else(|| panic!("{}: no lesson {}", ex.id, ex.lesson));
        assert!(
            lesson.meta.exercises.contains(&ex.id),
            "{} is missing from {}",
            ex.id,
            ex.lesson
        );
    }
}

#[test]
fn every_exercise_loads_and_each_lesson_has_at_least_two() {
    assert_eq!(
        catalog::all().len(),
        catalog::ids().len(),
        "an exercise failed to load"
    );
    for lesson in ["pageable-memory", "pinned-memory", "async-copy", "pipeline"] {
        assert!(
            catalog::all().iter().filter(|e| e.lesson == lesson).count() >= 2,
            "{lesson}"
        );
    }
}

#[test]
fn starters_fail_and_solutions_pass() {
    for ex in catalog::all() {
        let cancel = AtomicBool::new(false);
        let good = exercise::check(ex, ex.solution, &mut sim(), Limits::default(), &cancel);
        assert!(
            good.passed,
            "{} solution: {:#?} {:?}",
            ex.id, good.checks, good.hazards
        );
        let bad = exercise::check(ex, ex.starter, &mut sim(), Limits::default(), &cancel);
        assert!(!bad.passed, "{} starter passed", ex.id);
        let failing: Vec<_> = bad.checks.iter().filter(|c| !c.passed).collect();
        assert!(
            failing.iter().all(|c| !c.detail.is_empty()),
            "{} starter: {failing:?}",
            ex.id
        );
        assert!(
            bad.diagnostics.is_empty(),
            "{} starter should run: {:?}",
            ex.id,
            bad.diagnostics
        );
    }
}

#[test]
fn starters_fail_for_the_reason_the_exercise_teaches() {
    let cancel = AtomicBool::new(false);
    let first_failure = |id: &str| {
        let ex = catalog::find(id).unwrap();
        let v = exercise::check(ex, ex.starter, &mut sim(), Limits::default(), &cancel);
        let c = v.checks.iter().find(|c| !c.passed).unwrap().clone();
        (c.name, c.detail, v.hazards)
    };
    assert!(
        first_failure("fix-the-race")
            .2
            .iter()
            .any(|h| h.kind.name() == "read-before-sync")
    );
    // The staging buffer refilled while the upload that reads it waits in the stream: the
    // checker names it, and the data is wrong too (the copy reads the next batch).
    let (_, detail, hazards) = first_failure("keep-it-alive");
    assert!(
        hazards
            .iter()
            .any(|h| h.kind.name() == "write-while-in-flight"),
        "{hazards:?}"
    );
    assert!(detail.contains("returned false"), "{detail}");
    assert!(
        first_failure("register-existing")
            .2
            .iter()
            .any(|h| h.kind.name() == "pageable-async")
    );
    assert!(
        first_failure("pageable-to-pinned")
            .0
            .contains("upload_gbps at least 90%")
    );
    let (name, detail, _) = first_failure("pin-once");
    assert_eq!(name, "pins host memory at most twice");
    // Both allocations of the starter's loop, every round: 8 times each.
    assert!(
        detail.starts_with("16 pinned allocations (line 19 x8, line 20 x8)"),
        "{detail}"
    );
    assert!(
        first_failure("overlap-host-work")
            .0
            .contains("overlap device work")
    );
    assert!(first_failure("double-buffer").0.contains("pipeline_ms"));
    let ex = catalog::find("double-buffer").unwrap();
    let v = exercise::check(ex, ex.starter, &mut sim(), Limits::default(), &cancel);
    let mem = v
        .checks
        .iter()
        .find(|c| c.name == "device memory at most 64 MiB");
    assert!(
        mem.is_some_and(|c| !c.passed && c.detail.starts_with("512 MiB")),
        "{mem:?}"
    );
    assert!(
        first_failure("time-a-copy")
            .1
            .contains("not reported: pageable_gbps, pinned_gbps")
    );
    assert!(first_failure("issue-order").1.contains("breadth_first_ms"));
    // The symptom-first exercises: the first failure is the symptom, the hazards the cause.
    let (name, detail, hazards) = first_failure("wait-for-it");
    assert_eq!(name, "output is correct", "{detail}");
    let races: Vec<_> = hazards
        .iter()
        .filter(|h| h.kind.name() == "device-race")
        .map(|h| (h.line, h.other_line))
        .collect();
    // The kernel against its upload, the download against its kernel: both lines named.
    assert_eq!(races, [(30, Some(29)), (32, Some(30))], "{hazards:?}");
    // Each stream is named by its number on the timeline and by its variable in the code.
    let first = &hazards.iter().find(|h| h.line == 30).unwrap().message;
    assert!(
        first.contains("stream 2 (`compute`)") && first.contains("stream 1 (`up`)"),
        "{first}"
    );
    let (name, _, hazards) = first_failure("two-streams");
    assert_eq!(name, "no hazards");
    assert!(hazards.iter().any(|h| h.kind.name() == "default-stream"));
    let (name, detail, _) = first_failure("small-copies");
    assert!(
        name.contains("upload_gbps at least 90%"),
        "{name}: {detail}"
    );
    let (name, _, _) = first_failure("pin-per-call");
    assert_eq!(name, "pins host memory at most twice");
    let (_, _, hazards) = first_failure("staging-ring");
    assert!(hazards.iter().any(|h| h.kind.name() == "pageable-async"));
}

#[test]
fn symptom_first_starters_fail_on_what_the_learner_sees() {
    // Each task names a symptom; the check must show it, not only the cause.
    let cancel = AtomicBool::new(false);
    let failed = |id: &str| -> Vec<String> {
        let ex = catalog::find(id).unwrap();
        let v = exercise::check(ex, ex.starter, &mut sim(), Limits::default(), &cancel);
        v.checks
            .iter()
            .filter(|c| !c.passed)
            .map(|c| c.name.clone())
            .collect()
    };
    // Two streams that never overlap: the overlap check fails, and the time.
    let f = failed("two-streams");
    assert!(f.iter().any(|n| n.contains("overlap kernels")), "{f:?}");
    assert!(f.iter().any(|n| n.starts_with("total_ms at most")), "{f:?}");
    // Re-pinning in every round: slow against pinning once, not only over the count.
    let f = failed("pin-per-call");
    assert!(
        f.iter().any(|n| n.starts_with("transfer_ms at most")),
        "{f:?}"
    );
}

#[test]
fn the_staging_ring_is_held_to_the_pinned_pipeline_on_the_same_work() {
    // `staging-ring` names `wait-for-it`'s solution as its reference: the same bytes each way,
    // the same kernels, only the input's memory differs.
    let ring = catalog::find("staging-ring").unwrap();
    let pinned = catalog::find("wait-for-it").unwrap();
    assert_eq!(ring.reference_solutions.len(), 1);
    assert_eq!(ring.reference_solutions[0].0, "wait-for-it");
    assert_eq!(ring.reference_solutions[0].1, pinned.solution);
    let work = |src: &str| {
        let out = super::run(src);
        let mut bytes = [0u64; 2];
        let mut kernels = Vec::new();
        for e in &out.log {
            if let Call::Device(op) = &e.call {
                match op.kind {
                    DeviceOpKind::CopyH2D => bytes[0] += op.reads[0].end - op.reads[0].start,
                    DeviceOpKind::CopyD2H => bytes[1] += op.reads[0].end - op.reads[0].start,
                    DeviceOpKind::Kernel => kernels.push(op.call.clone()),
                    _ => {}
                }
            }
        }
        (bytes, kernels)
    };
    assert_eq!(work(ring.solution), work(pinned.solution));
    // A reference exercise that does not exist is a problem of the file, at load time.
    let toml = r#"format_version = 1
id = "x"
lesson = "pipeline"
title = "X"
task = "Do it."
hints = ["one"]

[[criteria]]
kind = "metric-at-most-reference"
metric = "t_ms"
factor = 1.1
exercise = "no-such"
"#;
    let program = "#include \"academy.cuh\"\nint main() { return 0; }\n";
    let problems = catalog::load("x", toml, program, program).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("reference exercise \"no-such\"")),
        "{problems:?}"
    );
}

#[test]
fn the_solution_of_fix_the_race_waits_before_it_reads() {
    let ex = catalog::find("fix-the-race").unwrap();
    let v = exercise::check(
        ex,
        ex.solution,
        &mut sim(),
        Limits::default(),
        &AtomicBool::new(false),
    );
    assert!(v.passed, "{:?}", v.checks);
    // The order of what the program did, from the call log the hazard checker reads.
    let out = super::run(ex.solution);
    let position = |want: fn(&Call) -> bool| out.log.iter().position(|e| want(&e.call));
    let sync = position(|c| matches!(c, Call::StreamSync { .. })).unwrap();
    let check =
        position(|c| matches!(c, Call::HostRead { what, .. } if what.as_str() == "check_output"))
            .unwrap();
    assert!(sync < check, "{:?}", out.log);
}

#[test]
fn lessons_that_name_unknown_or_foreign_exercises_are_problems() {
    assert!(validate("pipeline", &["double-buffer".into(), "issue-order".into()]).is_empty());
    let p = validate("pipeline", &["double-buffer".into(), "no-such".into()]);
    assert!(
        p.iter().any(|m| m.contains("unknown exercise \"no-such\"")),
        "{p:?}"
    );
    assert_eq!(p.len(), 1, "{p:?}");
    let p = validate(
        "pipeline",
        &[
            "fix-the-race".into(),
            "double-buffer".into(),
            "issue-order".into(),
        ],
    );
    assert!(
        p.iter()
            .any(|m| m.contains("belongs to lesson \"async-copy\"")),
        "{p:?}"
    );
}

/// Review 2026-12-01 L6: `exercises = ["time-a-copy", "time-a-copy"]` passed `check`, and the
/// exercise list showed the exercise twice.
#[test]
fn a_lesson_naming_an_exercise_twice_is_a_problem() {
    let p = validate(
        "pageable-memory",
        &["time-a-copy".into(), "time-a-copy".into()],
    );
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].contains("\"time-a-copy\" is listed more than once"),
        "{p:?}"
    );
}

#[test]
fn every_solution_with_any_one_line_deleted_is_graded_without_a_crash() {
    // Deleting a line makes every kind of mistake at once: undeclared names, missing frees,
    // missing syncs, broken braces. Each must come back as a verdict, never a panic.
    let cancel = AtomicBool::new(false);
    let limits = Limits {
        max_steps: 200_000,
        ..Limits::default()
    };
    for ex in catalog::all() {
        let lines: Vec<&str> = ex.solution.lines().collect();
        for skip in 0..lines.len() {
            let mutant: String = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, l)| format!("{l}\n"))
                .collect();
            let v = exercise::check(ex, &mutant, &mut sim(), limits, &cancel);
            if !v.passed {
                assert!(
                    v.checks.iter().any(|c| !c.passed && !c.detail.is_empty()),
                    "{} without line {}",
                    ex.id,
                    skip + 1
                );
            }
        }
    }
}

#[test]
fn a_rate_from_a_time_never_measured_does_not_pass() {
    // Without cudaEventElapsedTime, ms stays 0 and the bandwidth is infinite.
    let ex = catalog::find("pageable-to-pinned").unwrap();
    let src = ex
        .solution
        .replace("    cudaEventElapsedTime(&ms, start, stop);\n", "");
    assert_ne!(src, ex.solution);
    let v = exercise::check(
        ex,
        &src,
        &mut sim(),
        Limits::default(),
        &AtomicBool::new(false),
    );
    assert!(!v.passed);
    assert!(
        v.checks
            .iter()
            .any(|c| !c.passed && c.detail.contains("is inf")),
        "{:?}",
        v.checks
    );
}

#[test]
fn pin_once_counts_what_the_program_pinned_not_what_its_text_says() {
    let ex = catalog::find("pin-once").unwrap();
    let pins = |src: &str| {
        let v = exercise::check(
            ex,
            src,
            &mut sim(),
            Limits::default(),
            &AtomicBool::new(false),
        );
        let c = v
            .checks
            .iter()
            .find(|c| c.name.starts_with("pins"))
            .cloned();
        (v.passed, c.unwrap())
    };
    let (passed, c) = pins(ex.solution);
    assert!(passed && c.passed, "{c:?}");
    assert_eq!(c.detail, "2 pinned allocation(s)");
    // The same calls in a loop that runs once pin only twice: the run counts, not the text.
    let once = ex.starter.replace("round < 8", "round < 1");
    let (_, c) = pins(&once);
    assert!(c.passed, "{c:?}");
    // Pinning with cudaHostRegister in every round counts as well.
    let registered = ex
        .solution
        .replace("float *h_in;\n    float *h_out;\n    CHECK(cudaMallocHost(&h_in, bytes));\n    CHECK(cudaMallocHost(&h_out, bytes));\n", "float *h_in = (float *)malloc(bytes);\n    float *h_out;\n    CHECK(cudaMallocHost(&h_out, bytes));\n")
        .replace("        fill_input(h_in, n);\n", "        cudaHostRegister(h_in, bytes, 0);\n        fill_input(h_in, n);\n")
        .replace("        if (!check_output", "        cudaHostUnregister(h_in);\n        if (!check_output")
        .replace("    cudaFreeHost(h_in);\n", "    free(h_in);\n");
    assert_eq!(
        registered.matches("cudaHostRegister").count(),
        1,
        "{registered}"
    );
    let (passed, c) = pins(&registered);
    assert!(!passed && !c.passed, "{c:?}");
    // One allocation (h_out) and eight registrations of h_in, named as what they are.
    assert!(
        c.detail
            .starts_with("9 pinnings (1 pinned allocation, 8 registrations)"),
        "{}",
        c.detail
    );
}

/// Review 2026-12-01 M4: the task says breadth-first is slower here (each stream's first
/// download waits behind all its uploads); the solution's own figures on the simulator agree,
/// and both are timed after a warm-up round of their order.
#[test]
fn the_issue_order_solution_measures_breadth_first_slower_each_after_a_warm_up() {
    let ex = catalog::find("issue-order").unwrap();
    let v = exercise::check(
        ex,
        ex.solution,
        &mut sim(),
        Limits::default(),
        &AtomicBool::new(false),
    );
    assert!(v.passed, "{:#?}", v.checks);
    let (pc, bf) = (
        v.metrics["per_chunk_ms"].value,
        v.metrics["breadth_first_ms"].value,
    );
    assert!(bf > 1.1 * pc, "per-chunk {pc} ms, breadth-first {bf} ms");
    // The criterion wants the warm-up rounds: the solution without the breadth-first one fails.
    let cold = ex.solution.replacen(
        "    // Breadth-first: every upload, then every kernel, then every download; warm-up, then timed.\n    for (int round = 0;",
        "    for (int round = 1;",
        1,
    );
    assert_ne!(cold, ex.solution);
    let v = exercise::check(
        ex,
        &cold,
        &mut sim(),
        Limits::default(),
        &AtomicBool::new(false),
    );
    let order = v.checks.iter().find(|c| c.name == "issue order").unwrap();
    assert!(!order.passed, "{order:?}");
}

/// Lesson 4's other way to make reuse safe: one stream per stage, with events. The double
/// buffer of `double-buffer` may be built that way too; without the wait before an upload
/// overwrites a slot its kernel may still read, the checker reports the device race.
#[test]
fn double_buffer_passes_by_stage_with_events_and_names_a_missing_reuse_wait() {
    let ex = catalog::find("double-buffer").unwrap();
    let check = |src: &str| {
        exercise::check(
            ex,
            src,
            &mut sim(),
            Limits::default(),
            &AtomicBool::new(false),
        )
    };
    let v = check(BY_STAGE);
    assert!(v.passed, "{:#?} {:?}", v.checks, v.hazards);
    let racy = BY_STAGE.replace(
        "            cudaStreamWaitEvent(up, computed[k], 0); // d_in[k] read by chunk c - S's kernel\n",
        "",
    );
    assert_ne!(racy, BY_STAGE);
    let v = check(&racy);
    assert!(!v.passed);
    let race = v.hazards.iter().find(|h| h.kind.name() == "device-race");
    assert!(race.is_some_and(|h| h.line == 40), "{:?}", v.hazards);
}

const BY_STAGE: &str = r#"// Lesson 4: double buffering by stage: one stream per stage, events order the reuse.
#include "academy.cuh"

int main()
{
    const size_t n = 1 << 26;
    const size_t bytes = n * sizeof(float);
    float *h_in;
    float *h_out;
    cudaMallocHost(&h_in, bytes);
    cudaMallocHost(&h_out, bytes);
    fill_input(h_in, n);
    const int nchunks = 32;
    const int S = 3;
    const size_t chunk = n / nchunks;
    const size_t cb = chunk * sizeof(float);
    cudaStream_t up, comp, down;
    cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&comp, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking);
    float *d_in[3];
    float *d_out[3];
    cudaEvent_t uploaded[3];
    cudaEvent_t computed[3];
    cudaEvent_t downloaded[3];
    for (int k = 0; k < S; k++) {
        cudaMalloc(&d_in[k], cb);
        cudaMalloc(&d_out[k], cb);
        cudaEventCreateWithFlags(&uploaded[k], cudaEventDisableTiming);
        cudaEventCreateWithFlags(&computed[k], cudaEventDisableTiming);
        cudaEventCreateWithFlags(&downloaded[k], cudaEventDisableTiming);
    }
    double t0 = now_ms();
    for (int c = 0; c < nchunks; c++) {
        int k = c % S;
        size_t off = c * chunk;
        if (c >= S) {
            cudaStreamWaitEvent(up, computed[k], 0); // d_in[k] read by chunk c - S's kernel
            cudaStreamWaitEvent(comp, downloaded[k], 0); // d_out[k] read by chunk c - S's download
        }
        cudaMemcpyAsync(d_in[k], h_in + off, cb, cudaMemcpyHostToDevice, up);
        cudaEventRecord(uploaded[k], up);
        cudaStreamWaitEvent(comp, uploaded[k], 0);
        transform<<<(chunk + 255) / 256, 256, 0, comp>>>(d_in[k], d_out[k], chunk);
        cudaEventRecord(computed[k], comp);
        cudaStreamWaitEvent(down, computed[k], 0);
        cudaMemcpyAsync(h_out + off, d_out[k], cb, cudaMemcpyDeviceToHost, down);
        cudaEventRecord(downloaded[k], down);
    }
    cudaStreamSynchronize(down);
    report("pipeline_ms", now_ms() - t0);
    bool ok = check_output(h_out, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");
    for (int k = 0; k < S; k++) {
        cudaFree(d_in[k]);
        cudaFree(d_out[k]);
        cudaEventDestroy(uploaded[k]);
        cudaEventDestroy(computed[k]);
        cudaEventDestroy(downloaded[k]);
    }
    cudaStreamDestroy(up);
    cudaStreamDestroy(comp);
    cudaStreamDestroy(down);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    return 0;
}
"#;

/// Review 2026-12-01b CK11: every card a hazard points at is a card of a shipped lesson, so a
/// renamed card or a wrong link fails here (a leaked stream pointed at the pinned-memory card).
#[test]
fn every_card_a_hazard_points_at_exists() {
    use cuda_academy::exercise::hazards::CardRef;
    use cuda_academy::lesson::{Catalog, LessonEntry};
    let lessons: Vec<_> = Catalog::embedded()
        .entries
        .into_iter()
        .filter_map(|e| match e {
            LessonEntry::Ok(l) => Some(l),
            LessonEntry::Broken { .. } => None,
        })
        .collect();
    let cards = CardRef::every();
    assert!(cards.len() >= 9, "{cards:?}");
    for card in cards {
        let lesson = lessons.iter().find(|l| l.id() == card.lesson);
        assert!(
            lesson.is_some_and(|l| l.cards.iter().any(|c| c.title() == card.card)),
            "no card {:?} in lesson `{}`",
            card.card,
            card.lesson
        );
    }
}
