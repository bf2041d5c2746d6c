//! The event pairs a program timed (each `cudaEventElapsedTime` of two events recorded on one
//! stream), and the copies each brackets, indexed once per criterion: the copies of one
//! kind, per stream (and all together, for a pair on the legacy default stream, which waits
//! for all), with prefix sums of their bytes and a segment tree of their timeline spans. A pair
//! then costs two binary searches and a tree query, O(log n), instead of a walk over every op
//! (review 2026-12-01b CK5: 250,000 reads of one pair around 98,990 copies walked 2.5e10 ops
//! and collected them into a new `Vec` each time, 24.5 minutes and 13 GB).

use std::collections::HashMap;

use super::facts::{DevOp, Direction, Memory};
use super::poll::Poll;
use crate::exercise::interp::Outcome;
use crate::exercise::log::Call;
use crate::gpu::{EventId, StreamId};

/// One `cudaEventElapsedTime` the program read of two events recorded on one stream, the first
/// before the second: log indices of the two records, the stream, and the line of the read.
/// Which copies it brackets: [`Bracketed::inside`].
#[derive(Debug, Clone, Copy)]
pub(super) struct TimedPair {
    pub start: usize,
    pub end: usize,
    pub stream: StreamId,
    pub line: u32,
}

/// Every [`TimedPair`] of the run, in the order the program read them: one walk over the log.
pub(super) fn timed_pairs(out: &Outcome, poll: &Poll) -> Result<Vec<TimedPair>, String> {
    let mut recorded: HashMap<EventId, (usize, StreamId)> = HashMap::new();
    let mut pairs = Vec::new();
    for (i, e) in out.log.iter().enumerate() {
        poll.tick()?;
        match &e.call {
            Call::EventRecord { event, stream } => {
                recorded.insert(*event, (i, *stream));
            }
            Call::EventElapsed { start, end } => {
                if let (Some(&(a, sa)), Some(&(b, sb))) = (recorded.get(start), recorded.get(end))
                    && sa == sb
                    && a < b
                {
                    pairs.push(TimedPair {
                        start: a,
                        end: b,
                        stream: sa,
                        line: e.line,
                    });
                }
            }
            Call::Alloc { .. }
            | Call::Free { .. }
            | Call::Register { .. }
            | Call::Unregister { .. }
            | Call::StreamCreate { .. }
            | Call::StreamDestroy { .. }
            | Call::PerThreadStream { .. }
            | Call::EventCreate { .. }
            | Call::EventDestroy { .. }
            | Call::Device(_)
            | Call::StreamWaitEvent { .. }
            | Call::StreamSync { .. }
            | Call::StreamQuery { .. }
            | Call::EventQuery { .. }
            | Call::EventSync { .. }
            | Call::DeviceSync
            | Call::HostRead { .. }
            | Call::HostWrite { .. }
            | Call::HostFuncRan { .. }
            | Call::Exit { .. } => {}
        }
    }
    Ok(pairs)
}

/// What a pair brackets: how many copies, their bytes, and their span on the timeline (`None`
/// when none of them was recorded there).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Inside {
    pub count: usize,
    pub bytes: u64,
    pub span: Option<(f64, f64)>,
}

/// The copies going one way (from one kind of memory, when given), indexed for pair queries.
pub(super) struct Bracketed {
    all: Lane,
    by_stream: HashMap<StreamId, Lane>,
}

impl Bracketed {
    /// Index the copies of `ops` going `dir` (from `mem`, when given): one walk.
    pub fn new(ops: &[DevOp<'_>], dir: Direction, mem: Option<Memory>) -> Bracketed {
        let mut all = Lane::default();
        let mut by_stream: HashMap<StreamId, Lane> = HashMap::new();
        for o in ops.iter().filter(|o| o.is_copy(dir, mem)) {
            let span = o.timed.map(|t| (t.start_us, t.end_us));
            all.push(o.idx, o.bytes(), span);
            by_stream
                .entry(o.op.stream)
                .or_default()
                .push(o.idx, o.bytes(), span);
        }
        all.build();
        for lane in by_stream.values_mut() {
            lane.build();
        }
        Bracketed { all, by_stream }
    }

    /// The copies issued between `p`'s two records on its stream (any stream for a pair on
    /// the legacy default stream).
    pub fn inside(&self, p: &TimedPair) -> Inside {
        let lane = if p.stream == StreamId::LEGACY_DEFAULT {
            Some(&self.all)
        } else {
            self.by_stream.get(&p.stream)
        };
        lane.map_or(
            Inside {
                count: 0,
                bytes: 0,
                span: None,
            },
            |l| l.between(p.start, p.end),
        )
    }
}

/// The copies of one stream (or all), in issue order.
#[derive(Default)]
struct Lane {
    /// Log indices, increasing.
    idx: Vec<usize>,
    /// `bytes[i]`: the bytes of the first `i` copies.
    bytes: Vec<u64>,
    /// A bottom-up segment tree over the copies' spans: leaves at `n..2n`.
    tree: Vec<Option<(f64, f64)>>,
}

impl Lane {
    fn push(&mut self, idx: usize, bytes: u64, span: Option<(f64, f64)>) {
        if self.bytes.is_empty() {
            self.bytes.push(0);
        }
        let total = self.bytes.last().copied().unwrap_or(0);
        self.idx.push(idx);
        self.bytes.push(total.saturating_add(bytes));
        self.tree.push(span);
    }

    /// Turn the pushed leaves into the tree.
    fn build(&mut self) {
        let n = self.tree.len();
        let mut tree = vec![None; n];
        tree.append(&mut self.tree);
        for i in (1..n).rev() {
            tree[i] = join(tree[2 * i], tree[2 * i + 1]);
        }
        self.tree = tree;
    }

    /// The copies with a log index strictly between `start` and `end`.
    fn between(&self, start: usize, end: usize) -> Inside {
        let lo = self.idx.partition_point(|&i| i <= start);
        let hi = self.idx.partition_point(|&i| i < end).max(lo);
        let bytes = match (self.bytes.get(hi), self.bytes.get(lo)) {
            (Some(h), Some(l)) => h - l,
            _ => 0,
        };
        Inside {
            count: hi - lo,
            bytes,
            span: self.span(lo, hi),
        }
    }

    /// The span of the copies `lo..hi`.
    fn span(&self, lo: usize, hi: usize) -> Option<(f64, f64)> {
        let n = self.idx.len();
        let (mut l, mut r) = (lo + n, hi + n);
        let mut acc = None;
        while l < r {
            if l % 2 == 1 {
                acc = join(acc, self.tree.get(l).copied().flatten());
                l += 1;
            }
            if r % 2 == 1 {
                r -= 1;
                acc = join(acc, self.tree.get(r).copied().flatten());
            }
            l /= 2;
            r /= 2;
        }
        acc
    }
}

/// The span covering both.
fn join(a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> Option<(f64, f64)> {
    match (a, b) {
        (Some((s1, e1)), Some((s2, e2))) => Some((s1.min(s2), e1.max(e2))),
        (x, None) | (None, x) => x,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy: its log index, bytes and span.
    type Item = (usize, u64, Option<(f64, f64)>);

    fn lane(items: &[Item]) -> Lane {
        let mut l = Lane::default();
        for &(i, b, s) in items {
            l.push(i, b, s);
        }
        l.build();
        l
    }

    /// Every range of a lane agrees with a plain walk over it.
    #[test]
    fn a_range_query_agrees_with_a_walk() {
        let items: Vec<Item> = (0..37)
            .map(|k| {
                let span = (k % 5 != 0).then(|| (k as f64 * 3.0 % 17.0, 20.0 + k as f64 % 7.0));
                (2 * k + 1, k as u64 * 10, span)
            })
            .collect();
        let l = lane(&items);
        for start in 0..80 {
            for end in start..80 {
                let walk: Vec<_> = items
                    .iter()
                    .filter(|(i, _, _)| *i > start && *i < end)
                    .collect();
                let want = Inside {
                    count: walk.len(),
                    bytes: walk.iter().map(|w| w.1).sum(),
                    span: walk.iter().fold(None, |a, w| join(a, w.2)),
                };
                assert_eq!(l.between(start, end), want, "{start}..{end}");
            }
        }
        assert_eq!(lane(&[]).between(0, 10).count, 0);
    }
}
