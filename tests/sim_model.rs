//! The simulator's physics and contract, through the public `Gpu` interface only.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used, clippy::panic)]

use cuda_academy::gpu::fill_pattern_f32;
use cuda_academy::gpu::profile::{Profile, ProfileError};
use cuda_academy::gpu::sim::SimGpu;
use cuda_academy::gpu::{DevBuf, Gpu, GpuError, HostBuf, Kernel, StreamId, StreamKind};
use cuda_academy::report::{BackendKind, HostMemKind, Op, OpKind, TimingSource};

const MIB: u64 = 1 << 20;

fn h200() -> Profile {
    Profile::builtin("h200").unwrap()
}

fn sim() -> SimGpu {
    SimGpu::new(h200(), "test".to_string())
}

/// `bytes` through H2D, a transform and D2H, chunked over `streams` streams (per-chunk order).
fn pipeline(
    gpu: &mut SimGpu,
    bytes: u64,
    streams: u32,
    chunks: u64,
) -> (Vec<Op>, HostBuf, HostBuf) {
    let src = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dst = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dev = gpu.device_alloc(bytes).unwrap();
    if gpu.move_data() {
        gpu.host_fill(src, 7).unwrap();
    }
    let ids: Vec<StreamId> = (0..streams)
        .map(|_| gpu.stream_create(StreamKind::NonBlocking).unwrap())
        .collect();
    gpu.timeline_begin().unwrap();
    let chunk = bytes / chunks;
    for c in 0..chunks {
        let s = ids[(c % u64::from(streams)) as usize];
        let off = c * chunk;
        gpu.copy_h2d_async(s, dev, off, src, off, chunk).unwrap();
        gpu.launch(s, Kernel::Transform { a: 2.0, b: 1.0 }, dev, off, chunk)
            .unwrap();
        gpu.copy_d2h_async(s, dst, off, dev, off, chunk).unwrap();
    }
    let ops = gpu.timeline_end().unwrap();
    (ops, src, dst)
}

fn gbps(bytes: u64, us: f64) -> f64 {
    bytes as f64 / us / 1e3
}

/// Host time of one synchronous-looking copy: issue, then sync the stream.
fn timed_copy(gpu: &mut SimGpu, kind: HostMemKind, dir: OpKind, bytes: u64) -> f64 {
    let host = gpu.host_alloc(bytes, kind).unwrap();
    gpu.host_touch(host).unwrap();
    let dev = gpu.device_alloc(bytes).unwrap();
    let s = gpu.stream_create(StreamKind::NonBlocking).unwrap();
    let t0 = gpu.host_now_us();
    match dir {
        OpKind::H2d => gpu.copy_h2d_async(s, dev, 0, host, 0, bytes).unwrap(),
        _ => gpu.copy_d2h_async(s, host, 0, dev, 0, bytes).unwrap(),
    }
    gpu.stream_sync(s).unwrap();
    gpu.host_now_us() - t0
}

#[test]
fn info_names_the_simulator_and_its_profile() {
    let gpu = SimGpu::new(h200(), "--backend sim".to_string());
    let info = gpu.info();
    assert_eq!(info.backend.kind, BackendKind::Simulated);
    assert_eq!(info.backend.timing, TimingSource::Model);
    assert_eq!(info.backend.profile.as_deref(), Some("h200"));
    assert_eq!(info.backend.reason.as_deref(), Some("--backend sim"));
    assert_eq!(info.backend.device, h200().device_name);
    assert_eq!(info.copy_engines, h200().copy_engines);
    assert!(info.kernels_available);
}

#[test]
fn same_calls_give_identical_ops_and_times() {
    let run = || {
        let mut gpu = sim();
        gpu.set_move_data(false);
        let (ops, _, _) = pipeline(&mut gpu, 64 * MIB, 3, 16);
        (ops, gpu.host_now_us())
    };
    let (a, ta) = run();
    let (b, tb) = run();
    assert_eq!(a.len(), 48);
    assert_eq!(a, b);
    assert_eq!(ta.to_bits(), tb.to_bits());
}

#[test]
fn pinned_beats_pageable_both_ways() {
    for dir in [OpKind::H2d, OpKind::D2h] {
        let pinned = timed_copy(&mut sim(), HostMemKind::Pinned, dir, 256 * MIB);
        let pageable = timed_copy(&mut sim(), HostMemKind::Pageable, dir, 256 * MIB);
        assert!(
            pinned * 1.5 < pageable,
            "{dir:?}: pinned {pinned} us, pageable {pageable} us"
        );
    }
}

#[test]
fn large_copies_reach_the_profile_bandwidth() {
    let p = h200();
    let us = timed_copy(&mut sim(), HostMemKind::Pinned, OpKind::H2d, 256 * MIB);
    let got = gbps(256 * MIB, us);
    assert!((got / p.pinned_h2d_gbps - 1.0).abs() < 0.01, "{got} GB/s");
    let us = timed_copy(&mut sim(), HostMemKind::Pageable, OpKind::D2h, 256 * MIB);
    let got = gbps(256 * MIB, us);
    assert!((got / p.pageable_d2h_gbps - 1.0).abs() < 0.01, "{got} GB/s");
}

#[test]
fn small_copies_are_slowed_by_latency() {
    let small = gbps(
        4096,
        timed_copy(&mut sim(), HostMemKind::Pinned, OpKind::H2d, 4096),
    );
    let large = gbps(
        64 * MIB,
        timed_copy(&mut sim(), HostMemKind::Pinned, OpKind::H2d, 64 * MIB),
    );
    assert!(
        small * 10.0 < large,
        "4 KiB {small} GB/s vs 64 MiB {large} GB/s"
    );
}

#[test]
fn pageable_copy_blocks_the_host_and_pinned_returns_at_once() {
    let p = h200();
    let bytes = 64 * MIB;
    for kind in [HostMemKind::Pinned, HostMemKind::Pageable] {
        let mut gpu = sim();
        let host = gpu.host_alloc(bytes, kind).unwrap();
        gpu.host_touch(host).unwrap();
        let dev = gpu.device_alloc(bytes).unwrap();
        let s = gpu.stream_create(StreamKind::NonBlocking).unwrap();
        gpu.timeline_begin().unwrap();
        gpu.copy_h2d_async(s, dev, 0, host, 0, bytes).unwrap();
        let returned = gpu.host_now_us();
        let ops = gpu.timeline_end().unwrap();
        let done = ops[0].end_us;
        if kind == HostMemKind::Pinned {
            assert!(returned < 10.0, "pinned async returned after {returned} us");
            assert!((returned - p.async_call_us).abs() < 1e-9);
            assert!(done > 100.0 * returned);
        } else {
            assert!(
                returned >= done,
                "pageable returned at {returned}, copy ended {done}"
            );
        }
    }
}

#[test]
fn ops_on_one_stream_never_overlap_and_keep_issue_order() {
    let mut gpu = sim();
    let (ops, _, _) = pipeline(&mut gpu, 8 * MIB, 1, 8);
    assert_eq!(ops.len(), 24);
    let kinds = [OpKind::H2d, OpKind::Kernel, OpKind::D2h];
    for (i, pair) in ops.windows(2).enumerate() {
        assert!(
            pair[0].end_us <= pair[1].start_us,
            "op {i} overlaps op {}",
            i + 1
        );
    }
    for (i, op) in ops.iter().enumerate() {
        assert_eq!(op.kind, kinds[i % 3], "op {i}");
        assert_eq!(op.bytes, MIB);
    }
}

#[test]
fn streams_overlap_and_the_pipeline_beats_sequential_but_not_its_bound() {
    let p = h200();
    let bytes = 256 * MIB;
    let mut gpu = sim();
    gpu.set_move_data(false);
    let (seq, _, _) = pipeline(&mut gpu, bytes, 1, 1);
    let (best, _, _) = pipeline(&mut gpu, bytes, 3, 32);
    let seq_span = ops_span(&seq);
    let best_span = ops_span(&best);
    eprintln!("sequential {seq_span} us, 3 x 32 {best_span} us");
    let bound = (2 * bytes) as f64 / (p.bidirectional_gbps * 1e3);
    assert!(
        best_span < 0.6 * seq_span,
        "best {best_span} vs sequential {seq_span}"
    );
    assert!(
        best_span >= bound,
        "best {best_span} beats the bound {bound}"
    );
    assert!(bound / best_span > 0.9, "efficiency {}", bound / best_span);
    for op in &best {
        assert_eq!(op.engine.is_some(), op.kind != OpKind::Kernel);
    }
}

fn ops_span(ops: &[Op]) -> f64 {
    let start = ops.iter().map(|o| o.start_us).fold(f64::INFINITY, f64::min);
    let end = ops.iter().map(|o| o.end_us).fold(0.0, f64::max);
    end - start
}

#[test]
fn h2d_and_d2h_overlap_and_share_the_bidirectional_limit() {
    let p = h200();
    let bytes = 256 * MIB;
    let mut gpu = sim();
    gpu.set_move_data(false);
    let up = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let down = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let (d1, d2) = (
        gpu.device_alloc(bytes).unwrap(),
        gpu.device_alloc(bytes).unwrap(),
    );
    let s1 = gpu.stream_create(StreamKind::NonBlocking).unwrap();
    let s2 = gpu.stream_create(StreamKind::NonBlocking).unwrap();
    gpu.timeline_begin().unwrap();
    gpu.copy_h2d_async(s1, d1, 0, up, 0, bytes).unwrap();
    gpu.copy_d2h_async(s2, down, 0, d2, 0, bytes).unwrap();
    let ops = gpu.timeline_end().unwrap();
    let (h, d) = (&ops[0], &ops[1]);
    assert_eq!((h.kind, h.engine), (OpKind::H2d, Some(0)));
    assert_eq!((d.kind, d.engine), (OpKind::D2h, Some(1)));
    assert!(d.start_us < h.end_us, "the copies do not overlap");
    let alone = bytes as f64 / (p.pinned_h2d_gbps * 1e3);
    assert!(
        h.duration_us() > 1.05 * alone,
        "H2D not slowed: {}",
        h.duration_us()
    );
    let total = gbps(2 * bytes, ops_span(&ops));
    assert!(total <= p.bidirectional_gbps * 1.001, "total {total} GB/s");
    assert!(total > p.bidirectional_gbps * 0.97, "total {total} GB/s");
}

/// A spin kernel on `a`, a small op on stream 0, then a copy on `b`: returns the ops.
fn legacy_scenario(kind: StreamKind) -> Vec<Op> {
    let mut gpu = sim();
    let host = gpu.host_alloc(16 * MIB, HostMemKind::Pinned).unwrap();
    let dev = gpu.device_alloc(16 * MIB).unwrap();
    let small = gpu.device_alloc(4096).unwrap();
    let a = gpu.stream_create(kind).unwrap();
    let b = gpu.stream_create(kind).unwrap();
    gpu.timeline_begin().unwrap();
    gpu.launch(
        a,
        Kernel::Spin {
            iterations: 500_000,
        },
        dev,
        0,
        4096,
    )
    .unwrap();
    gpu.launch(
        StreamId::LEGACY_DEFAULT,
        Kernel::Transform { a: 1.0, b: 0.0 },
        small,
        0,
        4096,
    )
    .unwrap();
    gpu.copy_h2d_async(b, dev, 4096, host, 4096, 16 * MIB - 4096)
        .unwrap();
    gpu.timeline_end().unwrap()
}

#[test]
fn legacy_default_stream_serialises_blocking_streams_only() {
    let find = |ops: &[Op], stream: u32| ops.iter().find(|o| o.stream == stream).unwrap().clone();
    let ops = legacy_scenario(StreamKind::Blocking);
    let (spin, legacy, copy) = (find(&ops, 1), find(&ops, 0), find(&ops, 2));
    assert!(
        legacy.start_us >= spin.end_us,
        "stream 0 did not wait for stream 1"
    );
    assert!(
        copy.start_us >= legacy.end_us,
        "stream 2 did not wait for stream 0"
    );
    let blocking_span = ops_span(&ops);

    let ops = legacy_scenario(StreamKind::NonBlocking);
    let (spin, copy) = (find(&ops, 1), find(&ops, 2));
    assert!(
        copy.start_us < spin.end_us,
        "non-blocking streams did not overlap"
    );
    assert!(ops_span(&ops) < blocking_span);
}

#[test]
fn stream_sync_waits_for_its_stream_only() {
    let mut gpu = sim();
    let dev = gpu.device_alloc(4096).unwrap();
    let (a, b) = (
        gpu.stream_create(StreamKind::NonBlocking).unwrap(),
        gpu.stream_create(StreamKind::NonBlocking).unwrap(),
    );
    gpu.timeline_begin().unwrap();
    gpu.launch(
        a,
        Kernel::Spin {
            iterations: 1_000_000,
        },
        dev,
        0,
        4096,
    )
    .unwrap();
    gpu.launch(b, Kernel::Transform { a: 1.0, b: 1.0 }, dev, 0, 4096)
        .unwrap();
    gpu.stream_sync(b).unwrap();
    let after_b = gpu.host_now_us();
    gpu.stream_sync(a).unwrap();
    let after_a = gpu.host_now_us();
    let ops = gpu.timeline_end().unwrap();
    let spin = ops.iter().find(|o| o.stream == a.0).unwrap();
    // One compute engine: b's kernel queues behind the spin, so its sync waits for it too.
    assert!(after_b >= spin.end_us);
    assert!(after_a >= after_b);
}

fn roundtrip(gpu: &mut SimGpu, bytes: u64, kernel: Option<Kernel>) -> (HostBuf, HostBuf) {
    let src = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dst = gpu.host_alloc(bytes, HostMemKind::Pageable).unwrap();
    let dev: DevBuf = gpu.device_alloc(bytes).unwrap();
    gpu.host_fill(src, 42).unwrap();
    let s = gpu.stream_create(StreamKind::Blocking).unwrap();
    gpu.copy_h2d_async(s, dev, 0, src, 0, bytes).unwrap();
    if let Some(k) = kernel {
        gpu.launch(s, k, dev, 0, bytes).unwrap();
    }
    gpu.copy_d2h_async(s, dst, 0, dev, 0, bytes).unwrap();
    gpu.stream_sync(s).unwrap();
    (src, dst)
}

#[test]
fn copies_move_the_data() {
    let mut gpu = sim();
    let (src, dst) = roundtrip(&mut gpu, 64 * 1024, None);
    for i in 0..16 * 1024 {
        let want = fill_pattern_f32(42, i);
        assert_eq!(gpu.host_read_f32(src, i).unwrap(), want);
        assert_eq!(gpu.host_read_f32(dst, i).unwrap(), want, "f32 {i}");
    }
    let distinct: std::collections::BTreeSet<u32> = (0..1024)
        .map(|i| fill_pattern_f32(42, i).to_bits())
        .collect();
    assert!(
        distinct.len() > 500,
        "the pattern is too regular to catch misplaced bytes"
    );
}

#[test]
fn transform_computes_on_the_device_data() {
    let mut gpu = sim();
    let (a, b) = (0.5, -3.0);
    let (_, dst) = roundtrip(&mut gpu, 64 * 1024, Some(Kernel::Transform { a, b }));
    for i in 0..16 * 1024 {
        let want = Kernel::transform_host(fill_pattern_f32(42, i), a, b);
        assert_eq!(gpu.host_read_f32(dst, i).unwrap(), want, "f32 {i}");
    }
}

#[test]
fn without_data_movement_reads_fail_then_recover() {
    let mut gpu = sim();
    gpu.set_move_data(false);
    let (_, dst) = roundtrip(&mut gpu, 4096, Some(Kernel::Transform { a: 2.0, b: 1.0 }));
    let err = gpu.host_read_f32(dst, 3).unwrap_err();
    assert!(
        matches!(err, GpuError::Invalid(ref m) if m.contains("set_move_data")),
        "{err}"
    );
    gpu.set_move_data(true);
    let (_, dst) = roundtrip(&mut gpu, 4096, Some(Kernel::Transform { a: 2.0, b: 1.0 }));
    let want = Kernel::transform_host(fill_pattern_f32(42, 3), 2.0, 1.0);
    assert_eq!(gpu.host_read_f32(dst, 3).unwrap(), want);
}

#[test]
fn the_trait_switch_reaches_the_simulator() {
    let mut gpu = sim();
    let dyn_gpu: &mut dyn Gpu = &mut gpu;
    dyn_gpu.set_move_data(false);
    assert!(!gpu.move_data());
    let (_, dst) = roundtrip(&mut gpu, 4096, None);
    assert!(gpu.host_read_f32(dst, 0).is_err());
}

#[test]
fn data_movement_does_not_change_timing() {
    let run = |on: bool| {
        let mut gpu = sim();
        gpu.set_move_data(on);
        pipeline(&mut gpu, 4 * MIB, 2, 4).0
    };
    assert_eq!(run(true), run(false));
}

#[test]
fn out_of_memory_reports_what_was_asked_and_what_is_free() {
    let p = h200();
    let mut gpu = sim();
    let _held = gpu.device_alloc(p.device_total_bytes / 2).unwrap();
    let free = p.device_total_bytes - p.device_total_bytes / 2;
    assert_eq!(gpu.info().free_mem, free);
    let asked = free + 1;
    match gpu.device_alloc(asked) {
        Err(GpuError::OutOfMemory {
            what,
            requested,
            free: f,
        }) => {
            assert_eq!((what, requested, f), ("device", asked, free));
        }
        other => panic!("expected OutOfMemory, got {other:?}"),
    }
    match gpu.host_alloc(p.host_total_bytes + 1, HostMemKind::Pinned) {
        Err(GpuError::OutOfMemory {
            what,
            requested,
            free,
        }) => {
            assert_eq!(
                (what, requested, free),
                ("host", p.host_total_bytes + 1, p.host_total_bytes)
            );
        }
        other => panic!("expected OutOfMemory, got {other:?}"),
    }
}

#[test]
fn allocation_and_pinning_cost_host_time() {
    let p = h200();
    let gib = 1 << 30;
    let mut gpu = sim();
    let t0 = gpu.host_now_us();
    let pinned = gpu.host_alloc(gib, HostMemKind::Pinned).unwrap();
    let pinned_ms = (gpu.host_now_us() - t0) / 1e3;
    assert!((pinned_ms - p.pinned_alloc_ms_per_gib).abs() < 0.1 + p.pinned_alloc_fixed_us / 1e3);
    let t1 = gpu.host_now_us();
    let pageable = gpu.host_alloc(gib, HostMemKind::Pageable).unwrap();
    gpu.host_touch(pageable).unwrap();
    let pageable_ms = (gpu.host_now_us() - t1) / 1e3;
    assert!(pageable_ms < pinned_ms);
    let t2 = gpu.host_now_us();
    gpu.host_register(pageable).unwrap();
    let register_ms = (gpu.host_now_us() - t2) / 1e3;
    assert!((register_ms - p.register_ms_per_gib).abs() < 1e-6);
    assert!(
        gpu.host_register(pinned).is_err(),
        "pinned memory cannot be registered"
    );
    gpu.host_unregister(pageable).unwrap();
    gpu.host_free(pageable).unwrap();
    gpu.host_free(pinned).unwrap();
    assert!(
        gpu.host_read_f32(pinned, 0).is_err(),
        "a freed buffer must not be readable"
    );
}

#[test]
fn bad_ranges_and_streams_are_errors() {
    let mut gpu = sim();
    let host = gpu.host_alloc(1024, HostMemKind::Pinned).unwrap();
    let dev = gpu.device_alloc(1024).unwrap();
    let s0 = StreamId::LEGACY_DEFAULT;
    assert!(gpu.copy_h2d_async(s0, dev, 512, host, 0, 1024).is_err());
    assert!(
        gpu.copy_d2h_async(StreamId(99), host, 0, dev, 0, 4)
            .is_err()
    );
    assert!(
        gpu.launch(s0, Kernel::Transform { a: 1.0, b: 0.0 }, dev, 2, 8)
            .is_err()
    );
    let s = gpu.stream_create(StreamKind::Blocking).unwrap();
    gpu.stream_destroy(s).unwrap();
    assert!(gpu.copy_h2d_async(s, dev, 0, host, 0, 4).is_err());
    assert!(gpu.stream_destroy(s0).is_err());
    assert!(gpu.device_alloc(0).is_err());
}

#[test]
fn a_large_pipeline_simulates_quickly() {
    let mut gpu = sim();
    gpu.set_move_data(false);
    let start = std::time::Instant::now();
    let (ops, _, _) = pipeline(&mut gpu, 256 * MIB, 3, 32);
    let elapsed = start.elapsed();
    assert_eq!(ops.len(), 96);
    eprintln!("256 MiB, 3 streams x 32 chunks: simulated in {elapsed:?}");
    // Well under 1 ms in release; a debug build is allowed ten times that.
    assert!(elapsed.as_millis() < 10, "took {elapsed:?}");
}

#[test]
fn profile_round_trips_through_toml() {
    let p = h200();
    let text = p.to_toml().unwrap();
    assert_eq!(Profile::from_toml_str(&text, "round trip").unwrap(), p);
    let path = std::env::temp_dir().join(format!("sim-model-{}.toml", std::process::id()));
    p.save(&path).unwrap();
    assert_eq!(Profile::load(&path).unwrap(), p);
    std::fs::remove_file(path).unwrap();
}

#[test]
fn invalid_profiles_are_rejected_with_the_field_named() {
    let text = h200().to_toml().unwrap();
    let bad = text.replace("pinned_h2d_gbps = 55.4", "pinned_h2d_gbps = -1.0");
    assert_ne!(bad, text);
    let err = Profile::from_toml_str(&bad, "bad.toml").unwrap_err();
    assert!(
        matches!(
            err,
            ProfileError::Invalid {
                field: "pinned_h2d_gbps",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("bad.toml"));

    let missing: String = text
        .lines()
        .filter(|l| !l.starts_with("bidirectional_gbps"))
        .collect::<Vec<_>>()
        .join("\n");
    let err = Profile::from_toml_str(&missing, "missing.toml").unwrap_err();
    assert!(err.to_string().contains("bidirectional_gbps"), "{err}");

    let unknown = format!("{text}\npinned_h2d_gbs = 3.0\n");
    assert!(Profile::from_toml_str(&unknown, "typo.toml").is_err());

    let zero = text.replace("copy_engines = 3", "copy_engines = 0");
    assert!(Profile::from_toml_str(&zero, "zero.toml").is_err());

    assert!(matches!(
        Profile::builtin("a100"),
        Err(ProfileError::UnknownBuiltin { .. })
    ));
    assert!(Profile::load(std::path::Path::new("/nonexistent/p.toml")).is_err());
}
