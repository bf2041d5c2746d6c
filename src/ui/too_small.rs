//! What shows when the terminal is below the minimum size; the normal screen returns on resize.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::app::App;
use crate::ui::layout::{MIN_HEIGHT, MIN_WIDTH, centered};

/// The message, e.g. "terminal too small: need at least 60x16, have 50x10".
pub fn message(area: Rect) -> String {
    format!(
        "terminal too small: need at least {MIN_WIDTH}x{MIN_HEIGHT}, have {}x{}",
        area.width, area.height
    )
}

/// Draw the "too small" message in the middle of `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let lines = vec![
        Line::styled(message(area), app.theme.warning()),
        Line::styled("enlarge the window, or press q to quit", app.theme.muted()),
    ];
    let height = 4.min(area.height);
    let box_area = centered(area, area.width, height);
    Paragraph::new(lines)
        .centered()
        .wrap(Wrap { trim: true })
        .render(box_area, buf);
}
