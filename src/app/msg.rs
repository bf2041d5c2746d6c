//! What `update` takes ([`Msg`]: keys, mouse, resizes, worker replies) and what it asks the
//! shell to do ([`Cmd`]: save, quit, run or cancel an experiment, write a trace).

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyEvent, MouseEvent};

use super::Banner;
use super::editor::{ExerciseCmd, ExerciseMsg};
use crate::experiment::ExperimentOptions;
use crate::report::Report;
use crate::worker::WorkerEvent;

/// Something that happened: a key, the mouse, a resize, or a worker's reply.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// A key press (releases and repeats of other kinds are ignored).
    Key(KeyEvent),
    /// Wheel or click.
    Mouse(MouseEvent),
    /// A bracketed paste: the whole pasted text at once (the editor inserts it as one edit;
    /// elsewhere it is ignored).
    Paste(String),
    /// The terminal's new width and height.
    Resize(u16, u16),
    /// Code highlighting is ready: re-render cards with colours.
    HighlightReady,
    /// Saving progress failed; say why, keep going.
    SaveFailed(String),
    /// Progress was saved (clears an earlier save failure banner).
    Saved,
    /// A message for the learner from the shell (e.g. progress cannot be saved at all).
    Banner(Banner),
    /// The experiment worker reports (backend, phase, result).
    Worker(WorkerEvent),
    /// The spinner's clock (sent only while a run is on).
    Tick,
    /// A trace export finished: the file written, or why not.
    Exported(Result<PathBuf, String>),
    /// The exercise editor's files and checks report back.
    Exercise(ExerciseMsg),
    /// What the shell did with a link (opened, copied, or why not), for the links overlay.
    LinkReport(String),
    /// The tutor's answer streaming in, or a conversation read back (issue 31).
    Tutor(super::tutor::TutorMsg),
}

/// A side effect `update` asks the shell to carry out.
#[derive(Debug, Clone, PartialEq)]
pub enum Cmd {
    /// Write `App::progress` to disk.
    SaveProgress,
    /// Leave the tutorial (the shell saves progress first).
    Quit,
    /// Start a run on the worker thread; its events come back as [`Msg::Worker`].
    RunExperiment {
        /// The id the worker's events carry.
        run_id: u64,
        /// Experiment id.
        experiment: String,
        /// The learner's parameters.
        options: ExperimentOptions,
    },
    /// Ask the worker to stop the run at its next step.
    CancelRun,
    /// Write this report as a Chrome trace in the current directory; reply with
    /// [`Msg::Exported`].
    ExportTrace(Box<Report>),
    /// An exercise editor side effect (files in the state folder, a check on a thread).
    Exercise(ExerciseCmd),
    /// Open this web URL with the platform's opener; reply with [`Msg::LinkReport`].
    OpenUrl(String),
    /// Put this text on the clipboard (OSC 52); reply with [`Msg::LinkReport`].
    CopyText(String),
    /// Ask the tutor, cancel it, load or save a conversation (issue 31).
    Tutor(super::tutor::TutorCmd),
}
