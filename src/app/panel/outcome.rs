//! One experiment's results in this session ([`Outcome`]): its last report, the one before it,
//! the last failure, the chosen comparison and where the learner is on the timeline (window,
//! selection). The timeline view itself is not kept: [`Outcome::timeline`] derives it from the
//! reports, the comparison, that cursor and the panel's lane mode, so it can never disagree
//! with any of them.

use crate::experiment::{pipeline, registry};
use crate::progress::SavedRun;
use crate::report::Report;
use crate::timeline::{TimelineAction, TimelineCursor, TimelineView, ViewMode};

/// What the comparison timeline (drawn above this run, same scale) shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// Only this run.
    Nothing,
    /// The report's other timeline number N (e.g. `sequential`, `two non-blocking streams`).
    Other(usize),
    /// The previous run of the same experiment.
    Previous,
}

/// One experiment's results in this session.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The last successful report.
    pub report: Option<Box<Report>>,
    /// The successful report before it.
    pub previous: Option<Box<Report>>,
    /// Why the last run failed (cleared by the next success).
    pub error: Option<String>,
    /// What the timeline compares with.
    pub compare: Compare,
    /// The timeline's window and selected op (a new report or comparison starts afresh).
    pub cursor: TimelineCursor,
    /// Set when the report is a run saved in progress (a relaunch), not one of this session:
    /// the panel labels it with when it ran and what the file did not keep. A new run clears it.
    pub saved: Option<Saved>,
}

/// Where a restored report came from (see [`Outcome::saved`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// When the run completed (ms since the epoch).
    pub at: u64,
    /// What the run had that the file did not keep (timelines too large for it), by name.
    pub left_out: Vec<String>,
    /// False for a run saved before checks and timelines were kept: its metrics alone.
    pub detail: bool,
}

impl Outcome {
    pub(super) fn empty() -> Outcome {
        Outcome {
            report: None,
            previous: None,
            error: None,
            compare: Compare::Nothing,
            cursor: TimelineCursor::default(),
            saved: None,
        }
    }

    /// The outcome a saved run shows after a relaunch: its report as far as the file kept it
    /// (metrics alone for a file from before checks and timelines were kept), labelled.
    pub fn restored(run: &SavedRun) -> Outcome {
        let saved = Saved {
            at: run.at,
            left_out: run
                .detail
                .as_ref()
                .map(|d| d.left_out.clone())
                .unwrap_or_default(),
            detail: run.detail.is_some(),
        };
        let report = run.report();
        let mut outcome = Outcome::empty();
        outcome.accept(Box::new(report));
        outcome.saved = Some(saved);
        outcome
    }

    /// Take a new report: the old one becomes the previous run; the comparison defaults to the
    /// previous run when there is one, else the report's first other timeline.
    pub fn accept(&mut self, report: Box<Report>) {
        self.previous = self.report.take();
        self.report = Some(report);
        self.error = None;
        self.saved = None;
        self.compare = if self.previous.is_some() {
            Compare::Previous
        } else if self
            .report
            .as_ref()
            .is_some_and(|r| !r.other_timelines.is_empty())
        {
            Compare::Other(0)
        } else {
            Compare::Nothing
        };
        self.cursor = TimelineCursor::default();
    }

    /// The comparisons available, in the order `c` cycles through them.
    pub fn compare_choices(&self) -> Vec<Compare> {
        let mut out = vec![Compare::Nothing];
        if let Some(report) = &self.report {
            out.extend((0..report.other_timelines.len()).map(Compare::Other));
        }
        if self
            .previous
            .as_ref()
            .is_some_and(|p| !p.timeline.is_empty())
        {
            out.push(Compare::Previous);
        }
        out
    }

    /// Move to the next comparison (the scale is refitted to both runs: the cursor starts
    /// afresh).
    pub fn cycle_compare(&mut self) {
        let choices = self.compare_choices();
        let at = choices.iter().position(|c| *c == self.compare).unwrap_or(0);
        self.compare = choices
            .get((at + 1) % choices.len())
            .copied()
            .unwrap_or(Compare::Nothing);
        self.cursor = TimelineCursor::default();
    }

    /// Whether the last report has a timeline to draw.
    pub fn has_timeline(&self) -> bool {
        self.report.as_ref().is_some_and(|r| !r.timeline.is_empty())
    }

    /// Zoom, pan or select on the timeline; false when there is none.
    pub fn apply(&mut self, action: TimelineAction, mode: ViewMode) -> bool {
        let Some(mut view) = self.timeline(mode) else {
            return false;
        };
        view.apply(action);
        self.cursor = view.cursor();
        true
    }

    /// The comparison's name, when one is shown.
    pub fn compare_name(&self) -> Option<String> {
        let report = self.report.as_ref()?;
        match self.compare {
            Compare::Nothing => None,
            Compare::Other(i) => report.other_timelines.get(i).map(|t| t.name.clone()),
            Compare::Previous => self.previous.as_ref().map(|p| previous_name(p)),
        }
    }

    /// The timeline view: the last report's headline timeline with the comparison above it on
    /// one scale, lanes for `mode`, the learner's window and selection. A pure function of the
    /// outcome and `mode`; `None` when the last report has no timeline.
    pub fn timeline(&self, mode: ViewMode) -> Option<TimelineView> {
        let report = self.report.as_ref().filter(|r| !r.timeline.is_empty())?;
        let name = match self.compare {
            Compare::Other(_) => headline_name(report),
            _ => "this run".to_string(),
        };
        let mut view = TimelineView::from_report(report).with_name(name);
        view.set_mode(mode);
        let other = match self.compare {
            Compare::Other(i) => report.other_timelines.get(i).map(|t| t.ops.clone()),
            Compare::Previous => self.previous.as_ref().map(|p| p.timeline.clone()),
            Compare::Nothing => None,
        };
        if let (Some(ops), Some(name)) = (other, self.compare_name()) {
            view.set_previous(name, ops);
        }
        Some(view.with_cursor(self.cursor))
    }
}

/// What the headline timeline of each experiment is, for the comparison's labels.
fn headline_name(report: &Report) -> String {
    registry::find(&report.experiment)
        .map_or_else(|| "this run".to_string(), |spec| (spec.headline)(report))
}

fn previous_name(report: &Report) -> String {
    let size = crate::experiment::options::format_bytes(report.params.size);
    match (report.params.streams, report.params.chunks) {
        (Some(s), Some(c)) => format!("previous run ({size}, {})", pipeline::shape(s, c)),
        _ => format!("previous run ({size})"),
    }
}
