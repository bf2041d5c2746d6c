//! The y/n dialog before a reset, and before showing a solution ahead of a pass.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use crate::app::{App, Reset};
use crate::ui::{layout, text};

/// Draw the confirmation for `what`, centred on `area`.
pub fn render(app: &App, what: Reset, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let (title, question, detail) = match what {
        Reset::Lesson(idx) => (
            " Reset lesson? ",
            format!(
                "Reset lesson {}, “{}”?",
                idx + 1,
                app.catalog
                    .entries
                    .get(idx)
                    .map(|e| e.title())
                    .unwrap_or_default()
            ),
            "Its cards seen, answers and score are cleared.",
        ),
        Reset::Exercise => (
            " Reset exercise? ",
            format!(
                "Reset “{}” to its starter?",
                app.exercise_to_reset().unwrap_or_default()
            ),
            "Your edits to this exercise are replaced by the starter code.",
        ),
        Reset::Solution => (
            " Show the solution? ",
            format!(
                "Show the solution of “{}” before you have passed it?",
                app.exercises
                    .editor
                    .as_ref()
                    .map(|e| e.id.as_str())
                    .unwrap_or_default()
            ),
            "Your progress will say “passed after viewing the solution” for this exercise.",
        ),
        Reset::All => (
            " Reset everything? ",
            "Reset all progress?".to_string(),
            "Every lesson's cards seen, answers and scores are cleared.",
        ),
    };
    let width = area.width.saturating_sub(4).min(60);
    let inner_width = width.saturating_sub(4);
    let mut lines = text::wrap(
        &[Span::styled(question, theme.strong())],
        inner_width,
        Span::raw(""),
        Span::raw(""),
    );
    lines.extend(text::wrap(
        &[Span::raw(detail)],
        inner_width,
        Span::raw(""),
        Span::raw(""),
    ));
    lines.push(Line::default());
    lines.push(Line::from(vec![
        Span::styled(" y ", theme.selected()),
        Span::raw(if what == Reset::Solution {
            " show it    "
        } else {
            " reset    "
        }),
        Span::styled(" n ", theme.selected()),
        Span::raw(" keep (Esc)"),
    ]));
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let box_area = layout::centered(area, width, height);
    Clear.render(box_area, buf);
    Block::bordered()
        .border_type(BorderType::Thick)
        .border_style(theme.warning())
        .title(title)
        .render(box_area, buf);
    Paragraph::new(lines).render(layout::text_area(box_area), buf);
}
