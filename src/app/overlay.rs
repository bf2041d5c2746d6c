//! What is drawn over or above the screen: dialogs ([`Overlay`]: help, a y/n confirmation, the
//! parameter form, the card's links), which take the keys while open, and banners ([`Banner`]), one-line messages
//! under the header.

use super::App;

/// How a save failure banner starts (a later success or failure replaces it).
const SAVE_FAILED: &str = "progress not saved";

/// A dialog drawn over the screen; it takes the keys while open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    /// The `?` list of keys.
    Help,
    /// "Reset ...?" y/n.
    Confirm(Reset),
    /// The experiment's parameter form.
    Params,
    /// The open card's links (`u`).
    Links,
}

/// What a confirmed reset clears.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reset {
    /// One lesson, by catalog index.
    Lesson(usize),
    /// Every lesson.
    All,
    /// The open exercise, back to its starter.
    Exercise,
}

/// A one-line message under the header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    /// How serious it is (shown with a glyph).
    pub kind: BannerKind,
    /// The message.
    pub text: String,
}

/// How serious a banner is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BannerKind {
    /// For information (`i`).
    Info,
    /// Something is off but the app works (`!`).
    Warning,
    /// Something failed (`✗`).
    Error,
}

impl App {
    pub(super) fn toggle_help(&mut self) {
        self.help_scroll = 0;
        self.overlay = match self.overlay {
            Some(Overlay::Help) => None,
            _ => Some(Overlay::Help),
        };
    }

    /// Saving failed: one save banner at a time, the latest reason replacing the last one.
    pub(super) fn save_failed(&mut self, why: &str) {
        self.saved();
        self.banners.push(Banner {
            kind: BannerKind::Error,
            text: format!("{SAVE_FAILED}: {why}"),
        });
    }

    /// Saving worked: an earlier save failure banner goes.
    pub(super) fn saved(&mut self) {
        self.banners.retain(|b| !b.text.starts_with(SAVE_FAILED));
    }
}
