//! The learner's progress: which card each lesson is at, answers and scores. Versioned JSON in
//! `progress.json` under the XDG state dir (`$CUDA_ACADEMY_STATE_DIR` overrides), saved
//! atomically; an unreadable file is renamed aside, never silently overwritten.
//!
//! The policy, in one place: [`load`] never fails (a missing file is a fresh start; a file it
//! cannot parse is moved to `progress.json.corrupt-<UTC time>` and a banner says so), and [`save`]
//! never replaces a `progress.json` it cannot parse (that only happens when moving it aside
//! failed), so a learner's history is never lost without a word.

mod aside;
mod store;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use store::{load, peek, save};

/// Version of the file format written by this build.
pub const PROGRESS_VERSION: u32 = 1;

/// Name of the progress file inside the state dir.
pub const FILE_NAME: &str = "progress.json";

/// Environment variable that overrides the state dir (used by tests and for portable installs).
pub const STATE_DIR_ENV: &str = "CUDA_ACADEMY_STATE_DIR";

/// Everything the app remembers between runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub version: u32,
    /// Lesson id of the lesson open at quit, to resume there.
    #[serde(default)]
    pub current_lesson: Option<String>,
    /// Lesson id -> that lesson's progress.
    #[serde(default)]
    pub lessons: BTreeMap<String, LessonProgress>,
}

/// One lesson's progress.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// Card the learner was on (0-based).
    #[serde(default)]
    pub card: usize,
    /// Cards seen (0-based indices).
    #[serde(default)]
    pub seen: Vec<usize>,
    /// Question id -> the learner's latest answer.
    #[serde(default)]
    pub answers: BTreeMap<String, AnswerRecord>,
}

/// The learner's latest answer to one question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerRecord {
    /// Choice questions: the option chosen (0-based).
    pub choice: Option<usize>,
    /// Predict questions: the number typed.
    pub predicted: Option<f64>,
    /// Whether the latest answer was right (predict: `None` until graded against a run).
    pub correct: Option<bool>,
    /// How many times it was answered (retries count).
    pub attempts: u32,
}

/// What loading found.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub progress: Progress,
    /// Set when the file was unreadable and moved aside: say so on screen.
    pub banner: Option<String>,
}

impl Progress {
    /// An empty progress record of the current version.
    pub fn fresh() -> Progress {
        Progress {
            version: PROGRESS_VERSION,
            ..Progress::default()
        }
    }

    /// Forget one lesson (the "reset lesson" action). Returns whether there was anything to forget.
    pub fn reset_lesson(&mut self, lesson_id: &str) -> bool {
        let removed = self.lessons.remove(lesson_id).is_some();
        if self.current_lesson.as_deref() == Some(lesson_id) {
            self.current_lesson = None;
        }
        removed
    }

    /// Forget everything (the "reset all" action).
    pub fn reset_all(&mut self) {
        *self = Progress::fresh();
    }
}

impl LessonProgress {
    /// Number of distinct cards seen below `card_count` (stale indices from an edited lesson
    /// do not count).
    pub fn seen_count(&self, card_count: usize) -> usize {
        let seen: std::collections::BTreeSet<usize> = self
            .seen
            .iter()
            .copied()
            .filter(|&c| c < card_count)
            .collect();
        seen.len()
    }

    /// Number of questions whose latest answer was right.
    pub fn correct_count(&self) -> usize {
        self.answers
            .values()
            .filter(|a| a.correct == Some(true))
            .count()
    }
}

/// The progress file inside `dir`.
pub fn path(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

/// `$CUDA_ACADEMY_STATE_DIR` when set and non-empty, else the XDG state dir
/// (`$XDG_STATE_HOME/cuda-academy`, default `~/.local/state/cuda-academy`), else the data dir
/// on platforms without a state dir.
pub fn state_dir() -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::var_os(STATE_DIR_ENV).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    use etcetera::app_strategy::{AppStrategy, AppStrategyArgs, choose_app_strategy};
    let strategy = choose_app_strategy(AppStrategyArgs {
        top_level_domain: "org".to_string(),
        author: "cuda-academy".to_string(),
        app_name: "cuda-academy".to_string(),
    })
    .map_err(|_| {
        anyhow::anyhow!(
            "cannot find your home directory to keep progress in; set ${STATE_DIR_ENV} to a folder"
        )
    })?;
    Ok(strategy.state_dir().unwrap_or_else(|| strategy.data_dir()))
}
