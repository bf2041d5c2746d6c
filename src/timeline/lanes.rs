//! Which row of the timeline each op goes on.
//!
//! The stream view has one lane per stream, labelled exactly `stream N` (a contract the lessons
//! and the end-to-end test read), plus a `host` lane for host API calls. The engine view, where the
//! backend knows which copy engine ran a copy, has one lane per copy engine (`copy engine N`), a
//! `compute` lane for kernels and the `host` lane. The host lane comes first, as in Nsight Systems:
//! the host issues work, the device rows below execute it.

use std::collections::BTreeMap;

use crate::report::{Op, OpKind};

/// Which lanes to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ViewMode {
    /// One lane per stream (plus host).
    #[default]
    Streams,
    /// One lane per copy engine plus `compute` (plus host); copies with no known engine go on a
    /// `copies` lane.
    Engines,
    /// Streams, then engines and compute (plus host).
    All,
}

impl ViewMode {
    /// The next mode in the cycle Streams -> Engines -> All -> Streams.
    pub fn next(self) -> Self {
        match self {
            ViewMode::Streams => ViewMode::Engines,
            ViewMode::Engines => ViewMode::All,
            ViewMode::All => ViewMode::Streams,
        }
    }
}

/// What a lane holds. The derived order is the display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LaneKey {
    /// Host API calls.
    Host,
    /// One CUDA stream.
    Stream(u32),
    /// One copy engine (CUPTI channel, or the simulator's engine).
    CopyEngine(u32),
    /// Copies whose engine is unknown (engine views only).
    Copies,
    /// Kernels (engine views only).
    Compute,
}

impl LaneKey {
    /// The lane's label: `host`, `stream N` (`stream 0 (default)` for the legacy default
    /// stream), `copy engine N`, `copies`, `compute`.
    pub fn label(self) -> String {
        match self {
            LaneKey::Host => "host".to_string(),
            LaneKey::Stream(0) => "stream 0 (default)".to_string(),
            LaneKey::Stream(n) => format!("stream {n}"),
            LaneKey::CopyEngine(n) => format!("copy engine {n}"),
            LaneKey::Copies => "copies".to_string(),
            LaneKey::Compute => "compute".to_string(),
        }
    }

    /// The label where [`Self::label`] does not fit its column: `stream 0` for the legacy
    /// default stream (a word cut off, `stream 0 (defaul`, reads as a mistake), else the label.
    pub fn short_label(self) -> String {
        match self {
            LaneKey::Stream(n) => format!("stream {n}"),
            other => other.label(),
        }
    }
}

/// One row: its key, its label and the indices (into the op slice) of its ops, by start time.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    pub key: LaneKey,
    pub label: String,
    pub ops: Vec<usize>,
}

/// The rows of one timeline in display order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lanes {
    pub lanes: Vec<Lane>,
}

impl Lanes {
    /// Puts each op of `ops` on its lane(s) for `mode`. In [`ViewMode::All`] a device op appears
    /// twice: on its stream and on its engine (or compute) lane.
    pub fn build(ops: &[Op], mode: ViewMode) -> Self {
        let mut map: BTreeMap<LaneKey, Vec<usize>> = BTreeMap::new();
        for (index, op) in ops.iter().enumerate() {
            for key in keys_for(op, mode).into_iter().flatten() {
                map.entry(key).or_default().push(index);
            }
        }
        let lanes = map
            .into_iter()
            .map(|(key, mut indices)| {
                indices.sort_by(|&a, &b| ops[a].start_us.total_cmp(&ops[b].start_us));
                Lane {
                    key,
                    label: key.label(),
                    ops: indices,
                }
            })
            .collect();
        Lanes { lanes }
    }

    /// Whether any op knows its copy engine, i.e. whether the engine views say more than
    /// "copies" and "compute".
    pub fn engines_known(ops: &[Op]) -> bool {
        ops.iter().any(|op| op.engine.is_some())
    }

    /// How many lanes (rows) there are.
    pub fn len(&self) -> usize {
        self.lanes.len()
    }

    /// Whether there is no lane (no ops).
    pub fn is_empty(&self) -> bool {
        self.lanes.is_empty()
    }

    /// The widest label, in characters.
    pub fn max_label_width(&self) -> usize {
        self.lanes
            .iter()
            .map(|lane| lane.label.chars().count())
            .max()
            .unwrap_or(0)
    }
}

/// The lanes an op goes on (at most two).
fn keys_for(op: &Op, mode: ViewMode) -> [Option<LaneKey>; 2] {
    if op.kind == OpKind::Host {
        return [Some(LaneKey::Host), None];
    }
    let stream = LaneKey::Stream(op.stream);
    let engine = match (op.kind, op.engine) {
        (OpKind::Kernel, _) => LaneKey::Compute,
        (_, Some(n)) => LaneKey::CopyEngine(n),
        (_, None) => LaneKey::Copies,
    };
    match mode {
        ViewMode::Streams => [Some(stream), None],
        ViewMode::Engines => [Some(engine), None],
        ViewMode::All => [Some(stream), Some(engine)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::sample::op;

    fn labels(lanes: &Lanes) -> Vec<&str> {
        lanes.lanes.iter().map(|l| l.label.as_str()).collect()
    }

    #[test]
    fn one_lane_per_stream_in_stream_order_plus_host() {
        let ops = vec![
            op(OpKind::H2d, 3, 0.0, 1.0),
            op(OpKind::Kernel, 1, 0.0, 1.0),
            op(OpKind::Host, 1, 0.0, 1.0),
            op(OpKind::D2h, 12, 0.0, 1.0),
            op(OpKind::D2h, 1, 2.0, 3.0),
        ];
        let lanes = Lanes::build(&ops, ViewMode::Streams);
        assert_eq!(
            labels(&lanes),
            ["host", "stream 1", "stream 3", "stream 12"]
        );
        assert_eq!(lanes.lanes[1].ops, vec![1, 4]);
    }

    #[test]
    fn default_stream_label_still_says_stream_0() {
        let lanes = Lanes::build(&[op(OpKind::Kernel, 0, 0.0, 1.0)], ViewMode::Streams);
        assert!(lanes.lanes[0].label.starts_with("stream 0"));
        assert!(lanes.lanes[0].label.len() > "stream 0".len());
        assert_eq!(lanes.lanes[0].key.short_label(), "stream 0");
        assert_eq!(LaneKey::Host.short_label(), "host");
    }

    #[test]
    fn engine_view_groups_copies_by_engine_and_kernels_on_compute() {
        let mut a = op(OpKind::H2d, 1, 0.0, 1.0);
        a.engine = Some(2);
        let mut b = op(OpKind::D2h, 2, 0.0, 1.0);
        b.engine = Some(1);
        let c = op(OpKind::Kernel, 1, 1.0, 2.0);
        let d = op(OpKind::H2d, 3, 1.0, 2.0);
        let ops = vec![a, b, c, d];
        assert!(Lanes::engines_known(&ops));
        let lanes = Lanes::build(&ops, ViewMode::Engines);
        assert_eq!(
            labels(&lanes),
            ["copy engine 1", "copy engine 2", "copies", "compute"]
        );
        let all = Lanes::build(&ops, ViewMode::All);
        assert_eq!(all.len(), 3 + 4);
    }

    #[test]
    fn lane_ops_are_in_start_order() {
        let ops = vec![op(OpKind::H2d, 1, 5.0, 6.0), op(OpKind::H2d, 1, 1.0, 2.0)];
        let lanes = Lanes::build(&ops, ViewMode::Streams);
        assert_eq!(lanes.lanes[0].ops, vec![1, 0]);
    }
}
