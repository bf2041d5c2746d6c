//! Resets, asked from the lesson list (`x`, `X`) or the exercise editor, carried out once the
//! confirmation dialog reports a `y` ([`super::overlay::OverlayEffect::Confirmed`]).

use super::overlay::OverlayAction;
use super::{App, Cmd, EditorAction, Reset};

impl App {
    /// `x` in the lesson list: ask before resetting lesson `idx` (a broken lesson has nothing).
    pub(super) fn ask_reset(&mut self, idx: usize) {
        if self
            .catalog
            .entries
            .get(idx)
            .and_then(|e| e.lesson())
            .is_some()
        {
            self.overlay_update(OverlayAction::AskReset(Reset::Lesson(idx)));
        }
    }

    /// The learner said yes: clear what the dialog asked about, and save.
    pub(super) fn reset(&mut self, what: Reset) -> Vec<Cmd> {
        match what {
            Reset::Lesson(idx) => {
                if let Some(key) = self.catalog.entries.get(idx).map(|e| e.key().to_string()) {
                    self.progress.reset_lesson(&key);
                }
                if idx == self.nav.lesson {
                    self.nav.card = 0;
                }
            }
            Reset::Exercise => return self.editor_update(EditorAction::ResetConfirmed),
            Reset::Solution => return self.editor_update(EditorAction::SolutionConfirmed),
            Reset::All => {
                self.progress.reset_all();
                self.nav.card = 0;
            }
        }
        self.nav.card_scroll = 0;
        self.nav.code_scroll = 0;
        self.reset_quiz_state();
        // The open card is still on screen, so it counts as seen again.
        self.visit();
        Vec::from([Cmd::SaveProgress])
    }
}
