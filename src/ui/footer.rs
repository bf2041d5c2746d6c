//! The bottom line: the main keys of the focused pane, from the key table (or the input field's
//! keys while a prediction is typed). Help and quit sit at the right end so they are always
//! there; other entries that do not fit are dropped, never cut in half.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::app::App;
use crate::keymap;
use crate::theme::Theme;

const INPUT_KEYS: &[(&str, &str)] = &[
    ("0-9 . -", "type"),
    ("Backspace", "erase"),
    ("Enter", "save"),
    ("Esc", "leave"),
];

/// Keys shown at the right end.
const PINNED: &[&str] = &["?", "q"];

/// Draw the footer line.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let keys = if app.quiz.input.is_some() {
        INPUT_KEYS.to_vec()
    } else {
        keymap::footer(app.key_context())
    };
    let (right, left): (Vec<_>, Vec<_>) = keys.into_iter().partition(|(k, _)| PINNED.contains(k));
    let right = spans(&app.theme, &right, usize::from(area.width));
    let right_width: usize = right.iter().map(Span::width).sum();
    let left = spans(
        &app.theme,
        &left,
        usize::from(area.width).saturating_sub(right_width + 1),
    );
    let mut line = vec![Span::raw(" ")];
    line.extend(left);
    Line::from(line).render(area, buf);
    let w = u16::try_from(right_width)
        .unwrap_or(area.width)
        .min(area.width);
    Line::from(right).render(Rect::new(area.right() - w, area.y, w, 1), buf);
}

/// As many `key text` pairs as fit in `room` columns.
fn spans(theme: &Theme, keys: &[(&'static str, &'static str)], room: usize) -> Vec<Span<'static>> {
    let mut out = Vec::new();
    let mut used = 1;
    for (key, text) in keys {
        let w = key.chars().count() + text.chars().count() + 3;
        if used + w > room {
            break;
        }
        used += w;
        out.push(Span::styled(*key, theme.strong()));
        out.push(Span::styled(format!(" {text}  "), theme.muted()));
    }
    out
}
