//! `GpuMachine` on the real simulator backend: the primitives `Gpu` has today run for real
//! (copies land on the timeline, `check_output` reads the data back), and a program that needs
//! a primitive `Gpu` lacks stops with a diagnostic naming it, not a made-up result.

use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::interp::{self, Limits};
use cuda_academy::exercise::machine::GpuMachine;
use cuda_academy::exercise::parse::parse;
use cuda_academy::gpu::profile::Profile;
use cuda_academy::gpu::sim::SimGpu;
use cuda_academy::report::OpKind;

use super::program;

fn run_on_sim(body: &str) -> interp::Outcome {
    let mut sim = SimGpu::new(Profile::builtin("h200").unwrap(), "test".into());
    let mut machine = GpuMachine { gpu: &mut sim };
    let p = parse(&program(body)).unwrap();
    interp::run(&p, &mut machine, Limits::default(), &AtomicBool::new(false))
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
fn a_primitive_the_gpu_trait_lacks_is_named_in_the_diagnostic() {
    let out = run_on_sim("    cudaEvent_t e;\n    cudaEventCreate(&e);");
    let err = out.error.expect("stops");
    assert_eq!(err.line, 6);
    assert!(err.message.contains("`event_create`"), "{}", err.message);
}
