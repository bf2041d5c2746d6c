//! One question's answers: every attempt in order. The first is the one scored; later ones are
//! practice. A prediction's grade is frozen on the attempt it graded, with the run that did it.

use serde::{Deserialize, Serialize};

use super::RunSource;

/// Attempts kept per question; beyond it the oldest practice attempts are dropped (and counted
/// in [`AnswerRecord::unrecorded`]), never the first.
pub const MAX_ATTEMPTS: usize = 100;

/// Every answer given to one question.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AnswerRecord {
    /// Oldest first.
    #[serde(default)]
    pub attempts: Vec<Attempt>,
    /// Attempts made but not stored: a version-1 file kept only the latest answer, and practice
    /// beyond [`MAX_ATTEMPTS`] is dropped. Saturates.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unrecorded: u32,
    /// The first attempt is among the unrecorded ones (a version-1 file with retries): the
    /// first try is unknown, so the question does not score as right.
    #[serde(default, skip_serializing_if = "is_false")]
    pub first_unrecorded: bool,
}

/// One answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// When it was given (ms since the Unix epoch; 0 for an answer migrated from version 1).
    pub at: u64,
    /// Choice questions: the option chosen, as an index into the lesson file's `choices`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<usize>,
    /// Choice questions: whether it was the lesson's answer when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correct: Option<bool>,
    /// Predict questions: the number typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted: Option<f64>,
    /// Predict questions: the grade, once a run with default parameters measured the metric.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grade: Option<Grade>,
    /// Predict questions: a measured value of the metric was already on screen when this was
    /// typed (the grade says so; it still counts).
    #[serde(default, skip_serializing_if = "is_false")]
    pub after_seeing: bool,
}

/// A prediction's frozen grade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grade {
    /// When it was graded.
    pub at: u64,
    /// The metric's measured value and unit.
    pub measured: f64,
    pub unit: String,
    /// The question's tolerance at grading time, in percent of the measured value.
    pub tolerance_pct: f64,
    /// Within the tolerance: counts as right.
    pub close: bool,
    /// The run that measured it.
    pub run: RunSource,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Attempt {
    /// A choice answer given now.
    pub fn choice(choice: usize, correct: bool, at: u64) -> Attempt {
        Attempt {
            at,
            choice: Some(choice),
            correct: Some(correct),
            predicted: None,
            grade: None,
            after_seeing: false,
        }
    }

    /// A prediction typed now.
    pub fn prediction(value: f64, at: u64) -> Attempt {
        Attempt {
            at,
            choice: None,
            correct: None,
            predicted: Some(value),
            grade: None,
            after_seeing: false,
        }
    }
}

impl Grade {
    /// How far `predicted` is from the measured value, in percent of it (`None` when the
    /// measured value is zero).
    pub fn off_pct(&self, predicted: f64) -> Option<f64> {
        (self.measured != 0.0)
            .then(|| (predicted - self.measured).abs() / self.measured.abs() * 100.0)
    }
}

impl AnswerRecord {
    /// Every attempt made, stored or not (saturating).
    pub fn count(&self) -> u32 {
        let stored = u32::try_from(self.attempts.len()).unwrap_or(u32::MAX);
        self.unrecorded.saturating_add(stored)
    }

    /// Add an attempt, keeping the first and dropping the oldest practice beyond the cap.
    pub fn push(&mut self, attempt: Attempt) {
        self.attempts.push(attempt);
        while self.attempts.len() > MAX_ATTEMPTS {
            self.attempts.remove(1);
            self.unrecorded = self.unrecorded.saturating_add(1);
        }
    }

    /// The latest attempt.
    pub fn latest(&self) -> Option<&Attempt> {
        self.attempts.last()
    }

    /// The first attempt whose choice is one of `n` options (a stale record from an edited
    /// lesson, with a choice out of range, is not scored). `None` when the first try is unknown.
    pub fn scored_choice(&self, n: usize) -> Option<&Attempt> {
        if self.first_unrecorded {
            return None;
        }
        self.attempts
            .iter()
            .find(|a| a.choice.is_some_and(|c| c < n))
    }

    /// The prediction that was graded (the first graded one), with its grade.
    pub fn graded(&self) -> Option<(f64, &Grade)> {
        let attempt = self.graded_attempt()?;
        Some((attempt.predicted?, attempt.grade.as_ref()?))
    }

    /// The attempt that holds the grade.
    pub fn graded_attempt(&self) -> Option<&Attempt> {
        self.attempts
            .iter()
            .filter(|a| a.predicted.is_some())
            .filter_map(|a| Some((a, a.grade.as_ref()?.at)))
            .min_by_key(|(_, at)| *at)
            .map(|(a, _)| a)
    }

    /// The prediction in force before any grade: the latest one typed.
    pub fn pending_prediction(&self) -> Option<f64> {
        if self.graded().is_some() {
            return None;
        }
        self.attempts.iter().rev().find_map(|a| a.predicted)
    }

    /// Drop attempts made before `reset_at`.
    /// Whether the first try was right: a choice's first choice, or a prediction's first
    /// grade; `None` when there is none yet (or it is unknown: then not right).
    pub fn first_try_right(&self) -> Option<bool> {
        if self.first_unrecorded {
            return Some(false);
        }
        if let Some(a) = self.attempts.iter().find(|a| a.choice.is_some()) {
            return Some(a.correct.unwrap_or(false));
        }
        self.graded_attempt()
            .and_then(|a| a.grade.as_ref().map(|g| g.close && !a.after_seeing))
    }

    pub(super) fn forget_before(&mut self, reset_at: u64) {
        if reset_at == 0 {
            return;
        }
        self.attempts.retain(|a| a.at >= reset_at);
        self.unrecorded = 0;
        self.first_unrecorded = false;
    }
}
