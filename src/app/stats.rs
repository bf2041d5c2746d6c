//! Per-lesson figures for the lesson list, the header and the quiz pane, and the question map:
//! thin wrappers over [`crate::progress::score`], which `cuda-academy list` uses too, so every
//! screen counts the same way.

use super::App;
pub use crate::progress::score::LessonStats;
use crate::progress::score::{self, Mark};

impl App {
    /// Figures for lesson `idx`; all zero for a broken lesson.
    pub fn stats(&self, idx: usize) -> LessonStats {
        let Some(lesson) = self.catalog.entries.get(idx).and_then(|e| e.lesson()) else {
            return LessonStats::default();
        };
        LessonStats::of(lesson, self.progress.lessons.get(lesson.id()))
    }

    /// Each question of lesson `idx`, in order: right, wrong, open, or waiting for a run.
    pub fn question_marks(&self, idx: usize) -> Vec<Mark> {
        let Some(lesson) = self.catalog.entries.get(idx).and_then(|e| e.lesson()) else {
            return Vec::new();
        };
        let progress = self.progress.lessons.get(lesson.id());
        lesson
            .meta
            .quiz
            .iter()
            .map(|q| score::mark(q, progress))
            .collect()
    }
}
