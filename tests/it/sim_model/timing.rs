//! Host and device time: determinism, bandwidths, latency, blocking calls, allocation costs, speed.

use super::*;

#[test]
fn same_calls_give_identical_ops_and_times() {
    let run = || {
        let mut gpu = sim();
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
fn allocation_and_pinning_cost_host_time() {
    let p = h200();
    let gib = 1 << 30;
    let mut gpu = sim();
    let t0 = gpu.host_now_us();
    let pinned = gpu.host_alloc(gib, HostMemKind::Pinned).unwrap();
    let pinned_ms = (gpu.host_now_us() - t0) / 1e3;
    let want = p.pinned_alloc_ms_per_gib + p.pinned_alloc_fixed_us / 1e3;
    assert!((pinned_ms - want).abs() < 1e-6, "{pinned_ms} ms");
    let t1 = gpu.host_now_us();
    let pageable = gpu.host_alloc(gib, HostMemKind::Pageable).unwrap();
    let malloc_ms = (gpu.host_now_us() - t1) / 1e3;
    assert!(
        malloc_ms * 100.0 < pinned_ms,
        "malloc alone is cheap: {malloc_ms} ms"
    );
    gpu.host_touch(pageable).unwrap();
    let pageable_ms = (gpu.host_now_us() - t1) / 1e3;
    let want = p.pageable_alloc_us / 1e3 + p.pageable_alloc_ms_per_gib;
    assert!((pageable_ms - want).abs() < 1e-6, "{pageable_ms} ms");
    let t_again = gpu.host_now_us();
    gpu.host_touch(pageable).unwrap();
    assert_eq!(gpu.host_now_us(), t_again, "pages are touched once");
    let t2 = gpu.host_now_us();
    gpu.host_register(pageable).unwrap();
    let register_ms = (gpu.host_now_us() - t2) / 1e3;
    assert!((register_ms - p.register_ms_per_gib).abs() < 1e-6);
    assert!(
        gpu.host_register(pinned).is_err(),
        "pinned memory cannot be registered"
    );
    gpu.host_unregister(pageable).unwrap();
    let t3 = gpu.host_now_us();
    gpu.host_free(pageable).unwrap();
    let free_ms = (gpu.host_now_us() - t3) / 1e3;
    let want = p.pageable_alloc_us / 1e3 + p.pageable_free_ms_per_gib;
    assert!((free_ms - want).abs() < 1e-6, "{free_ms} ms");
    gpu.host_free(pinned).unwrap();
    assert!(
        gpu.host_read_f32(pinned, 0).is_err(),
        "a freed buffer must not be readable"
    );
}

#[test]
fn a_small_pageable_upload_returns_before_the_copy_ends_but_a_download_does_not() {
    let p = h200();
    let small = p.pageable_async_h2d_max_bytes;
    assert!(small > 0, "the H200 profile stages small pageable uploads");
    for (dir, blocks) in [(OpKind::H2d, false), (OpKind::D2h, true)] {
        let mut gpu = sim();
        let host = gpu.host_alloc(small, HostMemKind::Pageable).unwrap();
        gpu.host_touch(host).unwrap();
        let dev = gpu.device_alloc(small).unwrap();
        let s = gpu.stream_create(StreamKind::NonBlocking).unwrap();
        gpu.timeline_begin().unwrap();
        match dir {
            OpKind::H2d => gpu.copy_h2d_async(s, dev, 0, host, 0, small).unwrap(),
            _ => gpu.copy_d2h_async(s, host, 0, dev, 0, small).unwrap(),
        }
        let returned = gpu.host_now_us();
        let done = gpu.timeline_end().unwrap()[0].end_us;
        assert_eq!(
            returned >= done,
            blocks,
            "{dir:?}: returned {returned}, done {done}"
        );
    }
    // One byte more and the upload blocks again.
    let mut gpu = sim();
    let host = gpu.host_alloc(small + 4, HostMemKind::Pageable).unwrap();
    let dev = gpu.device_alloc(small + 4).unwrap();
    gpu.timeline_begin().unwrap();
    gpu.copy_h2d_async(StreamId::LEGACY_DEFAULT, dev, 0, host, 0, small + 4)
        .unwrap();
    let returned = gpu.host_now_us();
    assert!(returned >= gpu.timeline_end().unwrap()[0].end_us);
}

#[test]
fn a_spin_lasts_its_iterations() {
    let p = h200();
    let spin = |iterations: u32| {
        let mut gpu = sim();
        let dev = gpu.device_alloc(MIB).unwrap();
        gpu.timeline_begin().unwrap();
        let k = Kernel::Spin { iterations };
        gpu.launch(StreamId::LEGACY_DEFAULT, k, dev, 0, MIB)
            .unwrap();
        gpu.timeline_end().unwrap()[0].duration_us()
    };
    let (one, two) = (spin(100_000), spin(200_000));
    let per_iteration_ns = (two - one) * 1e3 / 100_000.0;
    assert!((per_iteration_ns - p.spin_ns_per_iteration).abs() < 1e-6);
    assert!((one - 100.0 * p.spin_ns_per_iteration - p.kernel_launch_latency_us).abs() < 1e-6);
}
