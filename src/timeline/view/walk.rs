//! Selecting ops with `[` and `]`: one walk, in time order, over the compared run's ops (drawn
//! above) and then this run's; the selected op stays visible (the window pans to it).

use super::TimelineView;
use crate::report::Op;
use crate::timeline::select::{OpDetails, time_order};

/// An op of one of the two runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpRef {
    /// In the previous (comparison) run rather than this one.
    pub in_previous: bool,
    /// Index into that run's ops.
    pub index: usize,
}

/// This run's ops, then the previous run's above them, as one walk: the previous first.
pub(super) fn walk_order(run: &[Op], previous: Option<&[Op]>) -> Vec<OpRef> {
    let refs = |ops: &[Op], in_previous: bool| -> Vec<OpRef> {
        time_order(ops)
            .into_iter()
            .map(|index| OpRef { in_previous, index })
            .collect()
    };
    let mut out = previous.map_or_else(Vec::new, |p| refs(p, true));
    out.extend(refs(run, false));
    out
}

impl TimelineView {
    /// Rebuilds the walk over both runs, keeping the selected op selected.
    pub(super) fn reorder(&mut self) {
        let kept = self.selected_ref();
        let previous = self.previous.as_ref().map(|p| p.ops.as_slice());
        self.order = walk_order(&self.run.ops, previous);
        self.selected = kept.and_then(|r| self.order.iter().position(|o| *o == r));
    }

    /// `]`: select the next op in time order (across lanes, and from the compared run above
    /// into this run); with nothing selected, this run's first op starting inside the window.
    /// Pans to keep it visible.
    pub fn select_next(&mut self) {
        let next = match self.selected {
            Some(position) => (position + 1).min(self.order.len().saturating_sub(1)),
            None => {
                let start = self.scale.start_us;
                let first_here = self.order.iter().position(|r| !r.in_previous);
                self.order
                    .iter()
                    .position(|r| !r.in_previous && self.op(*r).start_us >= start)
                    .or(first_here)
                    .unwrap_or(0)
            }
        };
        self.select_position(next);
    }

    /// `[`: select the previous op in time order (from this run's first op up into the
    /// compared run's last); with nothing selected, this run's last op starting inside the
    /// window. Pans to keep it visible.
    pub fn select_prev(&mut self) {
        let prev = match self.selected {
            Some(position) => position.saturating_sub(1),
            None => {
                let end = self.scale.end_us;
                self.order
                    .iter()
                    .rposition(|r| !r.in_previous && self.op(*r).start_us <= end)
                    .unwrap_or(0)
            }
        };
        self.select_position(prev);
    }

    fn op(&self, r: OpRef) -> &Op {
        let ops = match (&self.previous, r.in_previous) {
            (Some(previous), true) => &previous.ops,
            _ => &self.run.ops,
        };
        &ops[r.index]
    }

    fn select_position(&mut self, position: usize) {
        let Some(&r) = self.order.get(position) else {
            self.selected = None;
            return;
        };
        self.selected = Some(position);
        let (start, end) = (self.op(r).start_us, self.op(r).end_us);
        self.scale.reveal(start, end);
    }

    /// Selects the op at `index` in `run.ops` (e.g. from a mouse click); out of range clears.
    pub fn select_index(&mut self, index: usize) {
        let wanted = OpRef {
            in_previous: false,
            index,
        };
        match self.order.iter().position(|r| *r == wanted) {
            Some(position) => self.select_position(position),
            None => self.selected = None,
        }
    }

    /// Selects nothing (the details line shows the key hint again).
    pub fn clear_selection(&mut self) {
        self.selected = None;
    }

    /// The selected op, in whichever run.
    pub fn selected_ref(&self) -> Option<OpRef> {
        self.selected.and_then(|p| self.order.get(p).copied())
    }

    /// The selected op's index in `run.ops` (`None` when it is in the compared run).
    pub fn selected_index(&self) -> Option<usize> {
        self.selected_in(false)
    }

    /// The selected op's index in this run's ops, or with `previous` in the compared run's.
    pub fn selected_in(&self, previous: bool) -> Option<usize> {
        self.selected_ref()
            .filter(|r| r.in_previous == previous)
            .map(|r| r.index)
    }

    /// The name of the compared run when the selected op is in it.
    pub fn selected_run_name(&self) -> Option<&str> {
        let previous = self.previous.as_ref()?;
        self.selected_in(true).map(|_| previous.name.as_str())
    }

    /// The selected op.
    pub fn selected_op(&self) -> Option<&Op> {
        self.selected_ref().map(|r| self.op(r))
    }

    /// What the details line says about the selected op.
    pub fn details(&self) -> Option<OpDetails> {
        self.selected_op().map(OpDetails::of)
    }
}
