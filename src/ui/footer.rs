//! The bottom line: the main keys of the focused pane, from the key table (or the input field's
//! keys while a prediction is typed). Entries that do not fit are dropped, never cut in half.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::app::App;
use crate::keymap;

const INPUT_KEYS: &[(&str, &str)] = &[
    ("0-9 . -", "type"),
    ("Backspace", "erase"),
    ("Enter", "save"),
    ("Esc", "leave"),
];

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let keys = if app.quiz.input.is_some() {
        INPUT_KEYS.to_vec()
    } else {
        keymap::footer(app.key_context())
    };
    let mut spans = vec![Span::raw(" ")];
    let mut used = 1;
    for (key, text) in keys {
        let w = key.chars().count() + text.chars().count() + 3;
        if used + w > usize::from(area.width) {
            break;
        }
        used += w;
        spans.push(Span::styled(key, theme.strong()));
        spans.push(Span::styled(format!(" {text}  "), theme.muted()));
    }
    Line::from(spans).render(area, buf);
}
