//! The messages between the editor (`App`) and the shell: what the editor asks for
//! ([`ExerciseCmd`]) and what the shell reports back ([`ExerciseMsg`]).

use std::collections::{BTreeMap, BTreeSet};
use std::time::SystemTime;

use crate::exercise::attempts::Attempt;

/// What the editor knows of the file on disk (the shell reads it: `crate::tui::exercise_store`), to notice a change made elsewhere: its
/// modification time, size and inode (a script that appends within the clock's tick still
/// changes the size; an editor that saves by rename changes the inode).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub mtime: Option<SystemTime>,
    pub len: u64,
    pub ino: u64,
}

/// What the editor asks the shell to do (files in the state folder, checks on the worker).
#[derive(Debug, Clone, PartialEq)]
pub enum ExerciseCmd {
    /// Read `exercises/<id>.cu`, creating it from the starter the first time.
    Open { id: String },
    /// Write the learner's text, unless the file changed on disk since `base` (what the editor
    /// last read or wrote): then nothing is written and the reply is
    /// [`ExerciseMsg::ChangedOutside`].
    Save {
        id: String,
        text: String,
        base: Option<Stamp>,
    },
    /// Queue a check of the text on the experiment worker (its events come back as
    /// [`crate::worker::WorkerEvent::CheckStarted`] and `Checked`). The editor asks for a
    /// [`ExerciseCmd::Save`] first when its text is not saved.
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
    /// Re-read the file if it changed on disk since `seen` (another editor saved it), or in
    /// any case when `external` (the learner's own editor just returned); reply
    /// [`ExerciseMsg::ChangedOutside`].
    Poll {
        id: String,
        seen: Option<Stamp>,
        external: bool,
    },
    /// Save `text` (when the editor has unsaved text) as [`ExerciseCmd::Save`] would, then
    /// open the file in `$VISUAL`/`$EDITOR` with the TUI suspended (not when the save failed:
    /// the file would not hold the learner's text).
    External {
        id: String,
        text: Option<String>,
        base: Option<Stamp>,
    },
    /// The learner confirmed viewing the solution before passing: record it in
    /// `exercises/attempts.json` (no reply).
    SolutionViewed { id: String },
    /// Keep `text` (the editor's, about to be replaced by the file on disk) in a recovery file,
    /// and say where in a banner (no reply).
    KeepCopy { id: String, text: String },
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
        stamp: Option<Stamp>,
    },
    /// `text` was written.
    Saved {
        id: String,
        text: String,
        stamp: Option<Stamp>,
    },
    /// The file could not be written: where and why (the editor keeps the text).
    SaveFailed { id: String, why: String },
    /// The file on disk is not what the editor last read or wrote: `theirs` is its text, or
    /// why it cannot be loaded; `external` when the learner's own editor (Ctrl-E) wrote it.
    ChangedOutside {
        id: String,
        theirs: Result<String, String>,
        stamp: Option<Stamp>,
        external: bool,
    },
    /// Exercise `id` could not be opened (`why`: what happened and what to do): the editor,
    /// which has no text, closes (left open it said "opening…" for ever, review 2026-12-01 NP6).
    OpenFailed { id: String, why: String },
    /// The way out asks no question (a signal, the terminal gone): quitting goes ahead though
    /// the editor's text could not be kept.
    QuitConfirmed,
    /// Quitting would lose unsaved text: it could be neither saved nor written to a recovery
    /// file (`why`). The editor asks before quitting.
    QuitRefused { why: String },
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
