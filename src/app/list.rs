//! The lesson list: selecting, opening, and resetting progress after a confirmation.

use super::{App, Cmd, Focus, Overlay, Reset};

impl App {
    pub(super) fn move_selection(&mut self, delta: i32) {
        let n = self.catalog.len();
        if n == 0 {
            return;
        }
        let next = i64::try_from(self.list_selected).unwrap_or(0) + i64::from(delta);
        let max = i64::try_from(n - 1).unwrap_or(0);
        self.list_selected = usize::try_from(next.clamp(0, max)).unwrap_or(0);
    }

    pub(super) fn open_selected(&mut self) {
        self.jump_to_lesson(self.list_selected);
        self.focus = Focus::Cards;
    }

    pub(super) fn ask_reset(&mut self, what: Reset) {
        if let Reset::Lesson(idx) = what
            && self
                .catalog
                .entries
                .get(idx)
                .and_then(|e| e.lesson())
                .is_none()
        {
            return;
        }
        self.overlay = Some(Overlay::Confirm(what));
    }

    /// `y` in the confirmation dialog: clear what it asked about, and save.
    pub(super) fn confirm(&mut self) -> Vec<Cmd> {
        let Some(Overlay::Confirm(what)) = self.overlay.take() else {
            return Vec::new();
        };
        match what {
            Reset::Lesson(idx) => {
                if let Some(key) = self.catalog.entries.get(idx).map(|e| e.key().to_string()) {
                    self.progress.reset_lesson(&key);
                }
                if idx == self.lesson {
                    self.card = 0;
                }
            }
            Reset::Exercise => return self.editor_reset(),
            Reset::All => {
                self.progress.reset_all();
                self.card = 0;
            }
        }
        self.card_scroll = 0;
        self.reset_quiz_state();
        // The open card is still on screen, so it counts as seen again.
        self.visit();
        Vec::from([Cmd::SaveProgress])
    }
}
