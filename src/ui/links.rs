//! The links overlay: the card's web links, numbered as on the card, over the whole width of
//! the screen. Each link is a label line (`› [2] what the card calls it`) and a URL line that
//! holds nothing but the URL from the first column, so it can be selected and copied whole;
//! a URL longer than the screen is never wrapped: the selected one scrolls with `←→`, the
//! others end in `…`. With hyperlinks on, the URLs shown are OSC 8 links to the full URL.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Widget};

use crate::app::App;
use crate::markdown::Link;
use crate::sanitize;
use crate::text_fit;
use crate::theme::Theme;
use crate::ui::layout::Panes;
use crate::ui::{hyperlink, text};

/// The overlay's rectangle: every row between the header (and banners) and the footer.
pub fn area(panes: &Panes) -> Rect {
    let top = panes.banners.bottom().max(panes.header.bottom());
    let bottom = panes.footer.y.max(top);
    Rect::new(panes.footer.x, top, panes.footer.width, bottom - top)
}

/// Draw the overlay for the open card.
pub fn render(app: &App, panes: &Panes, buf: &mut Buffer) {
    let theme = &app.theme;
    let outer = area(panes);
    let links = app.card_links();
    let block = Block::new()
        .borders(Borders::TOP | Borders::BOTTOM)
        .border_type(BorderType::Thick)
        .border_style(theme.focus())
        .title(Line::styled(" Links on this card ", theme.focus()))
        .title(Line::from(" Esc closes ").right_aligned());
    Clear.render(outer, buf);
    let mut inner = block.inner(outer);
    block.render(outer, buf);
    if let Some(message) = &app.overlays.links.message {
        inner = render_message(theme, message, inner, buf);
    }
    if links.is_empty() {
        let text = "This card has no links.";
        Line::styled(text, theme.muted()).render(inner, buf);
        return;
    }
    render_entries(app, &links, inner, buf);
}

/// The links that fit in `inner`, the selected one always among them.
fn render_entries(app: &App, links: &[Link], inner: Rect, buf: &mut Buffer) {
    let rows = usize::from(inner.height);
    // A blank line between links when they all fit that way; none when space is short.
    let per_link = if links.len() * 3 <= rows + 1 { 3 } else { 2 };
    // The last link needs no blank line after it.
    let shown = ((rows + per_link - 2) / per_link).max(1);
    let selected = app
        .overlays
        .links
        .selected
        .min(links.len().saturating_sub(1));
    let first = selected.saturating_sub(shown - 1);
    for (slot, (index, link)) in links.iter().enumerate().skip(first).take(shown).enumerate() {
        let y = inner.y + u16::try_from(slot * per_link).unwrap_or(u16::MAX);
        if y.saturating_add(1) >= inner.bottom() {
            break;
        }
        // Clamped here too: the screen may have grown since the last scroll.
        let most = sanitize::width(&link.url).saturating_sub(usize::from(inner.width));
        let entry = Entry {
            index,
            link,
            selected: index == selected,
            offset: if index == selected {
                app.overlays.links.offset.min(most)
            } else {
                0
            },
            width: usize::from(inner.width),
        };
        let theme = &app.theme;
        entry
            .label(theme)
            .render(Rect::new(inner.x, y, inner.width, 1), buf);
        let (url_line, shown_width) = entry.url(theme);
        url_line.render(Rect::new(inner.x, y + 1, inner.width, 1), buf);
        if app.hyperlinks {
            hyperlink::link_cells(buf, (inner.x, y + 1), shown_width, &link.url, index);
        }
    }
}

/// The message at the foot of `inner`, wrapped; returns the rows above it.
fn render_message(theme: &Theme, message: &str, inner: Rect, buf: &mut Buffer) -> Rect {
    let spans = [Span::styled(sanitize::clean_line(message), theme.strong())];
    let lines = text::wrap(&spans, inner.width, Span::raw(""), Span::raw(""));
    let most = inner.height.saturating_sub(3) / 2;
    let height = u16::try_from(lines.len()).unwrap_or(u16::MAX).min(most);
    let at = Rect::new(inner.x, inner.bottom() - height, inner.width, height);
    Paragraph::new(lines).render(at, buf);
    Rect {
        height: inner.height - height,
        ..inner
    }
}

/// One link as drawn.
struct Entry<'a> {
    index: usize,
    link: &'a Link,
    selected: bool,
    /// Columns of the URL scrolled off to the left.
    offset: usize,
    width: usize,
}

impl Entry<'_> {
    /// `› [n] label`, and for a URL wider than the screen which columns show.
    fn label(&self, theme: &Theme) -> Line<'static> {
        let cursor = if self.selected { "› " } else { "  " };
        let number = format!("{cursor}[{}] ", self.index + 1);
        let url_width = sanitize::width(&self.link.url);
        let hint = if self.selected && url_width > self.width {
            let last = (self.offset + self.width).min(url_width);
            format!("  ←→ columns {}-{last} of {url_width}", self.offset + 1)
        } else {
            String::new()
        };
        let room = self
            .width
            .saturating_sub(number.chars().count() + hint.chars().count());
        let style = if self.selected {
            theme.strong()
        } else {
            theme.text()
        };
        Line::from(vec![
            Span::styled(number, style),
            Span::styled(sanitize::truncate(&self.link.label, room), style),
            Span::styled(hint, theme.muted()),
        ])
    }

    /// The URL from the first column, and how many columns of it are shown: the selected one
    /// from its scroll offset, cut at the edge; the others ending in `…` when too long.
    fn url(&self, theme: &Theme) -> (Line<'static>, u16) {
        let url = sanitize::clean_line(&self.link.url);
        let text = if self.selected {
            window(&url, self.offset, self.width)
        } else {
            text_fit::truncate(&url, self.width)
        };
        let mut style = theme.link();
        if self.selected {
            style = style.add_modifier(Modifier::BOLD);
        }
        let shown = u16::try_from(sanitize::width(&text)).unwrap_or(u16::MAX);
        (Line::styled(text, style), shown)
    }
}

/// The columns `from..from + width` of clean one-line `text` (a wide character cut by either
/// edge is left out).
fn window(text: &str, from: usize, width: usize) -> String {
    let mut col = 0;
    let mut out = String::new();
    for c in text.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if col >= from && col + w <= from + width {
            out.push(c);
        }
        col += w;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_shows_whole_characters_only() {
        assert_eq!(window("https://a.org/xyz", 8, 5), "a.org");
        assert_eq!(window("ab日本cd", 1, 4), "b日");
        assert_eq!(window("ab日本cd", 3, 4), "本c");
        assert_eq!(window("abc", 5, 4), "");
    }
}
