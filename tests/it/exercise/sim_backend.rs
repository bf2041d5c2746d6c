//! The interpreter on the simulator backend: copies land on the timeline, `check_output` reads
//! the data back, events time work the way the driver's do, a run releases everything it made
//! (also when it stops early), and a cancelled run stops and says so.

use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::interp::{self, Limits};
use cuda_academy::exercise::parse::parse;
use cuda_academy::report::OpKind;

use super::{program, sim};

fn run_on_sim(body: &str) -> interp::Outcome {
    let p = parse(&program(body)).unwrap();
    interp::run(&p, &mut sim(), Limits::default(), &AtomicBool::new(false))
}

#[test]
fn copies_run_on_the_simulator_and_check_output_reads_real_data() {
    let body = r#"    const size_t n = 1 << 20;
    float *h;
    float *back;
    cudaMallocHost(&h, n * sizeof(float));
    cudaMallocHost(&back, n * sizeof(float));
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    fill_input(h, n);
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(back, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    report("first", back[0]);
    report("untransformed_passes", check_output(back, n));
    cudaFree(d);
    cudaFreeHost(h);
    cudaFreeHost(back);"#;
    let out = run_on_sim(body);
    assert!(out.error.is_none(), "{:?}", out.error);
    let kinds: Vec<OpKind> = out.timeline.iter().map(|o| o.kind).collect();
    assert!(
        kinds.contains(&OpKind::H2d) && kinds.contains(&OpKind::D2h),
        "{kinds:?}"
    );
    let first = cuda_academy::gpu::fill_pattern_f32(cuda_academy::exercise::FILL_SEED, 0);
    assert_eq!(out.metrics["first"], f64::from(first));
    // The copy is the input itself, not transform of it: the exact check must say no.
    assert_eq!(out.metrics["untransformed_passes"], 0.0);
}

#[test]
fn events_time_a_kernel_on_the_simulator() {
    let body = r#"    const size_t n = 1 << 20;
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, 0);
    transform<<<256, 256, 0, 0>>>(d_in, d_out, n);
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    report("kernel_ms", ms);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(d_in);
    cudaFree(d_out);"#;
    let out = run_on_sim(body);
    assert!(out.error.is_none(), "{:?}", out.error);
    let kernel_us: f64 = out
        .timeline
        .iter()
        .filter(|o| o.kind == OpKind::Kernel)
        .map(|o| o.end_us - o.start_us)
        .sum();
    let measured_ms = out.metrics["kernel_ms"];
    assert!(kernel_us > 0.0, "{:?}", out.timeline);
    // The events bracket the kernel in one stream: at least its duration, plus no more than the
    // launch latency in front of it (microseconds, not milliseconds).
    let event_us = measured_ms * 1000.0;
    assert!(
        event_us >= kernel_us && event_us <= kernel_us + 50.0,
        "events say {measured_ms} ms, the kernel took {kernel_us} µs"
    );
}

/// A program that takes most of the simulated H200's device memory (80 of its 140 GiB) and
/// pinned host memory (70 of 126 GiB), a stream and an event, has a copy in flight, then never
/// ends. A second copy of it fits only if the first gave everything back.
const HOG: &str = r#"    float *d;
    cudaMalloc(&d, (size_t)80 << 30);
    float *h;
    cudaMallocHost(&h, (size_t)70 << 30);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaEvent_t e;
    cudaEventCreate(&e);
    cudaMemcpyAsync(d, h, 4096, cudaMemcpyHostToDevice, s);
    cudaEventRecord(e, s);
    for (;;) {}"#;

/// Room for the hog's buffers (its host memory is over the default 8 GiB budget).
fn hog_limits(max_steps: u64) -> Limits {
    Limits {
        max_steps,
        max_host_bytes: 1 << 40,
        ..Limits::default()
    }
}

#[test]
fn a_run_stopped_part_way_releases_what_it_made_so_the_backend_goes_on() {
    let p = parse(&program(HOG)).unwrap();
    let mut gpu = sim();
    let no = AtomicBool::new(false);
    for round in 0..3 {
        let out = interp::run(&p, &mut gpu, hog_limits(1000), &no);
        let err = out.error.expect("stopped");
        assert!(
            err.message.starts_with("stopped after 1000 steps"),
            "round {round}: {err:?}"
        );
    }
    // And an experiment still runs on the same backend afterwards.
    let report = cuda_academy::experiment::run(
        "pinned-alloc",
        &mut gpu,
        &cuda_academy::experiment::ExperimentOptions::default(),
        &cuda_academy::experiment::RunContext::silent(),
    );
    assert!(report.is_ok(), "{:?}", report.err());
}

#[test]
fn a_cancel_from_another_thread_stops_a_loop_and_releases_everything() {
    let p = parse(&program(HOG)).unwrap();
    let mut gpu = sim();
    let cancel = AtomicBool::new(false);
    // A budget that would take hours: only the cancel can end this run.
    let out = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        interp::run(&p, &mut gpu, hog_limits(u64::MAX), &cancel)
    });
    assert!(out.cancelled, "{:?}", out.error);
    assert_eq!(out.error.unwrap().message, "cancelled");
    // Everything was given back: the same program's allocations fit again.
    let again = interp::run(&p, &mut gpu, hog_limits(1000), &AtomicBool::new(false));
    let err = again.error.expect("stopped");
    assert!(
        err.message.starts_with("stopped after 1000 steps"),
        "{err:?}"
    );
}

#[test]
fn a_check_cancelled_before_it_starts_grades_nothing_and_says_so() {
    let ex = cuda_academy::exercise::catalog::find("fix-the-race").unwrap();
    let v = cuda_academy::exercise::check(
        ex,
        ex.solution,
        &mut sim(),
        Limits::default(),
        &AtomicBool::new(true),
    );
    assert!(v.cancelled && !v.passed);
    assert!(v.diagnostics.is_empty(), "{:?}", v.diagnostics);
    assert_eq!(
        v.summary("fix-the-race"),
        "fix-the-race: cancelled before the check finished"
    );
    assert_eq!(v.checks.len(), 1);
    assert!(
        v.checks[0].detail.contains("nothing was graded"),
        "{:?}",
        v.checks
    );
}

#[test]
fn a_cuda_error_is_a_diagnostic_and_the_run_goes_on_to_show_the_race() {
    // The copy is still running when the host asks for the elapsed time: the driver (and the
    // simulator) answer cudaErrorNotReady, which the call returns; the run goes on, and the
    // verdict names the error at its line.
    let body = r#"    float *h;
    cudaMallocHost(&h, 64 << 20);
    float *d;
    cudaMalloc(&d, 64 << 20);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, 0);
    cudaMemcpyAsync(d, h, 64 << 20, cudaMemcpyHostToDevice, 0);
    cudaEventRecord(b, 0);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);"#;
    let ex = cuda_academy::exercise::catalog::find("time-a-copy").unwrap();
    let v = cuda_academy::exercise::check(
        ex,
        &program(body),
        &mut sim(),
        Limits::default(),
        &AtomicBool::new(false),
    );
    assert!(!v.passed && !v.cancelled);
    assert_eq!(v.diagnostics.len(), 1, "{:?}", v.diagnostics);
    assert!(
        v.diagnostics[0].message.contains("cudaErrorNotReady"),
        "{:?}",
        v.diagnostics
    );
    assert!(v.checks[0].passed, "{:?}", v.checks);
    let kinds: Vec<&str> = v
        .hazards
        .iter()
        .map(|h| h.kind.name())
        .filter(|k| *k != "leak")
        .collect();
    // Both events are unordered with the read; nothing about leaks of a run cut short.
    assert_eq!(
        kinds,
        ["read-before-sync", "read-before-sync"],
        "{:?}",
        v.hazards
    );
    let first = v.hazards.iter().find(|h| h.kind.name() != "leak");
    assert_eq!(first.map(|h| h.line), Some(16));
}

#[test]
fn a_backend_that_has_run_an_experiment_checks_an_exercise_as_a_fresh_one_does() {
    let ex = cuda_academy::exercise::catalog::find("overlap-host-work").unwrap();
    let check = |gpu: &mut cuda_academy::gpu::sim::SimGpu| {
        cuda_academy::exercise::check(
            ex,
            ex.solution,
            gpu,
            Limits::default(),
            &AtomicBool::new(false),
        )
    };
    let fresh = check(&mut sim());
    let mut used = sim();
    cuda_academy::experiment::run(
        "async-copy",
        &mut used,
        &cuda_academy::experiment::ExperimentOptions::default(),
        &cuda_academy::experiment::RunContext::silent(),
    )
    .unwrap();
    let after = check(&mut used);
    assert!(fresh.passed && after.passed, "{:?}", after.checks);
    // The same program on the same model: the same ops on its own time origin, and figures
    // within 1% (the engines' front end pays a stream switch or two of microseconds after the
    // experiment's streams, as the model of the hardware says).
    let value = |v: &cuda_academy::exercise::Verdict| v.metrics["total_ms"].value;
    assert_eq!(fresh.timeline.len(), after.timeline.len());
    let first = |v: &cuda_academy::exercise::Verdict| v.timeline[0].start_us;
    assert!(
        (first(&fresh) - first(&after)).abs() < 0.01 * first(&fresh),
        "first op at {} vs {} µs from the origin",
        first(&fresh),
        first(&after)
    );
    assert!(
        (value(&fresh) - value(&after)).abs() < 0.01 * value(&fresh),
        "{} vs {}",
        value(&fresh),
        value(&after)
    );
}

#[test]
fn each_check_numbers_its_streams_from_one_as_its_hazards_do() {
    let ex = cuda_academy::exercise::catalog::find("fix-the-race").unwrap();
    let mut gpu = sim();
    for _ in 0..2 {
        let v = cuda_academy::exercise::check(
            ex,
            ex.starter,
            &mut gpu,
            Limits::default(),
            &AtomicBool::new(false),
        );
        // Device ops (the host lane's calls are not on a stream).
        let streams: std::collections::BTreeSet<u32> = v
            .timeline
            .iter()
            .filter(|op| op.kind != cuda_academy::report::OpKind::Host)
            .map(|op| op.stream)
            .collect();
        assert_eq!(streams, [1].into(), "{:?}", v.timeline);
    }
}

/// Upload, `spin` over the chunk (on `spin_stream`), transform and download, all but the spin
/// on a non-blocking stream; then the checks with 0 and 1 spin passes.
fn spun_pipeline(spin_stream: &str) -> String {
    format!(
        r#"    const size_t n = 1 << 20;
    float *h;
    float *back;
    cudaMallocHost(&h, n * sizeof(float));
    cudaMallocHost(&back, n * sizeof(float));
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaStream_t st;
    cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    fill_input(h, n);
    cudaMemcpyAsync(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice, st);
    spin<<<(n + 255) / 256, 256, 0, {spin_stream}>>>(1000000, d_in, n);
    transform<<<(n + 255) / 256, 256, 0, st>>>(d_in, d_out, n);
    cudaMemcpyAsync(back, d_out, n * sizeof(float), cudaMemcpyDeviceToHost, st);
    cudaDeviceSynchronize();
    report("spun", check_output(back, n, 1));
    report("unspun", check_output(back, n));
    cudaStreamDestroy(st);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h);
    cudaFreeHost(back);"#
    )
}

#[test]
fn a_spin_over_a_chunk_adds_to_it_in_stream_order_and_a_spin_ordered_with_nothing_races() {
    use cuda_academy::exercise::hazards::{self, HazardKind};
    // In its chunk's stream: the result is one spin pass, then the transform, and only the
    // check that asks for that pass passes.
    let ordered = run_on_sim(&spun_pipeline("st"));
    assert!(ordered.error.is_none(), "{:?}", ordered.error);
    assert_eq!(
        (ordered.metrics["spun"], ordered.metrics["unspun"]),
        (1.0, 0.0)
    );
    let spin = ordered.timeline.iter().find(|o| o.label == "spin");
    let spin = spin.unwrap_or_else(|| panic!("no spin op: {:?}", ordered.timeline));
    // About 1,000,000 cycles at the H200's 1980 MHz: half a millisecond.
    assert!(spin.end_us - spin.start_us > 450.0, "{spin:?}");
    let found = hazards::check(&ordered.log, &ordered.region_names, true);
    assert!(found.is_empty(), "{found:?}");
    // On the legacy stream, which a non-blocking stream does not wait for: the spin writes the
    // chunk the upload writes and the transform reads, ordered with neither.
    let racing = run_on_sim(&spun_pipeline("0"));
    let found = hazards::check(&racing.log, &racing.region_names, true);
    let races: Vec<u32> = found
        .iter()
        .filter(|h| h.kind == HazardKind::DeviceRace)
        .map(|h| h.line)
        .collect();
    // The race is the order's, whatever this run's timing (here the simulator's one kernel at
    // a time kept the transform behind the spin, so the data came back right).
    assert!(races.contains(&18), "{found:?}");
}

#[test]
fn a_spin_over_a_chunk_takes_device_memory_and_a_whole_argument_list() {
    let host = run_on_sim(
        "    float *h = (float *)malloc(64);\n    spin<<<1, 1>>>(10, h, 16);\n    free(h);",
    );
    let err = host.error.unwrap();
    assert!(err.message.contains("must be device memory"), "{err:?}");
    let two = run_on_sim(
        "    float *d;\n    cudaMalloc(&d, 64);\n    spin<<<1, 1>>>(10, d);\n    cudaFree(d);",
    );
    let err = two.error.unwrap();
    assert!(
        err.message
            .contains("`spin` takes `(cycles)` or `(cycles, x, n)`"),
        "{err:?}"
    );
}
