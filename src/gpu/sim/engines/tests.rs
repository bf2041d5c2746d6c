//! The device model alone: exact event times for small scenarios worked out by hand.

use super::{DevOp, Device, OpId, Work};
use crate::gpu::sim::costs::Dir;
use crate::report::OpKind;

fn copy(dir: Dir, bytes: u64, latency_us: f64, bytes_per_us: f64, deps: Vec<OpId>) -> DevOp {
    DevOp {
        stream: 1,
        kind: if dir == Dir::H2d {
            OpKind::H2d
        } else {
            OpKind::D2h
        },
        bytes,
        host_mem: None,
        label: "copy",
        work: Work::Copy {
            dir,
            latency_us,
            bytes_per_us,
        },
        deps,
        record: true,
        pacing: Default::default(),
        line: None,
    }
}

fn kernel(duration_us: f64, deps: Vec<OpId>) -> DevOp {
    DevOp {
        stream: 2,
        kind: OpKind::Kernel,
        bytes: 0,
        host_mem: None,
        label: "kernel",
        work: Work::Kernel { duration_us },
        deps,
        record: true,
        pacing: Default::default(),
        line: None,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

#[test]
fn a_lone_copy_takes_latency_plus_bytes_over_rate() {
    let mut d = Device::new(2, 100.0);
    let id = d.issue(copy(Dir::H2d, 1000, 3.0, 50.0, vec![]));
    let end = d.wait_for(&[id]).unwrap().unwrap();
    assert!(close(end, 3.0 + 1000.0 / 50.0), "{end}");
}

#[test]
fn opposite_copies_share_the_bidirectional_limit() {
    // Rates 60 and 40 (sum 100) against a limit of 80: both scaled by 0.8 until the faster ends.
    let mut d = Device::new(2, 80.0);
    let up = d.issue(copy(Dir::H2d, 1200, 1.0, 60.0, vec![]));
    let down = d.issue(copy(Dir::D2h, 1200, 1.0, 40.0, vec![]));
    d.wait_idle().unwrap();
    let ops = d.take_recorded();
    let end = |id: OpId| ops.iter().find(|(i, _)| *i == id).unwrap().1.end_us;
    let up_end = 1.0 + 1200.0 / 48.0; // 26
    let down_left = 1200.0 - 32.0 * (up_end - 1.0); // 400 bytes after the H2D ends
    assert!(close(end(up), up_end), "{}", end(up));
    assert!(close(end(down), up_end + down_left / 40.0), "{}", end(down));
}

#[test]
fn copies_under_the_limit_are_not_slowed() {
    let mut d = Device::new(2, 200.0);
    d.issue(copy(Dir::H2d, 1000, 0.0, 50.0, vec![]));
    d.issue(copy(Dir::D2h, 1000, 0.0, 50.0, vec![]));
    assert!(close(d.wait_idle().unwrap(), 20.0));
}

#[test]
fn one_copy_engine_serialises_both_directions() {
    let mut d = Device::new(1, 200.0);
    d.issue(copy(Dir::H2d, 1000, 0.0, 50.0, vec![]));
    d.issue(copy(Dir::D2h, 1000, 0.0, 50.0, vec![]));
    assert!(close(d.wait_idle().unwrap(), 40.0));
    let ops = d.take_recorded();
    assert!(ops.iter().all(|(_, op)| op.engine == Some(0)));
}

#[test]
fn an_op_starts_when_its_dependency_ends() {
    let mut d = Device::new(2, 100.0);
    let k = d.issue(kernel(7.0, vec![]));
    let c = d.issue(copy(Dir::H2d, 100, 0.0, 10.0, vec![k]));
    d.wait_idle().unwrap();
    let ops = d.take_recorded();
    let copy = &ops.iter().find(|(i, _)| *i == c).unwrap().1;
    assert!(
        close(copy.start_us, 7.0) && close(copy.end_us, 17.0),
        "{copy:?}"
    );
    assert_eq!(ops.iter().find(|(i, _)| *i == k).unwrap().1.engine, None);
}

#[test]
fn a_ready_copy_passes_one_still_waiting_on_its_stream() {
    let mut d = Device::new(2, 100.0);
    let k = d.issue(kernel(50.0, vec![]));
    let blocked = d.issue(copy(Dir::H2d, 100, 0.0, 10.0, vec![k]));
    // Another stream's: ops of one stream always wait for each other (the ordering model makes
    // each depend on its predecessor), which `Engine::heads` relies on.
    let free = d.issue(DevOp {
        stream: 3,
        ..copy(Dir::H2d, 100, 0.0, 10.0, vec![])
    });
    d.wait_idle().unwrap();
    let ops = d.take_recorded();
    let start = |id: OpId| ops.iter().find(|(i, _)| *i == id).unwrap().1.start_us;
    assert!(close(start(free), 0.0));
    assert!(close(start(blocked), 50.0));
}

#[test]
fn advancing_never_runs_past_the_limit() {
    let mut d = Device::new(2, 100.0);
    let id = d.issue(copy(Dir::H2d, 1000, 0.0, 10.0, vec![]));
    d.advance_to(40.0).unwrap();
    assert!(!d.is_done(id));
    d.advance_to(100.0).unwrap();
    assert!(d.is_done(id));
}

#[test]
fn an_engine_keeps_serving_the_stream_it_served_last() {
    // Issued: A1 (stream 1), B1 (stream 2), A2 (stream 1, after A1). Once A1 ends the engine
    // stays on stream 1 for A2, though B1 was issued earlier.
    let mut d = Device::new(2, 100.0);
    let a1 = d.issue(copy(Dir::H2d, 100, 0.0, 10.0, vec![]));
    let mut b1 = copy(Dir::H2d, 100, 0.0, 10.0, vec![]);
    b1.stream = 2;
    let b1 = d.issue(b1);
    let a2 = d.issue(copy(Dir::H2d, 100, 0.0, 10.0, vec![a1]));
    d.wait_idle().unwrap();
    let ops = d.take_recorded();
    let start = |id: OpId| ops.iter().find(|(i, _)| *i == id).unwrap().1.start_us;
    assert!(close(start(a2), 10.0), "{}", start(a2));
    assert!(close(start(b1), 20.0), "{}", start(b1));
}

#[test]
fn a_download_pays_the_upload_toll_only_after_another_streams_download() {
    // An upload flows throughout (1000 us); two 10 us downloads follow each other. The toll
    // (5 us) is paid by a download whose engine last ran another stream's op, not by one that
    // follows its own stream's download (one stream of downloads: the by-stage layout).
    let start_of_second = |second_stream: u32| {
        let mut d = Device::new(2, 100.0);
        d.issue(copy(Dir::H2d, 10_000, 0.0, 10.0, vec![]));
        let down = |stream: u32| {
            let mut op = copy(Dir::D2h, 100, 0.0, 10.0, vec![]);
            op.stream = stream;
            op.pacing.under_upload_us = 5.0;
            op
        };
        d.issue(down(3));
        let second = d.issue(down(second_stream));
        d.wait_idle().unwrap();
        let ops = d.take_recorded();
        ops.iter().find(|(i, _)| *i == second).unwrap().1.start_us
    };
    let same = start_of_second(3);
    let other = start_of_second(4);
    assert!(close(same, 10.0), "same stream: {same}");
    assert!(close(other, 15.0), "another stream: {other}");
}
