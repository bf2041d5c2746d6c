//! The experiment panel's keys and the worker's replies: run, cancel, switch experiment, views,
//! timeline keys routed to the timeline, export, and the events that come back.

use std::path::PathBuf;

use super::panel::{BackendState, PanelView, Running, default_view, has_chart};
use super::{App, Cmd, Focus};
use crate::experiment::registry;
use crate::report::Report;
use crate::timeline::{TimelineView, ViewMode};
use crate::worker::WorkerEvent;

impl App {
    /// The open lesson's experiments (empty for a lesson without one, or a broken lesson).
    pub fn experiments(&self) -> &[String] {
        self.entry()
            .and_then(|e| e.lesson())
            .map_or(&[], |l| l.meta.experiments.as_slice())
    }

    /// The experiment the panel shows.
    pub fn experiment(&self) -> Option<&str> {
        let list = self.experiments();
        list.get(self.panel.choice.min(list.len().saturating_sub(1)))
            .map(String::as_str)
    }

    /// The last report of the experiment shown.
    pub fn report(&self) -> Option<&Report> {
        let id = self.experiment()?;
        self.panel.outcomes.get(id)?.report.as_deref()
    }

    /// The timeline of the experiment shown, when its last run has one.
    pub fn timeline(&self) -> Option<&TimelineView> {
        let id = self.experiment()?;
        self.panel.outcomes.get(id)?.timeline.as_ref()
    }

    fn timeline_mut(&mut self) -> Option<&mut TimelineView> {
        let id = self.experiment()?.to_string();
        self.panel.outcomes.get_mut(&id)?.timeline.as_mut()
    }

    /// The views the experiment shown can draw now, in the order `v` cycles through them.
    pub fn panel_views(&self) -> Vec<PanelView> {
        let mut out = Vec::new();
        if self.timeline().is_some() {
            out.push(PanelView::Timeline);
        }
        out.push(PanelView::Results);
        if self.report().is_some() && self.experiment().is_some_and(has_chart) {
            out.push(PanelView::Chart);
        }
        out
    }

    /// The view actually drawn: the one chosen when it can be drawn, else the results.
    pub fn panel_view(&self) -> PanelView {
        if self.panel_views().contains(&self.panel.view) {
            self.panel.view
        } else {
            PanelView::Results
        }
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
        self.panel.last_run_id += 1;
        let run_id = self.panel.last_run_id;
        self.runs.started(run_id, &options);
        self.panel.running = Some(Running {
            run_id,
            experiment: id.clone(),
            lesson: self.lesson,
            phase: match self.exercises.in_flight {
                Some(_) => "queued behind the exercise check".to_string(),
                None => "starting".to_string(),
            },
            cancelling: false,
        });
        self.panel.message = None;
        // The results are what the learner looks at next; the panel gets the room.
        if self.focus == Focus::Cards {
            self.focus = Focus::Panel;
        }
        vec![Cmd::RunExperiment {
            run_id,
            experiment: id,
            options,
        }]
    }

    /// Esc with nothing else to close: cancel the run in progress. Returns whether there was one.
    pub(super) fn cancel_run(&mut self) -> Option<Cmd> {
        let running = self.panel.running.as_mut()?;
        if running.cancelling {
            return None;
        }
        running.cancelling = true;
        running.phase = "cancelling at the next step".to_string();
        Some(Cmd::CancelRun)
    }

    /// `s`: the lesson's next experiment.
    pub(super) fn switch_experiment(&mut self) {
        let n = self.experiments().len();
        if n > 1 {
            self.panel.choice = (self.panel.choice + 1) % n;
            self.panel.scroll = 0;
        } else if n == 1 {
            self.panel
                .info("this lesson has one experiment: nothing to switch to");
        }
    }

    /// `v`: timeline → results → chart (those there are).
    pub(super) fn toggle_view(&mut self) {
        let views = self.panel_views();
        if views.len() < 2 {
            self.panel
                .info("nothing to switch to yet: press r to run the experiment");
            return;
        }
        let at = views
            .iter()
            .position(|v| *v == self.panel_view())
            .unwrap_or(0);
        self.panel.view = views[(at + 1) % views.len()];
        self.panel.scroll = 0;
    }

    /// `m`: streams → copy engines → both.
    pub(super) fn cycle_lane_mode(&mut self) {
        let Some(view) = self.timeline_mut() else {
            self.panel
                .info("no timeline yet: press r to run the experiment");
            return;
        };
        view.cycle_mode();
        let mode = view.mode;
        let known = crate::timeline::Lanes::engines_known(&view.run.ops);
        self.panel.mode = mode;
        self.panel.view = PanelView::Timeline;
        let name = match mode {
            ViewMode::Streams => "lanes: one per stream",
            ViewMode::Engines => "lanes: one per copy engine, plus compute",
            ViewMode::All => "lanes: streams, then copy engines and compute",
        };
        if known || mode == ViewMode::Streams {
            self.panel.info(name);
        } else {
            self.panel.info(format!(
                "{name} (this backend did not say which engine ran a copy)"
            ));
        }
    }

    /// `c`: compare with the previous run, the built-in baseline, or nothing.
    pub(super) fn cycle_compare(&mut self) {
        let mode = self.panel.mode;
        let Some(id) = self.experiment().map(str::to_string) else {
            return;
        };
        let text = match self.panel.outcomes.get_mut(&id) {
            Some(outcome) if outcome.timeline.is_some() && outcome.compare_choices().len() < 2 => {
                "nothing to compare with yet: run it again (r) and the new run is compared with \
                 this one"
                    .to_string()
            }
            Some(outcome) if outcome.timeline.is_some() => {
                outcome.cycle_compare(mode);
                self.panel.view = PanelView::Timeline;
                match outcome.compare_name() {
                    Some(name) => format!("comparing with {name} (c for the next)"),
                    None => "comparison off: this run alone (c compares again)".to_string(),
                }
            }
            _ => "no timeline yet: press r to run the experiment".to_string(),
        };
        self.panel.info(text);
    }

    /// `+ - < > [ ]`: to the timeline, only when the panel has one (the view switches to it).
    pub(super) fn timeline_key(&mut self, key: char) {
        let Some(view) = self.timeline_mut() else {
            let what = match key {
                '[' | ']' => "select from",
                '<' | '>' => "pan",
                _ => "zoom",
            };
            self.panel.info(format!(
                "no timeline to {what}: press r to run the experiment"
            ));
            return;
        };
        view.handle_key(key);
        self.panel.view = PanelView::Timeline;
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
            WorkerEvent::Backend(Ok(info)) => {
                self.panel.backend = BackendState::Ready(Box::new(info));
            }
            WorkerEvent::Backend(Err(why)) => self.panel.backend = BackendState::Failed(why),
            WorkerEvent::Phase { run_id, text } => {
                if let Some(running) = self.panel.running.as_mut()
                    && running.run_id == run_id
                    && !running.cancelling
                {
                    running.phase = text;
                }
            }
            WorkerEvent::Done { run_id, result } => return self.on_done(run_id, result),
            WorkerEvent::CheckStarted { .. } | WorkerEvent::Checked { .. } => {
                return self.on_check_event(event);
            }
        }
        Vec::new()
    }

    fn on_done(&mut self, run_id: u64, result: Result<Box<Report>, String>) -> Vec<Cmd> {
        let Some(running) = self.panel.running.take_if(|r| r.run_id == run_id) else {
            return Vec::new();
        };
        let mode = self.panel.mode;
        match result {
            Ok(report) => {
                // Hints such as "press r" are answered now.
                self.panel.message.take_if(|m| !m.error);
                self.panel.measured.extend(report.metrics.clone());
                let simulated = report.backend.kind == crate::report::BackendKind::Simulated;
                for name in report.metrics.keys() {
                    if simulated {
                        self.panel.simulated.insert(name.clone());
                    } else {
                        self.panel.simulated.remove(name);
                    }
                }
                let graded = self.record_run(running.run_id, &report);
                let outcome = self.panel.outcome_mut(&running.experiment);
                let first = outcome.report.is_none();
                outcome.accept(report, mode);
                // The first report opens on its default view; later runs keep the view chosen.
                if first && self.experiment() == Some(running.experiment.as_str()) {
                    self.panel.view = default_view(&running.experiment);
                    self.panel.scroll = 0;
                }
                self.invalidate_cards();
                if graded {
                    return vec![Cmd::SaveProgress];
                }
            }
            // Esc asked for this: say so, it is not a failure.
            Err(_) if running.cancelling => {
                self.panel
                    .info(format!("{} cancelled; r runs it again", running.experiment));
            }
            Err(why) => {
                self.panel.outcome_mut(&running.experiment).error = Some(why);
            }
        }
        Vec::new()
    }

    /// The spinner's next frame (the shell ticks only while a run is on).
    pub(super) fn tick(&mut self) {
        if self.panel.is_running() {
            self.panel.spinner = self.panel.spinner.wrapping_add(1);
        }
    }
}
