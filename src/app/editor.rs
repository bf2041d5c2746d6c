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

use super::{App, Banner, BannerKind, Cmd, LessonEntry, Overlay, Reset};
use crate::exercise::{Verdict, catalog};

/// Failed checks after which the solution may be shown on request.
pub const SOLUTION_AFTER_FAILS: u32 = 3;

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
fn text_area(text: &str) -> TextArea<'static> {
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

    /// A reply from the shell.
    pub(super) fn on_exercise(&mut self, msg: ExerciseMsg) -> Vec<Cmd> {
        match msg {
            ExerciseMsg::Passed(set) => self.exercises.passed.extend(set),
            ExerciseMsg::Loaded { id, text, mtime } => {
                if let Some(ed) = self.editor_for(&id) {
                    ed.area = Some(text_area(&text));
                    ed.scroll.set(0);
                    ed.mtime = mtime;
                }
            }
            ExerciseMsg::Saved { id, mtime } => {
                if let Some(ed) = self.editor_for(&id) {
                    ed.mtime = mtime;
                }
            }
            ExerciseMsg::Changed { id, text, mtime } => {
                let Some(ed) = self.editor_for(&id) else {
                    return Vec::new();
                };
                let cursor = ed.area.as_ref().map(|a| a.cursor());
                let mut area = text_area(&text);
                if let Some(c) = cursor {
                    area.move_cursor(ratatui_textarea::CursorMove::Jump(
                        u16::try_from(c.0).unwrap_or(u16::MAX),
                        u16::try_from(c.1).unwrap_or(u16::MAX),
                    ));
                }
                ed.area = Some(area);
                ed.mtime = mtime;
                return self.editor_check();
            }
            ExerciseMsg::Checked {
                id,
                check_id,
                verdict,
                recorded,
            } => {
                self.on_checked(&id, check_id, verdict.0, recorded);
            }
            ExerciseMsg::Failed(why) => self.banners.push(Banner {
                kind: BannerKind::Error,
                text: why,
            }),
        }
        Vec::new()
    }

    fn editor_for(&mut self, id: &str) -> Option<&mut EditorState> {
        self.exercises.editor.as_mut().filter(|e| e.id == id)
    }

    fn on_checked(
        &mut self,
        id: &str,
        check_id: u64,
        verdict: Arc<Verdict>,
        recorded: Result<(), String>,
    ) {
        // A pass counts even if the editor was left while the check ran.
        if verdict.passed {
            self.exercises.passed.insert(id.to_string());
        }
        let Some(ed) = self.exercises.editor.as_mut() else {
            return;
        };
        if ed.checking != Some(check_id) {
            return;
        }
        ed.checking = None;
        if !verdict.passed {
            ed.failed_checks += 1;
        }
        ed.verdict = Some(verdict);
        if let Err(why) = recorded {
            self.banners.push(Banner {
                kind: BannerKind::Warning,
                text: format!("the pass is not recorded: {why}"),
            });
        }
    }
}
