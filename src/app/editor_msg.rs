//! The messages between the editor (`App`) and the shell: what the editor asks for
//! ([`ExerciseCmd`]) and what the shell reports back ([`ExerciseMsg`]).

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::SystemTime;

use crate::exercise::Verdict;

/// What the editor asks the shell to do (files in the state folder, checks on a thread).
#[derive(Debug, Clone, PartialEq)]
pub enum ExerciseCmd {
    /// Read `exercises/<id>.cu`, creating it from the starter the first time.
    Open { id: String },
    /// Write the learner's text.
    Save { id: String, text: String },
    /// Save, then check the text on a thread of its own; reply [`ExerciseMsg::Checked`].
    Check {
        id: String,
        text: String,
        check_id: u64,
    },
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
    /// A check finished; `recorded` says whether a pass could be saved.
    Checked {
        id: String,
        check_id: u64,
        verdict: SharedVerdict,
        recorded: Result<(), String>,
    },
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
