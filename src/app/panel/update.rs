//! The panel's own actions ([`PanelAction`]: switch experiment, views, lane mode, comparison,
//! the timeline's zoom, pan and selection) and the run's life as the panel sees it: started,
//! phases, finished.

use super::{
    BackendState, Compare, ExperimentOptions, PanelState, PanelView, Running, default_view,
};
use crate::lesson::PanelCue;
use crate::report::Report;
use crate::timeline::{Lanes, TimelineAction, ViewMode};
use crate::worker::WorkerEvent;

/// What the learner can ask of the panel alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PanelAction {
    /// `s`: the lesson's next experiment.
    SwitchExperiment,
    /// `v`: timeline → results → chart (those there are).
    ToggleView,
    /// `m`: streams → copy engines → both.
    LaneMode,
    /// `c`: compare with the previous run, the built-in baseline, or nothing.
    Compare,
    /// Zoom, pan, select: to the timeline, when there is one.
    Timeline(TimelineAction),
}

impl PanelState {
    /// Carry out `action`; `experiments` are the open lesson's, `cue` the open card's
    /// (it applies only to the experiment it names).
    pub fn update(&mut self, experiments: &[String], cue: Option<PanelCue>, action: PanelAction) {
        let shown = self.shown(experiments).map(str::to_string);
        let cue = cue.filter(|c| shown.as_deref() == Some(c.experiment()));
        match action {
            PanelAction::SwitchExperiment => self.switch_experiment(experiments.len()),
            PanelAction::ToggleView => self.toggle_view(shown.as_deref()),
            PanelAction::LaneMode => self.cycle_lane_mode(shown.as_deref()),
            PanelAction::Compare => self.cycle_compare(shown.as_deref(), cue),
            PanelAction::Timeline(t) => self.timeline_action(shown.as_deref(), cue, t),
        }
    }

    fn switch_experiment(&mut self, count: usize) {
        if count > 1 {
            self.choice = (self.choice + 1) % count;
            self.scroll = 0;
        } else if count == 1 {
            self.info("this lesson has one experiment: nothing to switch to");
        }
    }

    fn toggle_view(&mut self, shown: Option<&str>) {
        let views = self.views(shown);
        if views.len() < 2 {
            self.info("nothing to switch to yet: press r to run the experiment");
            return;
        }
        let drawn = self.view_drawn(shown);
        let at = views.iter().position(|v| *v == drawn).unwrap_or(0);
        self.view = views[(at + 1) % views.len()];
        self.scroll = 0;
    }

    /// The next lane mode, for every timeline (so switching experiments keeps it).
    fn cycle_lane_mode(&mut self, shown: Option<&str>) {
        let Some(known) = shown
            .and_then(|id| self.report(id))
            .filter(|r| !r.timeline.is_empty())
            .map(|r| Lanes::engines_known(&r.timeline))
        else {
            self.info("no timeline yet: press r to run the experiment");
            return;
        };
        self.mode = self.mode.next();
        let mode = self.mode;
        self.view = PanelView::Timeline;
        let name = match mode {
            ViewMode::Streams => "lanes: one per stream",
            ViewMode::Engines => "lanes: one per copy engine, plus compute",
            ViewMode::All => "lanes: streams, then copy engines and compute",
        };
        if known || mode == ViewMode::Streams {
            self.info(name);
        } else {
            self.info(format!(
                "{name} (this backend did not say which engine ran a copy)"
            ));
        }
    }

    fn cycle_compare(&mut self, shown: Option<&str>, cue: Option<PanelCue>) {
        let Some(id) = shown else {
            return;
        };
        let text = match self.outcomes.get_mut(id) {
            Some(outcome) if outcome.has_timeline() && outcome.compare_choices().len() < 2 => {
                "nothing to compare with yet: run it again (r) and the new run is compared with \
                 this one"
                    .to_string()
            }
            Some(outcome) if outcome.has_timeline() => {
                outcome.cycle_compare(cue);
                self.view = PanelView::Timeline;
                match (outcome.compare(cue), outcome.compare_name(cue)) {
                    (Compare::Layouts(order), _) => format!(
                        "comparing the best {} run with the best per-chunk run (c for the next)",
                        order.name()
                    ),
                    (_, Some(name)) => format!("comparing with {name} (c for the next)"),
                    (_, None) => "comparison off: this run alone (c compares again)".to_string(),
                }
            }
            _ => "no timeline yet: press r to run the experiment".to_string(),
        };
        self.info(text);
    }

    /// Only when the panel has a timeline (the view switches to it).
    fn timeline_action(
        &mut self,
        shown: Option<&str>,
        cue: Option<PanelCue>,
        action: TimelineAction,
    ) {
        let mode = self.mode;
        let applied = shown
            .and_then(|id| self.outcomes.get_mut(id))
            .is_some_and(|outcome| outcome.apply(action, mode, cue));
        if !applied {
            let what = match action {
                TimelineAction::SelectPrev | TimelineAction::SelectNext => "select from",
                TimelineAction::PanLeft | TimelineAction::PanRight => "pan",
                TimelineAction::ZoomIn | TimelineAction::ZoomOut => "zoom",
            };
            self.info(format!(
                "no timeline to {what}: press r to run the experiment"
            ));
            return;
        }
        self.view = PanelView::Timeline;
    }

    /// A run of `experiment` with `options` for lesson `lesson` starts (the caller has checked
    /// that none is on): its id, for the worker's events.
    pub fn start_run(
        &mut self,
        experiment: &str,
        lesson: usize,
        options: &ExperimentOptions,
    ) -> u64 {
        self.last_run_id += 1;
        self.running = Some(Running {
            run_id: self.last_run_id,
            experiment: experiment.to_string(),
            lesson,
            options: options.clone(),
            phase: "starting".to_string(),
            cancelling: false,
        });
        self.message = None;
        self.last_run_id
    }

    /// Esc: mark the run as cancelling; false when there is none or it already is.
    pub fn cancel(&mut self) -> bool {
        let Some(running) = self.running.as_mut().filter(|r| !r.cancelling) else {
            return false;
        };
        running.cancelling = true;
        running.phase = "cancelling at the next step".to_string();
        true
    }

    /// The worker's backend and phase events (`Done` is the app's: it also grades).
    pub fn on_worker_status(&mut self, event: WorkerEvent) {
        match event {
            WorkerEvent::Backend(Ok(info)) => self.backend = BackendState::Ready(Box::new(info)),
            WorkerEvent::Backend(Err(why)) => self.backend = BackendState::Failed(why),
            WorkerEvent::Phase { run_id, text } => {
                if let Some(running) = self.running.as_mut()
                    && running.run_id == run_id
                    && !running.cancelling
                {
                    running.phase = text;
                }
            }
            WorkerEvent::Done { .. }
            | WorkerEvent::CheckStarted { .. }
            | WorkerEvent::Checked { .. } => {}
        }
    }

    /// Run `run_id` ended: the run it was, or `None` for a stale id.
    pub fn finish(&mut self, run_id: u64) -> Option<Running> {
        self.running.take_if(|r| r.run_id == run_id)
    }

    /// Keep the report of a finished run; `shown` is the experiment on screen.
    pub fn accept(&mut self, running: &Running, report: Box<Report>, shown: Option<&str>) {
        // Hints such as "press r" are answered now.
        self.message.take_if(|m| !m.error);
        let outcome = self.outcome_mut(&running.experiment);
        let first = outcome.report.is_none();
        outcome.accept(report);
        // The first report opens on its default view; later runs keep the view chosen.
        if first && shown == Some(running.experiment.as_str()) {
            self.view = default_view(&running.experiment);
            self.scroll = 0;
        }
    }

    /// A finished run failed: cancelled (said as such, not a failure) or why.
    pub fn failed(&mut self, running: &Running, why: String) {
        if running.cancelling {
            self.info(format!("{} cancelled; r runs it again", running.experiment));
        } else {
            self.outcome_mut(&running.experiment).error = Some(why);
        }
    }

    /// The spinner's next frame, while a run is on.
    pub fn tick(&mut self) {
        if self.is_running() {
            self.spinner = self.spinner.wrapping_add(1);
        }
    }
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;
