//! Messages under the header (progress file moved aside, save failures), wrapped to the screen
//! width, each with a glyph so its kind reads without colour. Esc dismisses them.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::app::{App, BannerKind};
use crate::ui::text;

/// Most lines the banners take together; whole banners are dropped, oldest first, to fit.
pub const MAX_ROWS: usize = 6;

/// The banner lines at `width` columns, at most [`MAX_ROWS`].
pub fn lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let mut out: Vec<Line<'static>> = Vec::new();
    let count = app.overlays.banners.len();
    for (i, banner) in app.overlays.banners.iter().enumerate().rev() {
        let (glyph, style) = match banner.kind {
            BannerKind::Info => ("i", theme.text()),
            BannerKind::Warning => ("!", theme.warning()),
            BannerKind::Error => ("✗", theme.error()),
        };
        let mut spans = vec![Span::styled(banner.text.clone(), style)];
        if i + 1 == count {
            spans.push(Span::styled(" (Esc hides)", theme.muted()));
        }
        let first = Span::styled(format!(" {glyph} "), style);
        let mut wrapped = text::wrap(&spans, width, first, Span::raw("   "));
        if !out.is_empty() && out.len() + wrapped.len() > MAX_ROWS {
            break;
        }
        wrapped.truncate(MAX_ROWS);
        wrapped.append(&mut out);
        out = wrapped;
    }
    out
}

/// Draw the banners into `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    Paragraph::new(lines(app, area.width)).render(area, buf);
}
