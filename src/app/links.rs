//! The links overlay (`u`): the open card's web links, numbered as the card's `[n]` markers,
//! one selected; `←→` scroll a URL longer than the screen, `Enter` asks the shell to open it,
//! `y` to copy it (OSC 52). What the shell did comes back as [`Msg::LinkReport`](super::Msg).

use super::{App, Cmd, Overlay};
use crate::keymap::Action;
use crate::markdown::Link;
use crate::sanitize;
use crate::ui::layout;

/// The overlay's state, and whether links are drawn as OSC 8 hyperlinks at all.
#[derive(Debug, Clone, Default)]
pub struct LinksState {
    /// Draw links as OSC 8 hyperlinks (decided once, by `crate::tui::hyperlinks`).
    pub osc8: bool,
    /// The selected link (index into the card's links).
    pub selected: usize,
    /// How many columns the selected URL is scrolled to the left.
    pub offset: usize,
    /// What happened to the last open or copy, shown at the overlay's foot.
    pub message: Option<String>,
}

impl App {
    /// The open card's web links, in the order of their numbers.
    pub fn card_links(&self) -> Vec<Link> {
        let width = layout::text_area(self.panes().card).width;
        self.card_view(width).links.clone()
    }

    /// The links overlay's actions; `None` for an action that is not one of them (or, but for
    /// opening the overlay, when it is closed).
    pub(super) fn perform_links(&mut self, action: Action) -> Option<Vec<Cmd>> {
        let open = self.overlay == Some(Overlay::Links);
        match action {
            Action::ToggleLinks if open => self.overlay = None,
            Action::ToggleLinks => {
                self.links.selected = 0;
                self.links.offset = 0;
                self.links.message = None;
                self.overlay = Some(Overlay::Links);
            }
            Action::ListUp if open => self.select_link(-1),
            Action::ListDown if open => self.select_link(1),
            Action::LinkScrollLeft if open => self.scroll_url(false),
            Action::LinkScrollRight if open => self.scroll_url(true),
            Action::LinkOpen if open => return Some(self.link_cmd(Cmd::OpenUrl)),
            Action::LinkCopy if open => return Some(self.link_cmd(Cmd::CopyText)),
            _ => return None,
        }
        Some(Vec::new())
    }

    fn select_link(&mut self, delta: isize) {
        let count = self.card_links().len();
        let last = count.saturating_sub(1);
        self.links.selected = self.links.selected.saturating_add_signed(delta).min(last);
        self.links.offset = 0;
        self.links.message = None;
    }

    /// Half a screen at a time, never past the URL's end.
    fn scroll_url(&mut self, right: bool) {
        let Some(link) = self.card_links().into_iter().nth(self.links.selected) else {
            return;
        };
        let screen = usize::from(self.size.width.max(1));
        let step = (screen / 2).max(1);
        let most = sanitize::width(&link.url).saturating_sub(screen);
        self.links.offset = if right {
            (self.links.offset + step).min(most)
        } else {
            self.links.offset.saturating_sub(step)
        };
    }

    /// Ask the shell to do something with the selected URL.
    fn link_cmd(&mut self, cmd: fn(String) -> Cmd) -> Vec<Cmd> {
        match self.card_links().into_iter().nth(self.links.selected) {
            Some(link) => vec![cmd(link.url)],
            None => {
                self.links.message = Some("This card has no links.".to_string());
                Vec::new()
            }
        }
    }
}
