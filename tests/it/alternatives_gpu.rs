//! The `alternatives` experiment on a real GPU: every checksum right, and the orderings the
//! H200 probe showed (probes/alternatives-h200.txt). Needs NVRTC (the strided kernel) and a
//! driver with managed memory:
//! `cargo test --release --features gpu-tests --test it alternatives_gpu -- --test-threads=1 --nocapture`.
#![cfg(feature = "gpu-tests")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cuda_academy::experiment::{self, ExperimentOptions, RunContext};
use cuda_academy::gpu::cuda::CudaGpu;

#[test]
fn the_experiment_runs_live_with_right_checksums_and_sparse_mapped_reads_win() {
    let mut g = CudaGpu::open(0).expect("the GPU must open");
    let spec = experiment::registry::find("alternatives").unwrap();
    let r = (spec.run)(&mut g, &ExperimentOptions::default(), &RunContext::silent()).unwrap();
    for (name, m) in &r.metrics {
        println!("{name} = {:.3} {}", m.value, m.unit);
    }
    assert!(r.checks.iter().all(|c| c.passed), "{:?}", r.checks);
    let ms = |n: &str| r.metrics[n].value;
    assert!(ms("mapped_sparse_ms") * 10.0 < ms("explicit_sparse_ms"));
    assert!(ms("managed_sparse_ms") > ms("prefetch_sparse_ms"));
}
