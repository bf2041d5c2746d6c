//! The `?` overlay: every action by name with its keys, generated from the key table (the
//! experiment panel's keys included), a few notes, and, opened from the exercise editor, the
//! CUDA calls an exercise may make, generated from the call table (`help/calls.rs`). One column
//! where it fits, else the
//! fewest columns it fits in (`help::flow`: at 160x48 four, without descriptions), else as many as
//! the screen has room for; it scrolls where it still does not fit (80x24).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use crate::app::App;
use crate::keymap::{self, HelpRow};
use crate::text_fit;
use crate::theme::Theme;
use crate::ui::{layout, text};

mod calls;
mod flow;
use flow::Item;

const NOTES: &[&str] = &[
    "The lesson list is a sidebar on wide terminals; L or Tab opens it on narrow ones.",
    "Predict questions: Enter opens a field; type a number, Enter saves it, Esc leaves. \
     The first run with default parameters grades it.",
    "Experiments run on a worker thread: keys keep working; Esc cancels a run.",
    "The mouse wheel scrolls the pane under the pointer (off with --no-mouse).",
];

/// The narrowest a column of several gets: keys and a name.
const MIN_COLUMN: u16 = 37;
/// From this column width on, rows carry their description (35 columns of it, or more:
/// shorter, most descriptions were cut to a few words).
const DESCRIBED_FROM: u16 = 72;
/// Columns between two columns.
const GAP: u16 = 2;
/// The widest the overlay gets with one column (wider reads badly).
const ONE_COLUMN_WIDEST: u16 = 90;

/// The box on a screen of `area`, and its columns of lines: one column where it fits (or the
/// screen has room for no more), else the fewest columns it fits in, else as many as there is
/// room for (the overlay then scrolls); as tall as its text or the screen.
fn layout_box(
    theme: &Theme,
    area: Rect,
    lessons: usize,
    first: Option<&str>,
) -> (Rect, Vec<Vec<Line<'static>>>) {
    let rows = usize::from(area.height.saturating_sub(4));
    let wide = area.width.saturating_sub(2);
    let most = max_columns(wide.saturating_sub(4));
    let mut best: Option<(u16, Vec<Vec<Line<'static>>>)> = None;
    for n in 1..=most {
        let width = if n == 1 {
            area.width.saturating_sub(4).min(ONE_COLUMN_WIDEST)
        } else {
            wide
        };
        let poured = columns(theme, width.saturating_sub(4), n, lessons, first);
        let height = poured.iter().map(Vec::len).max().unwrap_or(0);
        let fits = height <= rows;
        let shorter = best
            .as_ref()
            .is_none_or(|(_, b)| height < b.iter().map(Vec::len).max().unwrap_or(0));
        if fits || shorter {
            best = Some((width, poured));
        }
        if fits {
            break;
        }
    }
    let (width, poured) = best.unwrap_or_default();
    let height = poured.iter().map(Vec::len).max().unwrap_or(0) + 2;
    let height = u16::try_from(height).unwrap_or(u16::MAX);
    let outer = layout::centered(area, width, height.min(area.height.saturating_sub(2)));
    (outer, poured)
}

/// How many columns of at least [`MIN_COLUMN`] fit in a text area `width` wide (at least one).
fn max_columns(width: u16) -> usize {
    usize::from((width + GAP) / (MIN_COLUMN + GAP)).max(1)
}

/// The width of each of `n` columns in a text area `width` wide.
fn column_width(width: u16, n: usize) -> u16 {
    let n = u16::try_from(n.max(1)).unwrap_or(1);
    width.saturating_sub(GAP * (n - 1)) / n
}

/// The overlay's `n` columns of lines for a text area `width` wide, with `lessons` lessons
/// (the digits that jump to one). In one column the section titled `first` comes first (the
/// editor's keys, when it is open: at 80x24 they were the last screenful); the length, and so
/// [`max_scroll`], stays the same.
pub fn columns(
    theme: &Theme,
    width: u16,
    n: usize,
    lessons: usize,
    first: Option<&str>,
) -> Vec<Vec<Line<'static>>> {
    let mut sections = keymap::help_sections(lessons);
    if n <= 1
        && let Some(i) = sections.iter().position(|(title, _)| Some(*title) == first)
    {
        let section = sections.remove(i);
        sections.insert(0, section);
    }
    let column = column_width(width, n);
    let mut items = section_items(theme, &sections, column);
    items.extend(note_items(theme, column));
    // The calls an exercise may make matter where one is written: the help opened from the
    // editor (which puts its keys first) lists them; elsewhere they would only lengthen it.
    if first == Some(keymap::Ctx::Editor.title()) {
        items.extend(calls::items(theme, column, column >= DESCRIBED_FROM));
    }
    flow::columns(&items, n)
}

/// Columns of the keys in a row of the help.
const KEYS_WIDTH: usize = 15;
/// Columns of an action's name where a description follows.
const NAME_WIDTH: usize = 19;

fn section_items(theme: &Theme, sections: &[(&str, Vec<HelpRow>)], width: u16) -> Vec<Item> {
    let describe = width >= DESCRIBED_FROM;
    let width = usize::from(width);
    let mut out = Vec::new();
    for (title, rows) in sections {
        if !out.is_empty() {
            out.push(Item::Gap);
        }
        out.push(Item::Title(
            Line::styled(title.to_string(), theme.heading(2)),
            Line::styled(format!("{title} (cont.)"), theme.heading(2)),
        ));
        for (keys, name, description) in rows {
            let keys_cols = keys.chars().count();
            let name_cols = if describe {
                NAME_WIDTH
            } else {
                name.chars().count()
            };
            // Keys wider than their column share the line with the name where both fit (no
            // description), else get a line of their own (the Shift moves).
            let keys = if keys_cols <= KEYS_WIDTH {
                format!("  {keys:<KEYS_WIDTH$} ")
            } else if !describe && 2 + keys_cols + 1 + name_cols <= width {
                format!("  {keys} ")
            } else {
                // Wrapped at the spaces between keys where even that line is too narrow.
                let spans = [Span::styled(keys.clone(), theme.strong())];
                let room = u16::try_from(width).unwrap_or(u16::MAX);
                let lines = text::wrap(&spans, room, Span::raw("  "), Span::raw("  "));
                out.extend(lines.into_iter().map(Item::Row));
                format!("  {:<KEYS_WIDTH$} ", "")
            };
            let room = width.saturating_sub(keys.chars().count());
            let mut spans = vec![Span::styled(keys, theme.strong())];
            if describe {
                // A name as long as its column still keeps a space before the description.
                let name = format!("{name:<w$} ", w = NAME_WIDTH - 1);
                let rest = room.saturating_sub(name.chars().count());
                spans.push(Span::raw(name));
                spans.push(Span::styled(
                    text_fit::truncate(description, rest),
                    theme.muted(),
                ));
            } else {
                spans.push(Span::raw(text_fit::truncate(name, room)));
            }
            out.push(Item::Row(Line::from(spans)));
        }
    }
    out
}

fn note_items(theme: &Theme, width: u16) -> Vec<Item> {
    let mut out = vec![
        Item::Gap,
        Item::Title(
            Line::styled("Notes", theme.heading(2)),
            Line::styled("Notes (cont.)", theme.heading(2)),
        ),
    ];
    for note in NOTES {
        let spans = [Span::raw(*note)];
        let lines = text::wrap(&spans, width, Span::raw("  "), Span::raw("  "));
        out.extend(lines.into_iter().map(Item::Row));
    }
    out
}

/// How far the overlay can scroll on a screen of `area`, opened from the exercise editor when
/// `in_editor` (the editor's keys first and the CUDA calls listed).
pub fn max_scroll(area: Rect, in_editor: bool) -> u16 {
    // The number of lessons changes a label, not the number of lines.
    let first = in_editor.then(|| keymap::Ctx::Editor.title());
    let (outer, columns) = layout_box(&Theme::new(false), area, 1, first);
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
    let w = column_width(inner.width, columns.len());
    let areas = (0..columns.len()).map(|i| {
        let x = inner.x + u16::try_from(i).unwrap_or(0) * (w + GAP);
        Rect::new(x, inner.y, w, inner.height).intersection(inner)
    });
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
    fn in_one_column_the_editors_keys_come_first_and_its_calls_last() {
        let theme = Theme::new(false);
        let editor = keymap::Ctx::Editor.title();
        let plain = columns(&theme, 72, 1, 4, None);
        let from_editor = columns(&theme, 72, 1, 4, Some(editor));
        assert!(
            first_line(&from_editor).contains(editor),
            "{}",
            first_line(&from_editor)
        );
        assert!(!first_line(&plain).contains(editor));
        // From the editor the same rows, then the CUDA calls an exercise may make.
        let calls = calls::items(&theme, 72, true).len();
        assert_eq!(plain[0].len() + calls, from_editor[0].len());
        let text = |c: &[Vec<Line<'static>>]| {
            c.concat()
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert!(text(&from_editor).contains(calls::TITLE));
        assert!(!text(&plain).contains(calls::TITLE));
        assert!(
            max_scroll(Rect::new(0, 0, 80, 24), true) > max_scroll(Rect::new(0, 0, 80, 24), false)
        );
    }

    #[test]
    fn it_fits_in_columns_at_160x48_and_scrolls_at_80x24() {
        let theme = Theme::new(false);
        let (outer, poured) = layout_box(&theme, Rect::new(0, 0, 160, 48), 4, None);
        assert!(poured.len() >= 3, "{} columns", poured.len());
        assert_eq!(max_scroll(Rect::new(0, 0, 160, 48), false), 0, "{outer:?}");
        let column = usize::from(column_width(layout::text_area(outer).width, poured.len()));
        for line in poured.iter().flatten() {
            assert!(
                line.width() <= column,
                "{} > {column}: {line}",
                line.width()
            );
        }
        // Every row of the table is there.
        let text: String = poured
            .iter()
            .flatten()
            .map(|l| l.to_string() + "\n")
            .collect();
        for (_, rows) in keymap::help_sections(4) {
            for (keys, name, _) in rows {
                let start: String = name.chars().take(12).collect();
                assert!(
                    text.contains(&start) && keys.split(' ').all(|k| text.contains(k)),
                    "{keys} {name}\n{text}"
                );
            }
        }
        // At 80x24 one column, which scrolls; so does 60x20.
        let (_, narrow) = layout_box(&theme, Rect::new(0, 0, 80, 24), 4, None);
        assert_eq!(narrow.len(), 1);
        assert!(max_scroll(Rect::new(0, 0, 80, 24), false) > 100);
        assert!(max_scroll(Rect::new(0, 0, 60, 20), false) > 100);
    }
}
