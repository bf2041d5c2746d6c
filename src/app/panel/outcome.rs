//! One experiment's results in this session ([`Outcome`]): its last report, the one before it,
//! the last failure, the comparison the learner chose and where the learner is on the timeline
//! (window, selection). The timeline view itself is not kept: [`Outcome::timeline`] derives it
//! from the reports, the comparison, that cursor, the panel's lane mode and the open card's
//! cue, so it can never disagree with any of them.
//!
//! The comparison follows the card: a card with a cue (`<!-- panel: breadth-first -->`, see
//! `lesson::cue`) shows what it asks for; `c` chooses another, which holds while the cards
//! shown give the same cue (so a choice on one card without a cue holds on the next one).

use crate::experiment::options::IssueOrder;
use crate::experiment::registry;
use crate::lesson::PanelCue;
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
    /// The best run in this layout (drawn below) against the best per-chunk run (above).
    Layouts(IssueOrder),
}

/// The comparison the learner chose with `c`, and the card cue in force then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chosen {
    pub compare: Compare,
    pub under: Option<PanelCue>,
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
    /// What the learner chose to compare with (`None`: the default, or what the card asks).
    pub chosen: Option<Chosen>,
    /// The timeline's window and selected op, and the comparison they belong to (another
    /// comparison, or a new report, starts afresh).
    pub cursor: (Compare, TimelineCursor),
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
            chosen: None,
            cursor: (Compare::Nothing, TimelineCursor::default()),
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

    /// Take a new report: the old one becomes the previous run; the comparison goes back to
    /// the default ([`Outcome::compare`]).
    pub fn accept(&mut self, report: Box<Report>) {
        self.previous = self.report.take();
        self.report = Some(report);
        self.error = None;
        self.saved = None;
        self.chosen = None;
        self.cursor = (Compare::Nothing, TimelineCursor::default());
    }

    /// The comparison shown under the card cue `cue`: the learner's choice made under the same
    /// cue; else what the cue asks, when the run recorded it; else the previous run when there
    /// is one, else the report's first other timeline.
    pub fn compare(&self, cue: Option<PanelCue>) -> Compare {
        if let Some(chosen) = self.chosen.filter(|c| c.under == cue) {
            return chosen.compare;
        }
        let asked = cue.map(|PanelCue::Layout(order)| Compare::Layouts(order));
        if let Some(asked) = asked.filter(|c| self.can_draw(*c)) {
            return asked;
        }
        if self.can_draw(Compare::Previous) {
            Compare::Previous
        } else if self.can_draw(Compare::Other(0)) {
            Compare::Other(0)
        } else {
            Compare::Nothing
        }
    }

    /// Whether `compare` can be drawn with the last report (and the one before it).
    fn can_draw(&self, compare: Compare) -> bool {
        let Some(report) = &self.report else {
            return false;
        };
        match compare {
            Compare::Nothing => true,
            Compare::Other(i) => i < report.other_timelines.len(),
            Compare::Previous => self
                .previous
                .as_ref()
                .is_some_and(|p| !p.timeline.is_empty()),
            Compare::Layouts(order) => {
                order != IssueOrder::PerChunk
                    && layout_timeline(report, order).is_some()
                    && layout_timeline(report, IssueOrder::PerChunk).is_some()
            }
        }
    }

    /// The comparisons available, in the order `c` cycles through them.
    pub fn compare_choices(&self) -> Vec<Compare> {
        let mut out = vec![Compare::Nothing];
        if let Some(report) = &self.report {
            out.extend((0..report.other_timelines.len()).map(Compare::Other));
        }
        out.push(Compare::Previous);
        out.extend(
            IssueOrder::ALL
                .into_iter()
                .map(Compare::Layouts)
                .filter(|c| *c != Compare::Layouts(IssueOrder::PerChunk)),
        );
        out.retain(|c| self.can_draw(*c));
        out
    }

    /// Move to the next comparison under the card cue `cue` (the scale is refitted to both runs:
    /// the cursor starts afresh).
    pub fn cycle_compare(&mut self, cue: Option<PanelCue>) {
        let choices = self.compare_choices();
        let now = self.compare(cue);
        let at = choices.iter().position(|c| *c == now).unwrap_or(0);
        let compare = choices
            .get((at + 1) % choices.len())
            .copied()
            .unwrap_or(Compare::Nothing);
        self.chosen = Some(Chosen {
            compare,
            under: cue,
        });
    }

    /// Whether the last report has a timeline to draw.
    pub fn has_timeline(&self) -> bool {
        self.report.as_ref().is_some_and(|r| !r.timeline.is_empty())
    }

    /// Zoom, pan or select on the timeline shown under `cue`; false when there is none.
    pub fn apply(&mut self, action: TimelineAction, mode: ViewMode, cue: Option<PanelCue>) -> bool {
        let Some(mut view) = self.timeline(mode, cue) else {
            return false;
        };
        view.apply(action);
        self.cursor = (self.compare(cue), view.cursor());
        true
    }

    /// The comparison's name under `cue`, when one is shown.
    pub fn compare_name(&self, cue: Option<PanelCue>) -> Option<String> {
        let report = self.report.as_ref()?;
        match self.compare(cue) {
            Compare::Nothing => None,
            Compare::Other(i) => report.other_timelines.get(i).map(|t| t.name.clone()),
            Compare::Previous => self.previous.as_ref().map(|p| previous_name(p)),
            Compare::Layouts(order) => {
                let (against, _) = layout_timeline(report, IssueOrder::PerChunk)?;
                let (shown, _) = layout_timeline(report, order)?;
                Some(format!("{shown} against {against}"))
            }
        }
    }

    /// The timeline view: the last report's headline timeline with the comparison above it on
    /// one scale (or, comparing layouts, the card's layout with per-chunk above it), lanes for
    /// `mode`, the learner's window and selection. A pure function of the outcome, `mode` and
    /// the card cue `cue`; `None` when the last report has no timeline.
    pub fn timeline(&self, mode: ViewMode, cue: Option<PanelCue>) -> Option<TimelineView> {
        let report = self.report.as_ref().filter(|r| !r.timeline.is_empty())?;
        let compare = self.compare(cue);
        let (name, ops, other) = match compare {
            Compare::Layouts(order) => {
                let (name, ops) = layout_timeline(report, order)?;
                let above =
                    layout_timeline(report, IssueOrder::PerChunk).map(|(n, o)| (n, o.to_vec()));
                (name, ops.to_vec(), above)
            }
            Compare::Other(i) => {
                let above = report
                    .other_timelines
                    .get(i)
                    .map(|t| (t.name.clone(), t.ops.clone()));
                (headline_name(report), report.timeline.clone(), above)
            }
            Compare::Previous => {
                let above = self
                    .previous
                    .as_ref()
                    .map(|p| (previous_name(p), p.timeline.clone()));
                ("this run".to_string(), report.timeline.clone(), above)
            }
            Compare::Nothing => ("this run".to_string(), report.timeline.clone(), None),
        };
        let mut view = TimelineView::new(ops).with_name(name);
        view.set_mode(mode);
        if let Some((name, ops)) = other {
            view.set_previous(name, ops);
        }
        let cursor = match self.cursor {
            (c, cursor) if c == compare => cursor,
            _ => TimelineCursor::default(),
        };
        Some(view.with_cursor(cursor))
    }
}

/// What the headline timeline of each experiment is, for the comparison's labels.
fn headline_name(report: &Report) -> String {
    registry::find(&report.experiment)
        .map_or_else(|| "this run".to_string(), |spec| (spec.headline)(report))
}

fn previous_name(report: &Report) -> String {
    let size = crate::experiment::options::format_bytes(report.params.size);
    match (registry::words(report).shape)(report) {
        Some(shape) => format!("previous run ({size}, {shape})"),
        None => format!("previous run ({size})"),
    }
}

/// The timeline of `order`'s run in `report`, with its name, from the report's experiment.
fn layout_timeline(report: &Report, order: IssueOrder) -> Option<(String, &[crate::report::Op])> {
    (registry::words(report).layout)(report, order)
}
