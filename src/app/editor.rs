//! The exercise editor's state and its part of `update`: the exercise list (`w`) opens one, keys
//! edit it (the `ratatui-textarea` widget keeps the text, cursor and undo), Ctrl-R saves and
//! checks it off the UI thread, hints come one at a time, the solution shows once it passes
//! (before that, after three checks of a changed file and a y/n, recorded), Ctrl-X resets it to its starter after a y/n. File I/O and the
//! check itself are side effects: the shell carries out [`ExerciseCmd`] (`crate::tui::exercise_shell`).
//!
//! While the editor is open its text is the truth. It is saved only when it differs from what
//! was last read or written (`saved`), and never over a file that changed on disk since: such a
//! change is offered (`conflict`: keep mine / load theirs / show diff), and applied
//! without asking only when nothing typed would be lost. A save that fails keeps the editor
//! open with its text; quitting then writes the text to a recovery file (the shell).

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use ratatui_textarea::TextArea;

mod check;
mod comment;
mod conflict;
pub mod editing;
#[cfg(test)]
mod editing_tests;
mod find;
mod indent;
pub mod lines;
mod msg;
mod picker;
mod replies;
pub mod timeline;
mod undo;
mod update;
mod verdict_scroll;

use super::{App, Banner, BannerKind, Cmd, OverlayAction, Reset};
use crate::exercise::attempts::{self, Attempt, CHECKS_BEFORE_SOLUTION, Gate};
use crate::exercise::{Verdict, catalog};
pub use check::{Checking, Stage};
pub use conflict::{Conflict, DiffLine, PromptAction};
pub use editing::{EditOp, Editing};
pub use find::{Find, FindOp};
use lines::LineMap;
pub use msg::{ExerciseCmd, ExerciseMsg, SharedVerdict, Stamp};
pub use picker::Picker;
use timeline::VerdictTimeline;
pub use update::EditorAction;
pub use verdict_scroll::{Reveal, VerdictScroll};

/// How the banner saying why Ctrl-G shows no solution yet begins (it goes once the solution
/// is shown).
const SOLUTION_LOCKED: &str = "the solution unlocks";

/// The open exercise.
#[derive(Debug)]
pub struct EditorState {
    /// Exercise id (a catalog id).
    pub id: String,
    /// The text and cursor; `None` until the file is loaded.
    pub area: Option<TextArea<'static>>,
    /// The last check's verdict.
    pub verdict: Option<Arc<Verdict>>,
    /// The last verdict's timeline, with its hazards placed on it.
    pub timeline: Option<VerdictTimeline>,
    /// The text the last verdict is about (its lines are the verdict's line numbers).
    pub checked_text: Option<String>,
    /// Where the checked text's lines are in the editor now (rebuilt after each edit), so the
    /// verdict's marks follow the text until the next check.
    pub lines: LineMap,
    /// The check in flight, if any.
    pub checking: Option<Checking>,
    /// The last check was cancelled (Esc) before it finished.
    pub cancelled: bool,
    /// Where code and verdict are stacked (narrow terminals), the lower pane shows the timeline
    /// instead of the verdict (Ctrl-L).
    pub show_timeline: bool,
    /// Alt-Z, where they are stacked: the verdict (or timeline) takes the rows and the code
    /// keeps a few lines (at 80x24 the verdict had 6 lines).
    pub zoom_lower: bool,
    /// Hints shown so far (from the first).
    pub hints_shown: usize,
    /// Checks that did not pass, this session.
    pub failed_checks: u32,
    /// The solution is on screen (only once unlocked).
    pub show_solution: bool,
    /// The file on disk when last read or written (to notice other editors).
    pub stamp: Option<Stamp>,
    /// The text last read from or written to the file ([`normal`] form); the editor's text is
    /// unsaved when it differs. `None` when what is on disk is not known to be it.
    pub saved: Option<String>,
    /// The file changed outside and the learner has not chosen yet (the prompt is up).
    pub conflict: Option<Conflict>,
    /// The last save failed: where and why (cleared by the next one that works).
    pub save_error: Option<String>,
    /// Esc asked to leave; the editor closes once its text is saved.
    pub leaving: bool,
    /// Quitting would lose the text (no save, no recovery file): why, while the y/n is up.
    pub quit_prompt: Option<String>,
    /// First visible line; the view keeps the cursor inside (a pure function of cursor and
    /// height, so the view may fill it in).
    pub scroll: Cell<usize>,
    /// How far the verdict pane is scrolled (Alt-↑↓, the wheel; Ctrl-T and Ctrl-G reveal).
    pub verdict_scroll: VerdictScroll,
    /// Undo steps, the clipboard, the find bar, where the code was drawn (`editing`).
    pub editing: Editing,
}

/// Exercise state of the whole session.
#[derive(Debug, Default)]
pub struct Exercises {
    /// The editor, while open.
    pub editor: Option<EditorState>,
    /// Exercises passed (from `exercises/passed.json` and this session's checks).
    pub passed: BTreeSet<String>,
    /// Checks of a changed file and solution views (from `exercises/attempts.json` and this
    /// session): the solution gate reads them.
    pub attempts: BTreeMap<String, Attempt>,
    /// The exercise list (`w`), while open.
    pub picker: Option<Picker>,
    /// The check the worker has not answered yet, whether or not the editor is still open (a
    /// run started meanwhile queues behind it).
    pub in_flight: Option<u64>,
    /// The learner confirmed quitting although the editor's text could not be kept.
    pub quit_anyway: bool,
    /// Where the cursor was in each exercise when its editor closed (this session), so that
    /// reopening it puts the cursor back.
    pub cursors: BTreeMap<String, (usize, usize)>,
    pub(super) next_check: u64,
}

impl EditorState {
    fn new(id: String) -> Self {
        EditorState {
            id,
            area: None,
            verdict: None,
            timeline: None,
            checked_text: None,
            lines: LineMap::default(),
            checking: None,
            cancelled: false,
            show_timeline: false,
            zoom_lower: false,
            hints_shown: 0,
            failed_checks: 0,
            show_solution: false,
            stamp: None,
            saved: None,
            conflict: None,
            save_error: None,
            leaving: false,
            quit_prompt: None,
            scroll: Cell::new(0),
            verdict_scroll: VerdictScroll::default(),
            editing: Editing::default(),
        }
    }

    /// The learner's text, one string.
    pub fn text(&self) -> Option<String> {
        self.area.as_ref().map(|a| a.lines().join("\n") + "\n")
    }

    /// The text differs from what the file was last known to hold.
    pub fn dirty(&self) -> bool {
        match &self.area {
            Some(_) => self.text() != self.saved,
            None => false,
        }
    }

    /// The text, when it is not saved: what quitting must not lose.
    pub fn unsaved(&self) -> Option<String> {
        self.dirty().then(|| self.text()).flatten()
    }

    /// Pair the checked text's lines with the editor's again (after an edit, a reload, a new
    /// verdict).
    pub(super) fn remap(&mut self) {
        // Nothing checked yet: nothing to pair, and no joining of the whole text per edit.
        self.lines = match (&self.checked_text, &self.area) {
            (Some(old), Some(_)) => LineMap::between(old, &self.text().unwrap_or_default()),
            _ => LineMap::default(),
        };
        let lines = &self.lines;
        if let Some(t) = self.timeline.as_mut() {
            t.follow_lines(|line| lines.now(line));
        }
    }

    /// The checked text's line `line` is on now, if it is still there (the verdict's lines, as
    /// the gutter and the timeline show them).
    pub fn line_now(&self, line: u32) -> Option<u32> {
        self.lines.now(line)
    }

    /// The line of the checked text that the editor's line `line` is, if it was checked.
    pub fn checked_line(&self, line: u32) -> Option<u32> {
        self.lines.checked(line)
    }

    /// Line and column of the cursor (0-based), once the file is loaded.
    pub fn cursor(&self) -> Option<(usize, usize)> {
        self.area.as_ref().map(|a| {
            let c = a.cursor();
            (c.0, c.1)
        })
    }
}

/// `text` as the editor gives it back: its lines, each ended by a newline (so a file without a
/// final newline, or with CRLF, compares equal to the same text loaded).
pub fn normal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1);
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
    }
    if out.is_empty() {
        out.push('\n');
    }
    out
}

/// A text area holding `text`, its cursor at the top.
pub(super) fn text_area(text: &str) -> TextArea<'static> {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut area = TextArea::new(lines);
    area.set_tab_length(indent::WIDTH);
    area
}

/// Put `area`'s cursor at `(row, col)`, or as near as its text allows.
pub(super) fn put_cursor(area: &mut TextArea<'static>, (row, col): (usize, usize)) {
    area.move_cursor(ratatui_textarea::CursorMove::Jump(
        u16::try_from(row).unwrap_or(u16::MAX),
        u16::try_from(col).unwrap_or(u16::MAX),
    ));
}

impl App {
    /// Open exercise `id` in the editor (from the exercise list).
    pub(super) fn open_exercise(&mut self, id: String) -> Vec<Cmd> {
        self.exercises.editor = Some(EditorState::new(id.clone()));
        vec![Cmd::Exercise(ExerciseCmd::Open { id })]
    }

    /// One editing action on the text (`editing::edit`); the system clipboard's copy and a
    /// save (Ctrl-S) are asked of the shell.
    pub(super) fn editor_edit(&mut self, op: EditOp) -> Vec<Cmd> {
        let Some(ed) = self.exercises.editor.as_mut() else {
            return Vec::new();
        };
        let Some(area) = ed.area.as_mut() else {
            return Vec::new();
        };
        match editing::edit(area, &mut ed.editing, op) {
            editing::EditEffect::None => Vec::new(),
            editing::EditEffect::Changed => {
                ed.remap();
                Vec::new()
            }
            editing::EditEffect::Clipboard(text) => {
                ed.remap();
                vec![Cmd::CopyText(text)]
            }
        }
    }

    /// The timeline's op selection, zoom and pan (Alt keys: plain ones type).
    pub(super) fn editor_timeline(&mut self, action: crate::timeline::TimelineAction) {
        if let Some(t) = self
            .exercises
            .editor
            .as_mut()
            .and_then(|ed| ed.timeline.as_mut())
        {
            t.view.apply(action);
        }
    }

    /// Close the editor, keeping where its cursor was for the next time it opens.
    pub(super) fn close_editor(&mut self) {
        if let Some(ed) = self.exercises.editor.take()
            && let Some(cursor) = ed.cursor()
        {
            self.exercises.cursors.insert(ed.id, cursor);
        }
    }

    /// Esc: close the editor, saving first when its text is not saved. The editor stays open
    /// until the save is done (`Saved` closes it); a failed save keeps it open with its text.
    pub(super) fn editor_leave(&mut self) -> Vec<Cmd> {
        let Some(ed) = self.exercises.editor.as_mut() else {
            return Vec::new();
        };
        match ed.unsaved() {
            Some(text) => {
                ed.leaving = true;
                vec![Cmd::Exercise(ExerciseCmd::Save {
                    id: ed.id.clone(),
                    text,
                    base: ed.stamp,
                })]
            }
            None => {
                self.close_editor();
                Vec::new()
            }
        }
    }

    /// Save the open file if its text is not saved (on quit).
    pub fn editor_save_cmd(&self) -> Option<Cmd> {
        let ed = self.exercises.editor.as_ref()?;
        let text = ed.unsaved()?;
        Some(Cmd::Exercise(ExerciseCmd::Save {
            id: ed.id.clone(),
            text,
            base: ed.stamp,
        }))
    }

    /// The open exercise's id and text when that text is not saved (after a failed or refused
    /// save): what the shell writes to a recovery file on the way out.
    pub fn editor_unsaved(&self) -> Option<(String, String)> {
        let ed = self.exercises.editor.as_ref()?;
        Some((ed.id.clone(), ed.unsaved()?))
    }

    /// The last save of the open exercise failed.
    pub fn editor_save_failed(&self) -> bool {
        self.exercises
            .editor
            .as_ref()
            .is_some_and(|e| e.save_error.is_some())
    }

    /// Ctrl-E: hand the file to the learner's own editor (saved first, if need be).
    pub(super) fn editor_external(&mut self) -> Vec<Cmd> {
        let Some(ed) = self.exercises.editor.as_ref() else {
            return Vec::new();
        };
        if ed.area.is_none() {
            return Vec::new();
        }
        vec![Cmd::Exercise(ExerciseCmd::External {
            id: ed.id.clone(),
            text: ed.unsaved(),
            base: ed.stamp,
        })]
    }

    /// A bracketed paste: one edit however long (the widget inserts it in one go and keeps it
    /// as one undo step), refused with a message when the file would pass the size cap.
    pub fn editor_paste(&mut self, text: &str) {
        let cap = crate::exercise::SOURCE_CAP.bytes;
        let Some(ed) = self.exercises.editor.as_mut() else {
            return;
        };
        if ed.conflict.is_some() || ed.quit_prompt.is_some() {
            return;
        }
        let Some(area) = ed.area.as_mut() else {
            return;
        };
        let have: usize = area.lines().iter().map(|l| l.len() + 1).sum();
        if (have + text.len()) as u64 > cap {
            self.overlays.banners.push(Banner {
                kind: BannerKind::Error,
                text: format!(
                    "paste refused: {} bytes would make the file larger than {cap} bytes, the most an exercise file may hold",
                    text.len()
                ),
            });
            return;
        }
        // Terminals send a pasted newline as CR.
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        ed.editing.undo.before(area, undo::EditKind::Other);
        area.insert_str(text);
        ed.remap();
    }

    /// Ctrl-T: one more hint.
    pub(super) fn editor_hint(&mut self) {
        let Some(ed) = self.exercises.editor.as_mut() else {
            return;
        };
        let total = catalog::find(&ed.id).map_or(0, |e| e.hints.len());
        ed.show_solution = false;
        ed.hints_shown = (ed.hints_shown + 1).min(total);
        ed.verdict_scroll.reveal(Reveal::LastHint);
    }

    /// The open exercise's attempts (none yet: the default).
    pub fn editor_attempt(&self) -> Attempt {
        self.exercises
            .editor
            .as_ref()
            .and_then(|e| self.exercises.attempts.get(&e.id))
            .copied()
            .unwrap_or_default()
    }

    /// Whether Ctrl-G may show the solution: passed, or (after a y/n) enough checks of a
    /// changed file (`exercise::attempts`, the gate `exercise show --solution` uses).
    pub fn editor_solution_unlocked(&self) -> bool {
        !matches!(
            attempts::gate(self.editor_passed(), self.editor_attempt(), true),
            Gate::Closed(_)
        )
    }

    /// Ctrl-G: once passed, show or hide the solution; before that, after enough checks of a
    /// changed file, ask y/n (viewing it is recorded), else say when it will unlock.
    pub(super) fn editor_solution(&mut self) {
        let passed = self.editor_passed();
        let attempt = self.editor_attempt();
        let Some(ed) = self.exercises.editor.as_mut() else {
            return;
        };
        if ed.show_solution {
            ed.show_solution = false;
            ed.verdict_scroll.reveal(Reveal::Top);
            return;
        }
        match attempts::gate(passed, attempt, true) {
            Gate::Open => self.show_solution(),
            Gate::Forced if attempt.solution_viewed => self.show_solution(),
            Gate::Forced => {
                self.overlay_update(OverlayAction::AskReset(Reset::Solution));
            }
            Gate::Closed(_) => {
                let left = CHECKS_BEFORE_SOLUTION.saturating_sub(attempt.changed_checks);
                self.overlays.banners.push(Banner {
                    kind: BannerKind::Info,
                    text: format!(
                        "{SOLUTION_LOCKED} when the exercise passes, or after {left} more check(s) of your changed file"
                    ),
                });
            }
        }
    }

    /// Put the solution on screen; the banner saying it is locked goes.
    fn show_solution(&mut self) {
        if let Some(ed) = self.exercises.editor.as_mut() {
            verdict_scroll::show_solution(ed);
            self.overlays
                .banners
                .retain(|b| !b.text.starts_with(SOLUTION_LOCKED));
        }
    }

    /// The confirmed y of Ctrl-G before a pass: show the solution and record the view.
    pub(super) fn editor_view_solution(&mut self) -> Vec<Cmd> {
        let Some(id) = self.exercises.editor.as_ref().map(|ed| ed.id.clone()) else {
            return Vec::new();
        };
        self.show_solution();
        self.exercises
            .attempts
            .entry(id.clone())
            .or_default()
            .solution_viewed = true;
        vec![Cmd::Exercise(ExerciseCmd::SolutionViewed { id })]
    }

    /// Whether the open exercise has been passed.
    pub fn editor_passed(&self) -> bool {
        self.exercises
            .editor
            .as_ref()
            .is_some_and(|e| self.exercises.passed.contains(&e.id))
    }

    /// Ctrl-X: ask before putting the starter back.
    pub(super) fn editor_ask_reset(&mut self) {
        if self.exercises.editor.is_some() {
            self.overlay_update(OverlayAction::AskReset(Reset::Exercise));
        }
    }

    /// The exercise a confirmed [`Reset::Exercise`] puts back: the one selected in the
    /// exercise list while it is open, else the one in the editor.
    pub fn exercise_to_reset(&self) -> Option<&str> {
        match (&self.exercises.picker, &self.exercises.editor) {
            (Some(picker), _) => picker.selected_id(),
            (None, Some(ed)) => Some(ed.id.as_str()),
            (None, None) => None,
        }
    }

    /// The confirmed reset (of the exercise list's selection, or of the open exercise).
    pub(super) fn editor_reset(&mut self) -> Vec<Cmd> {
        if let Some(picker) = self.exercises.picker.as_mut() {
            return picker.reset_selected();
        }
        let Some(ed) = self.exercises.editor.as_mut() else {
            return Vec::new();
        };
        ed.verdict = None;
        ed.timeline = None;
        ed.show_solution = false;
        vec![Cmd::Exercise(ExerciseCmd::Reset { id: ed.id.clone() })]
    }

    /// On the tick: ask the shell whether the file changed on disk (since the change the
    /// prompt is about, while it is up).
    pub(super) fn editor_poll(&self) -> Vec<Cmd> {
        match &self.exercises.editor {
            Some(ed) if ed.area.is_some() => vec![Cmd::Exercise(ExerciseCmd::Poll {
                id: ed.id.clone(),
                seen: ed.conflict.as_ref().map_or(ed.stamp, |c| c.stamp),
                external: false,
            })],
            _ => Vec::new(),
        }
    }

    /// Ctrl-L: where code and verdict are stacked, show the timeline or the verdict.
    pub(super) fn editor_toggle_timeline(&mut self) {
        if let Some(ed) = self.exercises.editor.as_mut() {
            ed.show_timeline = !ed.show_timeline;
        }
    }

    /// Alt-Z: the verdict or timeline below the code takes most of the rows, or gives them back.
    pub(super) fn editor_toggle_zoom(&mut self) {
        if let Some(ed) = self.exercises.editor.as_mut() {
            ed.zoom_lower = !ed.zoom_lower;
        }
    }

    /// Whether the shell should tick (the editor watches its file).
    pub fn editor_open(&self) -> bool {
        self.exercises.editor.is_some()
    }
}
