//! The exercise editor as one sub-state's actions: [`EditorAction`] is what `dispatch::route`
//! sends it (the exercise list's keys, the editor's Ctrl-keys, and typed text), and
//! [`App::editor_update`] its one update, which answers with the effects it asks of the shell
//! ([`Cmd::Exercise`](crate::app::Cmd::Exercise): open, save, check, poll, reset, external edit).
//! The editor's handlers reach the banners and the confirmation dialog as well as
//! [`super::Exercises`], so this update is a method of the app, like `overlay_update`.

use crate::app::{App, Cmd};
use crate::timeline::TimelineAction;

/// The exercise list's and the editor's own actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditorAction {
    /// `w`: open the lesson's exercise list.
    OpenList,
    /// Up/Down in the list.
    ListMove(isize),
    /// Enter in the list: open the selected exercise.
    ListOpen,
    /// Ctrl-X in the list: ask before resetting the selected exercise.
    ListReset,
    /// Esc in the list.
    ListClose,
    /// Ctrl-L: timeline or verdict, where they are stacked.
    ToggleTimeline,
    /// Alt-Z: the pane below the code takes most of the rows, or gives them back.
    ToggleZoom,
    /// Ctrl-R: save and check.
    Check,
    /// Esc: cancel a check, answer a prompt, else save and leave.
    Leave,
    /// Ctrl-E: the learner's own editor.
    External,
    /// Ctrl-T: one more hint.
    Hint,
    /// Ctrl-G: the solution (or why not yet).
    Solution,
    /// Ctrl-X: ask before putting the starter back.
    Reset,
    /// Alt-↑↓ (lines), Alt-PgUp/PgDn (pages, `page: true`): scroll the verdict pane.
    ScrollVerdict { steps: i32, page: bool },
    /// The text's own keys: moves, selection, typing, undo, the clipboard, find, comments.
    Edit(super::EditOp),
    /// An answer to a prompt (the file changed outside; quitting would lose the text).
    Prompt(super::PromptAction),
    /// Alt-arrows, Alt-= Alt--, Alt-, Alt-.: the timeline's op selection, zoom and pan.
    Timeline(TimelineAction),
}

impl App {
    /// Carry out one of the editor's actions; returns what to ask of the shell.
    pub(in crate::app) fn editor_update(&mut self, action: EditorAction) -> Vec<Cmd> {
        match action {
            EditorAction::OpenList => return self.open_picker(),
            EditorAction::ListMove(step) => self.picker_move(step),
            EditorAction::ListOpen => return self.picker_open_selected(),
            EditorAction::ListReset => self.picker_ask_reset(),
            EditorAction::ListClose => self.picker_close(),
            EditorAction::ToggleTimeline => self.editor_toggle_timeline(),
            EditorAction::ToggleZoom => self.editor_toggle_zoom(),
            EditorAction::Check => return self.editor_check(),
            EditorAction::Leave => return self.editor_escape(),
            EditorAction::External => return self.editor_external(),
            EditorAction::Hint => self.editor_hint(),
            EditorAction::Solution => self.editor_solution(),
            EditorAction::Reset => self.editor_ask_reset(),
            EditorAction::ScrollVerdict { steps, page } => self.scroll_verdict(steps, page),
            EditorAction::Edit(op) => return self.editor_edit(op),
            EditorAction::Prompt(answer) => return self.editor_prompt(answer),
            EditorAction::Timeline(action) => self.editor_timeline(action),
        }
        Vec::new()
    }
}
