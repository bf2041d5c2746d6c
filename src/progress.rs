//! The learner's progress: which card each lesson is at, answers and scores. Versioned JSON in
//! `progress.json` under the XDG state dir (`$CUDA_ACADEMY_STATE_DIR` overrides), saved
//! atomically; an unreadable file is renamed aside, never silently overwritten.
//!
//! INTERIM: types and signatures only; the CLI work fills in load/save and the corrupt-file policy.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Version of the file format written by this build.
pub const PROGRESS_VERSION: u32 = 1;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub version: u32,
    /// Lesson id of the lesson open at quit, to resume there.
    pub current_lesson: Option<String>,
    pub lessons: BTreeMap<String, LessonProgress>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// Card the learner was on (0-based).
    pub card: usize,
    /// Cards seen (0-based indices).
    pub seen: Vec<usize>,
    /// Question id -> the learner's latest answer.
    pub answers: BTreeMap<String, AnswerRecord>,
}

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

/// `$CUDA_ACADEMY_STATE_DIR`, else `$XDG_STATE_HOME/cuda-academy`, else `~/.local/state/cuda-academy`.
pub fn state_dir() -> anyhow::Result<PathBuf> {
    anyhow::bail!("not written yet")
}

/// Load `dir/progress.json`; a missing file is a fresh start, an unreadable one is renamed to
/// `progress.json.corrupt-<time>` with a banner.
pub fn load(dir: &Path) -> Loaded {
    let _ = dir;
    Loaded {
        progress: Progress {
            version: PROGRESS_VERSION,
            ..Progress::default()
        },
        banner: None,
    }
}

/// Write `dir/progress.json` atomically (temp file, fsync, rename, fsync dir).
pub fn save(dir: &Path, progress: &Progress) -> anyhow::Result<()> {
    let _ = (dir, progress);
    anyhow::bail!("not written yet")
}
