//! Twin tests of the ordering rules (`src/ordering/rules.rs`): for each rule one small program
//! runs on the simulator, and the simulator's timeline (when the ops ran, when the host got
//! back) and the checker's verdict must tell the same story. Ops are found by the line that
//! issued them; host times come from `now_ms()` reported right after the call.

use cuda_academy::exercise::hazards::{self, HazardKind};
use cuda_academy::exercise::interp::Outcome;
use cuda_academy::ordering::rules::{self, Rule};
use cuda_academy::report::Op;

use super::{program, run};

/// Pinned h_in/h_out, device d_in/d_out, non-blocking s1/s2 and blocking b1: lines 5 to 20.
const SETUP: &str = r#"    const size_t n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    float *h_in;
    float *h_out;
    cudaMallocHost(&h_in, bytes);
    cudaMallocHost(&h_out, bytes);
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    fill_input(h_in, n);
    cudaStream_t s1, s2, b1;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    cudaStreamCreate(&b1);
    float *h_page = (float *)malloc(bytes);"#;
/// The first line after SETUP.
const FIRST: u32 = 21;
/// About 0.1 s of spin on the H200 profile: longer than any copy here.
const SPIN: &str = "200000000LL";

struct Twin {
    out: Outcome,
    hazards: Vec<(HazardKind, u32, Option<u32>)>,
}

impl Twin {
    /// The op line `FIRST + k` issued.
    fn op(&self, k: u32) -> &Op {
        let line = FIRST + k;
        self.out
            .timeline
            .iter()
            .find(|o| o.line == Some(line))
            .unwrap_or_else(|| panic!("no op from line {line}: {:?}", self.out.timeline))
    }
    /// The host's clock reported as `name`, in µs.
    fn host_us(&self, name: &str) -> f64 {
        self.out.metrics[name] * 1000.0
    }
    fn has(&self, kind: HazardKind, k: u32, other: u32) -> bool {
        self.hazards
            .contains(&(kind, FIRST + k, Some(FIRST + other)))
    }
    fn races(&self) -> bool {
        self.hazards.iter().any(|h| !h.0.is_warning())
    }
}

fn twin(lines: &[&str]) -> Twin {
    twin_judged(lines, false)
}

/// [`twin`], judged as an exercise about overlap when `overlap` (the `default-stream` warning
/// is on).
fn twin_judged(lines: &[&str], overlap: bool) -> Twin {
    let body = format!("{SETUP}\n{}", lines.join("\n"));
    let out = run(&program(&body));
    assert!(out.error.is_none(), "{:?}\n{body}", out.error);
    let hazards = hazards::check(&out.log, &out.region_names, overlap)
        .into_iter()
        .filter(|h| h.kind != HazardKind::Leak)
        .map(|h| (h.kind, h.line, h.other_line))
        .collect();
    Twin { out, hazards }
}

/// Each rule's twin: the program that shows its effect on the simulator and in the checker.
/// A rule of `rules::TABLE` missing here fails `every_rule_has_a_twin` (rules are told apart by
/// value: a `const`'s address is not unique).
const TWINS: &[(&Rule, fn())] = &[
    (
        &rules::MEMCPY_H2D_PAGEABLE,
        a_synchronous_upload_from_pageable_memory_waits_for_its_stream_then_takes_its_source,
    ),
    (
        &rules::MEMCPY_H2D_PINNED,
        a_synchronous_upload_from_pinned_memory_returns_after_the_copy,
    ),
    (
        &rules::MEMCPY_D2H,
        a_synchronous_copy_back_makes_the_host_wait_for_it,
    ),
    (
        &rules::MEMCPY_D2D,
        cuda_memset_and_device_to_device_copies_do_not_make_the_host_wait,
    ),
    (
        &rules::MEMCPY_ASYNC_PINNED,
        an_async_copy_of_pinned_memory_returns_before_it_runs,
    ),
    (
        &rules::MEMCPY_ASYNC_H2D_PAGEABLE,
        a_pageable_async_upload_has_taken_its_source_when_it_returns,
    ),
    (
        &rules::MEMCPY_ASYNC_D2H_PAGEABLE,
        a_pageable_async_download_has_completed_when_it_returns,
    ),
    (
        &rules::MEMSET,
        cuda_memset_and_device_to_device_copies_do_not_make_the_host_wait,
    ),
    (&rules::ASYNC_OP, a_kernel_launch_returns_before_it_runs),
    (
        &rules::HOST_FUNC,
        a_host_function_runs_on_the_host_when_its_stream_reaches_it,
    ),
    (
        &rules::LEGACY_BARRIER,
        a_blocking_stream_destroyed_while_busy_still_holds_the_legacy_stream,
    ),
    (
        &rules::FREE_IN_FLIGHT,
        freeing_memory_in_flight_stalls_the_simulated_host_and_is_a_hazard,
    ),
];

#[test]
fn every_rule_has_a_twin() {
    let missing: Vec<String> = rules::TABLE
        .iter()
        .filter(|rule| !TWINS.iter().any(|(r, _)| r == *rule))
        .map(|r| format!("{} ({})", r.call, r.when))
        .collect();
    assert!(missing.is_empty(), "rules without a twin: {missing:?}");
    for (rule, _) in TWINS {
        assert!(
            rules::TABLE.contains(rule),
            "a twin names a rule outside TABLE: {}",
            rule.call
        );
    }
}

#[test]
fn ops_of_one_stream_run_in_order_and_need_no_event() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s1);",
        "    transform<<<256, 256, 0, s1>>>(d_in, d_out, n);",
        "    cudaStreamSynchronize(s1);",
    ]);
    assert!(t.op(1).start_us >= t.op(0).end_us && t.op(2).start_us >= t.op(1).end_us);
    assert!(!t.races(), "{:?}", t.hazards);
}

#[test]
fn unordered_streams_may_overlap_and_are_a_device_race() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s1);",
        "    transform<<<256, 256, 0, s2>>>(d_in, d_out, n);",
        "    cudaDeviceSynchronize();",
    ]);
    // The kernel ran before the upload it reads: the race is real on the simulator too.
    assert!(t.op(2).end_us <= t.op(1).start_us);
    assert!(t.has(HazardKind::DeviceRace, 2, 1), "{:?}", t.hazards);
}

#[test]
fn an_event_wait_orders_the_kernel_after_the_upload() {
    let t = twin(&[
        "    cudaEvent_t up;",
        "    cudaEventCreate(&up);",
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s1);",
        "    cudaEventRecord(up, s1);",
        "    cudaStreamWaitEvent(s2, up, 0);",
        "    transform<<<256, 256, 0, s2>>>(d_in, d_out, n);",
        "    cudaDeviceSynchronize();",
        "    cudaEventDestroy(up);",
    ]);
    assert!(t.op(6).start_us >= t.op(3).end_us);
    assert!(!t.races(), "{:?}", t.hazards);
}

#[test]
fn the_legacy_stream_waits_for_blocking_streams_only() {
    let blocking = twin(&[
        &format!("    spin<<<1, 1, 0, b1>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, b1);",
        "    transform<<<256, 256, 0, 0>>>(d_in, d_out, n);",
        "    cudaDeviceSynchronize();",
    ]);
    assert!(blocking.op(2).start_us >= blocking.op(1).end_us);
    assert!(!blocking.races(), "{:?}", blocking.hazards);
    let free = twin(&[
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s1);",
        "    transform<<<256, 256, 0, 0>>>(d_in, d_out, n);",
        "    cudaDeviceSynchronize();",
    ]);
    assert!(free.op(2).end_us <= free.op(1).start_us);
    assert!(free.has(HazardKind::DeviceRace, 2, 1), "{:?}", free.hazards);
}

#[test]
fn a_blocking_stream_destroyed_while_busy_still_holds_the_legacy_stream() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, b1>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, b1);",
        "    cudaStreamDestroy(b1);",
        "    transform<<<256, 256, 0, 0>>>(d_in, d_out, n);",
        "    cudaDeviceSynchronize();",
    ]);
    assert!(t.op(3).start_us >= t.op(1).end_us);
    assert!(!t.races(), "{:?}", t.hazards);
    // In an exercise about overlap the kernel is worth the `default-stream` warning: the model
    // still fences the destroyed-but-busy stream (the warning once read a copy that forgot it).
    let warned = twin_judged(
        &[
            &format!("    spin<<<1, 1, 0, b1>>>({SPIN});"),
            "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, b1);",
            "    cudaStreamDestroy(b1);",
            "    transform<<<256, 256, 0, 0>>>(d_in, d_out, n);",
            "    cudaDeviceSynchronize();",
        ],
        true,
    );
    assert!(
        warned
            .hazards
            .contains(&(HazardKind::DefaultStream, FIRST + 3, None)),
        "{:?}",
        warned.hazards
    );
    // Once the host knows the destroyed stream's work is done, it holds nothing: no warning.
    let idle = twin_judged(
        &[
            "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, b1);",
            "    cudaStreamSynchronize(b1);",
            "    cudaStreamDestroy(b1);",
            "    transform<<<256, 256, 0, 0>>>(d_in, d_out, n);",
            "    cudaDeviceSynchronize();",
        ],
        true,
    );
    assert!(
        !idle
            .hazards
            .iter()
            .any(|h| h.0 == HazardKind::DefaultStream),
        "{:?}",
        idle.hazards
    );
}

#[test]
fn a_synchronous_upload_from_pinned_memory_returns_after_the_copy() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, 0>>>({SPIN});"),
        "    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);",
        "    report(\"back\", now_ms());",
        "    h_in[0] = 1000.0f;",
        "    cudaDeviceSynchronize();",
    ]);
    assert!(t.host_us("back") >= t.op(1).end_us);
    assert!(!t.races(), "{:?}", t.hazards);
}

#[test]
fn an_async_copy_of_pinned_memory_returns_before_it_runs() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s1);",
        "    report(\"back\", now_ms());",
        "    h_in[0] = 1000.0f;",
        "    cudaStreamSynchronize(s1);",
    ]);
    assert!(t.host_us("back") < t.op(1).start_us);
    assert!(
        t.has(HazardKind::WriteWhileInFlight, 3, 1),
        "{:?}",
        t.hazards
    );
}

#[test]
fn a_kernel_launch_returns_before_it_runs() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    transform<<<256, 256, 0, s1>>>(d_in, d_out, n);",
        "    report(\"back\", now_ms());",
        "    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);",
        "    cudaStreamSynchronize(s1);",
    ]);
    assert!(t.host_us("back") < t.op(1).start_us);
    // The synchronous copy back is on the legacy stream, not ordered after s1's kernel.
    assert!(t.has(HazardKind::DeviceRace, 3, 1), "{:?}", t.hazards);
}

/// `cudaLaunchHostFunc` returns at once (the H200: 15 us, the function not yet run); the body
/// runs when the stream reaches it, as a bar on the host lane, and its write lands then: `main`
/// reads the old value before the sync and the new one after, and the checker reports the
/// first read.
#[test]
fn a_host_function_runs_on_the_host_when_its_stream_reaches_it() {
    let lines = [
        "    h_out[0] = 0.0f;",
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaLaunchHostFunc(s1, mark, h_out);",
        "    report(\"back\", now_ms());",
        "    report(\"before\", h_out[0]);",
        "    cudaStreamSynchronize(s1);",
        "    report(\"after\", h_out[0]);",
    ];
    let mark = "void CUDART_CB mark(void *p)\n{\n    float *h = (float *)p;\n    h[0] = 1.0f;\n}\n";
    let src = program(&format!("{SETUP}\n{}", lines.join("\n"))).replacen(
        "\n\nint main()",
        &format!("\n\n{mark}\nint main()"),
        1,
    );
    let line_of = |text: &str| {
        1 + src
            .lines()
            .position(|l| l.contains(text))
            .unwrap_or_else(|| panic!("no `{text}` in\n{src}")) as u32
    };
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}\n{src}", out.error);
    let spin = out
        .timeline
        .iter()
        .find(|o| o.line == Some(line_of("spin<<<")))
        .expect("the spin on the timeline");
    assert!(
        out.metrics["back"] * 1000.0 < spin.end_us,
        "the call waited for its stream"
    );
    let bar = out
        .host_calls
        .iter()
        .find(|o| o.label == "host function mark")
        .unwrap_or_else(|| panic!("no host-function bar: {:?}", out.host_calls));
    assert!(
        bar.start_us >= spin.end_us,
        "{bar:?} ran before the stream reached it"
    );
    assert_eq!(bar.line, Some(line_of("cudaLaunchHostFunc")));
    assert_eq!((out.metrics["before"], out.metrics["after"]), (0.0, 1.0));
    let hazards: Vec<_> = hazards::check(&out.log, &out.region_names, false)
        .into_iter()
        .filter(|h| h.kind != HazardKind::Leak)
        .map(|h| (h.kind, h.line, h.other_line))
        .collect();
    let read = line_of("report(\"before\"");
    assert_eq!(
        hazards,
        [(
            HazardKind::ReadBeforeSync,
            read,
            Some(line_of("cudaLaunchHostFunc"))
        )]
    );
}

#[test]
fn syncing_the_legacy_stream_waits_for_blocking_streams() {
    let t = twin(&[
        "    cudaMemcpyAsync(d_out, h_in, bytes, cudaMemcpyHostToDevice, b1);",
        &format!("    spin<<<1, 1, 0, b1>>>({SPIN});"),
        "    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, b1);",
        "    cudaStreamSynchronize(0);",
        "    report(\"back\", now_ms());",
        "    printf(\"%f\\n\", h_out[0]);",
    ]);
    assert!(t.host_us("back") >= t.op(2).end_us);
    assert!(!t.races(), "{:?}", t.hazards);
}

#[test]
fn cuda_memset_and_device_to_device_copies_do_not_make_the_host_wait() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, b1>>>({SPIN});"),
        "    cudaMemset(d_out, 0, bytes);",
        "    report(\"after_memset\", now_ms());",
        "    cudaMemcpy(d_in, d_out, bytes, cudaMemcpyDeviceToDevice);",
        "    report(\"after_d2d\", now_ms());",
        "    cudaMemcpyAsync(h_out, d_in, bytes, cudaMemcpyDeviceToHost, s1);",
        "    cudaStreamSynchronize(s1);",
        "    cudaDeviceSynchronize();",
    ]);
    // The host got back long before either op ran (they wait behind the spin on b1).
    assert!(t.host_us("after_memset") < t.op(1).start_us);
    assert!(t.host_us("after_d2d") < t.op(3).start_us);
    // So the download on a non-blocking stream is not ordered after the D2D copy.
    assert!(t.has(HazardKind::DeviceRace, 5, 3), "{:?}", t.hazards);
}

#[test]
fn a_synchronous_copy_back_makes_the_host_wait_for_it() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, 0>>>({SPIN});"),
        "    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);",
        "    report(\"back\", now_ms());",
        "    printf(\"%f\\n\", h_out[0]);",
    ]);
    assert!(t.host_us("back") >= t.op(1).end_us);
    assert!(!t.races(), "{:?}", t.hazards);
}

#[test]
fn a_pageable_async_upload_has_taken_its_source_when_it_returns() {
    let t = twin(&[
        "    fill_input(h_page, n);",
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_page, bytes, cudaMemcpyHostToDevice, s1);",
        "    h_page[0] = 1000.0f;",
        "    transform<<<256, 256, 0, s1>>>(d_in, d_out, n);",
        "    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s1);",
        "    cudaStreamSynchronize(s1);",
        "    bool ok = check_output(h_out, n);",
        "    free(h_page);",
    ]);
    // The overwrite after the call did not reach the GPU: the data is the filled input.
    assert!(t.out.checks.iter().all(|c| c.passed));
    assert!(!t.races(), "{:?}", t.hazards);
    assert!(
        t.hazards
            .contains(&(HazardKind::PageableAsync, FIRST + 2, None))
    );
}

#[test]
fn a_pageable_async_download_has_completed_when_it_returns() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMemcpyAsync(h_page, d_in, bytes, cudaMemcpyDeviceToHost, s1);",
        "    report(\"back\", now_ms());",
        "    printf(\"%f\\n\", h_page[0]);",
        "    cudaStreamSynchronize(s1);",
        "    free(h_page);",
    ]);
    assert!(t.host_us("back") >= t.op(1).end_us);
    assert!(!t.races(), "{:?}", t.hazards);
}

#[test]
fn freeing_memory_in_flight_stalls_the_simulated_host_and_is_a_hazard() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s1);",
        "    cudaFreeHost(h_in);",
        "    report(\"after_free\", now_ms());",
        "    cudaStreamSynchronize(s1);",
    ]);
    // Today's driver waits (the H200 probe): the simulator does the same...
    assert!(t.host_us("after_free") >= t.op(1).end_us);
    // ...but the API promises nothing, so the checker reports it.
    assert!(
        t.has(HazardKind::FreeWhileInFlight, 2, 1),
        "{:?}",
        t.hazards
    );
}

/// The README's table is the rules table: every row, word for word.
#[test]
fn the_readme_lists_every_ordering_rule() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let missing: Vec<String> = cuda_academy::ordering::rules::TABLE
        .iter()
        .map(|r| r.markdown_row())
        .filter(|row| !readme.contains(row.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "README lacks these rows:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_per_thread_default_stream_synchronises_with_the_legacy_stream_only() {
    let legacy = twin(&[
        &format!("    spin<<<1, 1, 0, cudaStreamPerThread>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, cudaStreamPerThread);",
        "    transform<<<256, 256, 0, 0>>>(d_in, d_out, n);",
        "    cudaDeviceSynchronize();",
    ]);
    assert!(legacy.op(2).start_us >= legacy.op(1).end_us);
    assert!(!legacy.races(), "{:?}", legacy.hazards);
    let free = twin(&[
        &format!("    spin<<<1, 1, 0, cudaStreamPerThread>>>({SPIN});"),
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, cudaStreamPerThread);",
        "    transform<<<256, 256, 0, s1>>>(d_in, d_out, n);",
        "    cudaDeviceSynchronize();",
    ]);
    assert!(free.op(2).end_us <= free.op(1).start_us);
    assert!(free.has(HazardKind::DeviceRace, 2, 1), "{:?}", free.hazards);
    let message = hazards::check(&free.out.log, &free.out.region_names, false)
        .into_iter()
        .find(|h| h.kind == HazardKind::DeviceRace)
        .map(|h| h.message)
        .unwrap_or_default();
    assert!(
        message.contains("the per-thread default stream"),
        "{message}"
    );
}

#[test]
fn a_stream_ordered_free_happens_after_the_work_queued_before_it() {
    // cudaFreeAsync releases the memory when its stream reaches it: the kernel queued before
    // it still reads the buffer (the simulator used to free at the call and lose the result).
    let t = twin(&[
        "    float *d_tmp;",
        "    cudaMallocAsync(&d_tmp, bytes, s1);",
        "    cudaMemcpyAsync(d_tmp, h_in, bytes, cudaMemcpyHostToDevice, s1);",
        "    transform<<<256, 256, 0, s1>>>(d_tmp, d_out, n);",
        "    cudaFreeAsync(d_tmp, s1);",
        "    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s1);",
        "    cudaStreamSynchronize(s1);",
        "    bool ok = check_output(h_out, n);",
    ]);
    assert!(t.out.checks.iter().all(|c| c.passed), "{}", t.out.output);
    assert!(!t.races(), "{:?}", t.hazards);
}

#[test]
fn a_synchronous_upload_from_pageable_memory_waits_for_its_stream_then_takes_its_source() {
    // "A stream sync is performed before the copy is initiated", and the source may be reused
    // on return (the copy itself may still be in flight).
    let t = twin(&[
        "    fill_input(h_page, n);",
        &format!("    spin<<<1, 1, 0, b1>>>({SPIN});"),
        "    cudaMemcpy(d_in, h_page, bytes, cudaMemcpyHostToDevice);",
        "    report(\"back\", now_ms());",
        "    h_page[0] = 1000.0f;",
        "    transform<<<256, 256, 0, 0>>>(d_in, d_out, n);",
        "    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);",
        "    bool ok = check_output(h_out, n);",
        "    free(h_page);",
    ]);
    assert!(
        t.host_us("back") >= t.op(1).end_us,
        "the spin before it ended first"
    );
    assert!(
        t.out.checks.iter().all(|c| c.passed),
        "the overwrite did not reach the GPU"
    );
    assert!(!t.races(), "{:?}", t.hazards);
}

#[test]
fn a_query_that_answered_success_tells_the_host_the_work_is_done() {
    let t = twin(&[
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s1);",
        "    while (cudaStreamQuery(s1) != cudaSuccess) {",
        "    }",
        "    report(\"back\", now_ms());",
        "    printf(\"%f\\n\", h_out[0]);",
    ]);
    assert!(t.host_us("back") >= t.op(1).end_us);
    assert!(!t.races(), "{:?}", t.hazards);
    let early = twin(&[
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s1);",
        "    int asked = cudaStreamQuery(s1);",
        "    printf(\"%d %f\\n\", asked, h_out[0]);",
        "    cudaStreamSynchronize(s1);",
    ]);
    assert!(early.out.output.starts_with("600 "), "{}", early.out.output);
    assert!(
        early.has(HazardKind::ReadBeforeSync, 3, 1),
        "{:?}",
        early.hazards
    );
}

#[test]
fn an_allocation_in_stream_order_is_a_race_on_another_stream_without_an_event() {
    let t = twin(&[
        "    float *d_tmp;",
        &format!("    spin<<<1, 1, 0, s1>>>({SPIN});"),
        "    cudaMallocAsync(&d_tmp, bytes, s1);",
        "    cudaMemcpyAsync(d_tmp, h_in, bytes, cudaMemcpyHostToDevice, s2);",
        "    cudaStreamSynchronize(s2);",
        "    cudaFreeAsync(d_tmp, s1);",
        "    cudaStreamSynchronize(s1);",
    ]);
    // The copy on s2 ran while s1 was still busy before the allocation.
    assert!(t.op(3).end_us <= t.op(1).end_us);
    assert!(t.has(HazardKind::DeviceRace, 3, 2), "{:?}", t.hazards);
}
