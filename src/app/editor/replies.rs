//! The editor's half of the shell's replies: a file loaded, saved or changed outside, a
//! check's verdict (see `check`), the survey of edited files for the exercise list.

use super::{EditorState, normal, put_cursor, text_area};
use crate::app::{App, Banner, BannerKind, Cmd, ExerciseMsg};

impl App {
    /// A reply from the shell.
    pub(in crate::app) fn on_exercise(&mut self, msg: ExerciseMsg) -> Vec<Cmd> {
        match msg {
            ExerciseMsg::Passed(set) => self.exercises.passed.extend(set),
            ExerciseMsg::Attempts(map) => self.exercises.attempts.extend(map),
            ExerciseMsg::Loaded { id, text, stamp } => {
                // Opened (no text yet): the cursor goes back where it was when the exercise was
                // last left; reset to the starter: to the top.
                let cursor = self.exercises.cursors.get(&id).copied();
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
            ExerciseMsg::Saved { id, text, stamp } => {
                let Some(ed) = self.editor_for(&id) else {
                    return Vec::new();
                };
                ed.saved = Some(normal(&text));
                ed.stamp = stamp;
                let recovered = ed.save_error.take().is_some();
                if ed.leaving && !ed.dirty() {
                    self.close_editor();
                }
                if recovered {
                    self.overlays.banners.push(Banner {
                        kind: BannerKind::Info,
                        text: "exercise saved".into(),
                    });
                }
            }
            ExerciseMsg::SaveFailed { id, why } => {
                let Some(ed) = self.editor_for(&id) else {
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
                self.overlays.banners.push(Banner {
                    kind: BannerKind::Error,
                    text: format!(
                        "exercise not saved: {why}; {then}: fix that and press {check} or Esc again (quitting writes it to a recovery file)"
                    ),
                });
            }
            ExerciseMsg::ChangedOutside {
                id,
                theirs,
                stamp,
                external,
            } => return self.on_changed_outside(&id, theirs, stamp, external),
            ExerciseMsg::QuitRefused { why } => {
                if let Some(ed) = self.exercises.editor.as_mut() {
                    ed.quit_prompt = Some(why);
                }
            }
            ExerciseMsg::Checked {
                id,
                check_id,
                verdict,
                cancelled,
                recorded,
            } => self.on_checked((&id, check_id), verdict, cancelled, recorded),
            ExerciseMsg::Edited(edited) => self.on_edited(edited),
            ExerciseMsg::Failed(why) => self.overlays.banners.push(Banner {
                kind: BannerKind::Error,
                text: why,
            }),
        }
        Vec::new()
    }

    fn editor_for(&mut self, id: &str) -> Option<&mut EditorState> {
        self.exercises.editor.as_mut().filter(|e| e.id == id)
    }
}
