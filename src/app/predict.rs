//! Predict, then measure. A prediction is graded by the first run that completes after it was
//! typed **with the experiment's default parameters**; the grade is then frozen, with the
//! measured value, the run's parameters and backend (in progress). The last default run of each
//! experiment is kept in progress too, and is what `{{metric:NAME}}` in lesson text quotes; a
//! run with other parameters is quoted only when there is no default one, and then says which
//! parameters it used.

use std::collections::BTreeMap;

use super::App;
use crate::experiment::ExperimentOptions;
use crate::experiment::options::format_bytes;
use crate::lesson::QuestionKind;
use crate::progress::{Grade, RunSource, SavedRun, now_ms};
use crate::report::{BackendKind, HostMemKind, Metric, Report};
use crate::ui::metrics::format_metric;

/// Whether `predicted` is within `tolerance_pct` percent of `measured`.
pub fn within_tolerance(predicted: f64, measured: f64, tolerance_pct: f64) -> bool {
    let allowed = measured.abs() * tolerance_pct.max(0.0) / 100.0;
    (predicted - measured).abs() <= allowed
}

/// A question's tolerance when the lesson gives none.
pub const DEFAULT_TOLERANCE_PCT: f64 = 10.0;

/// How close a prediction came, in the bands every grade names.
pub fn closeness(off_pct: f64) -> &'static str {
    if off_pct <= 10.0 {
        "within 10%"
    } else if off_pct <= 25.0 {
        "within 25%"
    } else if off_pct <= 50.0 {
        "within 50%"
    } else {
        "more than 50% off"
    }
}

/// Runs this session: the options each run started with (to know whether it used the defaults
/// when it completes), and the last run of each experiment with other parameters.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunLedger {
    started: BTreeMap<u64, ExperimentOptions>,
    /// Experiment id -> its latest run with other parameters, newer than its default run.
    odd: BTreeMap<String, (SavedRun, ExperimentOptions)>,
}

impl RunLedger {
    /// Run `run_id` starts with `options`.
    pub fn started(&mut self, run_id: u64, options: &ExperimentOptions) {
        self.started.insert(run_id, options.clone());
    }
}

impl App {
    /// A run completed: keep its results (persisted when it used the default parameters), and
    /// grade the predictions it settles. Returns whether progress changed (save it).
    pub(super) fn record_run(&mut self, run_id: u64, report: &Report) -> bool {
        let options = self.runs.started.remove(&run_id);
        let run = SavedRun {
            at: now_ms(),
            source: RunSource {
                experiment: report.experiment.clone(),
                backend: report.backend.kind,
                device: report.backend.device.clone(),
                params: report.params.clone(),
            },
            metrics: report.metrics.clone(),
        };
        match options {
            Some(options) if options == ExperimentOptions::default() => {
                self.runs.odd.remove(&report.experiment);
                self.grade_predictions(&run);
                self.progress.results.insert(report.experiment.clone(), run);
                true
            }
            // Unknown or other parameters: quotable with its parameters, never a grade.
            other => {
                let options = other.unwrap_or_default();
                self.runs
                    .odd
                    .insert(report.experiment.clone(), (run, options));
                false
            }
        }
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

    /// The value of metric `name` for lesson text, e.g. `55.1 GB/s (simulated)`: from the last
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
            return Some(quoted(&run.metrics[name], run.source.backend, None));
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

/// `value` with `unit` as the screen writes it: `2.50x`, `812 µs`, `55.1 GB/s`.
pub fn format_value_in(value: f64, unit: &str) -> String {
    format_metric(&Metric::new(value, unit))
}

/// `55.1 GB/s (simulated)`, `8.10 GB/s (simulated; size 64 MiB)`, `55.1 GB/s (size 64 MiB)`.
fn quoted(metric: &Metric, backend: BackendKind, params: Option<&str>) -> String {
    let value = format_metric(metric);
    let simulated = backend == BackendKind::Simulated;
    match (simulated, params) {
        (false, None) => value,
        (true, None) => format!("{value} (simulated)"),
        (false, Some(p)) => format!("{value} ({p})"),
        (true, Some(p)) => format!("{value} (simulated; {p})"),
    }
}

/// The options a learner set, in words: `size 64 MiB, 1 stream, 16 chunks, pageable memory`.
pub fn describe_options(o: &ExperimentOptions) -> String {
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    if let Some(size) = o.size {
        parts.push(format!("size {}", format_bytes(size)));
    }
    if let Some(s) = o.streams {
        parts.push(plural(s, "stream", "streams"));
    }
    if let Some(c) = o.chunks {
        parts.push(plural(c, "chunk", "chunks"));
    }
    if let Some(m) = o.host_mem {
        parts.push(
            match m {
                HostMemKind::Pageable => "pageable memory",
                HostMemKind::Pinned => "pinned memory",
                HostMemKind::WriteCombined => "write-combined memory",
                HostMemKind::Registered => "registered memory",
            }
            .to_string(),
        );
    }
    if let Some(order) = o.issue_order {
        parts.push(format!("{} order", order.name()));
    }
    if let Some(r) = o.repetitions {
        parts.push(plural(r, "repetition", "repetitions"));
    }
    if parts.is_empty() {
        "parameters not recorded".to_string()
    } else {
        parts.join(", ")
    }
}

/// The unit of metric `name`, from the experiments' metric contract.
pub fn metric_unit(name: &str) -> Option<&'static str> {
    crate::experiment::IDS
        .iter()
        .flat_map(|id| crate::experiment::metrics::required(id).iter())
        .find(|(n, _)| *n == name)
        .map(|(_, unit)| *unit)
}

/// Why `value` cannot be a value of a metric in `unit`, if it cannot: every metric is positive,
/// and a ratio (bound / best) is at most 1.
pub fn domain_error(value: f64, unit: &str) -> Option<String> {
    let shown = format_metric(&Metric::new(value, unit));
    if !value.is_finite() {
        return Some("type a number such as 4.5, then Enter".to_string());
    }
    if value <= 0.0 {
        let what = match unit {
            "GB/s" => "a bandwidth",
            "x" => "a speedup",
            "us" | "ms" | "ms/GiB" => "a time",
            _ => "this value",
        };
        return Some(format!("{shown} cannot be right: {what} is more than 0"));
    }
    if unit == "ratio" && value > 1.0 {
        return Some(format!("{shown} cannot be right: this ratio is at most 1"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerance_is_a_percentage_of_the_measured_value() {
        assert!(within_tolerance(50.0, 55.0, 10.0));
        assert!(!within_tolerance(40.0, 55.0, 10.0));
        assert!(within_tolerance(55.0, 55.0, 0.0));
        assert!(!within_tolerance(1.0, 0.0, 50.0) && within_tolerance(0.0, 0.0, 50.0));
    }

    #[test]
    fn closeness_bands_and_domains() {
        assert_eq!(closeness(9.9), "within 10%");
        assert_eq!(closeness(40.4), "within 50%");
        assert_eq!(closeness(51.0), "more than 50% off");
        assert!(domain_error(-5.0, "GB/s").unwrap().contains("bandwidth"));
        assert!(domain_error(0.0, "x").unwrap().contains("speedup"));
        assert!(domain_error(1.5, "ratio").is_some());
        assert_eq!(domain_error(2.5, "x"), None);
        assert_eq!(metric_unit("speedup"), Some("x"));
        assert_eq!(metric_unit("nope"), None);
    }

    #[test]
    fn options_read_as_words() {
        let o = ExperimentOptions {
            size: Some(64 << 20),
            streams: Some(1),
            chunks: Some(16),
            host_mem: Some(HostMemKind::Pageable),
            ..ExperimentOptions::default()
        };
        assert_eq!(
            describe_options(&o),
            "size 64 MiB, 1 stream, 16 chunks, pageable memory"
        );
    }
}
