//! Messages under the header (progress file moved aside, save failures), one line each, with a
//! glyph so their kind reads without colour. Esc dismisses them.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::app::{App, BannerKind};
use crate::ui::layout::MAX_BANNERS;

/// Draw the banners, newest last, into `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let skip = app.banners.len().saturating_sub(MAX_BANNERS);
    for (row, banner) in (area.y..area.bottom()).zip(app.banners.iter().skip(skip)) {
        let (glyph, style) = match banner.kind {
            BannerKind::Info => ("i", theme.text()),
            BannerKind::Warning => ("!", theme.warning()),
            BannerKind::Error => ("✗", theme.error()),
        };
        let line = Line::from(vec![
            Span::styled(format!(" {glyph} "), style),
            Span::styled(banner.text.clone(), style),
            Span::styled("  (Esc hides)", theme.muted()),
        ]);
        line.render(Rect::new(area.x, row, area.width, 1), buf);
    }
}
