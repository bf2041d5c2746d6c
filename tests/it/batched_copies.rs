//! Batched copies (`cuMemcpyBatchAsync`, issue 30) on the simulator: what the call refuses, when
//! each source access order reads the source, what the call costs the host in the model, and
//! the `batched-copies` experiment. The scenarios take any backend: `batched_copies_gpu` runs
//! the same ones on the GPU.

// Test helpers outside `#[test]` functions may fail loudly too.
#![allow(clippy::unwrap_used, clippy::panic)]

use cuda_academy::experiment::{self, ExperimentOptions, RunContext};
use cuda_academy::gpu::profile::Profile;
use cuda_academy::gpu::sim::SimGpu;
use cuda_academy::gpu::{BatchCopy, DevBuf, Expect, Gpu, GpuError, HostBuf, SrcAccessOrder};
use cuda_academy::gpu::{Driver, HostAccess, Recording, StreamId, StreamKind};
use cuda_academy::report::{HostMemKind, Report};

const KIB: u64 = 1024;
/// The kernel ahead of the batch: long enough that the host's overwrite lands before a copy
/// taken in stream order runs, on the GPU as in the model (about 50 ms at 1980 MHz).
const SPIN_AHEAD_CYCLES: u64 = 100_000_000;

fn sim_with(p: Profile) -> SimGpu {
    SimGpu::new(p, "test".into())
}

fn sim() -> SimGpu {
    sim_with(Profile::builtin("h200").unwrap())
}

/// `count` copies of `size` bytes from `src` to `dst`, back to back.
pub(crate) fn copies(dst: DevBuf, src: HostBuf, size: u64, count: u64) -> Vec<BatchCopy> {
    (0..count)
        .map(|i| BatchCopy {
            dst,
            dst_off: i * size,
            src,
            src_off: i * size,
            bytes: size,
        })
        .collect()
}

/// What arrived when the source was overwritten right after the call, with a long kernel ahead
/// of the batch in its stream: (the bytes at the call arrived, the overwrite's bytes arrived).
pub(crate) fn overwrite_after_call(g: &mut dyn Gpu, order: SrcAccessOrder) -> (bool, bool) {
    let (size, count) = (64 * KIB, 16);
    let bytes = size * count;
    let s = g.stream_create(StreamKind::NonBlocking).unwrap();
    let src = g.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let at_call = g.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let overwrite = g.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let back = g.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dev = g.device_alloc(bytes).unwrap();
    for (buf, seed) in [(src, 1), (at_call, 1), (overwrite, 2), (back, 3)] {
        g.host_fill(buf, seed).unwrap();
    }
    g.launch_spin_cycles(s, SPIN_AHEAD_CYCLES).unwrap();
    g.copy_h2d_batch_async(s, &copies(dev, src, size, count), order)
        .unwrap();
    g.host_fill(src, 2).unwrap();
    g.stream_sync(s).unwrap();
    g.copy_d2h_async(s, back, 0, dev, 0, bytes).unwrap();
    g.stream_sync(s).unwrap();
    let old = g.host_compare(at_call, back, bytes, Expect::Copy).unwrap();
    let new = g
        .host_compare(overwrite, back, bytes, Expect::Copy)
        .unwrap();
    for b in [src, at_call, overwrite, back] {
        g.host_free(b).unwrap();
    }
    g.device_free(dev).unwrap();
    g.stream_destroy(s).unwrap();
    (old.is_none(), new.is_none())
}

/// Whether the stream still had work right after a batch issued behind a long kernel.
pub(crate) fn busy_after_call(g: &mut dyn Gpu, order: SrcAccessOrder) -> bool {
    let size = 4 * KIB;
    let s = g.stream_create(StreamKind::NonBlocking).unwrap();
    let src = g.host_alloc(size * 4, HostMemKind::Pinned).unwrap();
    let dev = g.device_alloc(size * 4).unwrap();
    g.host_fill(src, 5).unwrap();
    g.launch_spin_cycles(s, SPIN_AHEAD_CYCLES).unwrap();
    g.copy_h2d_batch_async(s, &copies(dev, src, size, 4), order)
        .unwrap();
    let done = g.stream_query(s).unwrap();
    g.stream_sync(s).unwrap();
    g.host_free(src).unwrap();
    g.device_free(dev).unwrap();
    g.stream_destroy(s).unwrap();
    !done
}

/// The batch's answer on the legacy default stream.
pub(crate) fn on_legacy_stream(g: &mut dyn Gpu) -> Result<(), GpuError> {
    let size = 4 * KIB;
    let src = g.host_alloc(size * 4, HostMemKind::Pinned).unwrap();
    let dev = g.device_alloc(size * 4).unwrap();
    let answer = g.copy_h2d_batch_async(
        StreamId::LEGACY_DEFAULT,
        &copies(dev, src, size, 4),
        SrcAccessOrder::Stream,
    );
    g.device_sync().unwrap();
    g.host_free(src).unwrap();
    g.device_free(dev).unwrap();
    answer
}

#[test]
fn the_legacy_default_stream_is_refused_with_a_driver_error() {
    match on_legacy_stream(&mut sim()) {
        Err(GpuError::Driver { call, message }) => {
            assert_eq!(call, "cuMemcpyBatchAsync");
            assert!(message.contains("legacy default stream"), "{message}");
        }
        other => panic!("expected the driver's refusal, got {other:?}"),
    }
}

#[test]
fn an_empty_batch_and_a_pageable_source_are_refused_with_what_to_do() {
    let mut g = sim();
    let s = g.stream_create(StreamKind::NonBlocking).unwrap();
    let dev = g.device_alloc(8 * KIB).unwrap();
    assert!(matches!(
        g.copy_h2d_batch_async(s, &[], SrcAccessOrder::Stream),
        Err(GpuError::Invalid(_))
    ));
    let pageable = g.host_alloc(8 * KIB, HostMemKind::Pageable).unwrap();
    match g.copy_h2d_batch_async(s, &copies(dev, pageable, 4 * KIB, 2), SrcAccessOrder::Any) {
        Err(GpuError::Invalid(m)) => assert!(m.contains("pinned memory"), "{m}"),
        other => panic!("expected a refusal of the pageable source, got {other:?}"),
    }
}

#[test]
fn during_api_call_takes_the_source_at_the_call_and_stream_order_when_the_copy_runs() {
    let mut g = sim();
    assert_eq!(
        overwrite_after_call(&mut g, SrcAccessOrder::DuringApiCall),
        (true, false),
        "DuringApiCall: the bytes at the call arrive"
    );
    assert_eq!(
        overwrite_after_call(&mut g, SrcAccessOrder::Stream),
        (false, true),
        "Stream: the copy runs after the kernel and reads the overwrite"
    );
    assert!(!busy_after_call(&mut g, SrcAccessOrder::DuringApiCall));
    assert!(busy_after_call(&mut g, SrcAccessOrder::Stream));
    assert!(busy_after_call(&mut g, SrcAccessOrder::Any));
}

#[test]
fn a_batch_costs_the_host_one_call_plus_its_per_copy_part_from_the_profile() {
    let mut p = Profile::builtin("h200").unwrap();
    p.batch_call_us = 7.0;
    p.batch_per_copy_us = 0.25;
    let mut g = sim_with(p);
    let s = g.stream_create(StreamKind::NonBlocking).unwrap();
    let src = g.host_alloc(64 * KIB, HostMemKind::Pinned).unwrap();
    let dev = g.device_alloc(64 * KIB).unwrap();
    g.host_fill(src, 1).unwrap();
    for count in [1, 16] {
        let batch = copies(dev, src, 4 * KIB, count);
        let t0 = g.host_now_us();
        g.copy_h2d_batch_async(s, &batch, SrcAccessOrder::Stream)
            .unwrap();
        let spent = g.host_now_us() - t0;
        let want = 7.0 + 0.25 * count as f64;
        assert!((spent - want).abs() < 1e-6, "{count} copies: {spent} us");
        g.stream_sync(s).unwrap();
    }
}

fn run(g: &mut SimGpu) -> Report {
    experiment::run(
        "batched-copies",
        g,
        &ExperimentOptions::default(),
        &RunContext::silent(),
    )
    .unwrap()
}

fn metric(r: &Report, name: &str) -> f64 {
    r.metrics
        .get(name)
        .unwrap_or_else(|| panic!("no {name}"))
        .value
}

#[test]
fn the_experiment_checks_the_bytes_and_the_legacy_stream_and_reads_the_profile() {
    let r = run(&mut sim());
    assert_eq!(r.checks.len(), 2, "{:?}", r.checks);
    for c in &r.checks {
        assert!(c.passed, "{}: {}", c.name, c.detail);
    }
    let p = Profile::builtin("h200").unwrap();
    // The single call's host cost is the profile's; the batch's per-copy share is its call
    // spread over 4096 copies.
    assert!((metric(&r, "single_call_us") - p.async_call_us).abs() < 1e-6);
    let per_copy = metric(&r, "batch_call_per_copy_us");
    assert!((per_copy * 4096.0 - metric(&r, "batch_call_us")).abs() < 1e-6);
    // Two series (throughput, call cost) per method and size.
    assert_eq!(r.series.len(), 2 * 2 * 3);
    let labels: Vec<&str> = r.timeline.iter().map(|o| o.label.as_str()).collect();
    assert!(labels.contains(&"h2d batch"), "{labels:?}");
}

#[test]
fn where_the_host_bounds_single_copies_the_batch_is_faster() {
    // A machine whose copies cost the device almost nothing each: single calls are then bound
    // by their host cost, which one batch call pays once.
    let mut p = Profile::builtin("h200").unwrap();
    p.copy_latency_us = 0.05;
    p.batch_copy_latency_us = 0.05;
    p.op_overhead_us = 0.0;
    let fast = run(&mut sim_with(p.clone()));
    assert!(
        metric(&fast, "small_copies_speedup") > 2.0,
        "{}",
        metric(&fast, "small_copies_speedup")
    );
    // And where each copy costs the device more than a call costs the host, batching gains
    // nothing in the model: the engine is the bound either way, and the batch's copies start
    // only once its call returns (as on the H200: probes/batched-copies-h200.txt, 4096 x 4 KiB
    // ended 310 us after a 3211 us call), so it loses at most that call's time.
    p.copy_latency_us = 10.0;
    p.batch_copy_latency_us = 10.0;
    let slow = run(&mut sim_with(p.clone()));
    let speedup = metric(&slow, "small_copies_speedup");
    let engine_us = 4096.0 * (10.0 + 4096.0 / (p.pinned_h2d_gbps * 1e3));
    let call_us = p.batch_call_us + 4096.0 * p.batch_per_copy_us;
    let floor = engine_us / (engine_us + call_us);
    assert!(
        speedup <= 1.0 && speedup >= floor * 0.99,
        "{speedup}, floor {floor}"
    );
}
