//! The links dialog (`u`): the open card's web links, numbered as the card's `[n]` markers, one
//! selected; `←→` scroll a URL longer than the screen, `Enter` asks the shell to open it, `y` to
//! copy it (OSC 52). What the shell did comes back as [`Msg::LinkReport`](super::Msg).
//!
//! [`LinksState::update`] is the dialog's own update; the card's links and the screen width come
//! in as arguments ([`super::Overlays`] passes them on).

use super::{App, Cmd};
use crate::markdown::Link;
use crate::panes as layout;
use crate::sanitize;

/// The dialog's selection, scroll and last report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinksState {
    /// The selected link (index into the card's links).
    pub selected: usize,
    /// How many columns the selected URL is scrolled to the left.
    pub offset: usize,
    /// What happened to the last open or copy, shown at the dialog's foot.
    pub message: Option<String>,
}

/// The links dialog's own actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkAction {
    /// Up/Down: the link `delta` away.
    Select(isize),
    /// `←` / `→`: scroll the selected URL.
    Scroll { right: bool },
    /// Enter: open the selected URL.
    Open,
    /// `y`: copy it.
    Copy,
}

impl LinksState {
    /// Carry out `action` on the card's `links` (`width`: the screen's); returns what to ask of
    /// the shell, if anything.
    pub fn update(&mut self, action: LinkAction, links: &[Link], width: u16) -> Option<Cmd> {
        match action {
            LinkAction::Select(delta) => {
                let last = links.len().saturating_sub(1);
                self.selected = self.selected.saturating_add_signed(delta).min(last);
                self.offset = 0;
                self.message = None;
            }
            LinkAction::Scroll { right } => self.scroll_url(right, links, width),
            LinkAction::Open => return self.link_cmd(links, Cmd::OpenUrl),
            LinkAction::Copy => return self.link_cmd(links, Cmd::CopyText),
        }
        None
    }

    /// Half a screen at a time, never past the URL's end.
    fn scroll_url(&mut self, right: bool, links: &[Link], width: u16) {
        let Some(link) = links.get(self.selected) else {
            return;
        };
        let screen = usize::from(width.max(1));
        let step = (screen / 2).max(1);
        let most = sanitize::width(&link.url).saturating_sub(screen);
        self.offset = if right {
            (self.offset + step).min(most)
        } else {
            self.offset.saturating_sub(step)
        };
    }

    /// Ask the shell to do something with the selected URL.
    fn link_cmd(&mut self, links: &[Link], cmd: fn(String) -> Cmd) -> Option<Cmd> {
        match links.get(self.selected) {
            Some(link) => Some(cmd(link.url.clone())),
            None => {
                self.message = Some("This card has no links.".to_string());
                None
            }
        }
    }
}

impl App {
    /// The open card's web links, in the order of their numbers.
    pub fn card_links(&self) -> Vec<Link> {
        let width = layout::text_area(self.panes().card).width;
        self.card_view(width).links.clone()
    }
}
