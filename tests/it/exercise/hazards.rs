//! Each hazard kind found in a small program and not reported in its corrected twin; a race
//! whose timing hid it is still reported; happens-before through events and the legacy stream.

use cuda_academy::exercise::hazards::{self, Hazard, HazardKind};

use super::{program, run};

/// Allocations every program below starts from: pinned h_in/h_out, device d_in/d_out, stream s.
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
    cudaStream_t s;
    cudaStreamCreate(&s);
"#;
const TEARDOWN: &str = r#"
    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);"#;

fn hazards_of(body: &str, overlap: bool) -> Vec<Hazard> {
    let out = run(&program(body));
    assert!(out.error.is_none(), "{:?}\n{body}", out.error);
    hazards::check(&out.log, &out.region_names, overlap)
}

fn kinds(h: &[Hazard]) -> Vec<HazardKind> {
    h.iter().map(|h| h.kind).collect()
}

fn with_setup(middle: &str) -> String {
    format!("{SETUP}{middle}{TEARDOWN}")
}

#[test]
fn read_before_sync_names_both_lines_even_when_timing_hid_it() {
    let racy = with_setup(
        "    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s);\n    bool ok = check_output(h_out, n);\n    cudaStreamSynchronize(s);",
    );
    let h = hazards_of(&racy, false);
    assert_eq!(kinds(&h), [HazardKind::ReadBeforeSync], "{h:?}");
    // program() puts the body at line 5; the copy is SETUP's 13 lines later.
    assert_eq!((h[0].line, h[0].other_line), (19, Some(18)));
    assert!(h[0].message.contains("h_out"), "{}", h[0].message);
    let fixed = with_setup(
        "    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s);\n    cudaStreamSynchronize(s);\n    bool ok = check_output(h_out, n);",
    );
    assert!(hazards_of(&fixed, false).is_empty());
}

#[test]
fn a_race_shows_in_the_simulated_data_and_is_reported() {
    // The simulator applies a copy's data when the copy ends on the device, as a GPU does: the
    // starter reads h_out before the copy back has ended, so its check fails, as on the H200.
    let src = std::fs::read_to_string("exercises/fix-the-race/starter.cu").unwrap();
    let out = run(&src);
    assert!(out.error.is_none());
    assert!(
        out.checks.iter().any(|c| !c.passed),
        "the data read too early is the old data"
    );
    let h = hazards::check(&out.log, &out.region_names, false);
    assert!(
        h.iter().any(|h| h.kind == HazardKind::ReadBeforeSync),
        "{h:?}"
    );
}

#[test]
fn a_race_the_timing_hid_is_still_reported() {
    // 100 ms of host work gives the copy time to end: the data comes out right, yet nothing
    // promised it; only happens-before finds the race.
    let racy = with_setup(
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);\n    transform<<<1024, 256, 0, s>>>(d_in, d_out, n);\n    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s);\n    host_work(100);\n    bool ok = check_output(h_out, n);\n    cudaStreamSynchronize(s);",
    );
    let out = run(&program(&racy));
    assert!(out.error.is_none(), "{:?}", out.error);
    assert!(out.checks.iter().all(|c| c.passed), "timing hid it");
    let h = hazards::check(&out.log, &out.region_names, false);
    assert_eq!(kinds(&h), [HazardKind::ReadBeforeSync], "{h:?}");
}

#[test]
fn write_while_in_flight_and_its_twin() {
    let racy = with_setup(
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);\n    fill_input(h_in, n);\n    cudaStreamSynchronize(s);",
    );
    assert_eq!(
        kinds(&hazards_of(&racy, false)),
        [HazardKind::WriteWhileInFlight]
    );
    let fixed = with_setup(
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);\n    cudaStreamSynchronize(s);\n    fill_input(h_in, n);",
    );
    assert!(hazards_of(&fixed, false).is_empty());
}

#[test]
fn free_while_in_flight_and_its_twin() {
    let racy = "    float *h;\n    float *d;\n    cudaMallocHost(&h, 4096);\n    cudaMalloc(&d, 4096);\n    cudaStream_t s;\n    cudaStreamCreate(&s);\n    cudaMemcpyAsync(d, h, 4096, cudaMemcpyHostToDevice, s);\n    cudaFreeHost(h);\n    cudaStreamSynchronize(s);\n    cudaFree(d);\n    cudaStreamDestroy(s);";
    let h = hazards_of(racy, false);
    assert_eq!(kinds(&h), [HazardKind::FreeWhileInFlight]);
    assert_eq!((h[0].line, h[0].other_line), (12, Some(11)));
    let fixed = racy.replace(
        "    cudaFreeHost(h);\n    cudaStreamSynchronize(s);",
        "    cudaStreamSynchronize(s);\n    cudaFreeHost(h);",
    );
    assert!(hazards_of(&fixed, false).is_empty());
}

#[test]
fn pageable_async_is_a_warning_that_pinning_fixes() {
    let racy = "    float *h = (float *)malloc(4096);\n    float *d;\n    cudaMalloc(&d, 4096);\n    cudaMemcpyAsync(d, h, 4096, cudaMemcpyHostToDevice, 0);\n    cudaDeviceSynchronize();\n    cudaFree(d);\n    free(h);";
    let h = hazards_of(racy, false);
    assert_eq!(kinds(&h), [HazardKind::PageableAsync]);
    assert!(h[0].kind.is_warning());
    let registered = racy
        .replace(
            "    float *d;",
            "    cudaHostRegister(h, 4096, cudaHostRegisterDefault);\n    float *d;",
        )
        .replace("    free(h);", "    cudaHostUnregister(h);\n    free(h);");
    assert!(hazards_of(&registered, false).is_empty());
}

#[test]
fn default_stream_warns_only_where_overlap_is_asked() {
    let body = with_setup(
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);\n    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);",
    );
    assert_eq!(kinds(&hazards_of(&body, true)), [HazardKind::DefaultStream]);
    assert!(hazards_of(&body, false).is_empty());
    let on_s = with_setup(
        "    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);\n    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s);\n    cudaStreamSynchronize(s);",
    );
    assert!(hazards_of(&on_s, true).is_empty());
}

#[test]
fn leaks_of_memory_streams_events_and_registrations() {
    let leaky = "    float *d;\n    cudaMalloc(&d, 64);\n    cudaStream_t s;\n    cudaStreamCreate(&s);\n    cudaEvent_t e;\n    cudaEventCreate(&e);\n    float *h = (float *)malloc(64);\n    cudaHostRegister(h, 64, 0);";
    let h = hazards_of(leaky, false);
    assert_eq!(kinds(&h), [HazardKind::Leak; 5], "{h:?}");
    // The stream is named by the variable it was created into, as the race messages name it.
    assert!(
        h.iter()
            .any(|h| h.message.starts_with("the stream `s` created on line 8")),
        "{h:?}"
    );
    let clean = format!(
        "{leaky}\n    cudaHostUnregister(h);\n    free(h);\n    cudaEventDestroy(e);\n    cudaStreamDestroy(s);\n    cudaFree(d);"
    );
    assert!(hazards_of(&clean, false).is_empty());
}

#[test]
fn an_event_or_the_legacy_stream_orders_work_but_a_non_blocking_stream_does_not() {
    let copy = "    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s);\n";
    let read = "    bool ok = check_output(h_out, n);\n";
    let event = format!(
        "    cudaEvent_t e;\n    cudaEventCreate(&e);\n{copy}    cudaEventRecord(e, s);\n    cudaEventSynchronize(e);\n{read}    cudaEventDestroy(e);"
    );
    assert!(hazards_of(&with_setup(&event), false).is_empty());
    // A synchronous copy on the legacy default stream waits for the blocking stream `s`.
    let legacy =
        format!("{copy}    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);\n{read}");
    assert!(hazards_of(&with_setup(&legacy), false).is_empty());
    let non_blocking = with_setup(&legacy).replace(
        "cudaStreamCreate(&s);",
        "cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);",
    );
    // Nothing ever waits for the non-blocking stream: the read and both frees of the copy's
    // buffers (d_out, h_out) race with it.
    let h = kinds(&hazards_of(&non_blocking, false));
    assert_eq!(
        h,
        [
            HazardKind::ReadBeforeSync,
            HazardKind::FreeWhileInFlight,
            HazardKind::FreeWhileInFlight
        ]
    );
    // Syncing another stream that waited on an event recorded after the copy also orders it.
    let waited = format!(
        "    cudaStream_t t;\n    cudaStreamCreate(&t);\n    cudaEvent_t e;\n    cudaEventCreate(&e);\n{copy}    cudaEventRecord(e, s);\n    cudaStreamWaitEvent(t, e, 0);\n    cudaStreamSynchronize(t);\n{read}    cudaEventDestroy(e);\n    cudaStreamDestroy(t);"
    );
    assert!(hazards_of(&with_setup(&waited), false).is_empty());
}

#[test]
fn elapsed_time_before_the_event_is_known_to_have_happened_is_a_read_before_sync() {
    let timed = "    cudaEvent_t a, b;\n    cudaEventCreate(&a);\n    cudaEventCreate(&b);\n    cudaEventRecord(a, s);\n    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);\n    cudaEventRecord(b, s);\n    float ms = 0;\n    cudaEventElapsedTime(&ms, a, b);\n    cudaStreamSynchronize(s);\n    cudaEventDestroy(a);\n    cudaEventDestroy(b);";
    // The 4 MiB copy is still running: the call returns cudaErrorNotReady as the runtime
    // does (`ms` unchanged), the run goes on, and the log shows why.
    let out = run(&program(&with_setup(timed)));
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.cuda_errors.len(), 1, "{:?}", out.cuda_errors);
    assert_eq!(
        (
            out.cuda_errors[0].code,
            out.cuda_errors[0].name,
            out.cuda_errors[0].line
        ),
        (600, "cudaErrorNotReady", 25)
    );
    let h = hazards::check(&out.log, &out.region_names, false);
    // Neither event is known to have happened: both are named (the leaks of a run that stopped
    // early are beside the point here).
    let h: Vec<Hazard> = h
        .into_iter()
        .filter(|h| h.kind != HazardKind::Leak)
        .collect();
    assert_eq!(kinds(&h), [HazardKind::ReadBeforeSync; 2], "{h:?}");
    assert_eq!(
        (h[0].line, h[0].other_line, h[1].other_line),
        (25, Some(21), Some(23))
    );
    // With a millisecond of host work first, the copy has finished by the time the host asks:
    // the timing hides the race, the call succeeds, and happens-before still reports both.
    let hidden = with_setup(&timed.replace(
        "    float ms = 0;\n",
        "    host_work(1.0);\n    float ms = 0;\n",
    ));
    let h = hazards_of(&hidden, false);
    assert_eq!(kinds(&h), [HazardKind::ReadBeforeSync; 2], "{h:?}");
    let fixed = timed.replace(
        "    float ms = 0;\n",
        "    cudaEventSynchronize(b);\n    float ms = 0;\n",
    );
    assert!(hazards_of(&with_setup(&fixed), false).is_empty());
    let unrecorded = run(&program(&with_setup(
        "    cudaEvent_t a;\n    cudaEventCreate(&a);\n    float ms;\n    cudaEventElapsedTime(&ms, a, a);",
    )));
    assert!(unrecorded.error.is_none(), "{:?}", unrecorded.error);
    assert_eq!(
        unrecorded.cuda_errors[0].name,
        "cudaErrorInvalidResourceHandle"
    );
    assert!(unrecorded.cuda_errors[0].message.contains("never recorded"));
}

#[test]
fn a_statement_over_several_lines_books_each_access_where_it_is_written() {
    let body = with_setup(
        "    cudaMemcpyAsync(h_out,\n        d_out, bytes, cudaMemcpyDeviceToHost, s);\n    bool ok = n > 0 &&\n        check_output(h_out, n);\n    cudaStreamSynchronize(s);",
    );
    let h = hazards_of(&body, false);
    // program() puts the body at line 5: the copy starts on line 18, check_output is on 21.
    assert_eq!(
        h.iter()
            .map(|h| (h.kind, h.line, h.other_line))
            .collect::<Vec<_>>(),
        [(HazardKind::ReadBeforeSync, 21, Some(18))]
    );
}

/// Esc reaches the hazard phase (review R4): a set cancel flag stops the search, which then
/// reports nothing; unset, it finds what `check` finds.
#[test]
fn the_hazard_search_stops_when_cancelled() {
    use std::sync::atomic::AtomicBool;
    // 300 unsynchronised copies, then a read: a log long enough for several polls.
    let middle = "    for (int i = 0; i < 300; i++) {\n        cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);\n    }\n    float x = h_out[0];\n";
    let out = run(&program(&with_setup(middle)));
    assert!(out.error.is_none(), "{:?}", out.error);
    assert!(out.log.len() > 300);
    let all = hazards::check(&out.log, &out.region_names, false);
    let go = AtomicBool::new(false);
    let found = hazards::check_cancellable(&out.log, &out.region_names, false, &go);
    assert_eq!(found.as_deref(), Some(&all[..]));
    let stop = AtomicBool::new(true);
    assert_eq!(
        hazards::check_cancellable(&out.log, &out.region_names, false, &stop),
        None
    );
}
