//! The lesson list: each lesson's completion (a glyph and cards seen / total), its scores and a
//! map of its questions (right, missed, open); broken lessons with their `file:line: reason`. A sidebar on wide
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
pub const LEGEND: &str = "✓ done ◐ started ○ new ✗ broken · questions: ✓ right ✗ missed ○ open ◌ awaiting a run · ▸ open lesson";

/// Draw the lesson list into `area` (a sidebar, or the inside of the overlay).
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let focused = app.nav.focus == Focus::Lessons;
    let mut block = pane_block(&app.theme, focused).title(" Lessons ");
    if focused {
        block = block.title_bottom(Line::from(" x reset · X all ").right_aligned());
    }
    block.render(area, buf);
    let inner = layout::text_area(area);
    let mut lines = Vec::new();
    let mut selected_at = 0;
    for idx in 0..app.catalog.len() {
        if idx == app.nav.list_selected {
            selected_at = lines.len();
        }
        lines.extend(entry_lines(app, idx, inner.width));
        lines.push(Line::default());
    }
    lines.extend(legend(app, inner.width));
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
    let legend_rows = legend(app, width.saturating_sub(4)).len();
    let rows = u16::try_from(entries + legend_rows + 2).unwrap_or(u16::MAX);
    let box_area = layout::centered(area, width, rows.min(area.height));
    Clear.render(box_area, buf);
    render(app, box_area, buf);
}

fn legend(app: &App, width: u16) -> Vec<Line<'static>> {
    let spans = [Span::styled(LEGEND, app.theme.muted())];
    text::wrap(&spans, width, Span::raw(""), Span::raw(""))
}

fn entry_lines(app: &App, idx: usize, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(entry) = app.catalog.entries.get(idx) else {
        return Vec::new();
    };
    let selected = idx == app.nav.list_selected && app.nav.focus == Focus::Lessons;
    let open = idx == app.nav.lesson;
    let stats = app.stats(idx);
    let glyph = match entry {
        LessonEntry::Broken { .. } => "✗",
        _ if stats.complete() => "✓",
        _ if stats.cards_seen > 0 => "◐",
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
        LessonEntry::Ok(_) => lines.extend(stats_line(app, idx, theme.muted(), width)),
    }
    lines
}

fn stats_line(app: &App, idx: usize, style: Style, width: u16) -> Vec<Line<'static>> {
    let s = app.stats(idx);
    let mut text = format!("{}/{} cards", s.cards_seen, s.cards);
    let score = s.score_text();
    if !score.is_empty() {
        text.push_str(&format!(" · {score}"));
    }
    // Exercises passed, from the editor's record (`w` opens the lesson's exercise).
    if let Some(LessonEntry::Ok(lesson)) = app.catalog.entries.get(idx)
        && !lesson.meta.exercises.is_empty()
    {
        let ids = &lesson.meta.exercises;
        let passed = ids
            .iter()
            .filter(|id| app.exercises.passed.contains(*id))
            .count();
        text.push_str(&format!(" · exercise {passed}/{} passed", ids.len()));
        let viewed = ids
            .iter()
            .filter(|id| {
                app.exercises.passed.contains(*id)
                    && app
                        .exercises
                        .attempts
                        .get(*id)
                        .is_some_and(|a| a.solution_viewed)
            })
            .count();
        if viewed > 0 {
            text.push_str(&format!(" ({viewed} after viewing the solution)"));
        }
    }
    let indent = || Span::raw("     ");
    let mut lines = text::wrap(&[Span::styled(text, style)], width, indent(), indent());
    // The question map: which were right, missed, open (N in the quiz pane jumps to them).
    let marks = app.question_marks(idx);
    if !marks.is_empty() {
        let glyphs: Vec<&str> = marks.iter().map(|m| m.glyph()).collect();
        let spans = [Span::styled(glyphs.join(""), style)];
        lines.extend(text::wrap(&spans, width, indent(), indent()));
    }
    lines
}
