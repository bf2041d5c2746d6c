//! The experiment panel's state: which backend the worker opened, which of the lesson's
//! experiments is shown, the run in progress, and each experiment's last results (with the run
//! before it, kept for comparison on the same time scale).

use std::collections::{BTreeMap, BTreeSet};

use crate::experiment::{ExperimentOptions, pipeline, registry};
use crate::gpu::DeviceInfo;
use crate::report::{Metric, Report};
use crate::timeline::{TimelineView, ViewMode};

/// What the status bar says about the backend.
#[derive(Debug, Clone, PartialEq)]
pub enum BackendState {
    /// The worker is still opening it (CUDA init can take seconds).
    Detecting,
    /// The backend that runs experiments.
    Ready(Box<DeviceInfo>),
    /// No backend could be opened; why.
    Failed(String),
}

/// Which part of the results the panel shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PanelView {
    /// The per-stream timeline (runs that have one).
    Timeline,
    /// Metrics table, checks and notes.
    Results,
    /// The experiment's chart (those that have one).
    Chart,
}

/// Whether experiment `id` has a chart in the panel.
pub fn has_chart(id: &str) -> bool {
    registry::find(id).is_some_and(|spec| spec.chart.is_some())
}

/// The view a fresh report of `id` opens in: the chart where the registry says so, else the
/// timeline.
pub fn default_view(id: &str) -> PanelView {
    match registry::find(id) {
        Some(spec) if spec.opens_on_chart => PanelView::Chart,
        _ => PanelView::Timeline,
    }
}

/// The run in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Running {
    /// The id sent to the worker.
    pub run_id: u64,
    /// Experiment id.
    pub experiment: String,
    /// The lesson (catalog index) whose predictions this run grades.
    pub lesson: usize,
    /// The phase the worker reported last.
    pub phase: String,
    /// Esc was pressed; the worker stops at its next step.
    pub cancelling: bool,
}

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

/// A one-line message in the panel (export path, refusals, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanelMessage {
    /// True for failures (shown with `✗`), false for information (`i`).
    pub error: bool,
    /// The message.
    pub text: String,
}

/// See the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelState {
    /// The backend, as the worker last reported it.
    pub backend: BackendState,
    /// Index into the open lesson's `experiments`.
    pub choice: usize,
    /// The run in progress.
    pub running: Option<Running>,
    /// Experiment id -> its results.
    pub outcomes: BTreeMap<String, Outcome>,
    /// Experiment id -> the options the learner set in the form.
    pub options: BTreeMap<String, ExperimentOptions>,
    /// Which view the panel shows.
    pub view: PanelView,
    /// First visible line of the results view.
    pub scroll: u16,
    /// Lane mode for new timelines.
    pub mode: ViewMode,
    /// The latest message.
    pub message: Option<PanelMessage>,
    /// Every metric measured this session (latest wins), for predictions and lesson text.
    pub measured: BTreeMap<String, Metric>,
    /// Metrics of `measured` that came from the simulator, so lesson text never calls a
    /// modelled figure "measured on your GPU" without saying so.
    pub simulated: BTreeSet<String>,
    /// Animation frame of the spinner.
    pub spinner: usize,
    /// The id of the last run started.
    pub last_run_id: u64,
}

impl Default for PanelState {
    fn default() -> Self {
        PanelState {
            backend: BackendState::Detecting,
            choice: 0,
            running: None,
            outcomes: BTreeMap::new(),
            options: BTreeMap::new(),
            view: PanelView::Timeline,
            scroll: 0,
            mode: ViewMode::Streams,
            message: None,
            measured: BTreeMap::new(),
            simulated: BTreeSet::new(),
            spinner: 0,
            last_run_id: 0,
        }
    }
}

impl Outcome {
    fn empty() -> Outcome {
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

impl PanelState {
    /// The outcome of `experiment`, created empty on first use.
    pub fn outcome_mut(&mut self, experiment: &str) -> &mut Outcome {
        self.outcomes
            .entry(experiment.to_string())
            .or_insert_with(Outcome::empty)
    }

    /// Whether a run is in progress.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Set an information message.
    pub fn info(&mut self, text: impl Into<String>) {
        self.message = Some(PanelMessage {
            error: false,
            text: text.into(),
        });
    }

    /// Set an error message.
    pub fn error(&mut self, text: impl Into<String>) {
        self.message = Some(PanelMessage {
            error: true,
            text: text.into(),
        });
    }
}
