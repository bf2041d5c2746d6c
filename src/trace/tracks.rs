//! Which trace track (thread) each op goes on, so that events on one track nest.
//!
//! Perfetto and chrome://tracing require complete events on one thread to nest: an event that
//! starts inside another must end inside it too. Ops on one stream never overlap, but a copy
//! engine or the host thread might show partial overlaps (measurement noise, several host
//! threads). Such an event moves to an overflow track (`stream N (overlap)`) instead of making
//! the trace invalid. Times are compared in whole nanoseconds, the unit the export writes, so
//! the check a reader makes on the written numbers agrees with the one made here.

use std::collections::BTreeMap;

use crate::report::{Op, OpKind};

/// What a track shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TrackKind {
    Host,
    Stream(u32),
    CopyEngine(u32),
}

impl TrackKind {
    /// `host`, `stream N`, `copy engine N`; overflow tracks add ` (overlap)` (and a number from
    /// the second one on).
    pub fn name(self, overflow: usize) -> String {
        let base = match self {
            TrackKind::Host => "host".to_string(),
            TrackKind::Stream(n) => format!("stream {n}"),
            TrackKind::CopyEngine(n) => format!("copy engine {n}"),
        };
        match overflow {
            0 => base,
            1 => format!("{base} (overlap)"),
            k => format!("{base} (overlap {k})"),
        }
    }
}

/// A track: which process, what it shows, and which overflow level (0 = the track itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TrackKey {
    pub pid: u32,
    pub kind: TrackKind,
    pub overflow: usize,
}

/// One event to place: the op it comes from and its times in whole nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub op: usize,
    pub start_ns: i64,
    pub end_ns: i64,
    pub track: TrackKey,
}

/// An op's index and its start and end in nanoseconds.
type Interval = (usize, i64, i64);

/// Microseconds to whole nanoseconds (non-finite values count as 0).
pub fn to_ns(us: f64) -> i64 {
    if us.is_finite() {
        (us * 1000.0).round() as i64
    } else {
        0
    }
}

/// The tracks an op belongs on before overflow: host ops on the host track; device ops on
/// their stream, and copies with a known engine on that engine's track as well.
fn kinds_for(op: &Op) -> Vec<TrackKind> {
    match (op.kind, op.engine) {
        (OpKind::Host, _) => vec![TrackKind::Host],
        (OpKind::H2d | OpKind::D2h, Some(engine)) => {
            vec![TrackKind::Stream(op.stream), TrackKind::CopyEngine(engine)]
        }
        _ => vec![TrackKind::Stream(op.stream)],
    }
}

/// Places every op of `ops` on its track(s) in processes `device_pid` / `host_pid`, moving
/// partial overlaps to overflow tracks. The result is sorted by track, then start.
pub fn place(ops: &[Op], device_pid: u32, host_pid: u32) -> Vec<Placed> {
    let mut by_track: BTreeMap<(u32, TrackKind), Vec<Interval>> = BTreeMap::new();
    for (index, op) in ops.iter().enumerate() {
        let pid = if op.kind == OpKind::Host {
            host_pid
        } else {
            device_pid
        };
        let start = to_ns(op.start_us);
        let end = to_ns(op.end_us).max(start);
        for kind in kinds_for(op) {
            by_track
                .entry((pid, kind))
                .or_default()
                .push((index, start, end));
        }
    }
    let mut placed = Vec::with_capacity(ops.len());
    for ((pid, kind), mut events) in by_track {
        // Outer events first: by start, longer first, then by op.
        events.sort_by_key(|&(index, start, end)| (start, std::cmp::Reverse(end), index));
        let mut levels: Vec<Vec<i64>> = Vec::new();
        for (op, start_ns, end_ns) in events {
            let overflow = nest_level(&mut levels, start_ns, end_ns);
            let track = TrackKey {
                pid,
                kind,
                overflow,
            };
            placed.push(Placed {
                op,
                start_ns,
                end_ns,
                track,
            });
        }
    }
    placed.sort_by_key(|p| (p.track, p.start_ns, std::cmp::Reverse(p.end_ns), p.op));
    placed
}

/// The first level on which `start..end` nests, given each level's stack of open ends
/// (events arrive by start); pushes it there.
fn nest_level(levels: &mut Vec<Vec<i64>>, start: i64, end: i64) -> usize {
    for (level, stack) in levels.iter_mut().enumerate() {
        while stack.last().is_some_and(|&open_end| open_end <= start) {
            stack.pop();
        }
        if stack.last().is_none_or(|&open_end| end <= open_end) {
            stack.push(end);
            return level;
        }
    }
    levels.push(vec![end]);
    levels.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::sample::op;

    fn levels_of(ops: &[Op]) -> Vec<(usize, usize)> {
        let mut v: Vec<(usize, usize)> = place(ops, 1, 2)
            .into_iter()
            .map(|p| (p.op, p.track.overflow))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn sequential_and_nested_events_stay_on_one_track() {
        let ops = vec![
            op(OpKind::Host, 1, 0.0, 10.0),
            op(OpKind::Host, 1, 2.0, 5.0),
            op(OpKind::Host, 1, 10.0, 12.0),
        ];
        assert_eq!(levels_of(&ops), [(0, 0), (1, 0), (2, 0)]);
    }

    #[test]
    fn partial_overlaps_move_to_an_overflow_track() {
        let ops = vec![
            op(OpKind::Host, 1, 0.0, 10.0),
            op(OpKind::Host, 1, 5.0, 15.0),
            op(OpKind::Host, 1, 6.0, 16.0),
            op(OpKind::Host, 1, 20.0, 30.0),
        ];
        assert_eq!(levels_of(&ops), [(0, 0), (1, 1), (2, 2), (3, 0)]);
    }

    #[test]
    fn copies_with_an_engine_also_go_on_the_engine_track() {
        let mut copy = op(OpKind::H2d, 2, 0.0, 1.0);
        copy.engine = Some(1);
        let placed = place(&[copy], 1, 2);
        let kinds: Vec<TrackKind> = placed.iter().map(|p| p.track.kind).collect();
        assert_eq!(kinds, [TrackKind::Stream(2), TrackKind::CopyEngine(1)]);
    }

    #[test]
    fn names_say_overlap() {
        assert_eq!(TrackKind::Stream(3).name(0), "stream 3");
        assert_eq!(TrackKind::Stream(3).name(1), "stream 3 (overlap)");
        assert_eq!(
            TrackKind::CopyEngine(1).name(2),
            "copy engine 1 (overlap 2)"
        );
    }
}
