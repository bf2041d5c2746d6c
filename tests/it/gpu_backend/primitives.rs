//! The exercise primitives on a real GPU: events across streams, the legacy default stream's
//! barrier, elapsed time, memsets, device copies, the out-of-place transform, the cycle spin,
//! and host access. Run with the rest of `gpu_backend` (one test at a time).

use super::*;
use cuda_academy::gpu::{EventId, Expect, TRANSFORM_A, TRANSFORM_B, fill_pattern_f32};

const BIG: u64 = 256 * MIB;

fn op(ops: &[Op], kind: OpKind, stream: StreamId) -> Op {
    ops.iter()
        .find(|o| o.kind == kind && o.stream == stream.0)
        .cloned()
        .unwrap_or_else(|| panic!("no {kind:?} op in stream {}: {ops:?}", stream.0))
}

#[test]
fn a_stream_waiting_on_an_event_starts_after_the_recorded_copy() {
    let mut g = open();
    let host = g.host_alloc(BIG, HostMemKind::Pinned).unwrap();
    let back = g.host_alloc(BIG, HostMemKind::Pinned).unwrap();
    let dev = g.device_alloc(BIG).unwrap();
    let a = g.stream_create(StreamKind::NonBlocking).unwrap();
    let b = g.stream_create(StreamKind::NonBlocking).unwrap();
    let (start, end) = (g.event_create(true).unwrap(), g.event_create(true).unwrap());
    g.timeline_begin().unwrap();
    g.event_record(start, a).unwrap();
    g.copy_h2d_async(a, dev, 0, host, 0, BIG).unwrap();
    g.event_record(end, a).unwrap();
    g.stream_wait_event(b, end).unwrap();
    g.copy_d2h_async(b, back, 0, dev, 0, BIG).unwrap();
    g.event_sync(end).unwrap();
    let ms = g.event_elapsed_ms(start, end).unwrap();
    let ops = g.timeline_end().unwrap();
    let (up, down) = (op(&ops, OpKind::H2d, a), op(&ops, OpKind::D2h, b));
    let copy_ms = (up.end_us - up.start_us) / 1e3;
    println!(
        "upload {copy_ms:.3} ms, events {ms:.3} ms, download starts {:.1} us after",
        down.start_us - up.end_us
    );
    // Timestamps of two clocks: allow a microsecond of disagreement.
    assert!(
        down.start_us + 1.0 >= up.end_us,
        "{down:?} starts before {up:?} ends"
    );
    assert!(f64::from(ms) >= copy_ms * 0.95 && f64::from(ms) < copy_ms * 1.5 + 0.05);
    for ev in [start, end] {
        g.event_destroy(ev).unwrap();
    }
    assert!(
        g.event_record(start, a).is_err(),
        "a destroyed event is refused"
    );
}

#[test]
fn an_event_on_the_legacy_stream_waits_for_a_blocking_stream() {
    let mut g = open();
    let host = g.host_alloc(BIG, HostMemKind::Pinned).unwrap();
    let dev = g.device_alloc(BIG).unwrap();
    for (kind, waits) in [
        (StreamKind::Blocking, true),
        (StreamKind::NonBlocking, false),
    ] {
        let s = g.stream_create(kind).unwrap();
        let ev = g.event_create(false).unwrap();
        g.copy_h2d_async(s, dev, 0, host, 0, BIG).unwrap();
        let t0 = g.host_now_us();
        g.event_record(ev, StreamId::LEGACY_DEFAULT).unwrap();
        g.event_sync(ev).unwrap();
        let waited_us = g.host_now_us() - t0;
        g.device_sync().unwrap();
        println!("{kind:?}: event_sync after {waited_us:.1} us");
        // A 256 MiB pinned upload takes about 5 ms; not waiting takes microseconds.
        assert_eq!(waited_us > 1000.0, waits, "{kind:?}: {waited_us} us");
        g.event_destroy(ev).unwrap();
        g.stream_destroy(s).unwrap();
    }
}

#[test]
fn event_misuse_is_an_error_not_a_crash() {
    let mut g = open();
    let s = StreamId::LEGACY_DEFAULT;
    let (timed, untimed) = (
        g.event_create(true).unwrap(),
        g.event_create(false).unwrap(),
    );
    assert!(g.event_elapsed_ms(timed, timed).is_err(), "never recorded");
    g.event_sync(timed).unwrap();
    g.event_record(timed, s).unwrap();
    g.event_record(untimed, s).unwrap();
    g.device_sync().unwrap();
    assert!(
        g.event_elapsed_ms(timed, untimed).is_err(),
        "timing disabled"
    );
    assert!(g.stream_wait_event(s, EventId(9999)).is_err());
    assert!(!g.is_poisoned());
}

#[test]
fn memset_device_copy_and_transform_into_compute_what_the_simulator_describes() {
    let mut g = open();
    let bytes = 16 * MIB;
    let n = bytes / 4;
    let s = g.stream_create(StreamKind::NonBlocking).unwrap();
    let host = g.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let out = g.host_alloc(bytes, HostMemKind::Pageable).unwrap();
    let (d_in, d_mid, d_out) = (
        g.device_alloc(bytes).unwrap(),
        g.device_alloc(bytes).unwrap(),
        g.device_alloc(bytes).unwrap(),
    );
    g.host_fill(host, 5).unwrap();
    g.timeline_begin().unwrap();
    g.copy_h2d_async(s, d_in, 0, host, 0, bytes).unwrap();
    g.memset_async(s, d_out, 0, bytes, 0).unwrap();
    g.copy_d2d_async(s, d_mid, 0, d_in, 0, bytes).unwrap();
    g.launch_transform_into(s, d_mid, 0, d_out, 0, bytes - 4096)
        .unwrap();
    g.copy_d2h_async(s, out, 0, d_out, 0, bytes).unwrap();
    g.launch_spin_cycles(s, 10_000_000).unwrap();
    let ops = g.timeline_end().unwrap();
    let spin = ops
        .iter()
        .find(|o| o.label == "spin")
        .expect("the spin kernel is recorded");
    println!(
        "spin of 10 M cycles: {:.3} ms",
        (spin.end_us - spin.start_us) / 1e3
    );
    // 10 M cycles at any SM clock from 0.5 to 3 GHz.
    assert!(
        (3.3e3..2e4).contains(&(spin.end_us - spin.start_us)),
        "{spin:?}"
    );
    let last = bytes - 4096;
    assert!(
        g.host_holds_transform_of_fill(out, 0, last, (5, 0))
            .unwrap()
    );
    assert!(
        !g.host_holds_transform_of_fill(out, 0, bytes, (5, 0))
            .unwrap(),
        "the memset tail"
    );
    assert_eq!(g.host_read_f32(out, n - 1).unwrap(), 0.0);
    let want = Kernel::transform_host(fill_pattern_f32(5, 7), TRANSFORM_A, TRANSFORM_B);
    assert_eq!(g.host_read_f32(out, 7).unwrap(), want);
}

#[test]
fn host_writes_copies_and_comparisons_work_on_real_bytes() {
    let mut g = open();
    let bytes = 4 * MIB;
    let (a, b) = (
        g.host_alloc(bytes, HostMemKind::Pageable).unwrap(),
        g.host_alloc(bytes, HostMemKind::Pinned).unwrap(),
    );
    g.host_fill(a, 3).unwrap();
    g.host_copy(b, 0, a, 0, bytes).unwrap();
    assert_eq!(g.host_compare(a, b, bytes, Expect::Copy).unwrap(), None);
    g.host_write_f32(b, 12_345, -2.5).unwrap();
    assert_eq!(g.host_read_f32(b, 12_345).unwrap(), -2.5);
    let m = g
        .host_compare(a, b, bytes, Expect::Copy)
        .unwrap()
        .expect("a mismatch");
    assert_eq!((m.index, m.got), (12_345, Some(-2.5)));
    assert!(
        g.host_write_f32(b, bytes / 4, 0.0).is_err(),
        "outside the buffer"
    );
}

#[test]
fn the_fix_the_race_starter_runs_live_and_reports_the_read_before_sync_and_what_it_read() {
    // The starter reads `h_out` (check_output, then `h_out[0]`) while the copy back may still be
    // writing it: on a live GPU that is a real race, which the backend must run without undefined
    // behaviour (volatile raw-pointer loads, no `&[f32]` over the pinned bytes) and grade.
    use std::sync::atomic::AtomicBool;
    let ex = cuda_academy::exercise::catalog::find("fix-the-race").unwrap();
    let mut g = open();
    let v = cuda_academy::exercise::check(
        ex,
        ex.starter,
        &mut g,
        cuda_academy::exercise::interp::Limits::default(),
        &AtomicBool::new(false),
    );
    println!("{}\n{:?}\n{:?}", v.output, v.checks, v.hazards);
    assert!(
        !v.cancelled && v.diagnostics.is_empty(),
        "{:?}",
        v.diagnostics
    );
    let reads = |line: u32| {
        v.hazards
            .iter()
            .any(|h| h.kind.name() == "read-before-sync" && h.line == line)
    };
    // Both reads come before the `cudaStreamSynchronize`: found by their text, not line numbers.
    let line_of = |text: &str| {
        ex.starter
            .lines()
            .position(|l| l.contains(text))
            .map(|i| i as u32 + 1)
            .unwrap()
    };
    let (check_line, first_line) = (line_of("check_output(h_out"), line_of("first value"));
    assert!(reads(check_line) && reads(first_line), "{:?}", v.hazards);
    assert!(!v.passed, "the starter must not pass");
    // The values it read: the first float as printed, and check_output's answer, which the
    // program prints after the sync and the output-correct criterion records from the same call.
    let value = v
        .output
        .lines()
        .find_map(|l| l.strip_prefix("first value: "))
        .unwrap_or_else(|| panic!("no first value in {:?}", v.output));
    assert!(value.trim().parse::<f32>().is_ok(), "{value:?}");
    let printed_pass = v.output.contains("check_output: pass");
    assert!(printed_pass || v.output.contains("check_output: FAIL"));
    let recorded = v
        .checks
        .iter()
        .find(|c| c.name == "output is correct")
        .unwrap_or_else(|| panic!("no output-correct check in {:?}", v.checks));
    assert_eq!(
        recorded.passed, printed_pass,
        "{recorded:?} vs {:?}",
        v.output
    );
    assert!(
        v.timeline
            .iter()
            .any(|o| o.kind == OpKind::D2h && o.bytes == 64 * MIB),
        "{:?}",
        v.timeline
    );
}
