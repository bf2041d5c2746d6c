//! Predict, then measure: grading the lesson's predict questions when a run reports their metric,
//! and the measured values that lesson text (`{{metric:NAME}}`) and the quiz pane show.

use super::App;
use crate::lesson::QuestionKind;
use crate::report::Report;

/// Whether `predicted` is within `tolerance_pct` percent of `measured`.
pub fn within_tolerance(predicted: f64, measured: f64, tolerance_pct: f64) -> bool {
    let allowed = measured.abs() * tolerance_pct.max(0.0) / 100.0;
    (predicted - measured).abs() <= allowed
}

impl App {
    /// Grade every prediction of lesson `lesson` whose metric `report` measured; returns how
    /// many were graded. Only predictions already typed are graded (one typed later is graded
    /// by the next run).
    pub(super) fn grade_predictions(&mut self, lesson: usize, report: &Report) -> usize {
        let Some(l) = self.catalog.entries.get(lesson).and_then(|e| e.lesson()) else {
            return 0;
        };
        let id = l.id().to_string();
        let questions: Vec<_> = l
            .meta
            .quiz
            .iter()
            .filter(|q| q.kind == QuestionKind::Predict)
            .filter_map(|q| {
                let metric = report.metrics.get(q.metric.as_deref()?)?;
                Some((q.id.clone(), metric.value, q.tolerance_pct.unwrap_or(10.0)))
            })
            .collect();
        let Some(progress) = self.progress.lessons.get_mut(&id) else {
            return 0;
        };
        let mut graded = 0;
        for (qid, measured, tolerance) in questions {
            if let Some(record) = progress.answers.get_mut(&qid)
                && let Some(predicted) = record.predicted
            {
                record.correct = Some(within_tolerance(predicted, measured, tolerance));
                graded += 1;
            }
        }
        graded
    }

    /// The measured value of metric `name` for lesson text and the quiz, e.g. `55.1 GB/s`;
    /// `None` before a run measured it.
    pub fn metric_text(&self, name: &str) -> Option<String> {
        let metric = self.panel.measured.get(name)?;
        let text = crate::ui::metrics::format_metric(metric);
        if self.panel.simulated.contains(name) {
            Some(format!("{text} (simulated)"))
        } else {
            Some(text)
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
        assert!(within_tolerance(55.0, 55.0, 0.0));
        assert!(!within_tolerance(1.0, 0.0, 50.0) && within_tolerance(0.0, 0.0, 50.0));
    }
}
