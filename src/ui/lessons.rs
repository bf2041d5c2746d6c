//! The lesson list: each lesson's completion (a glyph and cards seen / total) and quiz score
//! (right / answered); broken lessons with their `file:line: reason`. A sidebar on wide
//! terminals, an overlay on narrow ones.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use crate::app::{App, Focus};
use crate::lesson::LessonEntry;
use crate::ui::{layout, pane_block, text};

/// The glyphs, so completion reads without colour.
pub const LEGEND: &str = "✓ done ◐ started ○ new ✗ broken";

/// Draw the lesson list into `area` (a sidebar, or the inside of the overlay).
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let focused = app.focus == Focus::Lessons;
    let mut block = pane_block(&app.theme, focused).title(" Lessons ");
    if focused {
        block = block.title_bottom(Line::from(" x reset · X all ").right_aligned());
    }
    block.render(area, buf);
    let inner = layout::text_area(area);
    let mut lines = Vec::new();
    let mut selected_at = 0;
    for idx in 0..app.catalog.len() {
        if idx == app.list_selected {
            selected_at = lines.len();
        }
        lines.extend(entry_lines(app, idx, inner.width));
        lines.push(Line::default());
    }
    lines.push(Line::styled(LEGEND, app.theme.muted()));
    // Keep the selected lesson in view when the list is taller than the pane.
    let height = usize::from(inner.height);
    let skip = (selected_at + 4)
        .saturating_sub(height)
        .min(lines.len().saturating_sub(height));
    let visible: Vec<Line> = lines.into_iter().skip(skip).take(height).collect();
    Paragraph::new(visible).render(inner, buf);
}

/// The list as a box over the panes (narrow terminals).
pub fn render_overlay(app: &App, area: Rect, buf: &mut Buffer) {
    let width = area.width.saturating_sub(4).min(72);
    let entries: usize = (0..app.catalog.len())
        .map(|idx| entry_lines(app, idx, width.saturating_sub(4)).len() + 1)
        .sum();
    // Entries, the legend, and the border.
    let rows = u16::try_from(entries + 3).unwrap_or(u16::MAX);
    let box_area = layout::centered(area, width, rows.min(area.height));
    Clear.render(box_area, buf);
    render(app, box_area, buf);
}

fn entry_lines(app: &App, idx: usize, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(entry) = app.catalog.entries.get(idx) else {
        return Vec::new();
    };
    let selected = idx == app.list_selected && app.focus == Focus::Lessons;
    let open = idx == app.lesson;
    let stats = app.stats(idx);
    let glyph = match entry {
        LessonEntry::Broken { .. } => "✗",
        _ if stats.complete() => "✓",
        _ if stats.seen > 0 => "◐",
        _ => "○",
    };
    let mut title_style = if open { theme.strong() } else { theme.text() };
    if selected {
        title_style = theme.selected();
    }
    let marker = if open { "▸" } else { " " };
    let head = Span::styled(format!("{marker}{glyph} {} ", idx + 1), title_style);
    // Long titles wrap under themselves rather than being cut.
    let title = [Span::styled(entry.title(), title_style)];
    let mut lines = text::wrap(&title, width, head, Span::raw("     "));
    match entry {
        LessonEntry::Broken { problems, .. } => {
            let reason = problems
                .first()
                .map(ToString::to_string)
                .unwrap_or_default();
            let spans = [Span::styled(reason, theme.error())];
            let mut wrapped = text::wrap(&spans, width, Span::raw("     "), Span::raw("     "));
            wrapped.truncate(3);
            lines.extend(wrapped);
        }
        LessonEntry::Ok(_) => lines.push(stats_line(app, idx, theme.muted())),
    }
    lines
}

fn stats_line(app: &App, idx: usize, style: Style) -> Line<'static> {
    let s = app.stats(idx);
    let mut text = format!("     {}/{} cards", s.seen, s.cards);
    if s.answered > 0 {
        text.push_str(&format!(" · quiz {}/{}", s.right, s.answered));
    } else if s.questions > 0 {
        let plural = if s.questions == 1 { "" } else { "s" };
        text.push_str(&format!(" · {} question{plural}", s.questions));
    }
    Line::styled(text, style)
}
