//! What each cell of a lane shows when the visible window is cut into columns.
//!
//! Every op covers at least one cell (see [`TimeScale::bar_extent`]). When several ops share a
//! cell, the cell shows the dominant kind: the kind covering the most time in that cell, ties
//! going to the kind listed first in [`KIND_ORDER`]; the op it names is that kind's longest op in
//! the cell (the earliest on ties). The result never depends on the order ops are given in.

use crate::report::{Op, OpKind};
use crate::timeline::TimeScale;

/// Kinds in tie-breaking order (most interesting first).
pub const KIND_ORDER: [OpKind; 4] = [OpKind::Kernel, OpKind::H2d, OpKind::D2h, OpKind::Host];

/// The smallest time an op counts for in a cell it touches, so that an op far shorter than a
/// cell still claims a cell nobody else uses.
const MIN_COVER_US: f64 = 1e-9;

/// One cell of a lane.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LaneCell {
    /// The op the cell names (index into the op slice), `None` when empty.
    pub op: Option<usize>,
    /// The dominant kind.
    pub kind: Option<OpKind>,
    /// How many ops touch this cell.
    pub count: u32,
}

impl LaneCell {
    /// Whether more than one op falls into this cell.
    pub fn is_multiple(&self) -> bool {
        self.count > 1
    }
}

/// Per-cell running totals while laying a lane out.
#[derive(Clone, Copy, Default)]
struct Tally {
    cover: [f64; 4],
    best: [Option<(f64, usize)>; 4],
    count: u32,
}

fn kind_slot(kind: OpKind) -> usize {
    KIND_ORDER.iter().position(|k| *k == kind).unwrap_or(0)
}

/// Lays out the ops `lane` (indices into `ops`) over `scale.columns` cells.
pub fn layout_lane(ops: &[Op], lane: &[usize], scale: &TimeScale) -> Vec<LaneCell> {
    let columns = usize::from(scale.columns);
    let mut tallies = vec![Tally::default(); columns];
    for &index in lane {
        let Some(op) = ops.get(index) else { continue };
        let Some((first, last)) = scale.bar_extent(op.start_us, op.end_us) else {
            continue;
        };
        let slot = kind_slot(op.kind);
        for column in first..last {
            let cell_start = scale.time_of(column);
            let cell_end = cell_start + scale.us_per_column();
            let overlap = op.end_us.min(cell_end) - op.start_us.max(cell_start);
            let cover = overlap.max(MIN_COVER_US);
            let tally = &mut tallies[usize::from(column)];
            tally.cover[slot] += cover;
            tally.count += 1;
            let better = match tally.best[slot] {
                None => true,
                Some((c, i)) => cover > c || (cover == c && index < i),
            };
            if better {
                tally.best[slot] = Some((cover, index));
            }
        }
    }
    tallies.into_iter().map(resolve).collect()
}

fn resolve(tally: Tally) -> LaneCell {
    let mut winner: Option<usize> = None;
    for slot in 0..KIND_ORDER.len() {
        if tally.best[slot].is_none() {
            continue;
        }
        // Strictly greater: ties keep the earlier kind in KIND_ORDER.
        if winner.is_none_or(|w| tally.cover[slot] > tally.cover[w]) {
            winner = Some(slot);
        }
    }
    match winner {
        None => LaneCell::default(),
        Some(slot) => LaneCell {
            op: tally.best[slot].map(|(_, index)| index),
            kind: Some(KIND_ORDER[slot]),
            count: tally.count,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::sample::op;

    fn kinds(cells: &[LaneCell]) -> String {
        cells
            .iter()
            .map(|c| match c.kind {
                None => '.',
                Some(OpKind::H2d) => 'H',
                Some(OpKind::D2h) => 'D',
                Some(OpKind::Kernel) => 'K',
                Some(OpKind::Host) => 'h',
            })
            .collect()
    }

    #[test]
    fn bars_fill_their_cells() {
        let ops = vec![
            op(OpKind::H2d, 1, 0.0, 30.0),
            op(OpKind::Kernel, 1, 50.0, 80.0),
        ];
        let scale = TimeScale::fit_range(0.0, 100.0, 10);
        let cells = layout_lane(&ops, &[0, 1], &scale);
        assert_eq!(kinds(&cells), "HHH..KKK..");
        assert_eq!(cells[6].op, Some(1));
        assert_eq!(cells[0].count, 1);
    }

    #[test]
    fn an_op_shorter_than_a_cell_still_shows() {
        let ops = vec![op(OpKind::D2h, 1, 42.0, 42.001)];
        let scale = TimeScale::fit_range(0.0, 100.0, 10);
        assert_eq!(kinds(&layout_lane(&ops, &[0], &scale)), "....D.....");
    }

    #[test]
    fn the_kind_covering_most_time_wins_a_shared_cell() {
        // Cell 0 is 0..10 µs: H2D covers 3 µs, the kernel 7 µs.
        let ops = vec![
            op(OpKind::H2d, 1, 0.0, 3.0),
            op(OpKind::Kernel, 1, 3.0, 10.0),
        ];
        let scale = TimeScale::fit_range(0.0, 100.0, 10);
        let cells = layout_lane(&ops, &[0, 1], &scale);
        assert_eq!(cells[0].kind, Some(OpKind::Kernel));
        assert_eq!(cells[0].op, Some(1));
        assert!(cells[0].is_multiple());
    }

    #[test]
    fn many_small_ops_in_one_cell_sum_per_kind() {
        // Three 1 µs copies beat one 2 µs kernel in the same cell.
        let ops = vec![
            op(OpKind::H2d, 1, 0.0, 1.0),
            op(OpKind::H2d, 1, 1.0, 2.0),
            op(OpKind::H2d, 1, 2.0, 3.0),
            op(OpKind::Kernel, 1, 3.0, 5.0),
        ];
        let scale = TimeScale::fit_range(0.0, 100.0, 10);
        let cells = layout_lane(&ops, &[0, 1, 2, 3], &scale);
        assert_eq!(cells[0].kind, Some(OpKind::H2d));
        assert_eq!(cells[0].count, 4);
    }

    #[test]
    fn ties_are_broken_the_same_way_whatever_the_order() {
        let ops = vec![op(OpKind::D2h, 1, 0.0, 5.0), op(OpKind::H2d, 2, 5.0, 10.0)];
        let scale = TimeScale::fit_range(0.0, 100.0, 10);
        let a = layout_lane(&ops, &[0, 1], &scale);
        let b = layout_lane(&ops, &[1, 0], &scale);
        assert_eq!(a, b);
        assert_eq!(
            a[0].kind,
            Some(OpKind::H2d),
            "H2D comes before D2H in KIND_ORDER"
        );
    }
}
