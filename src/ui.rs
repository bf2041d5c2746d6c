//! The view: `impl Widget for &App`. It only reads the state; every area is drawn by a small
//! function in `ui/`, and the layout comes from [`layout::panes`], which the app shares (it lives below both, in
//! [`crate::panes`]).

pub mod banner;
pub mod card;
pub mod confirm;
pub mod editor;
pub mod experiment;
pub mod footer;
pub mod header;
pub mod help;
pub mod hyperlink;
pub mod lessons;
pub mod links;
pub mod measure;
pub mod params;
pub mod quiz;
pub mod status;
pub mod text;
pub mod too_small;
pub mod trace_view;
pub mod tutor;

/// Metric labels and values for people, shared with the app: [`crate::metric_text`].
pub use crate::metric_text as metrics;
/// The pane geometry, shared with the app: it lives below both, in [`crate::panes`].
pub use crate::panes as layout;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, BorderType, Widget};

use crate::app::{App, Focus, Overlay};
use crate::theme::Theme;

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if layout::too_small(area.as_size()) {
            too_small::render(self, area, buf);
            return;
        }
        let panes = self.panes_in(area, banner::lines(self, area.width).len());
        header::render(self, panes.header, buf);
        banner::render(self, panes.banners, buf);
        if self.editor_open() {
            editor::render(self, panes.card.union(panes.panel).union(panes.quiz), buf);
        } else {
            card::render(self, panes.card, buf);
            experiment::render(self, panes.panel, buf);
            quiz::render(self, panes.quiz, buf);
        }
        if self.picker_open() {
            editor::picker::render(self, panes.card.union(panes.panel).union(panes.quiz), buf);
        }
        tutor::render(self, panes.card.union(panes.panel).union(panes.quiz), buf);
        if let Some(sidebar) = panes.sidebar {
            lessons::render(self, sidebar, buf);
        } else if self.nav.focus == Focus::Lessons {
            lessons::render_overlay(self, panes.card.union(panes.panel).union(panes.quiz), buf);
        }
        status::render(self, panes.status, buf);
        footer::render(self, panes.footer, buf);
        match &self.overlays.dialog {
            Some(Overlay::Help) => help::render(self, area, buf),
            Some(Overlay::Confirm(what)) => confirm::render(self, *what, area, buf),
            Some(Overlay::Params(form)) => params::render(self, form, panes.panel, area, buf),
            Some(Overlay::Links) => links::render(self, &panes, buf),
            None => {}
        }
    }
}

/// A pane's frame: thick and highlighted when it has the focus, so focus shows without colour.
pub fn pane_block(theme: &Theme, focused: bool) -> Block<'static> {
    let (kind, style) = if focused {
        (BorderType::Thick, theme.focus())
    } else {
        (BorderType::Rounded, theme.muted())
    };
    Block::bordered()
        .border_type(kind)
        .border_style(style)
        .title_style(if focused { theme.focus() } else { Style::new() })
}
