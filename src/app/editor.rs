//! The exercise editor's state and its part of `update`: the exercise list (`w`) opens one, keys
//! edit it (the `ratatui-textarea` widget keeps the text, cursor and undo), Ctrl-R saves and
//! checks it off the UI thread, hints come one at a time, the solution shows once it passes
//! (before that, after three checks of a changed file and a y/n, recorded), Ctrl-X resets it to its starter after a y/n. File I/O and the
//! check itself are side effects: the shell carries out [`ExerciseCmd`] (see `editor_shell`).

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::SystemTime;

use ratatui::crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

pub use super::editor_check::{Checking, Stage};
pub use super::editor_msg::{ExerciseCmd, ExerciseMsg, SharedVerdict};
use super::editor_timeline::VerdictTimeline;
pub use super::exercise_picker::Picker;
use super::{App, Banner, BannerKind, Cmd, OverlayAction, Reset};
use crate::exercise::attempts::{self, Attempt, CHECKS_BEFORE_SOLUTION, Gate};
use crate::exercise::{Verdict, catalog};

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
    /// The check in flight, if any.
    pub checking: Option<Checking>,
    /// The last check was cancelled (Esc) before it finished.
    pub cancelled: bool,
    /// Where code and verdict are stacked (narrow terminals), the lower pane shows the timeline
    /// instead of the verdict (Ctrl-L).
    pub show_timeline: bool,
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
    /// Checks of a changed file and solution views (from `exercises/attempts.json` and this
    /// session): the solution gate reads them.
    pub attempts: BTreeMap<String, Attempt>,
    /// The exercise list (`w`), while open.
    pub picker: Option<Picker>,
    /// The check the worker has not answered yet, whether or not the editor is still open (a
    /// run started meanwhile queues behind it).
    pub in_flight: Option<u64>,
    pub(super) next_check: u64,
}

impl EditorState {
    fn new(id: String) -> Self {
        EditorState {
            id,
            area: None,
            verdict: None,
            timeline: None,
            checking: None,
            cancelled: false,
            show_timeline: false,
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
}

/// A text area holding `text`, its cursor at the top.
pub(super) fn text_area(text: &str) -> TextArea<'static> {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut area = TextArea::new(lines);
    area.set_tab_length(4);
    area
}

impl App {
    /// Open exercise `id` in the editor (from the exercise list).
    pub(super) fn open_exercise(&mut self, id: String) -> Vec<Cmd> {
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
            return;
        }
        match attempts::gate(passed, attempt, true) {
            Gate::Open => ed.show_solution = true,
            Gate::Forced if attempt.solution_viewed => ed.show_solution = true,
            Gate::Forced => {
                self.overlay_update(OverlayAction::AskReset(Reset::Solution));
            }
            Gate::Closed(_) => {
                let left = CHECKS_BEFORE_SOLUTION.saturating_sub(attempt.changed_checks);
                self.overlays.banners.push(Banner {
                    kind: BannerKind::Info,
                    text: format!(
                        "the solution unlocks when the exercise passes, or after {left} more check(s) of your changed file"
                    ),
                });
            }
        }
    }

    /// The confirmed y of Ctrl-G before a pass: show the solution and record the view.
    pub(super) fn editor_view_solution(&mut self) -> Vec<Cmd> {
        let Some(ed) = self.exercises.editor.as_mut() else {
            return Vec::new();
        };
        ed.show_solution = true;
        let id = ed.id.clone();
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

    /// Ctrl-L: where code and verdict are stacked, show the timeline or the verdict.
    pub(super) fn editor_toggle_timeline(&mut self) {
        if let Some(ed) = self.exercises.editor.as_mut() {
            ed.show_timeline = !ed.show_timeline;
        }
    }

    /// Whether the shell should tick (the editor watches its file).
    pub fn editor_open(&self) -> bool {
        self.exercises.editor.is_some()
    }
}
