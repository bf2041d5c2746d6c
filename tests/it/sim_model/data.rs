//! Real data: copies, the transform, data-less sweeps, memory limits, bad arguments.

use super::*;

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

/// How [`chunked`] gets one chunk wrong.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Bug {
    None,
    SkipChunk,
    WrongOffset,
    WrongDirection,
    KernelTwice,
}

/// An experiment-like sequence: upload, transform and download `bytes` in `chunks` chunks over
/// two streams, with `bug` in chunk `chunks / 2`; the destination first holds other data.
fn chunked(gpu: &mut SimGpu, bytes: u64, chunks: u64, bug: Bug) -> (HostBuf, HostBuf) {
    let src = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dst = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dev = gpu.device_alloc(bytes).unwrap();
    gpu.host_fill(src, 41).unwrap();
    gpu.host_fill(dst, 43).unwrap();
    let streams = [
        gpu.stream_create(StreamKind::NonBlocking).unwrap(),
        gpu.stream_create(StreamKind::NonBlocking).unwrap(),
    ];
    let chunk = bytes / chunks;
    let k = Kernel::TRANSFORM;
    for c in 0..chunks {
        let (s, off) = (streams[(c % 2) as usize], c * chunk);
        let bad = c == chunks / 2;
        if bad && bug == Bug::SkipChunk {
            continue;
        }
        gpu.copy_h2d_async(s, dev, off, src, off, chunk).unwrap();
        gpu.launch(s, k, dev, off, chunk).unwrap();
        if bad && bug == Bug::KernelTwice {
            gpu.launch(s, k, dev, off, chunk).unwrap();
        }
        match bug {
            _ if !bad => gpu.copy_d2h_async(s, dst, off, dev, off, chunk).unwrap(),
            Bug::WrongOffset => gpu
                .copy_d2h_async(s, dst, off, dev, off - chunk, chunk)
                .unwrap(),
            Bug::WrongDirection => gpu.copy_h2d_async(s, dev, off, dst, off, chunk).unwrap(),
            _ => gpu.copy_d2h_async(s, dst, off, dev, off, chunk).unwrap(),
        }
    }
    gpu.device_sync().unwrap();
    (src, dst)
}

#[test]
fn verification_is_exact_and_catches_each_chunk_bug() {
    let (bytes, chunks) = (64 * MIB, 16);
    let first_bad = (chunks / 2) * (bytes / chunks) / 4;
    let expect = Expect::Transform { a: 2.0, b: 1.0 };
    let mut gpu = sim();
    let (src, dst) = chunked(&mut gpu, bytes, chunks, Bug::None);
    assert_eq!(gpu.host_compare(src, dst, bytes, expect).unwrap(), None);
    assert_eq!(
        gpu.host_compare(src, dst, bytes, Expect::Copy)
            .unwrap()
            .map(|m| m.index),
        Some(0),
        "the output is transformed, not copied"
    );
    for (bug, says) in [
        (Bug::SkipChunk, "fill 43"),
        (Bug::WrongOffset, "fill 41 from float"),
        (Bug::WrongDirection, "fill 43"),
        (Bug::KernelTwice, "2 times"),
    ] {
        let mut gpu = sim();
        let (src, dst) = chunked(&mut gpu, bytes, chunks, bug);
        let m = gpu.host_compare(src, dst, bytes, expect).unwrap();
        let m = m.unwrap_or_else(|| panic!("{bug:?} passed verification"));
        assert_eq!(m.index, first_bad, "{bug:?}");
        let want = Kernel::transform_host(fill_pattern_f32(41, first_bad), 2.0, 1.0);
        assert_eq!(m.expected, want, "{bug:?}");
        assert_ne!(m.got, Some(want), "{bug:?}");
        let note = m.note.unwrap_or_default();
        assert!(note.contains(says), "{bug:?}: {note}");
    }
}

#[test]
fn a_60_gib_pipeline_verifies_without_holding_its_bytes() {
    // Input and output fill most of the profiled host's 126 GiB, which the model enforces.
    let bytes = 60 << 30;
    let mut gpu = sim();
    let (src, dst) = chunked(&mut gpu, bytes, 32, Bug::None);
    let expect = Expect::Transform { a: 2.0, b: 1.0 };
    assert_eq!(gpu.host_compare(src, dst, bytes, expect).unwrap(), None);
    let last = bytes / 4 - 1;
    let want = Kernel::transform_host(fill_pattern_f32(41, last), 2.0, 1.0);
    assert_eq!(gpu.host_read_f32(dst, last).unwrap(), want);
    let mut gpu = sim();
    let (src, dst) = chunked(&mut gpu, bytes, 32, Bug::KernelTwice);
    assert!(gpu.host_compare(src, dst, bytes, expect).unwrap().is_some());
}

#[test]
fn host_writes_and_copies_are_seen_by_reads_copies_and_checks() {
    let mut gpu = sim();
    let n = 1024;
    let (a, b) = (
        gpu.host_alloc(n * 4, HostMemKind::Pageable).unwrap(),
        gpu.host_alloc(n * 4, HostMemKind::Pinned).unwrap(),
    );
    assert_eq!(
        gpu.host_read_f32(a, 5).unwrap(),
        0.0,
        "fresh memory reads as zeros"
    );
    gpu.host_fill(a, 9).unwrap();
    gpu.host_write_f32(a, 5, -1.5).unwrap();
    gpu.host_copy(b, 0, a, 0, n * 4).unwrap();
    assert_eq!(gpu.host_read_f32(b, 5).unwrap(), -1.5);
    assert_eq!(gpu.host_read_f32(b, 6).unwrap(), fill_pattern_f32(9, 6));
    // The exercises' check_output: the standard transform of the fill, float for float.
    let (s, dev) = (StreamId::LEGACY_DEFAULT, gpu.device_alloc(n * 4).unwrap());
    let out = gpu.device_alloc(n * 4).unwrap();
    gpu.host_fill(a, 9).unwrap();
    gpu.copy_h2d_async(s, dev, 0, a, 0, n * 4).unwrap();
    gpu.launch_transform_into(s, dev, 0, out, 0, n * 4).unwrap();
    gpu.copy_d2h_async(s, b, 0, out, 0, n * 4).unwrap();
    gpu.stream_sync(s).unwrap();
    assert!(
        gpu.host_holds_transform_of_fill(b, 0, n * 4, (9, 0))
            .unwrap()
    );
    assert!(
        !gpu.host_holds_transform_of_fill(b, 0, n * 4, (8, 0))
            .unwrap()
    );
    // A host loop computing the same values passes too: values decide, not how they got there.
    for i in 0..n {
        let v = Kernel::transform_host(fill_pattern_f32(9, i), 2.0, 1.0);
        gpu.host_write_f32(a, i, v).unwrap();
    }
    assert!(
        gpu.host_holds_transform_of_fill(a, 0, n * 4, (9, 0))
            .unwrap()
    );
    gpu.host_write_f32(a, 700, 0.25).unwrap();
    assert!(
        !gpu.host_holds_transform_of_fill(a, 0, n * 4, (9, 0))
            .unwrap()
    );
    assert!(
        gpu.host_holds_transform_of_fill(a, 0, 700 * 4, (9, 0))
            .unwrap()
    );
}

#[test]
fn memsets_and_device_copies_move_contents() {
    let mut gpu = sim();
    let s = StreamId::LEGACY_DEFAULT;
    let host = gpu.host_alloc(4096, HostMemKind::Pinned).unwrap();
    let (d1, d2) = (
        gpu.device_alloc(4096).unwrap(),
        gpu.device_alloc(4096).unwrap(),
    );
    gpu.host_fill(host, 3).unwrap();
    gpu.copy_h2d_async(s, d1, 0, host, 0, 4096).unwrap();
    gpu.memset_async(s, d2, 0, 4096, 0).unwrap();
    gpu.copy_d2d_async(s, d2, 1024, d1, 0, 1024).unwrap();
    gpu.copy_d2h_async(s, host, 0, d2, 0, 4096).unwrap();
    gpu.stream_sync(s).unwrap();
    assert_eq!(gpu.host_read_f32(host, 0).unwrap(), 0.0);
    assert_eq!(
        gpu.host_read_f32(host, 256).unwrap(),
        fill_pattern_f32(3, 0)
    );
    assert_eq!(
        gpu.host_read_f32(host, 511).unwrap(),
        fill_pattern_f32(3, 255)
    );
    assert_eq!(gpu.host_read_f32(host, 512).unwrap(), 0.0);
}

#[test]
fn the_spin_kernels_values_are_an_error_not_an_invention() {
    let mut gpu = sim();
    let (_, dst) = roundtrip(&mut gpu, 4096, Some(Kernel::Spin { iterations: 10 }));
    let err = gpu.host_read_f32(dst, 3).unwrap_err();
    assert!(
        matches!(err, GpuError::Invalid(ref m) if m.contains("spin")),
        "{err}"
    );
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
