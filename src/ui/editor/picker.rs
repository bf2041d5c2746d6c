//! The exercise list (`w`), a box over the panes: one row per exercise of the lesson, `›` on
//! the selected one, `✓` when passed, its title and id, and `edited` when the learner's file
//! differs from the starter.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::clean;
use crate::app::App;
use crate::app::editor::Picker;
use crate::exercise::catalog;
use crate::ui::{layout, pane_block};

/// Widest the box gets.
const MAX_WIDTH: u16 = 76;

/// Draw the list centred on `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(picker) = &app.exercises.picker else {
        return;
    };
    let mut lines: Vec<Line> = picker
        .ids
        .iter()
        .enumerate()
        .map(|(i, id)| row(app, picker, i, id))
        .collect();
    lines.push(Line::default());
    lines.push(Line::styled(
        "Enter opens it in the editor · x resets it to its starter (asks)",
        app.theme.muted(),
    ));
    let width = area.width.saturating_sub(4).min(MAX_WIDTH);
    let rows = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let box_area = layout::centered(area, width, rows.min(area.height));
    Clear.render(box_area, buf);
    let title = format!(" Exercises · {} ", lesson_title(app));
    Paragraph::new(lines)
        .block(pane_block(&app.theme, true).title(title))
        .render(box_area, buf);
}

fn lesson_title(app: &App) -> String {
    clean(&app.entry().map(|e| e.title()).unwrap_or_default())
}

fn row(app: &App, picker: &Picker, i: usize, id: &str) -> Line<'static> {
    let theme = &app.theme;
    let selected = i == picker.selected;
    let cursor = if selected { "› " } else { "  " };
    let passed = app.exercises.passed.contains(id);
    let title = catalog::find(id).map_or(id, |e| e.title.as_str());
    let edited = picker.edited.as_ref().is_some_and(|set| set.contains(id));
    let title_style = if selected {
        theme.selected()
    } else {
        theme.text()
    };
    let mut spans = vec![
        Span::styled(cursor, theme.strong()),
        Span::styled(if passed { "✓ " } else { "  " }, theme.correct()),
        Span::styled(clean(title), title_style),
        Span::styled(format!("  {}", clean(id)), theme.muted()),
    ];
    if edited {
        spans.push(Span::styled("  edited", theme.warning()));
    }
    Line::from(spans)
}
