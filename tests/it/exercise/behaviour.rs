//! The criteria on behaviour one by one, on small programs: each passes on the program that
//! does the thing and fails, naming what is missing, on one that does not.

use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::catalog::{self, Exercise};
use cuda_academy::exercise::interp::Limits;
use cuda_academy::exercise::verdict::{CheckResult, Criterion};
use cuda_academy::exercise::{self};

use super::{program, sim};

/// The one check `criterion` (TOML, as in `exercise.toml`) gives `body`.
fn grade(criterion: &str, body: &str) -> CheckResult {
    let c: Criterion = toml::from_str(criterion).unwrap();
    c.validate().unwrap();
    let base = catalog::find("fix-the-race").unwrap();
    let ex = Exercise {
        criteria: vec![c],
        ..base.clone()
    };
    let v = exercise::check(
        &ex,
        &program(body),
        &mut sim(),
        Limits::default(),
        &AtomicBool::new(false),
    );
    assert!(v.diagnostics.is_empty(), "{:?}", v.diagnostics);
    v.checks.last().unwrap().clone()
}

const SETUP: &str = r#"    const size_t n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    float *h_in;
    cudaMallocHost(&h_in, bytes);
    float *d_in;
    cudaMalloc(&d_in, bytes);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaEvent_t done;
    cudaEventCreate(&done);
    fill_input(h_in, n);
    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);
    cudaEventRecord(done, s);
"#;
const TEARDOWN: &str = r#"    cudaStreamSynchronize(s);
    cudaEventDestroy(done);
    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFreeHost(h_in);
"#;

#[test]
fn reuse_after_event_wants_the_event_not_luck() {
    let c = "kind = \"reuse-after-event\"\nmin_reuses = 1";
    let guarded =
        format!("{SETUP}    cudaEventSynchronize(done);\n    fill_input(h_in, n);\n{TEARDOWN}");
    let r = grade(c, &guarded);
    assert!(r.passed, "{r:?}");
    let racing = format!("{SETUP}    fill_input(h_in, n);\n{TEARDOWN}");
    let r = grade(c, &racing);
    assert!(
        !r.passed && r.detail.contains("while the copy issued on line"),
        "{r:?}"
    );
    // Safe, but not what the criterion teaches: no event said the buffer was free.
    let synced =
        format!("{SETUP}    cudaStreamSynchronize(s);\n    fill_input(h_in, n);\n{TEARDOWN}");
    let r = grade(c, &synced);
    assert!(!r.passed && r.detail.contains("0 buffer reuse(s)"), "{r:?}");
}

#[test]
fn copies_from_names_the_memory_the_copies_really_used() {
    let c =
        "kind = \"copies-from\"\ndirection = \"h2d\"\nmemory = \"registered\"\nmin_bytes = 1024";
    let r = grade(c, &format!("{SETUP}{TEARDOWN}"));
    assert!(!r.passed, "{r:?}");
    assert!(r.detail.contains("the rest: 4 MiB from pinned"), "{r:?}");
    let c = "kind = \"copies-from\"\ndirection = \"h2d\"\nmemory = \"pinned\"\nmin_bytes = 4194304";
    assert!(grade(c, &format!("{SETUP}{TEARDOWN}")).passed);
}

#[test]
fn events_time_copies_wants_the_events_around_the_copy() {
    let c = "kind = \"events-time-copies\"\nmetric = \"up_ms\"\ndirection = \"h2d\"\nmemory = \"pinned\"\nmin_bytes = 4194304\ntolerance_pct = 10";
    let timed = r#"    const size_t bytes = 1 << 22;
    float *h;
    cudaMallocHost(&h, bytes);
    float *d;
    cudaMalloc(&d, bytes);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, 0);
    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    report("up_ms", ms);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaFree(d);
    cudaFreeHost(h);
"#;
    let r = grade(c, timed);
    assert!(r.passed, "{r:?}");
    // Both records before the copy: the events time nothing.
    let nothing = timed.replace(
        "    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);\n    cudaEventRecord(b, 0);\n",
        "    cudaEventRecord(b, 0);\n    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);\n",
    );
    let r = grade(c, &nothing);
    assert!(
        !r.passed && r.detail.contains("no `cudaEventElapsedTime`"),
        "{r:?}"
    );
    // The events are right, the figure is not what they measured.
    let r = grade(
        c,
        &timed.replace("report(\"up_ms\", ms);", "report(\"up_ms\", ms * 3);"),
    );
    assert!(
        !r.passed && r.detail.contains("does not match the run"),
        "{r:?}"
    );
}

#[test]
fn issue_order_tells_a_mixed_order_from_breadth_first() {
    let c = "kind = \"issue-order\"\norders = [\"breadth-first\"]";
    let body = |order: &str| {
        format!(
            r#"    const size_t n = 1 << 20;
    const size_t chunk = n / 2;
    float *h;
    cudaMallocHost(&h, n * sizeof(float));
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    float *e;
    cudaMalloc(&e, n * sizeof(float));
    fill_input(h, n);
{order}
    cudaDeviceSynchronize();
    cudaFree(d);
    cudaFree(e);
    cudaFreeHost(h);
"#
        )
    };
    let up = |c: u32| {
        format!("    cudaMemcpy(d + {c} * chunk, h + {c} * chunk, chunk * sizeof(float), cudaMemcpyHostToDevice);\n").replace("cudaMemcpy(", "cudaMemcpyAsync(").replace("cudaMemcpyHostToDevice)", "cudaMemcpyHostToDevice, 0)")
    };
    let k =
        |c: u32| format!("    transform<<<64, 256>>>(d + {c} * chunk, e + {c} * chunk, chunk);\n");
    let down = |c: u32| {
        format!(
            "    cudaMemcpyAsync(h + {c} * chunk, e + {c} * chunk, chunk * sizeof(float), cudaMemcpyDeviceToHost, 0);\n"
        )
    };
    let breadth = [up(0), up(1), k(0), k(1), down(0), down(1)].concat();
    assert!(grade(c, &body(&breadth)).passed);
    let mixed = [up(0), up(1), k(0), down(0), k(1), down(1)].concat();
    let r = grade(c, &body(&mixed));
    assert!(!r.passed && r.detail.contains("neither order"), "{r:?}");
}

#[test]
fn pinned_at_most_counts_what_is_locked_at_once_registrations_included() {
    // 4 MiB pinned (h_in), then 4 MiB of malloc registered while h_in is held: 8 MiB at once.
    let c = "kind = \"pinned-at-most\"\nbytes = 6291456";
    let registered = format!(
        "{SETUP}    float *h_more = (float *)malloc(bytes);\n    cudaHostRegister(h_more, bytes, 0);\n    cudaHostUnregister(h_more);\n    free(h_more);\n{TEARDOWN}"
    );
    let r = grade(c, &registered);
    assert!(
        !r.passed && r.detail.contains("8 MiB page-locked at once"),
        "{r:?}"
    );
    // Released before the next is locked: never more than 4 MiB at once.
    let one_at_a_time = format!(
        "{SETUP}{TEARDOWN}    float *h_more = (float *)malloc(bytes);\n    cudaHostRegister(h_more, bytes, 0);\n    cudaHostUnregister(h_more);\n    free(h_more);\n"
    );
    let r = grade(c, &one_at_a_time);
    assert!(
        r.passed && r.detail.contains("4 MiB page-locked at once"),
        "{r:?}"
    );
}

#[test]
fn device_memory_at_most_counts_what_is_allocated_at_once() {
    let c = "kind = \"device-memory-at-most\"\nbytes = 8388608";
    let body = |frees_between: bool| {
        let free_a = if frees_between {
            "    cudaFree(a);\n"
        } else {
            ""
        };
        let free_a_end = if frees_between {
            ""
        } else {
            "    cudaFree(a);\n"
        };
        format!(
            "    float *a;\n    cudaMalloc(&a, 6 << 20);\n{free_a}    float *b;\n    cudaMalloc(&b, 6 << 20);\n{free_a_end}    cudaFree(b);\n"
        )
    };
    // 6 MiB, freed, then 6 MiB: never more than 6 MiB at once.
    let r = grade(c, &body(true));
    assert!(r.passed && r.detail.contains("6 MiB"), "{r:?}");
    // Both held at once: 12 MiB, reached on the second allocation's line.
    let r = grade(c, &body(false));
    assert!(
        !r.passed
            && r.detail
                .starts_with("12 MiB of device memory allocated at once (reached on line 8)"),
        "{r:?}"
    );
}

#[test]
fn input_stays_pageable_reads_the_buffer_fill_input_wrote() {
    let c = "kind = \"input-stays-pageable\"";
    // SETUP fills a cudaMallocHost buffer: the input was pinned.
    let r = grade(c, &format!("{SETUP}{TEARDOWN}"));
    assert!(
        !r.passed && r.detail.contains("was allocated pinned"),
        "{r:?}"
    );
    let pageable = "    const size_t n = 1 << 20;\n    float *h = (float *)malloc(n * sizeof(float));\n    fill_input(h, n);\n";
    let r = grade(c, &format!("{pageable}    free(h);\n"));
    assert!(r.passed, "{r:?}");
    let registered = format!(
        "{pageable}    cudaHostRegister(h, n * sizeof(float), 0);\n    cudaHostUnregister(h);\n    free(h);\n"
    );
    let r = grade(c, &registered);
    assert!(
        !r.passed && r.detail.contains("`cudaHostRegister`"),
        "{r:?}"
    );
}

#[test]
fn median_of_timed_copies_wants_a_warm_up_and_each_copy_timed_alone() {
    let c = "kind = \"median-of-timed-copies\"\nmetric = \"up_ms\"\ndirection = \"h2d\"\nmemory = \"pinned\"\nmin_bytes = 4194304\ncount = 3\ntolerance_pct = 10";
    let copies = |warm_up: &str, reps: u32, report: &str| {
        format!(
            r#"    const size_t bytes = 1 << 22;
    float *h;
    cudaMallocHost(&h, bytes);
    float *d;
    cudaMalloc(&d, bytes);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
{warm_up}    float ms = 0;
    for (int r = 0; r < {reps}; r++) {{
        cudaEventRecord(a, 0);
        cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
        cudaEventRecord(b, 0);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms, a, b);
    }}
    report("up_ms", {report});
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaFree(d);
    cudaFreeHost(h);
"#
        )
    };
    let warm = "    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);\n";
    // Every copy of the simulator takes the same time, so the last one is the median.
    let r = grade(c, &copies(warm, 3, "ms"));
    assert!(r.passed, "{r:?}");
    // No warm-up: the first timed copy is the cold one and does not count.
    let r = grade(c, &copies("", 3, "ms"));
    assert!(
        !r.passed && r.detail.starts_with("2 of the host-to-device copies"),
        "{r:?}"
    );
    // Timed right, reported wrong.
    let r = grade(c, &copies(warm, 3, "ms * 2"));
    assert!(
        !r.passed && r.detail.contains("does not match the run"),
        "{r:?}"
    );
}
