//! The messages between the editor (`App`) and the shell: what the editor asks for
//! ([`ExerciseCmd`]) and what the shell reports back ([`ExerciseMsg`]).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::SystemTime;

use crate::exercise::Verdict;
use crate::exercise::attempts::Attempt;

/// What the editor asks the shell to do (files in the state folder, checks on the worker).
#[derive(Debug, Clone, PartialEq)]
pub enum ExerciseCmd {
    /// Read `exercises/<id>.cu`, creating it from the starter the first time.
    Open { id: String },
    /// Write the learner's text.
    Save { id: String, text: String },
    /// Save, then queue a check of the text on the experiment worker (its events come back as
    /// [`crate::worker::WorkerEvent::CheckStarted`] and `Checked`).
    Check {
        id: String,
        text: String,
        check_id: u64,
    },
    /// Ask the worker to stop check `check_id` (Esc).
    Cancel { check_id: u64 },
    /// The worker's verdict: record a pass in `passed.json`, reply [`ExerciseMsg::Checked`].
    Record {
        id: String,
        check_id: u64,
        verdict: SharedVerdict,
        cancelled: bool,
    },
    /// Tell which of `ids` differ from their starter; reply [`ExerciseMsg::Edited`].
    Survey { ids: Vec<String> },
    /// Replace the file with the starter and reply [`ExerciseMsg::Loaded`].
    Reset { id: String },
    /// Re-read the file if it changed on disk since `mtime` (another editor saved it).
    Poll {
        id: String,
        mtime: Option<SystemTime>,
    },
    /// Save, then open the file in `$VISUAL`/`$EDITOR` with the TUI suspended.
    External { id: String, text: String },
    /// The learner confirmed viewing the solution before passing: record it in
    /// `exercises/attempts.json` (no reply).
    SolutionViewed { id: String },
}

/// What the shell reports back.
#[derive(Debug, Clone, PartialEq)]
pub enum ExerciseMsg {
    /// The passed exercises, read at start.
    Passed(BTreeSet<String>),
    /// Each exercise's attempts (checks of a changed file, solution views), read at start.
    Attempts(BTreeMap<String, Attempt>),
    /// The file's text (opened, or reset to the starter).
    Loaded {
        id: String,
        text: String,
        mtime: Option<SystemTime>,
    },
    /// The file was written.
    Saved {
        id: String,
        mtime: Option<SystemTime>,
    },
    /// Another editor changed the file: take its text and check it.
    Changed {
        id: String,
        text: String,
        mtime: Option<SystemTime>,
    },
    /// A check finished (or was cancelled); `recorded` says whether a pass could be saved.
    Checked {
        id: String,
        check_id: u64,
        verdict: SharedVerdict,
        cancelled: bool,
        recorded: Result<(), String>,
    },
    /// The exercises (of those surveyed) whose file differs from the starter.
    Edited(BTreeSet<String>),
    /// A file operation failed: what happened and what to do.
    Failed(String),
}

/// A verdict passed by message (cheap to clone; equal when it is the same verdict).
#[derive(Debug, Clone)]
pub struct SharedVerdict(pub Arc<Verdict>);

impl PartialEq for SharedVerdict {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
