//! The exercise list (`w`): the lesson's exercises with ✓ for those passed and "edited" for
//! those whose file differs from the starter (the shell surveys the files when it opens).
//! Enter opens the selected one in the editor, `x` resets it to its starter after a y/n (the
//! confirm overlay), Esc closes the list.

use std::collections::BTreeSet;

use super::{EditorEffect, Exercises, banner};
use crate::app::{App, BannerKind, Cmd, ExerciseCmd};

/// The open exercise list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picker {
    /// The lesson's exercises, front matter order.
    pub ids: Vec<String>,
    /// Index into `ids`.
    pub selected: usize,
    /// Those whose file differs from the starter (`None` until the shell has looked).
    pub edited: Option<BTreeSet<String>>,
}

impl Picker {
    /// The id of the selected exercise.
    pub fn selected_id(&self) -> Option<&str> {
        self.ids.get(self.selected).map(String::as_str)
    }

    /// The confirmed `x`: put the selected exercise's starter back (the shell replies
    /// `Loaded`, and the file is no longer edited).
    pub(in crate::app) fn reset_selected(&mut self) -> Vec<Cmd> {
        let Some(id) = self.selected_id().map(str::to_string) else {
            return Vec::new();
        };
        if let Some(edited) = self.edited.as_mut() {
            edited.remove(&id);
        }
        vec![Cmd::Exercise(ExerciseCmd::Reset { id })]
    }
}

impl App {
    /// The open lesson's exercises (front matter order).
    pub fn lesson_exercises(&self) -> Vec<String> {
        self.entry()
            .and_then(|e| e.lesson())
            .map_or_else(Vec::new, |lesson| lesson.meta.exercises.clone())
    }

    /// Whether the exercise list is open.
    pub fn picker_open(&self) -> bool {
        self.exercises.picker.is_some()
    }
}

impl Exercises {
    /// `w`: list the lesson's exercises (`ids`), the first not passed yet selected (so each
    /// pass leads on to the next), and ask the shell which files are edited.
    pub(super) fn open_picker(&mut self, ids: &[String]) -> Vec<EditorEffect> {
        if ids.is_empty() {
            return vec![banner(
                BannerKind::Info,
                "this lesson has no exercise; `cuda-academy exercise list` shows them all",
            )];
        }
        let selected = ids
            .iter()
            .position(|id| !self.passed.contains(id))
            .unwrap_or(0);
        self.picker = Some(Picker {
            ids: ids.to_vec(),
            selected,
            edited: None,
        });
        let ids = ids.to_vec();
        vec![EditorEffect::Cmd(Cmd::Exercise(ExerciseCmd::Survey {
            ids,
        }))]
    }

    /// `↑`/`↓` in the list (wrapping).
    pub(super) fn picker_move(&mut self, step: isize) {
        if let Some(p) = self.picker.as_mut()
            && !p.ids.is_empty()
        {
            let n = p.ids.len() as isize;
            p.selected = usize::try_from((p.selected as isize + step).rem_euclid(n)).unwrap_or(0);
        }
    }

    /// Enter: open the selected exercise in the editor (the list closes).
    pub(super) fn picker_open_selected(&mut self) -> Vec<Cmd> {
        let Some(picker) = self.picker.take() else {
            return Vec::new();
        };
        match picker.selected_id() {
            Some(id) => self.open(id.to_string()),
            None => Vec::new(),
        }
    }

    /// The shell's survey of edited files.
    pub(super) fn on_edited(&mut self, edited: BTreeSet<String>) {
        if let Some(p) = self.picker.as_mut() {
            p.edited = Some(edited);
        }
    }
}
