//! The learner's progress: which card each lesson is at, every answer, predictions with the run
//! that graded them, and the last default-parameter results of each experiment. Versioned JSON in
//! `progress.json` under the XDG state dir (`$CUDA_ACADEMY_STATE_DIR` overrides), saved
//! atomically; an unreadable file is renamed aside, never silently overwritten.
//!
//! The policy, in one place: [`load`] never fails (a missing file is a fresh start; a file it
//! cannot parse is moved to `progress.json.corrupt-<UTC time>` and a banner says so; a version-1
//! file is migrated, keeping every answer), and [`save`] re-reads the file and merges it with the
//! record in memory before writing (two instances never lose each other's work), and never
//! replaces a `progress.json` it cannot parse.

mod answer;
mod aside;
mod clock;
mod detail;
mod merge;
#[cfg(test)]
mod merge_tests;
mod migrate;
pub mod score;
pub mod shuffle;
mod store;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::report::{BackendKind, Metric, Params};

pub use answer::{AnswerRecord, Attempt, Grade, MAX_ATTEMPTS};
pub use clock::now_ms;
pub use detail::{DETAIL_CAP, HEADLINE as SAVED_HEADLINE, RunDetail};
pub use merge::merge;
pub use store::{load, peek, peek_or_why, save};

/// Version of the file format written by this build (1: latest answer only; 2: every attempt,
/// graded predictions, timestamps for merging, the shuffle seed and saved results).
pub const PROGRESS_VERSION: u32 = 2;

/// Name of the progress file inside the state dir.
pub const FILE_NAME: &str = "progress.json";

/// Environment variable that overrides the state dir (used by tests and for portable installs).
pub const STATE_DIR_ENV: &str = "CUDA_ACADEMY_STATE_DIR";

/// Everything the app remembers between runs. Times (`*_at`) are milliseconds since the Unix
/// epoch; they decide which record is newer when two instances' files are merged.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub version: u32,
    /// Orders each question's options for this learner ([`shuffle`]); made on first launch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Lesson id of the lesson open at quit, to resume there.
    #[serde(default)]
    pub current_lesson: Option<String>,
    /// When `current_lesson` was set.
    #[serde(default)]
    pub current_at: u64,
    /// When everything was last reset: older records do not count (and are dropped on merge).
    #[serde(default)]
    pub reset_at: u64,
    /// Lesson id -> that lesson's progress.
    #[serde(default)]
    pub lessons: BTreeMap<String, LessonProgress>,
    /// Experiment id -> its last run with default parameters: its metrics, so cards keep quoting
    /// "in your run" values after a relaunch, and what the panel shows of it ([`RunDetail`]).
    #[serde(default)]
    pub results: BTreeMap<String, SavedRun>,
}

/// One lesson's progress.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// Card the learner was on (0-based).
    #[serde(default)]
    pub card: usize,
    /// When `card` was set (the last card visit).
    #[serde(default)]
    pub card_at: u64,
    /// Cards seen (0-based indices).
    #[serde(default)]
    pub seen: Vec<usize>,
    /// Question id -> every answer given to it.
    #[serde(default)]
    pub answers: BTreeMap<String, AnswerRecord>,
    /// When this lesson was last reset: older records do not count.
    #[serde(default)]
    pub reset_at: u64,
    /// How many times the lesson was reset (kept across resets; `list` shows it).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub resets: u32,
    /// The option order's seed of this lesson since its last reset ([`shuffle`]): a retake sees
    /// the options in a new order. `None` before any reset (the learner's own seed alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset_seed: Option<u64>,
    /// Question id -> whether its first try (before any reset) was right: what the scores
    /// count, which a retake never changes. Filled at a reset from the answers it clears.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub first_tries: BTreeMap<String, bool>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Which run produced a value: enough to say "measured 1.78x (simulated; default parameters)".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSource {
    /// Experiment id.
    pub experiment: String,
    pub backend: BackendKind,
    /// The GPU, or the GPU the simulator's profile models.
    pub device: String,
    /// The parameters the run used (after fitting the size to memory).
    pub params: Params,
}

/// An experiment's last default-parameter results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedRun {
    /// When the run completed.
    pub at: u64,
    pub source: RunSource,
    pub metrics: BTreeMap<String, Metric>,
    /// Checks, notes, series and the timelines that fit ([`RunDetail`]); absent in files
    /// written before it was kept, which still load. One this build cannot read (a newer
    /// version's) is dropped, never the file: the run keeps its metrics.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "detail::lenient"
    )]
    pub detail: Option<RunDetail>,
}

/// What loading found.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub progress: Progress,
    /// Set when the file was unreadable and moved aside: say so on screen.
    pub banner: Option<String>,
}

impl Progress {
    /// An empty progress record of the current version, without a seed (tests and fixtures get
    /// the same option order every time; [`Progress::new_learner`] is what a first launch gets).
    pub fn fresh() -> Progress {
        Progress {
            version: PROGRESS_VERSION,
            ..Progress::default()
        }
    }

    /// A first launch: a fresh record with a random shuffle seed.
    pub fn new_learner() -> Progress {
        Progress {
            seed: Some(shuffle::random_seed()),
            ..Progress::fresh()
        }
    }

    /// Forget one lesson (the "reset lesson" action), remembering when, so a merge with another
    /// instance's older records does not bring them back. Returns whether there was anything.
    pub fn reset_lesson(&mut self, lesson_id: &str) -> bool {
        let now = now_ms();
        let old = self.lessons.remove(lesson_id).unwrap_or_default();
        let had = !old.is_empty();
        let mut first_tries = old.first_tries.clone();
        for (qid, record) in &old.answers {
            if let Some(right) = record.first_try_right() {
                first_tries.entry(qid.clone()).or_insert(right);
            }
        }
        self.lessons.insert(
            lesson_id.to_string(),
            LessonProgress {
                reset_at: now,
                resets: old.resets.saturating_add(1),
                reset_seed: Some(shuffle::random_seed()),
                first_tries,
                ..LessonProgress::default()
            },
        );
        if self.current_lesson.as_deref() == Some(lesson_id) {
            self.current_lesson = None;
            self.current_at = now;
        }
        had
    }

    /// Forget every lesson (the "reset all" action); the seed and saved results stay.
    pub fn reset_all(&mut self) {
        let now = now_ms();
        self.lessons.clear();
        self.current_lesson = None;
        self.current_at = now;
        self.reset_at = now;
    }

    /// Record that card `card` of lesson `lesson_id` is open: seen, and the place to resume.
    pub fn visit(&mut self, lesson_id: &str, card: usize) {
        let now = now_ms();
        self.current_lesson = Some(lesson_id.to_string());
        self.current_at = now;
        let entry = self.lessons.entry(lesson_id.to_string()).or_default();
        entry.card = card;
        entry.card_at = now;
        if let Err(at) = entry.seen.binary_search(&card) {
            entry.seen.insert(at, card);
        }
    }

    /// The shuffle seed (0 for a record that has none yet).
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(0)
    }
}

impl LessonProgress {
    /// Number of distinct cards seen below `card_count` (stale indices from an edited lesson
    /// do not count).
    pub fn seen_count(&self, card_count: usize) -> usize {
        let seen: BTreeSet<usize> = self
            .seen
            .iter()
            .copied()
            .filter(|&c| c < card_count)
            .collect();
        seen.len()
    }

    /// The seed question options are ordered by: the learner's, changed by the last reset's.
    pub fn option_seed(&self, learner_seed: u64) -> u64 {
        learner_seed ^ self.reset_seed.unwrap_or(0)
    }

    /// The lesson was reset and question `qid`'s first try is kept from before: what is
    /// answered now is a retake, not scored.
    pub fn is_retake(&self, qid: &str) -> bool {
        self.first_tries.contains_key(qid)
    }

    /// Nothing recorded (a reset marker alone).
    fn is_empty(&self) -> bool {
        self.seen.is_empty() && self.answers.is_empty() && self.card == 0
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
