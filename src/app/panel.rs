//! The experiment panel's state: which backend the worker opened, which of the lesson's
//! experiments is shown, the run in progress, and each experiment's last results (with the run
//! before it, kept for comparison on the same time scale).
//!
//! A sub-state of the app: [`PanelState::update`] carries out the panel's own actions, and the
//! views it can draw are derived here, from its outcomes, in one place ([`PanelState::views`],
//! [`PanelState::timeline`]): nothing is stored that another field already says.
//! The app adds what needs the rest of it: the lesson's experiments, grading, focus.

use std::collections::BTreeMap;

use crate::experiment::{ExperimentOptions, registry};
use crate::gpu::DeviceInfo;
use crate::lesson::PanelCue;
use crate::report::{BackendKind, Report};
use crate::timeline::{TimelineView, ViewMode};

mod outcome;
mod update;

pub use outcome::{Chosen, Compare, Outcome, Saved};
pub use update::PanelAction;

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

impl BackendState {
    /// The kind of backend that runs experiments now, once it is open.
    pub fn kind(&self) -> Option<BackendKind> {
        match self {
            BackendState::Ready(info) => Some(info.backend.kind),
            _ => None,
        }
    }
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
    /// The parameters it runs with (a run with the defaults grades predictions).
    pub options: ExperimentOptions,
    /// The phase the worker reported last.
    pub phase: String,
    /// Esc was pressed; the worker stops at its next step.
    pub cancelling: bool,
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
    /// Lane mode of every timeline: the one setting, which [`PanelState::timeline`] builds the
    /// views with.
    pub mode: ViewMode,
    /// The latest message.
    pub message: Option<PanelMessage>,
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
            spinner: 0,
            last_run_id: 0,
        }
    }
}

impl PanelState {
    /// The panel after a relaunch: each experiment's last saved run is its outcome, labelled as
    /// saved (see [`Outcome::restored`]), until the learner runs it again.
    pub fn restored(results: &BTreeMap<String, crate::progress::SavedRun>) -> PanelState {
        PanelState {
            outcomes: results
                .iter()
                .map(|(id, run)| (id.clone(), Outcome::restored(run)))
                .collect(),
            ..PanelState::default()
        }
    }

    /// The outcome of `experiment`, created empty on first use.
    pub fn outcome_mut(&mut self, experiment: &str) -> &mut Outcome {
        self.outcomes
            .entry(experiment.to_string())
            .or_insert_with(Outcome::empty)
    }

    /// The experiment shown, of the open lesson's `experiments`.
    pub fn shown<'a>(&self, experiments: &'a [String]) -> Option<&'a str> {
        let last = experiments.len().saturating_sub(1);
        experiments.get(self.choice.min(last)).map(String::as_str)
    }

    /// The last report of experiment `id`.
    pub fn report(&self, id: &str) -> Option<&Report> {
        self.outcomes.get(id)?.report.as_deref()
    }

    /// The timeline of experiment `id` in the lane mode chosen, under the open card's `cue`,
    /// when its last run has one (derived, see [`Outcome::timeline`]).
    pub fn timeline(&self, id: &str, cue: Option<PanelCue>) -> Option<TimelineView> {
        let cue = cue.filter(|c| c.experiment() == id);
        self.outcomes.get(id)?.timeline(self.mode, cue)
    }

    /// The views the experiment `shown` can draw now, in the order `v` cycles through them.
    pub fn views(&self, shown: Option<&str>) -> Vec<PanelView> {
        let mut out = Vec::new();
        if shown
            .and_then(|id| self.outcomes.get(id))
            .is_some_and(Outcome::has_timeline)
        {
            out.push(PanelView::Timeline);
        }
        out.push(PanelView::Results);
        if shown.is_some_and(|id| self.report(id).is_some() && has_chart(id)) {
            out.push(PanelView::Chart);
        }
        out
    }

    /// The view actually drawn for `shown`: the one chosen when it can be drawn, else the results.
    pub fn view_drawn(&self, shown: Option<&str>) -> PanelView {
        if self.views(shown).contains(&self.view) {
            self.view
        } else {
            PanelView::Results
        }
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
