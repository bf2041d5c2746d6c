//! The exercise editor's state ([`Exercises`], a sub-state as the others are: its
//! [`Exercises::update`] takes an [`EditorAction`] and what it needs of the rest of the app as an
//! [`EditorCtx`], and answers with [`EditorEffect`]s, never touching the app). The exercise
//! list (`w`) opens one, keys edit it (the `ratatui-textarea` widget keeps the text, cursor and undo), Ctrl-R saves and
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
mod solution;
pub mod timeline;
mod undo;
mod update;
mod verdict_scroll;

use super::{App, Banner, BannerKind, Cmd};
use crate::exercise::Verdict;
use crate::exercise::attempts::Attempt;
use crate::timeline::TimelineCursor;
pub use check::{Checking, Stage};
pub use conflict::{Conflict, DiffLine, PromptAction};
pub use editing::{EditOp, Editing};
pub use find::{Find, FindOp};
use lines::LineMap;
pub use msg::{ExerciseCmd, ExerciseMsg, SharedVerdict, Stamp};
pub use picker::Picker;
use timeline::VerdictTimeline;
pub use update::{EditorAction, EditorCtx, EditorEffect};
pub use verdict_scroll::{Reveal, VerdictScroll};

/// The open exercise.
#[derive(Debug)]
pub struct EditorState {
    /// Exercise id (a catalog id).
    pub id: String,
    /// The text and cursor; `None` until the file is loaded.
    pub area: Option<TextArea<'static>>,
    /// The last check's verdict.
    pub verdict: Option<Arc<Verdict>>,
    /// Where the learner is on the last verdict's timeline (window, selected op); `None`: a
    /// fresh view, its first hazard's op selected. The timeline itself is derived from the
    /// verdict ([`EditorState::timeline`]), never stored beside it.
    pub timeline_cursor: Option<TimelineCursor>,
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
    /// The status line says the editor's keys (the session's first editor, until the first
    /// key typed or check).
    pub tell_keys: bool,
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
    /// The editor's keys were said (once a session: [`EditorState::tell_keys`]).
    pub keys_told: bool,
    pub(super) next_check: u64,
}

impl EditorState {
    fn new(id: String) -> Self {
        EditorState {
            id,
            area: None,
            verdict: None,
            timeline_cursor: None,
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
            tell_keys: false,
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
    }

    /// The last verdict's timeline, its ops on the lines where they are now and the learner's
    /// window and selection applied; `None` before a check, or when the program recorded no
    /// operation.
    pub fn timeline(&self) -> Option<VerdictTimeline> {
        let mut t = VerdictTimeline::new(self.verdict.as_ref()?)?;
        t.follow_lines(|line| self.lines.now(line));
        Some(match self.timeline_cursor {
            Some(cursor) => t.with_cursor(cursor),
            None => t,
        })
    }

    /// Whether there is a timeline to show (without building it).
    pub fn has_timeline(&self) -> bool {
        self.verdict
            .as_ref()
            .is_some_and(|v| !v.timeline.is_empty())
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

/// A banner, as the editor asks for one.
fn banner(kind: BannerKind, text: impl Into<String>) -> EditorEffect {
    EditorEffect::Banner(Banner {
        kind,
        text: text.into(),
    })
}

/// Commands for the shell, as effects.
fn cmds(cmds: Vec<Cmd>) -> Vec<EditorEffect> {
    cmds.into_iter().map(EditorEffect::Cmd).collect()
}

impl Exercises {
    /// Open exercise `id` in the editor (from the exercise list).
    pub(super) fn open(&mut self, id: String) -> Vec<Cmd> {
        let mut ed = EditorState::new(id.clone());
        ed.tell_keys = !std::mem::replace(&mut self.keys_told, true);
        self.editor = Some(ed);
        vec![Cmd::Exercise(ExerciseCmd::Open { id })]
    }

    /// One editing action on the text (`editing::edit`); the system clipboard's copy and a
    /// save (Ctrl-S) are asked of the shell.
    fn edit(&mut self, op: EditOp) -> Vec<EditorEffect> {
        let Some(ed) = self.editor.as_mut() else {
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
                vec![EditorEffect::Cmd(Cmd::CopyText(text))]
            }
        }
    }

    /// The timeline's op selection, zoom and pan (Alt keys: plain ones type): applied to the
    /// derived timeline, and the learner's window and selection kept.
    fn timeline(&mut self, action: crate::timeline::TimelineAction) {
        if let Some(ed) = self.editor.as_mut()
            && let Some(mut t) = ed.timeline()
        {
            t.view.apply(action);
            ed.timeline_cursor = Some(t.view.cursor());
        }
    }

    /// Close the editor, keeping where its cursor was for the next time it opens.
    fn close(&mut self) {
        if let Some(ed) = self.editor.take()
            && let Some(cursor) = ed.cursor()
        {
            self.cursors.insert(ed.id, cursor);
        }
    }

    /// Esc: close the editor, saving first when its text is not saved. The editor stays open
    /// until the save is done (`Saved` closes it); a failed save keeps it open with its text.
    fn leave(&mut self) -> Vec<Cmd> {
        let Some(ed) = self.editor.as_mut() else {
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
                self.close();
                Vec::new()
            }
        }
    }

    /// Save the open file if its text is not saved (on quit).
    pub fn save_cmd(&self) -> Option<Cmd> {
        let ed = self.editor.as_ref()?;
        let text = ed.unsaved()?;
        Some(Cmd::Exercise(ExerciseCmd::Save {
            id: ed.id.clone(),
            text,
            base: ed.stamp,
        }))
    }

    /// Ctrl-E: hand the file to the learner's own editor (saved first, if need be).
    fn external(&self) -> Vec<Cmd> {
        let Some(ed) = self.editor.as_ref() else {
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
    fn paste(&mut self, text: &str) -> Vec<EditorEffect> {
        let cap = crate::exercise::SOURCE_CAP.bytes;
        let Some(ed) = self.editor.as_mut() else {
            return Vec::new();
        };
        if ed.conflict.is_some() || ed.quit_prompt.is_some() {
            return Vec::new();
        }
        let Some(area) = ed.area.as_mut() else {
            return Vec::new();
        };
        let have: usize = area.lines().iter().map(|l| l.len() + 1).sum();
        if (have + text.len()) as u64 > cap {
            return vec![banner(
                BannerKind::Error,
                format!(
                    "paste refused: {} bytes would make the file larger than {cap} bytes, the most an exercise file may hold",
                    text.len()
                ),
            )];
        }
        // Terminals send a pasted newline as CR.
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        ed.editing.undo.before(area, undo::EditKind::Other);
        area.insert_str(text);
        ed.remap();
        Vec::new()
    }

    /// The exercise a confirmed [`Reset::Exercise`](crate::app::Reset::Exercise) puts back: the one selected in the
    /// exercise list while it is open, else the one in the editor.
    pub fn to_reset(&self) -> Option<&str> {
        match (&self.picker, &self.editor) {
            (Some(picker), _) => picker.selected_id(),
            (None, Some(ed)) => Some(ed.id.as_str()),
            (None, None) => None,
        }
    }

    /// The confirmed reset (of the exercise list's selection, or of the open exercise).
    fn reset(&mut self) -> Vec<Cmd> {
        if let Some(picker) = self.picker.as_mut() {
            return picker.reset_selected();
        }
        let Some(ed) = self.editor.as_mut() else {
            return Vec::new();
        };
        ed.verdict = None;
        ed.timeline_cursor = None;
        ed.show_solution = false;
        vec![Cmd::Exercise(ExerciseCmd::Reset { id: ed.id.clone() })]
    }

    /// On the tick: ask the shell whether the file changed on disk (since the change the
    /// prompt is about, while it is up).
    pub fn poll(&self) -> Vec<Cmd> {
        match &self.editor {
            Some(ed) if ed.area.is_some() => vec![Cmd::Exercise(ExerciseCmd::Poll {
                id: ed.id.clone(),
                seen: ed.conflict.as_ref().map_or(ed.stamp, |c| c.stamp),
                external: false,
            })],
            _ => Vec::new(),
        }
    }

    /// Ctrl-L: where code and verdict are stacked, show the timeline or the verdict.
    fn toggle_timeline(&mut self) {
        if let Some(ed) = self.editor.as_mut() {
            ed.show_timeline = !ed.show_timeline;
        }
    }

    /// Alt-Z: the verdict or timeline below the code takes most of the rows, or gives them back.
    fn toggle_zoom(&mut self) {
        if let Some(ed) = self.editor.as_mut() {
            ed.zoom_lower = !ed.zoom_lower;
        }
    }

    /// Alt-↑↓ and Alt-PgUp/PgDn: scroll the verdict pane by `steps` lines or pages. Where the
    /// timeline is in its place (narrow, Ctrl-L) the verdict comes back, so the key is never
    /// pressed at nothing.
    fn scroll_verdict(&mut self, steps: i32, page: bool) {
        let Some(ed) = self.editor.as_mut() else {
            return;
        };
        ed.show_timeline = false;
        let scroll = &ed.verdict_scroll;
        let lines = if page { steps * scroll.page() } else { steps };
        scroll.scroll(lines);
    }
}

/// What the shell and the view read of the editor (reads only: every change goes through
/// [`Exercises::update`]).
impl App {
    /// Save the open file if its text is not saved (on quit).
    pub fn editor_save_cmd(&self) -> Option<Cmd> {
        self.exercises.save_cmd()
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

    /// Whether Ctrl-G may show the solution ([`Exercises::solution_unlocked`]).
    pub fn editor_solution_unlocked(&self) -> bool {
        self.exercises.solution_unlocked()
    }

    /// Whether the open exercise has been passed.
    pub fn editor_passed(&self) -> bool {
        self.exercises.open_passed()
    }

    /// The exercise a confirmed [`Reset::Exercise`](crate::app::Reset::Exercise) puts back ([`Exercises::to_reset`]).
    pub fn exercise_to_reset(&self) -> Option<&str> {
        self.exercises.to_reset()
    }

    /// Whether the shell should tick (the editor watches its file).
    pub fn editor_open(&self) -> bool {
        self.exercises.editor.is_some()
    }
}
