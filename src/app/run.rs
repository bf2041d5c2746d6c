//! The experiment panel as part of the app: which experiment the open lesson shows, the panel's
//! actions, and a run's life where it needs more than the panel (the form's options, grading
//! predictions, focus, the card text that quotes metrics, exporting).

use std::path::PathBuf;

use super::panel::{PanelAction, PanelView};
use super::{App, Cmd};
use crate::experiment::registry;
use crate::lesson::{Catalog, LessonEntry, PanelCue};
use crate::report::Report;
use crate::timeline::TimelineView;
use crate::worker::WorkerEvent;

/// The experiments of lesson `idx` (empty for a lesson without one, or a broken lesson).
fn lesson_experiments(catalog: &Catalog, idx: usize) -> &[String] {
    catalog
        .entries
        .get(idx)
        .and_then(LessonEntry::lesson)
        .map_or(&[], |l| l.meta.experiments.as_slice())
}

/// The cue of card `card` of lesson `idx`, if it gives one.
fn lesson_card_cue(catalog: &Catalog, idx: usize, card: usize) -> Option<PanelCue> {
    catalog
        .entries
        .get(idx)
        .and_then(LessonEntry::lesson)
        .and_then(|l| l.cards.get(card))
        .and_then(|c| c.panel_cue())
}

impl App {
    /// The open lesson's experiments (empty for a lesson without one, or a broken lesson).
    pub fn experiments(&self) -> &[String] {
        lesson_experiments(&self.catalog, self.nav.lesson)
    }

    /// The experiment the panel shows.
    pub fn experiment(&self) -> Option<&str> {
        self.panel.shown(self.experiments())
    }

    /// The last report of the experiment shown.
    pub fn report(&self) -> Option<&Report> {
        self.panel.report(self.experiment()?)
    }

    /// The open card's panel cue (`<!-- panel: NAME -->`): what the panel compares while the
    /// card is open (see [`crate::app::Outcome::compare`]).
    pub fn card_cue(&self) -> Option<PanelCue> {
        lesson_card_cue(&self.catalog, self.nav.lesson, self.nav.card)
    }

    /// The timeline of the experiment shown, when its last run has one (built from the report
    /// on each call; see [`crate::app::Outcome::timeline`]).
    pub fn timeline(&self) -> Option<TimelineView> {
        self.panel.timeline(self.experiment()?, self.card_cue())
    }

    /// The view actually drawn: the one chosen when it can be drawn, else the results.
    pub fn panel_view(&self) -> PanelView {
        self.panel.view_drawn(self.experiment())
    }

    /// One of the panel's own actions, on the open lesson's experiments.
    pub(super) fn panel_update(&mut self, action: PanelAction) {
        let experiments = lesson_experiments(&self.catalog, self.nav.lesson);
        let cue = lesson_card_cue(&self.catalog, self.nav.lesson, self.nav.card);
        self.panel.update(experiments, cue, action);
    }

    /// `r`: start the experiment shown on the worker. Never waits; refused while a run is on.
    pub(super) fn run_experiment(&mut self) -> Vec<Cmd> {
        let Some(id) = self.experiment().map(str::to_string) else {
            self.panel.error("this lesson has no experiment to run");
            return Vec::new();
        };
        if let Some(running) = &self.panel.running {
            let text = format!("{} is still running; Esc cancels it", running.experiment);
            self.panel.info(text);
            return Vec::new();
        }
        let options = self.panel.options.get(&id).cloned().unwrap_or_default();
        let checked = registry::find(&id).map_or_else(
            || Err(format!("the registry has no experiment {id}")),
            |spec| options.validate(spec).map_err(|e| e.to_string()),
        );
        if let Err(err) = checked {
            self.panel
                .error(format!("cannot run {id}: {err} (o changes the parameters)"));
            return Vec::new();
        }
        let run_id = self.panel.start_run(&id, self.nav.lesson, &options);
        if self.exercises.in_flight.is_some()
            && let Some(running) = self.panel.running.as_mut()
        {
            running.phase = "queued behind the exercise check".to_string();
        }
        // The focus stays where the learner put it (review 2026-12-01b: moving it to the panel
        // made the next `z` zoom a pane the learner did not mean); the short card's spare rows
        // already go to the panel.
        vec![Cmd::RunExperiment {
            run_id,
            experiment: id,
            options,
        }]
    }

    /// Esc with nothing else to close: cancel the run in progress. Returns whether there was one.
    pub(super) fn cancel_run(&mut self) -> Option<Cmd> {
        self.panel.cancel().then_some(Cmd::CancelRun)
    }

    /// `e`: ask the shell to write the last run as a Chrome trace.
    pub(super) fn export_trace(&mut self) -> Vec<Cmd> {
        match self.report() {
            Some(report) => vec![Cmd::ExportTrace(Box::new(report.clone()))],
            None => {
                self.panel
                    .error("nothing to export yet: press r to run the experiment first");
                Vec::new()
            }
        }
    }

    /// The shell wrote (or failed to write) the trace.
    pub(super) fn on_exported(&mut self, result: Result<PathBuf, String>) {
        match result {
            Ok(path) => self.panel.info(format!(
                "trace written to {} (open it in ui.perfetto.dev or chrome://tracing)",
                path.display()
            )),
            Err(why) => self.panel.error(format!("trace not written: {why}")),
        }
    }

    /// A worker event.
    pub(super) fn on_worker(&mut self, event: WorkerEvent) -> Vec<Cmd> {
        match event {
            WorkerEvent::Done { run_id, result } => self.on_done(run_id, result),
            WorkerEvent::CheckStarted { .. } | WorkerEvent::Checked { .. } => {
                self.on_check_event(event)
            }
            status => {
                self.panel.on_worker_status(status);
                Vec::new()
            }
        }
    }

    fn on_done(&mut self, run_id: u64, result: Result<Box<Report>, String>) -> Vec<Cmd> {
        let Some(running) = self.panel.finish(run_id) else {
            return Vec::new();
        };
        match result {
            Ok(report) => {
                let graded = self.record_run(&running, &report);
                let shown = lesson_experiments(&self.catalog, self.nav.lesson);
                let shown = self.panel.shown(shown).map(str::to_string);
                self.panel.accept(&running, report, shown.as_deref());
                // Cards quote measured metrics.
                self.invalidate_cards();
                if graded {
                    return vec![Cmd::SaveProgress];
                }
            }
            Err(why) => self.panel.failed(&running, why),
        }
        Vec::new()
    }

    /// The spinner's next frame (the shell ticks only while a run is on).
    pub(super) fn tick(&mut self) {
        self.panel.tick();
    }
}
