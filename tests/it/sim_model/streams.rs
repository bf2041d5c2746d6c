//! Streams and engines: in-stream order, overlap, the shared link, the legacy default stream.

use super::*;

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

#[test]
fn h2d_and_d2h_overlap_and_share_the_bidirectional_limit() {
    let p = h200();
    let bytes = 256 * MIB;
    let mut gpu = sim();
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

#[test]
fn breadth_first_issue_is_slower_because_engines_drain_one_stream_at_a_time() {
    let bytes = 256 * MIB;
    let mut gpu = sim();
    let depth = ops_span(&pipeline(&mut gpu, bytes, 3, 32).0);
    let breadth_ops = pipeline_breadth_first(&mut gpu, bytes, 3, 32);
    let breadth = ops_span(&breadth_ops);
    assert!(
        breadth > 1.1 * depth,
        "breadth-first {breadth} us, per-chunk {depth} us"
    );
    // The first stream's uploads run back to back before the second stream's start.
    let uploads: Vec<u32> = breadth_ops
        .iter()
        .filter(|o| o.kind == OpKind::H2d)
        .map(|o| o.stream)
        .collect();
    let first = uploads[0];
    assert!(uploads[..11].iter().all(|&s| s == first), "{uploads:?}");
}
