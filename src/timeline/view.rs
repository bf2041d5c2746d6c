//! [`TimelineView`]: what the timeline widget draws (this run, an optional previous run on the
//! same time scale, the visible window, the view mode and the selected op) and the
//! [`TimelineAction`]s on it (zoom and pan here, op selection in `walk`). Pure: no drawing, no
//! I/O, no keys.
//!
//! Of a view, only the [`TimelineCursor`] (window and selection) is the learner's choice; the
//! runs, their lanes and the walk order follow from the ops and the mode. So an owner that keeps
//! the ops elsewhere (the panel keeps reports) stores the cursor alone and builds the view when
//! it is drawn or acted on: `view.with_cursor(cursor)`, then `view.cursor()` after an action.

use crate::report::{Op, Report};
use crate::timeline::{Lanes, TimeScale, ViewMode};

mod walk;

pub use walk::OpRef;
use walk::walk_order;

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

/// The part of a [`TimelineView`] the learner chose: the visible window (`None`: everything) and
/// the selected op. The default is a fresh view.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TimelineCursor {
    /// The visible window `(start_us, end_us)`, when zoomed or panned.
    pub window: Option<(f64, f64)>,
    /// The selected op.
    pub selected: Option<OpRef>,
}

impl TimelineView {
    /// The window and selection, to keep while the view itself is rebuilt from its ops.
    pub fn cursor(&self) -> TimelineCursor {
        let fitted = self.scale.start_us == self.scale.full_start_us
            && self.scale.end_us == self.scale.full_end_us;
        TimelineCursor {
            window: (!fitted).then_some((self.scale.start_us, self.scale.end_us)),
            selected: self.selected_ref(),
        }
    }

    /// This view with `cursor`'s window (kept inside the full range) and selection (dropped when
    /// the op is not in this view).
    pub fn with_cursor(mut self, cursor: TimelineCursor) -> Self {
        if let Some((start, end)) = cursor.window {
            let full = (self.scale.full_start_us, self.scale.full_end_us);
            self.scale.start_us = start.clamp(full.0, full.1);
            self.scale.end_us = end.clamp(self.scale.start_us, full.1);
        }
        self.selected = cursor
            .selected
            .and_then(|r| self.order.iter().position(|o| *o == r));
        self
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
