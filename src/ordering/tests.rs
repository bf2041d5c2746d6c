//! The model's rules, one test each, and the property both users rely on: the ops an op waits
//! for directly (the simulator's dependencies) imply exactly what it is ordered after (the
//! checker's clock).

use super::{LEGACY, Model, OpRef};

#[test]
fn one_stream_runs_in_issue_order() {
    let mut m = Model::new();
    m.create_stream(1, false);
    let a = m.issue(1).unwrap();
    let b = m.issue(1).unwrap();
    assert_eq!(b.direct, vec![a.op]);
    assert!(b.is_after(a.op) && !a.is_after(b.op));
}

#[test]
fn non_blocking_streams_are_unordered_with_each_other_and_the_legacy_stream() {
    let mut m = Model::new();
    m.create_stream(1, false);
    m.create_stream(2, false);
    let a = m.issue(1).unwrap();
    let b = m.issue(2).unwrap();
    let c = m.issue(LEGACY).unwrap();
    let d = m.issue(1).unwrap();
    assert!(!b.is_after(a.op));
    assert!(!c.is_after(a.op) && !c.is_after(b.op));
    assert!(!d.is_after(c.op));
}

#[test]
fn the_legacy_stream_is_a_barrier_with_blocking_streams() {
    let mut m = Model::new();
    m.create_stream(1, true);
    m.create_stream(2, false);
    let a = m.issue(1).unwrap();
    let free = m.issue(2).unwrap();
    let legacy = m.issue(LEGACY).unwrap();
    assert_eq!(legacy.direct, vec![a.op]);
    assert!(legacy.is_after(a.op) && !legacy.is_after(free.op));
    let next = m.issue(1).unwrap();
    assert_eq!(next.direct, vec![a.op, legacy.op]);
    assert!(next.is_after(legacy.op));
}

#[test]
fn a_blocking_stream_destroyed_while_busy_still_holds_the_legacy_stream() {
    let mut m = Model::new();
    m.create_stream(1, true);
    let a = m.issue(1).unwrap();
    m.destroy_stream(1).unwrap();
    assert!(m.issue(1).is_err(), "a destroyed stream takes no work");
    assert!(m.destroy_stream(1).is_err());
    let legacy = m.issue(LEGACY).unwrap();
    assert!(legacy.is_after(a.op));
    // Once the host knows it finished, it holds nothing.
    m.sync_device();
    let later = m.issue(LEGACY).unwrap();
    assert_eq!(later.direct, vec![legacy.op]);
    assert!(m.destroy_stream(LEGACY).is_err());
}

#[test]
fn syncing_the_legacy_stream_waits_for_blocking_streams() {
    let mut m = Model::new();
    m.create_stream(1, true);
    m.create_stream(2, false);
    let a = m.issue(1).unwrap();
    let b = m.issue(2).unwrap();
    let waited = m.sync_stream(LEGACY).unwrap();
    assert_eq!(waited, vec![a.op]);
    assert!(m.host_knows_done(a.op) && !m.host_knows_done(b.op));
}

#[test]
fn an_event_recorded_on_the_legacy_stream_captures_blocking_streams() {
    let mut m = Model::new();
    m.create_stream(1, true);
    m.create_event(9);
    let a = m.issue(1).unwrap();
    m.record(9, LEGACY).unwrap();
    m.sync_event(9).unwrap();
    assert!(m.host_knows_done(a.op));
}

#[test]
fn a_wait_orders_later_work_after_the_last_record_at_the_time_of_the_wait() {
    let mut m = Model::new();
    m.create_stream(1, false);
    m.create_stream(2, false);
    m.create_event(5);
    let early = m.wait_event(2, 5).unwrap();
    assert_eq!(
        early.direct,
        vec![],
        "a wait on an event never recorded orders nothing"
    );
    let up = m.issue(1).unwrap();
    let rec = m.record(5, 1).unwrap();
    m.wait_event(2, 5).unwrap();
    let kernel = m.issue(2).unwrap();
    assert!(kernel.is_after(up.op) && kernel.is_after(rec.op));
    // Re-recording later does not reach back to the earlier wait.
    let later = m.issue(1).unwrap();
    m.record(5, 1).unwrap();
    let kernel2 = m.issue(2).unwrap();
    assert!(!kernel2.is_after(later.op));
}

#[test]
fn only_waits_teach_the_host() {
    let mut m = Model::new();
    m.create_stream(1, false);
    m.create_event(3);
    let a = m.issue(1).unwrap();
    assert!(!m.host_knows_done(a.op));
    assert_eq!(m.query_stream(1).unwrap(), vec![a.op]);
    assert!(!m.host_knows_done(a.op), "asking is not learning");
    m.learn_stream(1).unwrap();
    assert!(m.host_knows_done(a.op));
    let b = m.issue(1).unwrap();
    m.learn_op(&b);
    assert!(m.host_knows_done(b.op));
    assert_eq!(m.sync_event(3).unwrap(), None);
}

/// The closure of the direct dependencies is the `after` clock, for random programs: what the
/// simulator schedules by is what the checker orders by.
#[test]
fn direct_dependencies_imply_exactly_the_after_clock() {
    use std::collections::HashMap;
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    for _ in 0..200 {
        let mut m = Model::new();
        for s in 1..=3 {
            m.create_stream(s, next(2) == 0);
        }
        for e in 1..=2 {
            m.create_event(e);
        }
        let mut closure: HashMap<OpRef, super::Clock> = HashMap::new();
        for _ in 0..30 {
            let stream = next(4) as u32;
            let issued = match next(6) {
                0 => m.record(1 + next(2) as u32, stream),
                1 => m.wait_event(stream, 1 + next(2) as u32),
                _ => m.issue(stream),
            };
            let Ok(issued) = issued else { continue };
            let mut c = super::Clock::default();
            for d in &issued.direct {
                c.cover(d.stream, d.seq);
                if let Some(dc) = closure.get(d) {
                    c.join(dc);
                }
            }
            assert_eq!(c, issued.after, "op {:?}", issued.op);
            let mut own = c.clone();
            own.cover(issued.op.stream, issued.op.seq);
            closure.insert(issued.op, own);
            if next(10) == 0 {
                m.sync_device();
            }
        }
    }
}

/// Review 2026-12-01b CK7: a wait looks only at destroyed streams still held, so creating and
/// destroying 100,000 streams costs O(n) looks, not one per live stream at every destroy.
#[test]
fn creating_and_destroying_many_streams_costs_linear_work() {
    let mut m = Model::new();
    let n = 100_000u32;
    for id in 1..=n {
        m.create_stream(id, true);
    }
    for id in 1..=n {
        assert!(m.destroy_stream(id).is_ok());
    }
    assert!(m.forget_looks() <= 2 * u64::from(n), "{}", m.forget_looks());
    // Each was forgotten (no work was queued): the next wait looks at none.
    let before = m.forget_looks();
    m.sync_device();
    assert_eq!(m.forget_looks(), before);
    // A destroyed stream with queued work is held until the host knows it finished, then
    // forgotten: the sync after that looks at nothing.
    m.create_stream(n + 1, true);
    assert!(m.issue(n + 1).is_ok());
    assert!(m.destroy_stream(n + 1).is_ok());
    let held = m.forget_looks();
    m.sync_device();
    assert_eq!(m.forget_looks(), held + 1, "held until the sync");
    m.sync_device();
    assert_eq!(m.forget_looks(), held + 1, "forgotten after it");
}

#[test]
fn the_barrier_accessor_keeps_a_destroyed_busy_stream_until_the_host_knows_it_done() {
    let mut m = Model::new();
    m.create_stream(1, true);
    m.create_stream(2, false);
    assert_eq!(m.legacy_barrier_streams().collect::<Vec<_>>(), vec![1]);
    m.issue(1).unwrap();
    m.destroy_stream(1).unwrap();
    // Destroyed while busy: the legacy stream still waits for it, and the accessor says so.
    assert_eq!(m.legacy_barrier_streams().collect::<Vec<_>>(), vec![1]);
    m.sync_device();
    assert_eq!(m.legacy_barrier_streams().count(), 0);
    // An idle blocking stream destroyed is gone at once.
    m.create_stream(3, true);
    m.destroy_stream(3).unwrap();
    assert_eq!(m.legacy_barrier_streams().count(), 0);
}

#[test]
fn the_per_thread_stream_is_a_blocking_stream_the_model_names() {
    let mut m = Model::new();
    assert_eq!(m.per_thread_stream(), None);
    m.create_per_thread_stream(7);
    assert_eq!(m.per_thread_stream(), Some(7));
    let a = m.issue(7).unwrap();
    assert!(m.issue(LEGACY).unwrap().is_after(a.op));
}
