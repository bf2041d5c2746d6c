//! The exercise editor as one sub-state: [`EditorAction`] is what `dispatch::route` sends it
//! (the exercise list's keys, the editor's Ctrl-keys, typed and pasted text, the confirmed
//! y/n), [`Exercises::update`] its one update. As nav, quiz and panel, it gets what it needs of
//! the rest of the app as arguments ([`EditorCtx`]) and answers with what it asks of the rest
//! ([`EditorEffect`]): commands for the shell ([`Cmd::Exercise`]: open, save, check, poll,
//! reset, external edit), banners and the confirmation dialog, which the app hands to the
//! overlays' one entry point. The shell's replies come in the same way (`replies`, `check`).

use super::{Exercises, cmds};
use crate::app::{App, Banner, Cmd, ExerciseMsg, OverlayAction, Reset};
use crate::timeline::TimelineAction;
use crate::worker::WorkerEvent;

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
    /// The learner confirmed the reset (of the list's selection, or of the open exercise).
    ResetConfirmed,
    /// The learner confirmed viewing the solution before passing.
    SolutionConfirmed,
    /// Alt-↑↓ (lines), Alt-PgUp/PgDn (pages, `page: true`): scroll the verdict pane.
    ScrollVerdict { steps: i32, page: bool },
    /// The text's own keys: moves, selection, typing, undo, the clipboard, find, comments.
    Edit(super::EditOp),
    /// An answer to a prompt (the file changed outside; quitting would lose the text).
    Prompt(super::PromptAction),
    /// A bracketed paste.
    Paste(String),
    /// Alt-arrows, Alt-= Alt--, Alt-, Alt-.: the timeline's op selection, zoom and pan.
    Timeline(TimelineAction),
}

/// What the editor needs of the rest of the app for one update.
#[derive(Debug, Clone, Copy, Default)]
pub struct EditorCtx<'a> {
    /// The experiment running on the worker, if any: a check queues behind it.
    pub running: Option<&'a str>,
    /// The open lesson's exercises, in front matter order (what the list `w` shows).
    pub lesson_exercises: &'a [String],
}

/// What the editor asks of the rest of the app.
#[derive(Debug, Clone, PartialEq)]
pub enum EditorEffect {
    /// Ask the shell.
    Cmd(Cmd),
    /// Say something under the header (the overlays' one banner entry point).
    Banner(Banner),
    /// Take back the banners that begin with this (the "solution unlocks" one, once it shows).
    DropBanners(&'static str),
    /// Ask y/n before this (the confirmation dialog).
    Ask(Reset),
}

impl Exercises {
    /// Carry out one of the editor's actions; returns what it asks of the rest of the app.
    pub fn update(&mut self, action: EditorAction, ctx: &EditorCtx) -> Vec<EditorEffect> {
        let working = matches!(
            action,
            EditorAction::Edit(_) | EditorAction::Paste(_) | EditorAction::Check
        );
        if let Some(ed) = self.editor.as_mut().filter(|_| working) {
            // The keys were said; from the first key on, the status line is the cursor's.
            ed.tell_keys = false;
        }
        match action {
            EditorAction::OpenList => return self.open_picker(ctx.lesson_exercises),
            EditorAction::ListMove(step) => self.picker_move(step),
            EditorAction::ListOpen => return cmds(self.picker_open_selected()),
            EditorAction::ListReset if self.picker.is_some() => {
                return vec![EditorEffect::Ask(Reset::Exercise)];
            }
            EditorAction::ListReset => {}
            EditorAction::ListClose => self.picker = None,
            EditorAction::ToggleTimeline => self.toggle_timeline(),
            EditorAction::ToggleZoom => self.toggle_zoom(),
            EditorAction::Check => return cmds(self.check(ctx)),
            EditorAction::Leave => return cmds(self.escape()),
            EditorAction::External => return cmds(self.external()),
            EditorAction::Hint => self.hint(),
            EditorAction::Solution => return self.solution(),
            EditorAction::Reset if self.editor.is_some() => {
                return vec![EditorEffect::Ask(Reset::Exercise)];
            }
            EditorAction::Reset => {}
            EditorAction::ResetConfirmed => return cmds(self.reset()),
            EditorAction::SolutionConfirmed => return self.view_solution(),
            EditorAction::ScrollVerdict { steps, page } => self.scroll_verdict(steps, page),
            EditorAction::Edit(op) => return self.edit(op),
            EditorAction::Prompt(answer) => return self.prompt(answer),
            EditorAction::Paste(text) => return self.paste(&text),
            EditorAction::Timeline(action) => self.timeline(action),
        }
        Vec::new()
    }
}

impl App {
    /// Carry out one of the editor's actions; returns what to ask of the shell.
    pub(in crate::app) fn editor_update(&mut self, action: EditorAction) -> Vec<Cmd> {
        self.with_editor(|ex, ctx| ex.update(action, ctx))
    }

    /// A reply from the shell.
    pub(in crate::app) fn on_exercise(&mut self, msg: ExerciseMsg) -> Vec<Cmd> {
        self.with_editor(|ex, ctx| ex.on_reply(msg, ctx))
    }

    /// The worker's check events.
    pub(in crate::app) fn on_check_event(&mut self, event: WorkerEvent) -> Vec<Cmd> {
        self.with_editor(|ex, _| ex.on_check_event(event))
    }

    /// Run `f` on the editor with its context, then carry out its effects: commands go back to
    /// the shell, banners and questions to the overlays (through [`Self::overlay_update`], the
    /// one place banners are added).
    fn with_editor(
        &mut self,
        f: impl FnOnce(&mut Exercises, &EditorCtx) -> Vec<EditorEffect>,
    ) -> Vec<Cmd> {
        let lesson_exercises = self.lesson_exercises();
        let running = self.panel.running.as_ref().map(|r| r.experiment.clone());
        let ctx = EditorCtx {
            running: running.as_deref(),
            lesson_exercises: &lesson_exercises,
        };
        let effects = f(&mut self.exercises, &ctx);
        let mut out = Vec::new();
        for effect in effects {
            let action = match effect {
                EditorEffect::Cmd(cmd) => {
                    out.push(cmd);
                    continue;
                }
                EditorEffect::Banner(banner) => OverlayAction::Banner(banner),
                EditorEffect::DropBanners(prefix) => OverlayAction::DropBanners(prefix),
                EditorEffect::Ask(what) => OverlayAction::AskReset(what),
            };
            out.extend(self.overlay_update(action));
        }
        out
    }
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;
