//! Predict, then measure. A prediction is graded by the first run that completes after it was
//! typed **with the experiment's default parameters**; the grade is then frozen, with the
//! measured value, the run's parameters and backend (in progress). The last default run of each
//! experiment is kept in progress too, and is what `{{metric:NAME}}` in lesson text quotes; a
//! run with other parameters is quoted only when there is no default one, and then says which
//! parameters it used. The card that gives a prediction's answer is withheld until the learner
//! has predicted (`withhold`).

use std::collections::BTreeMap;

mod withhold;
mod wording;

pub use wording::{
    backend_words, closeness, describe_options, domain_error, format_value_in, metric_unit,
};

use super::App;
use super::panel::Running;
use crate::experiment::ExperimentOptions;
use crate::lesson::QuestionKind;
use crate::metric_text::format_metric;
use crate::progress::{Grade, SavedRun, now_ms};
use crate::report::{Metric, Report};
use wording::quoted;

/// Whether `predicted` is within `tolerance_pct` percent of `measured` on a log scale: off by
/// at most a factor of `1 + tolerance_pct / 100` either way, so a guess twice too high and one
/// half as high are equally far. Values of different signs (or zero beside non-zero) are off.
pub fn within_tolerance(predicted: f64, measured: f64, tolerance_pct: f64) -> bool {
    if predicted == measured {
        return true;
    }
    if predicted == 0.0 || measured == 0.0 || (predicted < 0.0) != (measured < 0.0) {
        return false;
    }
    off_factor(predicted, measured) <= 1.0 + tolerance_pct.max(0.0) / 100.0
}

/// How many times too high or too low `predicted` is (1 when exact; infinite for a value of
/// the other sign or zero).
pub fn off_factor(predicted: f64, measured: f64) -> f64 {
    if predicted == measured {
        return 1.0;
    }
    if predicted == 0.0 || measured == 0.0 || (predicted < 0.0) != (measured < 0.0) {
        return f64::INFINITY;
    }
    let r = predicted / measured;
    r.max(1.0 / r)
}

/// A question's tolerance when the lesson gives none.
pub const DEFAULT_TOLERANCE_PCT: f64 = 10.0;

/// Runs this session that progress does not keep: the last run of each experiment with other
/// parameters than the defaults (default runs are in `progress.results`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunLedger {
    /// Experiment id -> its latest run with other parameters, newer than its default run.
    odd: BTreeMap<String, (SavedRun, ExperimentOptions)>,
}

impl App {
    /// A run completed: keep its results (persisted when it used the default parameters), and
    /// grade the predictions it settles. Returns whether progress changed (save it).
    pub(super) fn record_run(&mut self, running: &Running, report: &Report) -> bool {
        let run = SavedRun::from_report(report, now_ms());
        if running.options == ExperimentOptions::default() {
            self.runs.odd.remove(&report.experiment);
            self.grade_predictions(&run);
            self.progress.results.insert(report.experiment.clone(), run);
            return true;
        }
        // Other parameters: quotable with its parameters, never a grade.
        let odd = (run, running.options.clone());
        self.runs.odd.insert(report.experiment.clone(), odd);
        false
    }

    /// Grade every waiting prediction whose metric `run` measured, in the lessons that run
    /// its experiment.
    fn grade_predictions(&mut self, run: &SavedRun) {
        for entry in &self.catalog.entries {
            let Some(lesson) = entry.lesson() else {
                continue;
            };
            if !lesson.meta.experiments.contains(&run.source.experiment) {
                continue;
            }
            let Some(progress) = self.progress.lessons.get_mut(lesson.id()) else {
                continue;
            };
            for q in lesson
                .meta
                .quiz
                .iter()
                .filter(|q| q.kind == QuestionKind::Predict)
            {
                let Some(metric) = q.metric.as_deref().and_then(|m| run.metrics.get(m)) else {
                    continue;
                };
                let Some(record) = progress.answers.get_mut(&q.id) else {
                    continue;
                };
                if record.graded().is_some() {
                    continue; // frozen
                }
                let Some(attempt) = record
                    .attempts
                    .iter_mut()
                    .rev()
                    .find(|a| a.predicted.is_some())
                else {
                    continue;
                };
                let predicted = attempt.predicted.unwrap_or(f64::NAN);
                let tolerance = q.tolerance_pct.unwrap_or(DEFAULT_TOLERANCE_PCT);
                attempt.grade = Some(Grade {
                    at: run.at,
                    measured: metric.value,
                    unit: metric.unit.clone(),
                    tolerance_pct: tolerance,
                    close: within_tolerance(predicted, metric.value, tolerance),
                    run: run.source.clone(),
                });
            }
        }
    }

    /// The value of metric `name` for lesson text, e.g. `55.1 GB/s` (naming the backend only where another one measured it): from the last
    /// run with default parameters (the open lesson's experiments first); failing that, from a
    /// run with other parameters, naming them. `None` before any run measured it.
    pub fn metric_text(&self, name: &str) -> Option<String> {
        let lesson_experiments = self.experiments();
        let default_run = lesson_experiments
            .iter()
            .filter_map(|id| self.progress.results.get(id))
            .find(|r| r.metrics.contains_key(name))
            .or_else(|| {
                let mut all: Vec<&SavedRun> = self.progress.results.values().collect();
                all.sort_by_key(|r| std::cmp::Reverse(r.at));
                all.into_iter().find(|r| r.metrics.contains_key(name))
            });
        if let Some(run) = default_run {
            let now = self.panel.backend.kind();
            return Some(quoted(&run.metrics[name], run.source.backend, now, None));
        }
        let (run, options) = self
            .runs
            .odd
            .values()
            .filter(|(r, _)| r.metrics.contains_key(name))
            .max_by_key(|(r, _)| r.at)?;
        let params = describe_options(options);
        Some(quoted(
            &run.metrics[name],
            run.source.backend,
            self.panel.backend.kind(),
            Some(&params),
        ))
    }

    /// `value  (you predicted X)` for the results view, when the open lesson has a prediction
    /// of metric `name`; else `value` unchanged.
    pub fn with_prediction(&self, name: &str, value: String) -> String {
        let Some(lesson) = self.entry().and_then(|e| e.lesson()) else {
            return value;
        };
        let progress = self.progress.lessons.get(lesson.id());
        let predicted = lesson
            .meta
            .quiz
            .iter()
            .filter(|q| q.kind == QuestionKind::Predict && q.metric.as_deref() == Some(name))
            .find_map(|q| {
                let record = progress?.answers.get(&q.id)?;
                record
                    .graded()
                    .map(|(p, _)| p)
                    .or(record.pending_prediction())
            });
        match (predicted, metric_unit(name)) {
            (Some(p), Some(unit)) => {
                let p = format_metric(&Metric::new(p, unit));
                format!("{value}  (you predicted {p})")
            }
            _ => value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerance_is_a_percentage_of_the_measured_value() {
        assert!(within_tolerance(50.0, 55.0, 10.0));
        assert!(!within_tolerance(40.0, 55.0, 10.0));
        // Log scale: twice too high and half as high are equally far.
        assert!(within_tolerance(110.0, 55.0, 100.0) && within_tolerance(27.5, 55.0, 100.0));
        assert!(!within_tolerance(110.0, 55.0, 99.0) && !within_tolerance(27.5, 55.0, 99.0));
        assert!((off_factor(27.5, 55.0) - off_factor(110.0, 55.0)).abs() < 1e-12);
        assert!(within_tolerance(55.0, 55.0, 0.0));
        assert!(!within_tolerance(1.0, 0.0, 50.0) && within_tolerance(0.0, 0.0, 50.0));
    }
}
