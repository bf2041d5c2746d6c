//! Per-lesson figures for the lesson list and the header: cards seen, quiz score.

use super::App;
use crate::lesson::QuestionKind;

/// How far the learner is in one lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LessonStats {
    /// Distinct cards seen.
    pub seen: usize,
    /// Cards in the lesson.
    pub cards: usize,
    /// Choice questions answered right (latest answer).
    pub right: usize,
    /// Choice questions answered at all.
    pub answered: usize,
    /// Choice questions in the lesson.
    pub questions: usize,
    /// Predictions recorded.
    pub predicted: usize,
}

impl LessonStats {
    /// Every card seen.
    pub fn complete(&self) -> bool {
        self.cards > 0 && self.seen >= self.cards
    }
}

impl App {
    /// Figures for lesson `idx`; all zero for a broken lesson.
    pub fn stats(&self, idx: usize) -> LessonStats {
        let Some(lesson) = self.catalog.entries.get(idx).and_then(|e| e.lesson()) else {
            return LessonStats::default();
        };
        let progress = self.progress.lessons.get(lesson.id());
        let cards = lesson.cards.len();
        let mut stats = LessonStats {
            cards,
            seen: progress.map_or(0, |p| p.seen.iter().filter(|&&c| c < cards).count()),
            ..LessonStats::default()
        };
        for q in &lesson.meta.quiz {
            let record = progress.and_then(|p| p.answers.get(&q.id));
            match q.kind {
                QuestionKind::Choice => {
                    stats.questions += 1;
                    if let Some(correct) = record.and_then(|r| r.correct) {
                        stats.answered += 1;
                        stats.right += usize::from(correct);
                    }
                }
                QuestionKind::Predict => {
                    stats.predicted += usize::from(record.is_some_and(|r| r.predicted.is_some()));
                }
            }
        }
        stats
    }
}
