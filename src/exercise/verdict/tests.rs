//! Grading's cost and its stop, on call logs built here (review 2026-12-01b CK5, ED6): bounded by
//! counts of the work grading does (`Poll` ticks), never by time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::facts::{self, Direction, Memory};
use super::poll::Poll;
use super::{behaviour, repeats, timed};
use crate::exercise::calls::CallId;
use crate::exercise::halt::Halt;
use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, DeviceOp, DeviceOpKind, Entry, MemKind, Range, RegionId};
use crate::gpu::{EventId, StreamId};
use crate::report::{Op, OpKind};

const HOST: RegionId = RegionId(0);
const DEV: RegionId = RegionId(1);

fn entry(line: u32, call: Call) -> Entry {
    Entry { line, call }
}

fn copy(stream: StreamId, bytes: u64) -> Call {
    let mut op = DeviceOp::queued(
        stream,
        DeviceOpKind::CopyH2D,
        "cudaMemcpyAsync".into(),
        vec![Range {
            region: HOST,
            start: 0,
            end: bytes,
        }],
        vec![Range {
            region: DEV,
            start: 0,
            end: bytes,
        }],
    );
    op.pageable_async = false;
    Call::Device(op)
}

/// CK5's run: a 2 MiB copy, event `a`, `copies` copies of 4 bytes, event `b`, and `reads`
/// reads of the pair's elapsed time; `upload_gbps` reported as what the copies measured.
fn ck5(copies: usize, reads: usize) -> Outcome {
    let s = StreamId::LEGACY_DEFAULT;
    let (a, b) = (EventId(1), EventId(2));
    let mut log = vec![
        entry(
            5,
            Call::Alloc {
                region: HOST,
                kind: MemKind::Pinned,
                bytes: 4 << 20,
                call: CallId::CudaMallocHost,
            },
        ),
        entry(
            7,
            Call::Alloc {
                region: DEV,
                kind: MemKind::Device,
                bytes: 4 << 20,
                call: CallId::CudaMalloc,
            },
        ),
        entry(8, copy(s, 2 << 20)),
        entry(
            12,
            Call::EventRecord {
                event: a,
                stream: s,
            },
        ),
    ];
    let mut timeline = vec![Op {
        stream: 0,
        kind: OpKind::H2d,
        start_us: 0.0,
        end_us: 100.0,
        bytes: 2 << 20,
        host_mem: None,
        engine: None,
        start_inferred: false,
        line: Some(8),
        label: String::new(),
    }];
    for i in 0..copies {
        log.push(entry(13, copy(s, 4)));
        timeline.push(Op {
            start_us: 100.0 + i as f64,
            end_us: 101.0 + i as f64,
            bytes: 4,
            line: Some(13),
            ..timeline[0].clone()
        });
    }
    log.push(entry(
        14,
        Call::EventRecord {
            event: b,
            stream: s,
        },
    ));
    for _ in 0..reads {
        log.push(entry(17, Call::EventElapsed { start: a, end: b }));
    }
    let mut out = Outcome {
        log,
        timeline,
        ..Outcome::default()
    };
    // Bytes over the copies' span, in GB/s: what an honest program reports.
    let gbps = (copies as f64 * 4.0) / (copies as f64 * 1e3);
    out.metrics.insert("upload_gbps".into(), gbps);
    out
}

fn timed_copies(out: &Outcome, poll: &Poll) -> Result<String, String> {
    let ops = facts::device_ops(out);
    timed::events_time_copies(
        out,
        &ops,
        "upload_gbps",
        timed::Copies {
            dir: Direction::H2d,
            mem: Memory::Pinned,
            min_bytes: 1,
            every_copy: false,
        },
        5.0,
        poll,
    )
}

/// CK5: 98,990 copies inside one pair read 250,000 times cost one look per log entry and per
/// read, not one walk over the copies per read (2.5e10 under the old `TimedPair::copies`).
#[test]
fn grading_a_pair_read_many_times_costs_one_walk() {
    let never = AtomicBool::new(false);
    let out = ck5(98_990, 250_000);
    let poll = Poll::new(Halt::new(&never, Duration::from_secs(3600)));
    let verdict = timed_copies(&out, &poll);
    assert!(verdict.is_ok(), "{verdict:?}");
    let entries = out.log.len() as u64;
    // The log walk, then at most one query per read (here the last pair is the one).
    assert!(poll.ticks() <= entries + 250_000, "{} ticks", poll.ticks());
    assert!(
        poll.ticks() >= entries,
        "the log was walked: {}",
        poll.ticks()
    );
}

/// The median criterion and the other-memory message take as few: one query per pair.
#[test]
fn the_median_and_the_other_memory_check_query_each_pair_once() {
    let never = AtomicBool::new(false);
    let out = ck5(10_000, 50_000);
    let ops = facts::device_ops(&out);
    let entries = out.log.len() as u64;
    let poll = Poll::new(Halt::new(&never, Duration::from_secs(3600)));
    let t = repeats::Timed {
        direction: Direction::H2d,
        memory: Memory::Pinned,
        min_bytes: 1,
        count: 1,
    };
    let r = repeats::median_of_timed_copies(&out, &ops, "upload_gbps", t, 5.0, &poll);
    assert!(r.is_ok(), "one pair, after the warm-up: {r:?}");
    assert!(poll.ticks() <= entries + 50_000, "{} ticks", poll.ticks());
    // Pageable wanted, pinned timed: "your events time … copies, but none from pageable".
    let poll = Poll::new(Halt::new(&never, Duration::from_secs(3600)));
    let r = timed::events_time_copies(
        &out,
        &ops,
        "upload_gbps",
        timed::Copies {
            dir: Direction::H2d,
            mem: Memory::Pageable,
            min_bytes: 1,
            every_copy: false,
        },
        5.0,
        &poll,
    );
    let err = r.err().unwrap_or_default();
    assert!(err.contains("but none from pageable"), "{err}");
    assert!(
        poll.ticks() <= entries + 2 * 50_000,
        "{} ticks",
        poll.ticks()
    );
}

/// ED6: a set cancel flag stops grading at its next look, with the stop's message, and
/// `Poll::stopped` says why.
#[test]
fn a_set_cancel_flag_stops_grading() {
    let cancel = AtomicBool::new(false);
    let out = ck5(1_000, 100_000);
    let poll = Poll::new(Halt::new(&cancel, Duration::from_secs(3600)));
    cancel.store(true, Ordering::Relaxed);
    let r = timed_copies(&out, &poll);
    assert_eq!(r, Err(crate::exercise::halt::CANCELLED.to_string()));
    assert_eq!(
        poll.stopped(),
        Some(crate::exercise::halt::Halted::Cancelled)
    );
    assert!(
        poll.ticks() <= super::poll::POLL_EVERY,
        "stopped at the first look: {} ticks",
        poll.ticks()
    );
    // The wall-clock limit stops it the same way.
    let never = AtomicBool::new(false);
    let late = Poll::new(Halt::new(&never, Duration::ZERO));
    let r = timed_copies(&out, &late);
    assert!(r.is_err_and(|m| m.contains("wall-clock limit")));
}

/// The other log walks: a registration looked up once per buffer, and reuses freed per stream.
#[test]
fn registrations_and_reuses_are_one_walk_over_the_log() {
    let never = AtomicBool::new(false);
    let mut out = ck5(20_000, 0);
    for _ in 0..20_000 {
        out.log.push(entry(20, Call::DeviceSync));
    }
    let ops = facts::device_ops(&out);
    let entries = out.log.len() as u64;
    let poll = Poll::new(Halt::new(&never, Duration::from_secs(3600)));
    let r = behaviour::call_on_copied_buffer(&out, &ops, "cudaHostRegister", Direction::H2d, &poll);
    assert!(r.is_err(), "{r:?}");
    assert!(
        poll.ticks() <= entries + ops.len() as u64,
        "{}",
        poll.ticks()
    );
    let poll = Poll::new(Halt::new(&never, Duration::from_secs(3600)));
    let r = behaviour::reuse_after_event(&out, &ops, 1, &poll);
    assert!(r.is_err(), "{r:?}");
    assert!(poll.ticks() <= entries, "{}", poll.ticks());
}
