//! One experiment's results in this session ([`Outcome`]): its last report, the one before it,
//! the last failure, and the timeline view built from them with the chosen comparison.

use crate::experiment::{pipeline, registry};
use crate::report::Report;
use crate::timeline::{TimelineView, ViewMode};

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
    /// The timeline view of `report` (when it has a timeline).
    pub timeline: Option<TimelineView>,
    /// What the timeline compares with.
    pub compare: Compare,
}

impl Outcome {
    pub(super) fn empty() -> Outcome {
        Outcome {
            report: None,
            previous: None,
            error: None,
            timeline: None,
            compare: Compare::Nothing,
        }
    }

    /// Take a new report: the old one becomes the previous run; the comparison defaults to the
    /// previous run when there is one, else the report's first other timeline.
    pub fn accept(&mut self, report: Box<Report>, mode: ViewMode) {
        self.previous = self.report.take();
        self.report = Some(report);
        self.error = None;
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
        self.rebuild_timeline(mode);
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

    /// Move to the next comparison.
    pub fn cycle_compare(&mut self, mode: ViewMode) {
        let choices = self.compare_choices();
        let at = choices.iter().position(|c| *c == self.compare).unwrap_or(0);
        self.compare = choices[(at + 1) % choices.len()];
        self.rebuild_timeline(mode);
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

    /// Rebuild the timeline view from the report and the comparison (keeps nothing of the old
    /// view's zoom: the scale is refitted to both runs).
    pub fn rebuild_timeline(&mut self, mode: ViewMode) {
        self.timeline = None;
        let Some(report) = &self.report else {
            return;
        };
        if report.timeline.is_empty() {
            return;
        }
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
        self.timeline = Some(view);
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
