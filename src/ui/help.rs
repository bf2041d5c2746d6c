//! The `?` overlay: every action by name with its keys, generated from the key table (the
//! experiment panel's keys included), a few notes, and the CUDA calls an exercise may make,
//! generated from the call table (`help/calls.rs`). Two columns when the screen is wide
//! enough, one otherwise; it scrolls when it does not fit.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use crate::app::App;
use crate::keymap::{self, HelpRow};
use crate::text_fit;
use crate::theme::Theme;
use crate::ui::{layout, text};

mod calls;

const NOTES: &[&str] = &[
    "The lesson list is a sidebar on wide terminals; L or Tab opens it on narrow ones.",
    "Predict questions: Enter opens a field; type a number, Enter saves it, Esc leaves. \
     The first run with default parameters grades it.",
    "Experiments run on a worker thread: keys keep working; Esc cancels a run.",
    "The mouse wheel scrolls the pane under the pointer (off with --no-mouse).",
];

/// From this text width on, the overlay has two columns.
const TWO_COLUMNS_FROM: u16 = 120;
/// Sections in the left column when there are two (main, cards, panel, confirmation).
const LEFT_SECTIONS: usize = 4;

/// The box on a screen of `area`, and its columns of lines: as wide as useful, as tall as its
/// text (or the screen).
fn layout_box(
    theme: &Theme,
    area: Rect,
    lessons: usize,
    first: Option<&str>,
) -> (Rect, Vec<Vec<Line<'static>>>) {
    let widest = if area.width >= TWO_COLUMNS_FROM + 8 {
        150
    } else {
        90
    };
    let width = area.width.saturating_sub(4).min(widest);
    let columns = columns(theme, width.saturating_sub(4), lessons, first);
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0) + 2;
    let height = u16::try_from(rows).unwrap_or(u16::MAX);
    let outer = layout::centered(area, width, height.min(area.height.saturating_sub(2)));
    (outer, columns)
}

/// The overlay's columns of lines for a text area `width` wide, with `lessons` lessons (the
/// digits that jump to one). In one column the section titled `first` comes first (the
/// editor's keys, when it is open: at 80x24 they were the last screenful); the length, and so
/// [`max_scroll`], stays the same.
pub fn columns(
    theme: &Theme,
    width: u16,
    lessons: usize,
    first: Option<&str>,
) -> Vec<Vec<Line<'static>>> {
    let mut sections = keymap::help_sections(lessons);
    if width < TWO_COLUMNS_FROM {
        if let Some(i) = sections.iter().position(|(title, _)| Some(*title) == first) {
            let section = sections.remove(i);
            sections.insert(0, section);
        }
        let mut lines = section_lines(theme, &sections, width);
        lines.extend(note_lines(theme, width));
        lines.extend(calls::lines(theme, width));
        return vec![lines];
    }
    let column = column_width(width);
    let (left, right) = sections.split_at(LEFT_SECTIONS.min(sections.len()));
    let mut right_lines = section_lines(theme, right, column);
    right_lines.extend(note_lines(theme, column));
    right_lines.extend(calls::lines(theme, column));
    vec![section_lines(theme, left, column), right_lines]
}

fn column_width(width: u16) -> u16 {
    width.saturating_sub(3) / 2
}

/// Columns of the keys in a row of the help.
const KEYS_WIDTH: usize = 15;

fn section_lines(
    theme: &Theme,
    sections: &[(&str, Vec<HelpRow>)],
    width: u16,
) -> Vec<Line<'static>> {
    let describe = width >= 56;
    let mut out = Vec::new();
    for (title, rows) in sections {
        if !out.is_empty() {
            out.push(Line::default());
        }
        out.push(Line::styled(title.to_string(), theme.heading(2)));
        for (keys, name, description) in rows {
            // Keys wider than their column (the Shift moves) get a line of their own.
            let keys = if keys.chars().count() > KEYS_WIDTH {
                out.push(Line::styled(format!("  {keys}"), theme.strong()));
                ""
            } else {
                keys.as_str()
            };
            let mut spans = vec![
                Span::styled(format!("  {keys:<KEYS_WIDTH$} "), theme.strong()),
                Span::raw(format!("{name:<19}")),
            ];
            if describe {
                let room = usize::from(width).saturating_sub(37);
                spans.push(Span::styled(
                    text_fit::truncate(description, room),
                    theme.muted(),
                ));
            }
            out.push(Line::from(spans));
        }
    }
    out
}

fn note_lines(theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let mut out = vec![Line::default(), Line::styled("Notes", theme.heading(2))];
    for note in NOTES {
        let spans = [Span::raw(*note)];
        out.extend(text::wrap(&spans, width, Span::raw("  "), Span::raw("  ")));
    }
    out
}

/// How far the overlay can scroll on a screen of `area`.
pub fn max_scroll(area: Rect) -> u16 {
    // The number of lessons changes a label, not the number of lines.
    let (outer, columns) = layout_box(&Theme::new(false), area, 1, None);
    let inner = layout::text_area(outer);
    let longest = columns.iter().map(Vec::len).max();
    let over = longest
        .unwrap_or(0)
        .saturating_sub(usize::from(inner.height));
    u16::try_from(over).unwrap_or(u16::MAX)
}

/// Draw the help overlay, centred on `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    // From the editor, its keys first.
    let first = app
        .exercises
        .editor
        .as_ref()
        .map(|_| keymap::Ctx::Editor.title());
    let (outer, columns) = layout_box(theme, area, app.catalog.len(), first);
    let inner = layout::text_area(outer);
    let scroll = usize::from(app.overlays.help_scroll);
    let height = usize::from(inner.height);
    let mut block = Block::bordered()
        .border_type(BorderType::Thick)
        .border_style(theme.focus())
        .title(" Keys ")
        .title(Line::from(" Esc closes ").right_aligned());
    if columns.iter().any(|c| c.len() > scroll + height) {
        block = block.title_bottom(Line::from(" ↓ more: j/PgDn ").right_aligned());
    }
    Clear.render(outer, buf);
    block.render(outer, buf);
    let areas: Vec<Rect> = if columns.len() == 2 {
        let w = column_width(inner.width);
        let [left, _, right] = Layout::horizontal([
            Constraint::Length(w),
            Constraint::Fill(1),
            Constraint::Length(w),
        ])
        .areas(inner);
        vec![left, right]
    } else {
        vec![inner]
    };
    for (lines, column) in columns.into_iter().zip(areas) {
        let visible: Vec<Line> = lines.into_iter().skip(scroll).take(height).collect();
        Paragraph::new(visible).render(column, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_line(columns: &[Vec<Line<'static>>]) -> String {
        columns[0][0]
            .spans
            .iter()
            .map(|s| s.content.as_ref())
            .collect()
    }

    #[test]
    fn in_one_column_the_asked_section_comes_first_and_the_length_stays() {
        let theme = Theme::new(false);
        let editor = keymap::Ctx::Editor.title();
        let plain = columns(&theme, 72, 4, None);
        let from_editor = columns(&theme, 72, 4, Some(editor));
        assert!(
            first_line(&from_editor).contains(editor),
            "{}",
            first_line(&from_editor)
        );
        assert!(!first_line(&plain).contains(editor));
        assert_eq!(plain[0].len(), from_editor[0].len());
        // Two columns keep their order (each column's length, and so the scroll, depends on it).
        let wide = columns(&theme, 140, 4, Some(editor));
        assert_eq!(wide, columns(&theme, 140, 4, None));
    }
}
