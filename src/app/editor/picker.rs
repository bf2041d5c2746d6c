//! The exercise list (`w`): the lesson's exercises with ✓ for those passed and "edited" for
//! those whose file differs from the starter (the shell surveys the files when it opens).
//! Enter opens the selected one in the editor, `x` resets it to its starter after a y/n (the
//! confirm overlay), Esc closes the list.

use std::collections::BTreeSet;

use crate::app::{App, Banner, BannerKind, Cmd, ExerciseCmd, OverlayAction, Reset};

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

    /// `w`: list the lesson's exercises, the first not passed yet selected (so each pass leads
    /// on to the next), and ask the shell which files are edited.
    pub(in crate::app) fn open_picker(&mut self) -> Vec<Cmd> {
        let ids = self.lesson_exercises();
        if ids.is_empty() {
            self.overlays.banners.push(Banner {
                kind: BannerKind::Info,
                text: "this lesson has no exercise; `cuda-academy exercise list` shows them all"
                    .into(),
            });
            return Vec::new();
        }
        let selected = ids
            .iter()
            .position(|id| !self.exercises.passed.contains(id))
            .unwrap_or(0);
        self.exercises.picker = Some(Picker {
            ids: ids.clone(),
            selected,
            edited: None,
        });
        vec![Cmd::Exercise(ExerciseCmd::Survey { ids })]
    }

    /// Whether the exercise list is open.
    pub fn picker_open(&self) -> bool {
        self.exercises.picker.is_some()
    }

    /// `↑`/`↓` in the list (wrapping).
    pub(in crate::app) fn picker_move(&mut self, step: isize) {
        if let Some(p) = self.exercises.picker.as_mut()
            && !p.ids.is_empty()
        {
            let n = p.ids.len() as isize;
            p.selected = usize::try_from((p.selected as isize + step).rem_euclid(n)).unwrap_or(0);
        }
    }

    /// Enter: open the selected exercise in the editor (the list closes).
    pub(in crate::app) fn picker_open_selected(&mut self) -> Vec<Cmd> {
        let Some(picker) = self.exercises.picker.take() else {
            return Vec::new();
        };
        match picker.selected_id() {
            Some(id) => self.open_exercise(id.to_string()),
            None => Vec::new(),
        }
    }

    /// `x`: ask before putting the selected exercise's starter back.
    pub(in crate::app) fn picker_ask_reset(&mut self) {
        if self.exercises.picker.is_some() {
            self.overlay_update(OverlayAction::AskReset(Reset::Exercise));
        }
    }

    /// Esc: close the list.
    pub(in crate::app) fn picker_close(&mut self) {
        self.exercises.picker = None;
    }

    /// The shell's survey of edited files.
    pub(in crate::app) fn on_edited(&mut self, edited: BTreeSet<String>) {
        if let Some(p) = self.exercises.picker.as_mut() {
            p.edited = Some(edited);
        }
    }
}
