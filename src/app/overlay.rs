//! What is drawn over or above the screen, as one sub-state ([`Overlays`]) with its own
//! [`Overlays::update`]: dialogs ([`Overlay`]: help, a y/n confirmation, the parameter form, the
//! card's links), which take the keys while open, and banners ([`Banner`]), one-line messages
//! under the header.
//!
//! What a dialog needs from the rest of the app comes in as arguments (the card's links and the
//! screen width for the links dialog); what it asks of the rest comes back as an
//! [`OverlayEffect`] (a confirmed reset, a link to open or copy).

use super::Cmd;
use super::links::{LinkAction, LinksState};
use super::params::ParamsForm;
use crate::markdown::Link;

/// How a save failure banner starts (a later success or failure replaces it).
const SAVE_FAILED: &str = "progress not saved";

/// A dialog drawn over the screen; it takes the keys while open.
#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    /// The `?` list of keys.
    Help,
    /// "Reset ...?" y/n.
    Confirm(Reset),
    /// The experiment's parameter form (the form lives here, so it is open exactly while it is
    /// on screen).
    Params(ParamsForm),
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
    /// Not a reset: show the open exercise's solution before it passed (recorded as viewed).
    Solution,
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

/// Dialogs and banners. See the module docs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overlays {
    /// The dialog on top, if any.
    pub dialog: Option<Overlay>,
    /// First visible line of the help dialog.
    pub help_scroll: u16,
    /// The links dialog's selection and its last report.
    pub links: LinksState,
    /// Messages under the header, oldest first.
    pub banners: Vec<Banner>,
}

/// What can be asked of the dialogs and banners.
#[derive(Debug, Clone, PartialEq)]
pub enum OverlayAction {
    /// `?`: open or close the help.
    ToggleHelp,
    /// Scroll the help by `lines`, at most to `max`.
    ScrollHelp { lines: i32, max: u16 },
    /// Ask y/n before a reset.
    AskReset(Reset),
    /// `y` in the confirmation.
    ConfirmYes,
    /// `n` or Esc in the confirmation.
    ConfirmNo,
    /// Open the parameter form.
    OpenParams(ParamsForm),
    /// Close whatever dialog is open.
    CloseDialog,
    /// `u`: open or close the links dialog.
    ToggleLinks,
    /// One of the links dialog's own actions (only while it is open).
    Link(LinkAction),
    /// What the shell did with a link.
    LinkReport(String),
    /// Show a banner: the one way a banner is added (the editor's, the shell's, the app's).
    Banner(Banner),
    /// Take back the banners that begin with this text (one that no longer holds).
    DropBanners(&'static str),
    /// Saving progress failed: one save banner at a time, the latest reason replacing the last.
    SaveFailed(String),
    /// Saving worked: an earlier save failure banner goes.
    Saved,
    /// Esc on the main screen: the banners go.
    DismissBanners,
}

/// What the dialogs ask of the rest of the app.
#[derive(Debug, Clone, PartialEq)]
pub enum OverlayEffect {
    /// Nothing more.
    None,
    /// The learner confirmed this reset: carry it out.
    Confirmed(Reset),
    /// Ask the shell (open or copy a link).
    Cmd(Cmd),
}

impl Overlays {
    /// Carry out `action`. `links` are the open card's links and `width` the screen's (the links
    /// dialog's context; other actions ignore them).
    pub fn update(&mut self, action: OverlayAction, links: &[Link], width: u16) -> OverlayEffect {
        match action {
            OverlayAction::ToggleHelp => {
                self.help_scroll = 0;
                self.dialog = match self.dialog {
                    Some(Overlay::Help) => None,
                    _ => Some(Overlay::Help),
                };
            }
            OverlayAction::ScrollHelp { lines, max } => {
                self.help_scroll = super::scroll::add(self.help_scroll, lines, max);
            }
            OverlayAction::AskReset(what) => self.dialog = Some(Overlay::Confirm(what)),
            OverlayAction::ConfirmYes => {
                if let Some(Overlay::Confirm(what)) = self.dialog {
                    self.dialog = None;
                    return OverlayEffect::Confirmed(what);
                }
            }
            OverlayAction::ConfirmNo | OverlayAction::CloseDialog => self.dialog = None,
            OverlayAction::OpenParams(form) => self.dialog = Some(Overlay::Params(form)),
            OverlayAction::ToggleLinks if self.dialog == Some(Overlay::Links) => self.dialog = None,
            OverlayAction::ToggleLinks => {
                self.links = LinksState::default();
                self.dialog = Some(Overlay::Links);
            }
            OverlayAction::Link(link) if self.dialog == Some(Overlay::Links) => {
                if let Some(cmd) = self.links.update(link, links, width) {
                    return OverlayEffect::Cmd(cmd);
                }
            }
            OverlayAction::Link(_) => {}
            OverlayAction::LinkReport(text) => self.links.message = Some(text),
            OverlayAction::Banner(banner) => self.banners.push(banner),
            OverlayAction::DropBanners(prefix) => {
                self.banners.retain(|b| !b.text.starts_with(prefix))
            }
            OverlayAction::SaveFailed(why) => {
                self.banners.retain(|b| !b.text.starts_with(SAVE_FAILED));
                let text = format!("{SAVE_FAILED}: {why}");
                let banner = Banner {
                    kind: BannerKind::Error,
                    text,
                };
                return self.update(OverlayAction::Banner(banner), links, width);
            }
            OverlayAction::Saved => self.banners.retain(|b| !b.text.starts_with(SAVE_FAILED)),
            OverlayAction::DismissBanners => self.banners.clear(),
        }
        OverlayEffect::None
    }

    /// The parameter form, while it is open.
    pub fn params(&self) -> Option<&ParamsForm> {
        match &self.dialog {
            Some(Overlay::Params(form)) => Some(form),
            _ => None,
        }
    }

    /// The parameter form, while it is open, to change.
    pub fn params_mut(&mut self) -> Option<&mut ParamsForm> {
        match &mut self.dialog {
            Some(Overlay::Params(form)) => Some(form),
            _ => None,
        }
    }
}

#[cfg(test)]
#[path = "overlay_tests.rs"]
mod tests;
