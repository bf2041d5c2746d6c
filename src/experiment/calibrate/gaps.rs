//! The idle time between consecutive copies of one direction, read from a recorded pipeline
//! timeline (CUPTI start and end times, with the copy engine of each copy).
//!
//! Only gaps where the next copy was ready are counted: its own stream's previous op (unless that
//! is the previous copy itself) ended at least [`READY_MARGIN_US`] before the previous copy of
//! the direction did, so the gap is the
//! device's time between two copies, not a wait for a kernel or an upload. Each gap is sorted by
//! whether the two copies ran on the same copy engine and whether a copy of the *other*
//! direction was flowing when the first one ended.
//!
//! On the H200 (`tests/fixtures/h200-live-2026-12-01*`, 2026-12-01) this separates two causes
//! that the engine-switch reading of the pipeline mixes up: downloads start about 7.4 us after
//! the previous download while an upload flows, on the same engine or another, and 1.3 us (same
//! engine) or 1.8 us (another engine) after it when none does; uploads start 2-2.5 us apart
//! either way.
//!
//! These are gaps of recorded runs, and recording widens them: CUPTI's copy records cost each
//! copy 1.4-3.5 us of device time on the H200 (BENCHMARKS.md, "Where recording costs"). So
//! `calibrate` does not take the download toll from here; it fits it to host-timed runs
//! ([`super::pacing`]). Readiness is judged by the stream's previous op only, so a by-stage
//! timeline, whose downloads wait for another stream's event, is not one to read gaps from.

use crate::report::{Op, OpKind};

/// How long before the previous copy's end the next copy's stream must have been free.
pub const READY_MARGIN_US: f64 = 5.0;

/// The gaps (µs) of one direction, by what surrounded them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Gaps {
    /// The other direction was flowing; same copy engine, then another engine.
    pub under_other: [Vec<f64>; 2],
    /// The other direction was idle; same copy engine, then another engine.
    pub alone: [Vec<f64>; 2],
}

impl Gaps {
    /// Add `other`'s gaps to these.
    pub fn extend(&mut self, other: Gaps) {
        for (a, b) in self
            .under_other
            .iter_mut()
            .chain(self.alone.iter_mut())
            .zip(other.under_other.into_iter().chain(other.alone))
        {
            a.extend(b);
        }
    }

    /// Every gap while the other direction flowed, whatever the engines.
    pub fn all_under_other(&self) -> Vec<f64> {
        self.under_other.concat()
    }

    /// Every gap while the other direction was idle.
    pub fn all_alone(&self) -> Vec<f64> {
        self.alone.concat()
    }
}

/// The gaps between consecutive `dir` copies of `ops` (see the module docs).
pub fn gaps(ops: &[Op], dir: OpKind) -> Gaps {
    let mut device: Vec<&Op> = ops.iter().filter(|o| o.kind != OpKind::Host).collect();
    device.sort_by(|a, b| a.start_us.total_cmp(&b.start_us));
    let other = if dir == OpKind::D2h {
        OpKind::H2d
    } else {
        OpKind::D2h
    };
    let copies: Vec<(usize, &Op)> = device
        .iter()
        .enumerate()
        .filter(|(_, o)| o.kind == dir)
        .map(|(i, o)| (i, *o))
        .collect();
    let mut out = Gaps::default();
    for pair in copies.windows(2) {
        let [(_, prev), (at, next)] = pair else {
            continue;
        };
        let before = device[..*at].iter().rev().find(|o| o.stream == next.stream);
        // Waiting for its own stream's previous op (unless that op is `prev`: back to back).
        let waited = before
            .is_some_and(|b| !std::ptr::eq(*b, *prev) && b.end_us > prev.end_us - READY_MARGIN_US);
        if waited {
            continue;
        }
        let flowing = device
            .iter()
            .any(|o| o.kind == other && o.start_us < prev.end_us && prev.end_us < o.end_us);
        let engine = usize::from(prev.engine != next.engine);
        let gap = next.start_us - prev.end_us;
        if flowing {
            out.under_other[engine].push(gap);
        } else {
            out.alone[engine].push(gap);
        }
    }
    out
}

/// The median of `v` (`None` when empty).
pub fn median(v: &[f64]) -> Option<f64> {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        n if n % 2 == 1 => Some(v[n / 2]),
        n => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(kind: OpKind, stream: u32, engine: u32, start_us: f64, end_us: f64) -> Op {
        Op {
            stream,
            kind,
            start_us,
            end_us,
            bytes: 1,
            host_mem: None,
            engine: Some(engine),
            start_inferred: false,
            line: None,
            label: String::new(),
        }
    }

    #[test]
    fn gaps_are_sorted_by_engine_and_by_the_other_direction() {
        let ops = [
            op(OpKind::D2h, 1, 12, 0.0, 100.0),
            op(OpKind::H2d, 3, 8, 50.0, 150.0), // flowing when the first download ends
            op(OpKind::D2h, 2, 13, 107.0, 200.0),
            op(OpKind::D2h, 2, 13, 201.5, 300.0), // same engine, nothing flowing
            op(OpKind::Kernel, 1, 0, 250.0, 299.0),
            op(OpKind::D2h, 1, 12, 302.0, 400.0), // its kernel ended 1 us before: not ready
        ];
        let g = gaps(&ops, OpKind::D2h);
        assert_eq!(g.under_other, [vec![], vec![7.0]]);
        assert_eq!(g.alone, [vec![1.5], vec![]]);
        assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }
}
