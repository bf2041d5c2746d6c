//! How far a learner is in one lesson, and the one wording of it that every screen uses (header,
//! lesson list, quiz pane, `list`, `list --json`): cards seen, the quiz score (first tries right
//! out of the lesson's multiple-choice questions) and the predictions score (graded predictions
//! within tolerance out of the lesson's predict questions).

use serde::Serialize;

use super::LessonProgress;
use crate::lesson::{Lesson, Question, QuestionKind};

/// Share of a lesson's multiple-choice questions to get right on the first try to pass it.
pub const PASS_SHARE: f64 = 0.6;

/// Where one question stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Not answered (or only with a stale record).
    Open,
    /// Choice: the first try was right. Predict: the graded prediction was within tolerance.
    Right,
    /// Choice: the first try was wrong (or unknown). Predict: graded, off.
    Wrong,
    /// Predict: a prediction waits for a run with default parameters.
    Pending,
}

impl Mark {
    /// The glyph of the question map: `✓ ✗ ○`, and `◌` for a prediction awaiting its run.
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Open => "○",
            Mark::Right => "✓",
            Mark::Wrong => "✗",
            Mark::Pending => "◌",
        }
    }

    /// Worth going back to: missed, or not answered yet.
    pub fn needs_review(self) -> bool {
        matches!(self, Mark::Open | Mark::Wrong)
    }
}

/// The mark of question `q` given the lesson's progress.
pub fn mark(q: &Question, progress: Option<&LessonProgress>) -> Mark {
    // A reset lesson keeps the first tries from before it: a retake never changes the score.
    if let Some(&right) = progress.and_then(|p| p.first_tries.get(&q.id)) {
        return if right { Mark::Right } else { Mark::Wrong };
    }
    let Some(record) = progress.and_then(|p| p.answers.get(&q.id)) else {
        return Mark::Open;
    };
    match q.kind {
        QuestionKind::Choice => {
            if record.first_unrecorded {
                return Mark::Wrong;
            }
            match record.scored_choice(q.choices.len()) {
                None => Mark::Open,
                Some(a) if a.correct.unwrap_or(a.choice == q.answer) => Mark::Right,
                Some(_) => Mark::Wrong,
            }
        }
        QuestionKind::Predict => match record.graded_attempt() {
            // Typed after a run had shown the value: graded and shown, never scored.
            Some(a) if a.after_seeing => Mark::Wrong,
            Some(a) if a.grade.as_ref().is_some_and(|g| g.close) => Mark::Right,
            Some(_) => Mark::Wrong,
            None if record.pending_prediction().is_some() => Mark::Pending,
            None => Mark::Open,
        },
    }
}

/// One lesson's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct LessonStats {
    /// Cards in the lesson.
    pub cards: usize,
    /// Distinct cards seen.
    pub cards_seen: usize,
    /// Multiple-choice questions in the lesson.
    pub quiz_questions: usize,
    /// Of those, answered (first try known).
    pub quiz_answered: usize,
    /// Of those, right on the first try.
    pub quiz_right: usize,
    /// Predict questions in the lesson.
    pub predict_questions: usize,
    /// Predictions typed (graded or waiting for a run).
    pub predictions_made: usize,
    /// Predictions graded against a run with default parameters.
    pub predictions_graded: usize,
    /// Graded predictions within the question's tolerance.
    pub predictions_close: usize,
    /// Every card seen and at least [`PASS_SHARE`] of the quiz right on the first try.
    pub passed: bool,
    /// Times the lesson was reset; its first-try scores are kept from before the first.
    pub resets: u32,
}

impl LessonStats {
    /// The figures of `lesson` given its progress (`None`: nothing done yet).
    pub fn of(lesson: &Lesson, progress: Option<&LessonProgress>) -> LessonStats {
        let cards = lesson.cards.len();
        let mut s = LessonStats {
            cards,
            cards_seen: progress.map_or(0, |p| p.seen_count(cards)),
            resets: progress.map_or(0, |p| p.resets),
            ..LessonStats::default()
        };
        for q in &lesson.meta.quiz {
            let m = mark(q, progress);
            match q.kind {
                QuestionKind::Choice => {
                    s.quiz_questions += 1;
                    s.quiz_answered += usize::from(m != Mark::Open);
                    s.quiz_right += usize::from(m == Mark::Right);
                }
                QuestionKind::Predict => {
                    s.predict_questions += 1;
                    s.predictions_made += usize::from(m != Mark::Open);
                    s.predictions_graded += usize::from(matches!(m, Mark::Right | Mark::Wrong));
                    s.predictions_close += usize::from(m == Mark::Right);
                }
            }
        }
        let needed = (s.quiz_questions as f64 * PASS_SHARE).ceil() as usize;
        s.passed = s.complete() && s.quiz_right >= needed;
        s
    }

    /// Every card seen.
    pub fn complete(&self) -> bool {
        self.cards > 0 && self.cards_seen >= self.cards
    }

    /// `quiz 4/5 · predictions 1/2`: each part only when the lesson has such questions; empty
    /// for a lesson without questions.
    pub fn score_text(&self) -> String {
        let mut parts = Vec::new();
        if self.quiz_questions > 0 {
            parts.push(format!("quiz {}/{}", self.quiz_right, self.quiz_questions));
        }
        if self.predict_questions > 0 {
            let noun = if self.predict_questions == 1 {
                "prediction"
            } else {
                "predictions"
            };
            parts.push(format!(
                "{noun} {}/{}",
                self.predictions_close, self.predict_questions
            ));
        }
        parts.join(" · ")
    }
}
