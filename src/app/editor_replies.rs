//! The editor's half of the shell's replies: a file loaded, saved or changed outside, a
//! check's verdict (see `editor_check`), the survey of edited files for the exercise list.

use super::editor::{EditorState, text_area};
use super::{App, Banner, BannerKind, Cmd, ExerciseMsg};

impl App {
    /// A reply from the shell.
    pub(super) fn on_exercise(&mut self, msg: ExerciseMsg) -> Vec<Cmd> {
        match msg {
            ExerciseMsg::Passed(set) => self.exercises.passed.extend(set),
            ExerciseMsg::Attempts(map) => self.exercises.attempts.extend(map),
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
