//! [`TimelineView`]: the state behind the timeline widget (this run, an optional previous run on
//! the same time scale, the visible window, the view mode and the selected op) and the key
//! actions on it. Pure: no drawing, no I/O.

use crate::report::{Op, Report};
use crate::timeline::select::{OpDetails, time_order};
use crate::timeline::{Lanes, TimeScale, ViewMode};

/// One run's timeline with its name and its lanes for the current view mode.
#[derive(Debug, Clone, PartialEq)]
pub struct TimelineRun {
    /// Shown above its lanes in comparison mode, e.g. `this run`, `previous run`.
    pub name: String,
    pub ops: Vec<Op>,
    pub lanes: Lanes,
}

impl TimelineRun {
    /// A run named `name` with its lanes for `mode`.
    pub fn new(name: impl Into<String>, ops: Vec<Op>, mode: ViewMode) -> Self {
        let lanes = Lanes::build(&ops, mode);
        TimelineRun {
            name: name.into(),
            ops,
            lanes,
        }
    }
}

/// The timeline panel's state. Build it once per run; the key methods change it; the widget
/// only reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct TimelineView {
    /// This run (the one selection works on).
    pub run: TimelineRun,
    /// A previous run drawn above this one on the same scale.
    pub previous: Option<TimelineRun>,
    /// The visible window, shared by both runs.
    pub scale: TimeScale,
    /// Which lanes are shown.
    pub mode: ViewMode,
    /// Every op that `[` `]` walk through: the previous run's (drawn above) in time order, then
    /// this run's.
    order: Vec<OpRef>,
    /// Position in `order` of the selected op.
    selected: Option<usize>,
}

/// An op of one of the two runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpRef {
    /// In the previous (comparison) run rather than this one.
    pub in_previous: bool,
    /// Index into that run's ops.
    pub index: usize,
}

/// This run's ops, then the previous run's above them, as one walk: the previous first.
fn walk_order(run: &[Op], previous: Option<&[Op]>) -> Vec<OpRef> {
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
    /// A view of `ops` named `this run`, fitted to show everything, nothing selected.
    pub fn new(ops: Vec<Op>) -> Self {
        let mode = ViewMode::Streams;
        let scale = TimeScale::fit(&[&ops], 0);
        let order = walk_order(&ops, None);
        TimelineView {
            run: TimelineRun::new("this run", ops, mode),
            previous: None,
            scale,
            mode,
            order,
            selected: None,
        }
    }

    /// A view of a report's headline timeline.
    pub fn from_report(report: &Report) -> Self {
        Self::new(report.timeline.clone())
    }

    /// Renames this run (shown in comparison mode).
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.run.name = name.into();
        self
    }

    /// Shows `ops` above this run, named `name`, on the same scale (refitted to both).
    pub fn set_previous(&mut self, name: impl Into<String>, ops: Vec<Op>) {
        self.previous = Some(TimelineRun::new(name, ops, self.mode));
        self.reorder();
        self.refit();
    }

    /// Drops the comparison run and refits to this run.
    pub fn clear_previous(&mut self) {
        self.previous = None;
        self.reorder();
        self.refit();
    }

    /// Rebuilds the walk over both runs, keeping the selected op selected.
    fn reorder(&mut self) {
        let kept = self.selected_ref();
        let previous = self.previous.as_ref().map(|p| p.ops.as_slice());
        self.order = walk_order(&self.run.ops, previous);
        self.selected = kept.and_then(|r| self.order.iter().position(|o| *o == r));
    }

    /// Fits the scale to every op shown (keeps the column count).
    pub fn refit(&mut self) {
        let columns = self.scale.columns;
        let mut sets: Vec<&[Op]> = vec![&self.run.ops];
        if let Some(previous) = &self.previous {
            sets.push(&previous.ops);
        }
        self.scale = TimeScale::fit(&sets, columns);
    }

    /// Switches the lanes shown (streams, engines, both).
    pub fn set_mode(&mut self, mode: ViewMode) {
        self.mode = mode;
        self.run.lanes = Lanes::build(&self.run.ops, mode);
        if let Some(previous) = &mut self.previous {
            previous.lanes = Lanes::build(&previous.ops, mode);
        }
    }

    /// Streams -> engines -> both -> streams. Engine lanes only say something when the
    /// backend knew the engines; see [`Lanes::engines_known`].
    pub fn cycle_mode(&mut self) {
        self.set_mode(self.mode.next());
    }

    /// `+`: zoom in around the selected op if it is visible, else around the window's centre;
    /// the selected op stays in view.
    pub fn zoom_in(&mut self) {
        let centre = self.zoom_centre();
        self.scale.zoom_in(centre);
        self.reveal_selection();
    }

    /// `-`: zoom out (never past the whole run).
    pub fn zoom_out(&mut self) {
        let centre = self.zoom_centre();
        self.scale.zoom_out(centre);
    }

    fn reveal_selection(&mut self) {
        if let Some((start, end)) = self.selected_op().map(|op| (op.start_us, op.end_us)) {
            self.scale.reveal(start, end);
        }
    }

    /// Shows the whole run again.
    pub fn reset_zoom(&mut self) {
        self.scale.reset();
    }

    /// `<`: pan left by a quarter window.
    pub fn pan_left(&mut self) {
        self.scale.pan_left();
    }

    /// `>`: pan right by a quarter window.
    pub fn pan_right(&mut self) {
        self.scale.pan_right();
    }

    fn zoom_centre(&self) -> f64 {
        match self.selected_op() {
            Some(op) => {
                let mid = (op.start_us + op.end_us) / 2.0;
                if mid >= self.scale.start_us && mid <= self.scale.end_us {
                    mid
                } else {
                    self.scale.centre_us()
                }
            }
            None => self.scale.centre_us(),
        }
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

    /// Carries out one of the timeline's own actions. The app's key table decides which key
    /// asks for which (`keymap::Action::timeline`); this view knows no keys.
    /// [`Self::reset_zoom`] and [`Self::cycle_mode`] are not among them: the app calls them.
    pub fn apply(&mut self, action: TimelineAction) {
        match action {
            TimelineAction::ZoomIn => self.zoom_in(),
            TimelineAction::ZoomOut => self.zoom_out(),
            TimelineAction::PanLeft => self.pan_left(),
            TimelineAction::PanRight => self.pan_right(),
            TimelineAction::SelectPrev => self.select_prev(),
            TimelineAction::SelectNext => self.select_next(),
        }
    }
}

/// What the learner can ask of the timeline view (zoom, pan, walk the ops).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimelineAction {
    /// [`TimelineView::zoom_in`].
    ZoomIn,
    /// [`TimelineView::zoom_out`].
    ZoomOut,
    /// [`TimelineView::pan_left`].
    PanLeft,
    /// [`TimelineView::pan_right`].
    PanRight,
    /// [`TimelineView::select_prev`].
    SelectPrev,
    /// [`TimelineView::select_next`].
    SelectNext,
}

#[cfg(test)]
#[path = "view_tests.rs"]
mod tests;
