//! The editor's half of the shell's replies: a file loaded, saved or changed outside, or not
//! opened; a check's verdict (see `check`); the survey of edited files for the exercise list;
//! the way out confirmed or refused.

use super::{
    EditorCtx, EditorEffect, EditorState, Exercises, banner, normal, put_cursor, text_area,
};
use crate::app::{BannerKind, ExerciseMsg};

impl Exercises {
    /// A reply from the shell.
    pub(super) fn on_reply(&mut self, msg: ExerciseMsg, ctx: &EditorCtx) -> Vec<EditorEffect> {
        match msg {
            ExerciseMsg::Passed(set) => self.passed.extend(set),
            ExerciseMsg::Attempts(map) => self.attempts.extend(map),
            ExerciseMsg::Loaded { id, text, stamp } => {
                // Opened (no text yet): the cursor goes back where it was when the exercise was
                // last left; reset to the starter: to the top.
                let cursor = self.cursors.get(&id).copied();
                if let Some(ed) = self.editor_for(&id) {
                    let mut area = text_area(&text);
                    if let (None, Some(at)) = (&ed.area, cursor) {
                        put_cursor(&mut area, at);
                    }
                    ed.area = Some(area);
                    ed.scroll.set(0);
                    ed.saved = Some(normal(&text));
                    ed.stamp = stamp;
                    ed.conflict = None;
                    ed.remap();
                }
            }
            ExerciseMsg::Saved { id, text, stamp } => return self.on_saved(&id, &text, stamp),
            ExerciseMsg::SaveFailed { id, why } => return self.on_save_failed(&id, why),
            ExerciseMsg::ChangedOutside {
                id,
                theirs,
                stamp,
                external,
            } => return self.on_changed_outside((&id, theirs, stamp, external), ctx),
            ExerciseMsg::OpenFailed { id, why } => {
                // Left open without text, it said "opening…" for ever.
                if self.editor_for(&id).is_some_and(|ed| ed.area.is_none()) {
                    self.editor = None;
                }
                return vec![banner(BannerKind::Error, why)];
            }
            ExerciseMsg::QuitConfirmed => self.quit_anyway = true,
            ExerciseMsg::QuitRefused { why } => {
                if let Some(ed) = self.editor.as_mut() {
                    ed.quit_prompt = Some(why);
                }
            }
            ExerciseMsg::Checked {
                id,
                check_id,
                verdict,
                cancelled,
                recorded,
            } => return self.on_checked((&id, check_id), verdict, cancelled, recorded),
            ExerciseMsg::Edited(edited) => self.on_edited(edited),
            ExerciseMsg::Failed(why) => return vec![banner(BannerKind::Error, why)],
        }
        Vec::new()
    }

    /// `text` was written: the editor closes if Esc was waiting for it.
    fn on_saved(&mut self, id: &str, text: &str, stamp: Option<super::Stamp>) -> Vec<EditorEffect> {
        let Some(ed) = self.editor_for(id) else {
            return Vec::new();
        };
        ed.saved = Some(normal(text));
        ed.stamp = stamp;
        let recovered = ed.save_error.take().is_some();
        if ed.leaving && !ed.dirty() {
            self.close();
        }
        if recovered {
            return vec![banner(BannerKind::Info, "exercise saved")];
        }
        Vec::new()
    }

    /// The save failed: the editor stays open with the text, and says what to do.
    fn on_save_failed(&mut self, id: &str, why: String) -> Vec<EditorEffect> {
        let Some(ed) = self.editor_for(id) else {
            return Vec::new();
        };
        let left = std::mem::take(&mut ed.leaving);
        ed.save_error = Some(why.clone());
        let then = if left {
            "the editor stays open with your text"
        } else {
            "your text is kept in the editor"
        };
        let check = crate::keymap::first_key(
            crate::keymap::Ctx::Editor,
            crate::keymap::Action::EditorCheck,
        );
        vec![banner(
            BannerKind::Error,
            format!(
                "exercise not saved: {why}; {then}: fix that and press {check} or Esc again (quitting writes it to a recovery file)"
            ),
        )]
    }

    fn editor_for(&mut self, id: &str) -> Option<&mut EditorState> {
        self.editor.as_mut().filter(|e| e.id == id)
    }
}
