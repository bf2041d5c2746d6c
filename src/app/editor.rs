//! The exercise editor's state and its part of `update`: `w` opens the lesson's exercise, keys
//! edit it (the `ratatui-textarea` widget keeps the text, cursor and undo), Ctrl-R saves and
//! checks it off the UI thread, hints come one at a time, the solution unlocks once it passes
//! (or after three failed checks), Ctrl-X resets it to its starter after a y/n. File I/O and the
//! check itself are side effects: the shell carries out [`ExerciseCmd`] (see `editor_shell`).

use std::cell::Cell;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::SystemTime;

use ratatui::crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

pub use super::editor_msg::{ExerciseCmd, ExerciseMsg, SharedVerdict};
use super::{App, Banner, BannerKind, Cmd, LessonEntry, Overlay, Reset};
use crate::exercise::{Verdict, catalog};

/// Failed checks after which the solution may be shown on request.
pub const SOLUTION_AFTER_FAILS: u32 = 3;

/// The open exercise.
#[derive(Debug)]
pub struct EditorState {
    /// Exercise id (a catalog id).
    pub id: String,
    /// The text and cursor; `None` until the file is loaded.
    pub area: Option<TextArea<'static>>,
    /// The last check's verdict.
    pub verdict: Option<Arc<Verdict>>,
    /// The check in flight, if any.
    pub checking: Option<u64>,
    /// Hints shown so far (from the first).
    pub hints_shown: usize,
    /// Checks that did not pass, this session.
    pub failed_checks: u32,
    /// The solution is on screen (only once unlocked).
    pub show_solution: bool,
    /// The file's modification time when last read or written (to notice other editors).
    pub mtime: Option<SystemTime>,
    /// First visible line; the view keeps the cursor inside (a pure function of cursor and
    /// height, so the view may fill it in).
    pub scroll: Cell<usize>,
}

/// Exercise state of the whole session.
#[derive(Debug, Default)]
pub struct Exercises {
    /// The editor, while open.
    pub editor: Option<EditorState>,
    /// Exercises passed (from `exercises/passed.json` and this session's checks).
    pub passed: BTreeSet<String>,
    next_check: u64,
}

impl EditorState {
    fn new(id: String) -> Self {
        EditorState {
            id,
            area: None,
            verdict: None,
            checking: None,
            hints_shown: 0,
            failed_checks: 0,
            show_solution: false,
            mtime: None,
            scroll: Cell::new(0),
        }
    }

    /// The learner's text, one string.
    pub fn text(&self) -> Option<String> {
        self.area.as_ref().map(|a| a.lines().join("\n") + "\n")
    }

    /// Whether the solution may be shown: passed, or enough failed checks.
    pub fn solution_unlocked(&self, passed: bool) -> bool {
        passed || self.failed_checks >= SOLUTION_AFTER_FAILS
    }
}

/// A text area holding `text`, its cursor at the top.
pub(super) fn text_area(text: &str) -> TextArea<'static> {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut area = TextArea::new(lines);
    area.set_tab_length(4);
    area
}

impl App {
    /// The open lesson's exercises (front matter order).
    pub fn lesson_exercises(&self) -> Vec<String> {
        match self.entry() {
            Some(LessonEntry::Ok(lesson)) => lesson.meta.exercises.clone(),
            _ => Vec::new(),
        }
    }

    /// `w`: open the lesson's first exercise not passed yet (all passed: the first), so each pass
    /// leads on to the next.
    pub(super) fn open_editor(&mut self) -> Vec<Cmd> {
        let ids = self.lesson_exercises();
        let next = ids.iter().find(|id| !self.exercises.passed.contains(*id));
        let Some(first) = next.or(ids.first()) else {
            self.banners.push(Banner {
                kind: BannerKind::Info,
                text: "this lesson has no exercise; `cuda-academy exercise list` shows them all"
                    .into(),
            });
            return Vec::new();
        };
        let id = first.clone();
        self.exercises.editor = Some(EditorState::new(id.clone()));
        vec![Cmd::Exercise(ExerciseCmd::Open { id })]
    }

    /// The editor's key: Ctrl-keys of the table first (the caller), then text editing.
    pub(super) fn editor_type(&mut self, key: KeyEvent) {
        if let Some(area) = self.editor_area_mut() {
            area.input(key);
        }
    }

    fn editor_area_mut(&mut self) -> Option<&mut TextArea<'static>> {
        self.exercises.editor.as_mut()?.area.as_mut()
    }

    /// Ctrl-R: save and check (one check at a time).
    pub(super) fn editor_check(&mut self) -> Vec<Cmd> {
        self.exercises.next_check += 1;
        let check_id = self.exercises.next_check;
        let Some(ed) = self.exercises.editor.as_mut() else {
            return Vec::new();
        };
        let Some(text) = ed.text() else {
            return Vec::new();
        };
        if ed.checking.is_some() {
            return Vec::new();
        }
        ed.checking = Some(check_id);
        ed.show_solution = false;
        let id = ed.id.clone();
        vec![Cmd::Exercise(ExerciseCmd::Check { id, text, check_id })]
    }

    /// Esc: save and close the editor.
    pub(super) fn editor_leave(&mut self) -> Vec<Cmd> {
        let Some(ed) = self.exercises.editor.take() else {
            return Vec::new();
        };
        match ed.text() {
            Some(text) => vec![Cmd::Exercise(ExerciseCmd::Save { id: ed.id, text })],
            None => Vec::new(),
        }
    }

    /// Save the open file (on quit).
    pub fn editor_save_cmd(&self) -> Option<Cmd> {
        let ed = self.exercises.editor.as_ref()?;
        let text = ed.text()?;
        Some(Cmd::Exercise(ExerciseCmd::Save {
            id: ed.id.clone(),
            text,
        }))
    }

    /// Ctrl-E: hand the file to the learner's own editor.
    pub(super) fn editor_external(&mut self) -> Vec<Cmd> {
        let Some(ed) = self.exercises.editor.as_ref() else {
            return Vec::new();
        };
        let Some(text) = ed.text() else {
            return Vec::new();
        };
        vec![Cmd::Exercise(ExerciseCmd::External {
            id: ed.id.clone(),
            text,
        })]
    }

    /// Ctrl-T: one more hint.
    pub(super) fn editor_hint(&mut self) {
        let Some(ed) = self.exercises.editor.as_mut() else {
            return;
        };
        let total = catalog::find(&ed.id).map_or(0, |e| e.hints.len());
        ed.show_solution = false;
        ed.hints_shown = (ed.hints_shown + 1).min(total);
    }

    /// Ctrl-G: show the solution once unlocked, else say when it will be.
    pub(super) fn editor_solution(&mut self) {
        let passed = self.editor_passed();
        let Some(ed) = self.exercises.editor.as_mut() else {
            return;
        };
        if ed.solution_unlocked(passed) {
            ed.show_solution = !ed.show_solution;
            return;
        }
        let left = SOLUTION_AFTER_FAILS - ed.failed_checks;
        self.banners.push(Banner {
            kind: BannerKind::Info,
            text: format!(
                "the solution unlocks when the exercise passes, or after {left} more failed check(s)"
            ),
        });
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
            self.overlay = Some(Overlay::Confirm(Reset::Exercise));
        }
    }

    /// The confirmed reset.
    pub(super) fn editor_reset(&mut self) -> Vec<Cmd> {
        let Some(ed) = self.exercises.editor.as_mut() else {
            return Vec::new();
        };
        ed.verdict = None;
        ed.show_solution = false;
        vec![Cmd::Exercise(ExerciseCmd::Reset { id: ed.id.clone() })]
    }

    /// On the tick: ask the shell whether the file changed on disk.
    pub(super) fn editor_poll(&self) -> Vec<Cmd> {
        match &self.exercises.editor {
            Some(ed) if ed.area.is_some() => vec![Cmd::Exercise(ExerciseCmd::Poll {
                id: ed.id.clone(),
                mtime: ed.mtime,
            })],
            _ => Vec::new(),
        }
    }

    /// Whether the shell should tick (the editor watches its file).
    pub fn editor_open(&self) -> bool {
        self.exercises.editor.is_some()
    }
}
