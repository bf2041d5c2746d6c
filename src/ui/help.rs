//! The `?` overlay: every action by name with its keys, generated from the key table, plus the
//! keys reserved for the experiment panel. Scrolls when it does not fit.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use crate::app::App;
use crate::keymap;
use crate::theme::Theme;
use crate::ui::layout;

const NOTES: &[&str] = &[
    "The lesson list is a sidebar on wide terminals; L or Tab opens it on narrow ones.",
    "Predict questions: Enter opens a field; type a number, Enter saves it, Esc leaves.",
    "The mouse wheel scrolls the pane under the pointer (off with --no-mouse).",
];

/// Where the box goes on a screen of `area`.
fn box_area(area: Rect) -> Rect {
    layout::centered(
        area,
        area.width.saturating_sub(4).min(90),
        area.height.saturating_sub(2),
    )
}

/// The overlay's lines for a text area `width` wide.
pub fn lines(theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let describe = width >= 70;
    let mut out = Vec::new();
    for (title, rows) in keymap::help_sections() {
        if !out.is_empty() {
            out.push(Line::default());
        }
        out.push(Line::styled(title, theme.heading(2)));
        for (keys, name, description) in rows {
            let mut spans = vec![
                Span::styled(format!("  {keys:<11}"), theme.strong()),
                Span::raw(format!("{name:<19}")),
            ];
            if describe {
                let room = usize::from(width).saturating_sub(32);
                spans.push(Span::styled(truncate(description, room), theme.muted()));
            }
            out.push(Line::from(spans));
        }
    }
    out.push(Line::default());
    out.push(Line::styled("Notes", theme.heading(2)));
    for note in NOTES {
        let spans = [Span::raw(*note)];
        out.extend(crate::ui::text::wrap(
            &spans,
            width,
            Span::raw("  "),
            Span::raw("  "),
        ));
    }
    let reserved = format!("Reserved for the experiment panel: {}", keymap::RESERVED);
    out.push(Line::styled(format!("  {reserved}"), theme.muted()));
    out
}

/// How far the overlay can scroll on a screen of `area`.
pub fn max_scroll(area: Rect) -> u16 {
    let inner = layout::text_area(box_area(area));
    let n = lines(&Theme::new(false), inner.width).len();
    u16::try_from(n.saturating_sub(usize::from(inner.height))).unwrap_or(u16::MAX)
}

/// Draw the help overlay, centred on `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let outer = box_area(area);
    let inner = layout::text_area(outer);
    let lines = lines(theme, inner.width);
    let mut block = Block::bordered()
        .border_type(BorderType::Thick)
        .border_style(theme.focus())
        .title(" Keys ")
        .title(Line::from(" Esc closes ").right_aligned());
    let scroll = usize::from(app.help_scroll);
    if lines.len() > scroll + usize::from(inner.height) {
        block = block.title_bottom(Line::from(" ↓ more: j/PgDn ").right_aligned());
    }
    Clear.render(outer, buf);
    block.render(outer, buf);
    let visible: Vec<Line> = lines
        .into_iter()
        .skip(scroll)
        .take(usize::from(inner.height))
        .collect();
    Paragraph::new(visible).render(inner, buf);
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{kept}…")
}
