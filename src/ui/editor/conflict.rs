//! The editor's prompts, drawn over its code pane: the file changed outside (keep mine / load
//! theirs / show diff, and the diff itself), and quitting when the text cannot be kept.

use crate::keymap::Action;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Widget, Wrap};

use super::clean;
use crate::app::EditorState;
use crate::app::{App, editor::DiffLine};

/// Draw the prompt that is up, if any, over `inner` (the code pane's inside); `true` when the
/// code itself is hidden (the diff covers it).
pub fn render(app: &App, ed: &EditorState, inner: Rect, buf: &mut Buffer) -> bool {
    if let Some(why) = &ed.quit_prompt {
        let lines = vec![
            Line::styled(
                "Your code could not be saved, nor written to a recovery file:",
                app.theme.error(),
            ),
            Line::raw(clean(why)),
            Line::raw(""),
            Line::styled(
                "Quit anyway and lose it?  y quit · n stay",
                app.theme.strong(),
            ),
        ];
        boxed(app, " Unsaved code ", lines, inner, buf);
        return false;
    }
    let Some(conflict) = &ed.conflict else {
        return false;
    };
    if let Some(diff) = &conflict.diff {
        render_diff(app, diff, conflict.diff_top, inner, buf);
        return true;
    }
    let mut lines = vec![Line::styled(
        "The file changed outside the tutorial.",
        app.theme.warning(),
    )];
    match &conflict.theirs {
        Ok(_) => {
            lines.push(Line::raw(
                "Typing goes on here; nothing is saved until you choose.",
            ));
            lines.push(Line::styled(
                format!(
                    "{} keep mine · {} load theirs (yours goes to a recovery file) · {} compare",
                    key(Action::ConflictKeep),
                    key(Action::ConflictLoad),
                    key(Action::ConflictCompare)
                ),
                app.theme.strong(),
            ));
        }
        Err(why) => {
            lines.push(Line::raw(format!(
                "It cannot be loaded ({}); it is left as it is on disk.",
                clean(why)
            )));
            lines.push(Line::styled(
                format!(
                    "{} keep mine (a save replaces a regular file; a FIFO or device is left alone, and the save says so) · or fix the file ({})",
                    key(Action::ConflictKeep),
                    key(Action::EditorExternal)
                ),
                app.theme.strong(),
            ));
        }
    }
    boxed(app, " File changed ", lines, inner, buf);
    false
}

/// `lines` in a bordered box at the bottom of `area`.
fn boxed(app: &App, title: &str, lines: Vec<Line<'static>>, area: Rect, buf: &mut Buffer) {
    let width = area.width.saturating_sub(2).max(1);
    let rows: u16 = lines
        .iter()
        .map(|l| {
            let w = u16::try_from(l.width()).unwrap_or(u16::MAX);
            w.div_ceil(width.saturating_sub(2).max(1)).max(1)
        })
        .sum();
    let height = (rows + 2).min(area.height);
    let rect = Rect {
        x: area.x + 1.min(area.width),
        y: area.y + area.height - height,
        width,
        height,
    };
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Rounded)
                .border_style(app.theme.warning())
                .title(title.to_string()),
        )
        .render(rect, buf);
}

/// The diff over the whole of `area`: a header line, then the lines from `top`.
fn render_diff(app: &App, diff: &[DiffLine], top: usize, area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    if area.height == 0 {
        return;
    }
    let (keep, load) = (key(Action::ConflictKeep), key(Action::ConflictLoad));
    let header = if area.width >= 100 {
        format!(
            "diff: - only here (mine) · + only on disk (theirs) · ↑↓ scroll · {keep} keep mine · {load} load theirs · Esc back"
        )
    } else {
        format!("diff: - mine + theirs · ↑↓ · {keep} mine · {load} theirs · Esc back")
    };
    buf.set_line(
        area.x,
        area.y,
        &Line::styled(header, app.theme.strong()),
        area.width,
    );
    let top = top.min(diff.len().saturating_sub(1));
    for (row, line) in diff
        .iter()
        .skip(top)
        .take(usize::from(area.height - 1))
        .enumerate()
    {
        let (mark, text, style) = match line {
            DiffLine::Both(t) => ("  ", t, app.theme.muted()),
            DiffLine::Mine(t) => ("- ", t, app.theme.error()),
            DiffLine::Theirs(t) => ("+ ", t, app.theme.warning()),
        };
        let y = area.y + 1 + u16::try_from(row).unwrap_or(0);
        let shown = Line::from(vec![
            Span::styled(mark, style),
            Span::styled(clean(text), Style::default().patch(style)),
        ]);
        buf.set_line(area.x, y, &shown, area.width);
    }
}

/// The editor's first key for `action`, from the table.
fn key(action: Action) -> String {
    crate::keymap::first_key(crate::keymap::Ctx::Editor, action)
}
