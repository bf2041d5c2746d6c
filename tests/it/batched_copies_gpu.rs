//! Batched copies on a real GPU: the scenarios of `batched_copies` (the simulator's tests) on
//! the CUDA backend, and the `batched-copies` experiment live. Needs a CUDA 13.0 driver and
//! NVRTC (the kernel ahead of the batch):
//! `cargo test --release --features gpu-tests --test it batched_copies_gpu -- --test-threads=1`.
#![cfg(feature = "gpu-tests")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cuda_academy::experiment::{self, ExperimentOptions, RunContext};
use cuda_academy::gpu::cuda::CudaGpu;
use cuda_academy::gpu::{GpuError, SrcAccessOrder};

use crate::batched_copies::{busy_after_call, on_legacy_stream, overwrite_after_call};

fn open() -> CudaGpu {
    CudaGpu::open(0).expect("the GPU must open")
}

#[test]
fn the_driver_refuses_the_legacy_default_stream() {
    match on_legacy_stream(&mut open()) {
        Err(GpuError::Driver { call, message }) => {
            println!("{call}: {message}");
            assert_eq!(call, "cuMemcpyBatchAsync");
        }
        other => panic!("expected the driver's refusal, got {other:?}"),
    }
}

#[test]
fn during_api_call_keeps_its_promise_and_stream_order_reads_the_overwrite() {
    let mut g = open();
    // The Driver API reference's promise: every access is complete before the call returns.
    let (old, _) = overwrite_after_call(&mut g, SrcAccessOrder::DuringApiCall);
    assert!(old, "DuringApiCall: the bytes at the call must arrive");
    // In stream order the copy runs after the 50 ms kernel, long after the host's overwrite.
    let (_, new) = overwrite_after_call(&mut g, SrcAccessOrder::Stream);
    assert!(new, "Stream: the copy must read the overwrite");
    // What Any does is the driver's choice: printed for BENCHMARKS.md, not asserted.
    let any = overwrite_after_call(&mut g, SrcAccessOrder::Any);
    println!("Any, pinned source, kernel ahead: (bytes at the call, overwrite) arrived = {any:?}");
    for order in SrcAccessOrder::ALL {
        println!(
            "{}: stream busy right after the call = {}",
            order.runtime_name(),
            busy_after_call(&mut g, order)
        );
    }
    assert!(busy_after_call(&mut g, SrcAccessOrder::Stream));
}

#[test]
fn the_experiment_runs_live_and_its_checks_pass() {
    let mut g = open();
    let r = experiment::run(
        "batched-copies",
        &mut g,
        &ExperimentOptions::default(),
        &RunContext::silent(),
    )
    .unwrap();
    for (name, m) in &r.metrics {
        println!("{name} = {} {}", m.value, m.unit);
    }
    for c in &r.checks {
        assert!(c.passed, "{}: {}", c.name, c.detail);
    }
    assert!(r.metrics.contains_key("small_copies_speedup"));
}
