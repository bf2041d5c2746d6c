//! The messages between the editor (`App`) and the shell: what the editor asks for
//! ([`ExerciseCmd`]) and what the shell reports back ([`ExerciseMsg`]).

use std::collections::BTreeSet;
use std::time::SystemTime;

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
}

/// What the shell reports back.
#[derive(Debug, Clone, PartialEq)]
pub enum ExerciseMsg {
    /// The passed exercises, read at start.
    Passed(BTreeSet<String>),
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

// Issue 20: defined in `exercise`, so that `worker` need not import `app` for it.
pub use crate::exercise::SharedVerdict;
