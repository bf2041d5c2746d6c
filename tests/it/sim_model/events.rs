//! Events: ordering across streams, `stream_wait_event`, the legacy default stream's barrier,
//! elapsed time and the driver's errors; plus the other exercise primitives' timing.

use super::*;

const BIG: u64 = 256 * MIB;

/// A pinned host buffer and a device buffer of `bytes`.
fn buffers(gpu: &mut SimGpu, bytes: u64) -> (HostBuf, DevBuf) {
    let host = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    (host, gpu.device_alloc(bytes).unwrap())
}

fn op(ops: &[Op], kind: OpKind, stream: StreamId) -> &Op {
    ops.iter()
        .find(|o| o.kind == kind && o.stream == stream.0)
        .unwrap_or_else(|| panic!("no {kind:?} op in stream {}: {ops:?}", stream.0))
}

/// An upload in stream `a`, then a download in stream `b`, which waits for an event recorded
/// after the upload when `wait` is set.
fn upload_then_download(wait: bool) -> Vec<Op> {
    let mut gpu = sim();
    let (host, dev) = buffers(&mut gpu, BIG);
    let back = gpu.host_alloc(BIG, HostMemKind::Pinned).unwrap();
    let a = gpu.stream_create(StreamKind::NonBlocking).unwrap();
    let b = gpu.stream_create(StreamKind::NonBlocking).unwrap();
    let ev = gpu.event_create(false).unwrap();
    gpu.timeline_begin().unwrap();
    gpu.copy_h2d_async(a, dev, 0, host, 0, BIG).unwrap();
    gpu.event_record(ev, a).unwrap();
    if wait {
        gpu.stream_wait_event(b, ev).unwrap();
    }
    gpu.copy_d2h_async(b, back, 0, dev, 0, BIG).unwrap();
    let ops = gpu.timeline_end().unwrap();
    assert_eq!(ops.len(), 2, "events leave no ops on the timeline: {ops:?}");
    ops
}

#[test]
fn a_stream_waiting_on_an_event_starts_after_the_recorded_work() {
    let free = upload_then_download(false);
    let (up, down) = (free[0].clone(), free[1].clone());
    assert!(
        down.start_us < up.end_us,
        "without the wait the copies overlap"
    );
    let ordered = upload_then_download(true);
    let up = op(&ordered, OpKind::H2d, StreamId(1));
    let down = op(&ordered, OpKind::D2h, StreamId(2));
    assert!(
        down.start_us >= up.end_us,
        "{down:?} starts before {up:?} ends"
    );
}

#[test]
fn waiting_uses_the_record_made_before_the_wait_and_none_means_no_wait() {
    let mut gpu = sim();
    let (host, dev) = buffers(&mut gpu, BIG);
    let a = gpu.stream_create(StreamKind::NonBlocking).unwrap();
    let b = gpu.stream_create(StreamKind::NonBlocking).unwrap();
    let never = gpu.event_create(true).unwrap();
    let ev = gpu.event_create(true).unwrap();
    gpu.timeline_begin().unwrap();
    gpu.stream_wait_event(b, never).unwrap();
    gpu.event_record(ev, a).unwrap(); // before any work: complete at once
    gpu.stream_wait_event(b, ev).unwrap();
    gpu.copy_h2d_async(a, dev, 0, host, 0, BIG).unwrap();
    gpu.event_record(ev, a).unwrap(); // too late for b's wait
    gpu.copy_d2h_async(b, host, 0, dev, 0, BIG).unwrap();
    let ops = gpu.timeline_end().unwrap();
    let up = op(&ops, OpKind::H2d, a);
    let down = op(&ops, OpKind::D2h, b);
    assert!(
        down.start_us < up.end_us,
        "b waited for a record made after its wait"
    );
}

/// Host time when `event_sync` returns for an event recorded on the legacy default stream
/// after a long upload in a stream of `kind`; and the upload's end.
fn legacy_event_after_upload(kind: StreamKind) -> (f64, f64) {
    let mut gpu = sim();
    let (host, dev) = buffers(&mut gpu, BIG);
    let s = gpu.stream_create(kind).unwrap();
    let ev = gpu.event_create(false).unwrap();
    gpu.timeline_begin().unwrap();
    gpu.copy_h2d_async(s, dev, 0, host, 0, BIG).unwrap();
    gpu.event_record(ev, StreamId::LEGACY_DEFAULT).unwrap();
    gpu.event_sync(ev).unwrap();
    let synced = gpu.host_now_us();
    let ops = gpu.timeline_end().unwrap();
    (synced, op(&ops, OpKind::H2d, s).end_us)
}

#[test]
fn an_event_on_the_legacy_stream_waits_for_blocking_streams_only() {
    let (synced, copy_end) = legacy_event_after_upload(StreamKind::Blocking);
    assert!(synced >= copy_end, "{synced} < {copy_end}");
    let (synced, copy_end) = legacy_event_after_upload(StreamKind::NonBlocking);
    assert!(synced < copy_end / 10.0, "{synced} vs {copy_end}");
}

#[test]
fn elapsed_time_spans_the_recorded_work() {
    let p = h200();
    let mut gpu = sim();
    let (host, dev) = buffers(&mut gpu, BIG);
    let s = gpu.stream_create(StreamKind::NonBlocking).unwrap();
    let (start, end) = (
        gpu.event_create(true).unwrap(),
        gpu.event_create(true).unwrap(),
    );
    gpu.timeline_begin().unwrap();
    let t0 = gpu.host_now_us();
    gpu.event_record(start, s).unwrap();
    gpu.copy_h2d_async(s, dev, 0, host, 0, BIG).unwrap();
    gpu.event_record(end, s).unwrap();
    let early = gpu.event_elapsed_ms(start, end).unwrap_err();
    assert!(early.to_string().contains("NOT_READY"), "{early}");
    gpu.event_sync(end).unwrap();
    let ms = gpu.event_elapsed_ms(start, end).unwrap();
    let ops = gpu.timeline_end().unwrap();
    let copy = op(&ops, OpKind::H2d, s);
    // The start event completes when recorded (the stream is idle); the end with the copy, whose
    // start may pay the profile's per-operation costs (engine overhead, a wait for the marker's
    // engine, an engine switch).
    let want_us = copy.end_us - (t0 + p.async_call_us);
    let pacing_us = p.op_overhead_us + p.stream_wait_us + p.engine_switch_us;
    let got_us = f64::from(ms) * 1e3;
    assert!(
        got_us >= want_us - 0.01 && got_us <= want_us + pacing_us + 0.01,
        "{ms} ms vs {want_us} us (+ up to {pacing_us} us of per-op costs)"
    );
    assert!(
        want_us > copy.end_us - copy.start_us,
        "the span includes the copy"
    );
    let back = gpu.event_elapsed_ms(end, start).unwrap();
    assert_eq!(back, -ms, "elapsed time is signed");
}

#[test]
fn event_misuse_gives_the_drivers_errors() {
    let mut gpu = sim();
    let s = StreamId::LEGACY_DEFAULT;
    let (timed, untimed) = (
        gpu.event_create(true).unwrap(),
        gpu.event_create(false).unwrap(),
    );
    assert!(
        gpu.event_elapsed_ms(timed, timed).is_err(),
        "never recorded"
    );
    gpu.event_sync(timed).unwrap(); // never recorded: returns at once
    gpu.event_record(timed, s).unwrap();
    gpu.event_record(untimed, s).unwrap();
    gpu.device_sync().unwrap();
    assert_eq!(gpu.event_elapsed_ms(timed, timed).unwrap(), 0.0);
    let err = gpu.event_elapsed_ms(timed, untimed).unwrap_err();
    assert!(err.to_string().contains("DISABLE_TIMING"), "{err}");
    gpu.event_destroy(timed).unwrap();
    assert!(gpu.event_record(timed, s).is_err());
    assert!(gpu.event_destroy(timed).is_err());
    assert!(gpu.stream_wait_event(s, EventId(999)).is_err());
    assert!(gpu.event_record(untimed, StreamId(77)).is_err());
}

#[test]
fn memsets_device_copies_and_spins_are_timed_device_ops() {
    let p = h200();
    let mut gpu = sim();
    let s = gpu.stream_create(StreamKind::NonBlocking).unwrap();
    let (d1, d2) = (
        gpu.device_alloc(BIG).unwrap(),
        gpu.device_alloc(BIG).unwrap(),
    );
    gpu.timeline_begin().unwrap();
    gpu.memset_async(s, d1, 0, BIG, 0).unwrap();
    gpu.copy_d2d_async(s, d2, 0, d1, 0, BIG).unwrap();
    gpu.launch_transform_into(s, d1, 0, d2, 0, BIG).unwrap();
    gpu.launch_spin_cycles(s, 1_980_000).unwrap();
    let ops = gpu.timeline_end().unwrap();
    let labels: Vec<&str> = ops.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["memset", "d2d", "transform", "spin"]);
    let dur = |i: usize| ops[i].end_us - ops[i].start_us;
    let mem_us = BIG as f64 / (p.device_mem_gbps * 1e3);
    assert!((dur(0) - p.kernel_launch_latency_us - mem_us).abs() < 1e-6);
    assert!((dur(1) - p.kernel_launch_latency_us - 2.0 * mem_us).abs() < 1e-6);
    assert!(
        (dur(2) - dur(1)).abs() < 1e-6,
        "transform and d2d move the same bytes"
    );
    // 1.98 M cycles at the modelled 1980 MHz: 1 ms.
    assert!((dur(3) - p.kernel_launch_latency_us - 1000.0).abs() < 1e-6);
    assert!(
        ops.windows(2).all(|w| w[1].start_us >= w[0].end_us),
        "one stream, in order"
    );
}

#[test]
fn host_work_advances_the_host_clock_only() {
    let mut gpu = sim();
    let t0 = gpu.host_now_us();
    gpu.host_busy_us(250.0);
    assert_eq!(gpu.host_now_us() - t0, 250.0);
    gpu.host_busy_us(-5.0);
    assert_eq!(gpu.host_now_us() - t0, 250.0, "negative work costs nothing");
}
