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
