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
