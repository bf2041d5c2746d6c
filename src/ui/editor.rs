//! The exercise editor pane: the learner's file with line numbers, CUDA highlighting (the
//! cards' highlighter), a gutter mark on lines with a diagnostic (`●`) or hazard (`▲`), the
//! message of the cursor's line (or the check's progress) at the bottom, and beside it the
//! verdict (`verdict`) above the program's timeline (`timeline`). Where the screen
//! is narrow the verdict goes below the code and Ctrl-L swaps it for the timeline.

mod code_wrap;
mod conflict;
mod keys_hint;
pub mod picker;
pub mod timeline;
mod verdict;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthChar;

use crate::app::editor::editing::CodeView;
use crate::app::editor::{Find, Stage};
use crate::app::{App, EditorState};
use crate::exercise::catalog;
use crate::ui::pane_block;

/// Width from which the code and the verdict sit side by side (else one above the other).
const SIDE_BY_SIDE_FROM: u16 = 100;
/// The code pane's least height (border, a few lines, its status line) when the timeline below
/// it takes the rows it wants.
const MIN_CODE_ROWS: u16 = 7;

/// Draw the editor and its verdict over `area` (the card, panel and quiz panes together).
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(ed) = &app.exercises.editor else {
        return;
    };
    // Drawn below where it is on screen; the wheel finds it there.
    ed.verdict_scroll.hidden();
    let derived = ed.timeline();
    let tl = derived.as_ref();
    if area.width >= SIDE_BY_SIDE_FROM {
        let [code, side] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Fill(1)]).areas(area);
        render_code(app, ed, code, buf);
        let rows = timeline::rows_wanted(tl).min(side.height / 2);
        let [verdict, timeline] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(rows)]).areas(side);
        verdict::render(app, ed, verdict, false, buf);
        timeline::render(app, (ed, tl), timeline, false, buf);
    } else {
        // The verdict takes 40% of the rows; the timeline, when shown, as many as its lanes
        // want (at 80x24 a three-stream race needs all its lanes on screen), leaving the code
        // at least MIN_CODE_ROWS.
        let share = area.height * 2 / 5;
        let lower_rows = if ed.zoom_lower {
            area.height
                .saturating_sub(MIN_CODE_ROWS)
                .max(share.min(area.height))
        } else if ed.show_timeline {
            timeline::rows_wanted(tl)
                .max(share)
                .min(area.height.saturating_sub(MIN_CODE_ROWS))
                .max(share.min(area.height))
        } else {
            share
        };
        let [code, lower] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(lower_rows)]).areas(area);
        render_code(app, ed, code, buf);
        if ed.show_timeline {
            timeline::render(app, (ed, tl), lower, true, buf);
        } else {
            verdict::render(app, ed, lower, true, buf);
        }
    }
}

fn render_code(app: &App, ed: &EditorState, area: Rect, buf: &mut Buffer) {
    let title = catalog::find(&ed.id).map_or(ed.id.as_str(), |e| e.title.as_str());
    let passed = if app.editor_passed() {
        " ✓ passed"
    } else {
        ""
    };
    let block = pane_block(&app.theme, app.overlays.dialog.is_none())
        .title(format!(" Exercise: {}{passed} ", clean(title)));
    let inner = block.inner(area);
    block.render(area, buf);
    let Some(text_area) = &ed.area else {
        buf.set_string(inner.x, inner.y, "opening…", app.theme.muted());
        return;
    };
    if inner.height < 2 || inner.width < 8 {
        return;
    }
    let lines = text_area.lines();
    let (row, col) = (text_area.cursor().0, text_area.cursor().1);
    let body_height = usize::from(inner.height - 1);
    // From where the last frame (or a page key) left the view.
    let top = keep_visible(ed.editing.view.get().top, row, body_height);
    ed.scroll.set(top);
    let styled = highlighted(app, lines, top, top + body_height);
    let number_width = lines.len().max(1).to_string().len().max(3);
    let gutter = u16::try_from(number_width + 2).unwrap_or(5);
    // The code's last column is kept for `»`, the mark of a line that goes on to the right.
    let code_width = usize::from(inner.width.saturating_sub(gutter + 1));
    let hscroll = col.saturating_sub(code_width.saturating_sub(1));
    // Where the code is, for a page's height and the mouse (`app::editor::editing`).
    ed.editing.view.set(CodeView {
        x: inner.x,
        y: inner.y,
        width: inner.width,
        height: inner.height - 1,
        top,
        left: hscroll,
        gutter,
    });
    let selection = text_area.selection_range();
    for (screen_row, line_idx) in (top..lines.len()).take(body_height).enumerate() {
        let y = inner.y + u16::try_from(screen_row).unwrap_or(0);
        let mark = line_mark(app, ed, line_idx + 1);
        buf.set_string(inner.x, y, mark.0, mark.1);
        let number = format!("{:>number_width$} ", line_idx + 1);
        let number_style = if line_idx == row {
            app.theme.strong()
        } else {
            app.theme.muted()
        };
        buf.set_string(inner.x + 1, y, number, number_style);
        let cursor = (line_idx == row && app.overlays.dialog.is_none()).then_some(col);
        let cells = styled.get(line_idx - top).map_or(&[][..], Vec::as_slice);
        let x = inner.x + gutter;
        let marks = (cursor, selected_columns(selection, line_idx));
        let shown = draw_cells(buf, (x, y), code_width, cells, hscroll, marks);
        draw_continued(buf, (x, y), code_width, (cells.len(), hscroll, shown), app);
    }
    let status = status_line(ed, (row, col), usize::from(inner.width));
    let status_style = if ed.save_error.is_some() {
        app.theme.error()
    } else {
        app.theme.muted()
    };
    buf.set_string(inner.x, inner.y + inner.height - 1, status, status_style);
    let prompt_area = Rect {
        height: inner.height - 1,
        ..inner
    };
    conflict::render(app, ed, prompt_area, buf);
}

/// The code pane's last line: the message of the cursor's line, else the keys (once) or where
/// the cursor is; after what the check in flight is doing and the file's trouble, if any; cut
/// to `width` with a `…` (the whole message is in the verdict pane).
fn status_line(ed: &EditorState, (row, col): (usize, usize), width: usize) -> String {
    let position = match cursor_message(ed, row + 1) {
        Some(message) => message,
        None if ed.tell_keys => keys_hint::line(width),
        None => format!("line {}, column {}", row + 1, col + 1),
    };
    let status = match check_status(ed) {
        Some(check) => format!("{check} · {position}"),
        None => position,
    };
    let status = match &ed.editing.find {
        Some(find) => find_status(find),
        None => status,
    };
    let status = match (&ed.save_error, &ed.conflict) {
        (_, Some(_)) => format!("changed outside · {status}"),
        (Some(_), None) => format!("NOT SAVED · {status}"),
        (None, None) => status,
    };
    crate::text_fit::truncate(&clean(&status), width)
}

/// What the check in flight is doing, for the status line.
pub fn check_status(ed: &EditorState) -> Option<String> {
    Some(match &ed.checking.as_ref()?.stage {
        Stage::Queued { behind } => format!("queued behind {} · Esc cancels", clean(behind)),
        Stage::Running => "checking… Esc cancels".to_string(),
        Stage::Cancelling => "cancelling… Esc leaves".to_string(),
    })
}

/// First visible line so that `row` stays on screen, moving as little as possible.
fn keep_visible(top: usize, row: usize, height: usize) -> usize {
    if row < top {
        row
    } else if row >= top + height {
        row + 1 - height
    } else {
        top
    }
}

/// Lines beyond which only the lines up to the bottom of the view are highlighted, and the rest
/// drawn plain (a 1 MB paste must not cost a whole-file highlight per frame).
const HIGHLIGHT_LINES: usize = 2_000;

/// One styled line per source line from `top` to `end` (plain until the highlighter is ready).
/// Highlighting needs the text before the view; in a long file only the [`HIGHLIGHT_LINES`]
/// before the view's end are read for it.
fn highlighted(app: &App, lines: &[String], top: usize, end: usize) -> Vec<Vec<(char, Style)>> {
    let end = end.min(lines.len());
    let top = top.min(end);
    let start = if lines.len() > HIGHLIGHT_LINES {
        end.saturating_sub(HIGHLIGHT_LINES).min(top)
    } else {
        0
    };
    let read = &lines[start..end];
    let joined = read.join("\n");
    let styled =
        crate::highlight::highlight("cuda", &joined, app.theme).filter(|h| h.len() >= read.len());
    match styled {
        Some(h) => h[top - start..read.len()].iter().map(cells_of).collect(),
        None => lines[top..end]
            .iter()
            .map(|l| l.chars().map(|c| (c, Style::new())).collect())
            .collect(),
    }
}

fn cells_of(line: &Line<'static>) -> Vec<(char, Style)> {
    line.spans
        .iter()
        .flat_map(|s| {
            let style = line.style.patch(s.style);
            s.content
                .chars()
                .filter(|c| *c != '\n')
                .map(move |c| (c, style))
        })
        .collect()
}

/// The find bar, in the status line: what is searched, and whether it is there.
fn find_status(find: &Find) -> String {
    let found = if find.found || find.query.is_empty() {
        ""
    } else {
        " (not found)"
    };
    format!("find: {}▏{found} · Enter next · Esc close", find.query)
}

/// The columns of line `line` inside `selection` (`(start, end)` positions, end not included).
fn selected_columns(
    selection: Option<((usize, usize), (usize, usize))>,
    line: usize,
) -> Option<(usize, usize)> {
    let ((r0, c0), (r1, c1)) = selection?;
    if line < r0 || line > r1 {
        return None;
    }
    let from = if line == r0 { c0 } else { 0 };
    // A line inside the selection is selected to its end, its newline too.
    let to = if line == r1 { c1 } else { usize::MAX };
    Some((from, to))
}

/// Draw a line's cells from cell `skip`, at most `width` columns; the cursor cell reversed,
/// and the selected ones (`(cursor, selected)`). Returns the index of the first cell not drawn.
fn draw_cells(
    buf: &mut Buffer,
    (x, y): (u16, u16),
    width: usize,
    cells: &[(char, Style)],
    skip: usize,
    (cursor, selected): (Option<usize>, Option<(usize, usize)>),
) -> usize {
    let mut used = 0usize;
    let blank = [(' ', Style::new())];
    let mut next = skip;
    for (i, (c, style)) in cells.iter().chain(blank.iter()).enumerate().skip(skip) {
        let shown = if c.is_control() { ' ' } else { *c };
        let w = shown.width().unwrap_or(1).max(1);
        if used + w > width {
            break;
        }
        let in_selection = selected.is_some_and(|(from, to)| i >= from && i < to);
        let style = if cursor == Some(i) || in_selection {
            style.add_modifier(Modifier::REVERSED)
        } else {
            *style
        };
        if cursor != Some(i) && !in_selection && i == cells.len() {
            break;
        }
        let col = x + u16::try_from(used).unwrap_or(0);
        buf.set_string(col, y, shown.to_string(), style);
        used += w;
        next = i + 1;
    }
    next
}

/// The marks of a line scrolled sideways (walkthrough 2026-12-01b: every line moved with no
/// sign of it): `«` in the gutter, just left of the code, where the line has text scrolled
/// out to the left, and `»` in the column kept right of the code where it goes on past the
/// edge. `(len, skip, shown)`: the line's cells, the first shown, the first not drawn.
fn draw_continued(
    buf: &mut Buffer,
    (x, y): (u16, u16),
    width: usize,
    (len, skip, shown): (usize, usize, usize),
    app: &App,
) {
    if skip > 0 && len > 0 {
        buf.set_string(x.saturating_sub(1), y, "«", app.theme.muted());
    }
    if shown < len {
        let right = x + u16::try_from(width).unwrap_or(0);
        buf.set_string(right, y, "»", app.theme.muted());
    }
}

/// The gutter mark of a line: a diagnostic beats a hazard. The verdict's lines are those of the
/// text checked; `ed.checked_line` follows them through the edits since.
fn line_mark(app: &App, ed: &EditorState, line: usize) -> (&'static str, Style) {
    let blank = (" ", Style::new());
    let (Some(v), Some(line)) = (&ed.verdict, checked_line(ed, line)) else {
        return blank;
    };
    if v.diagnostics.iter().any(|d| d.line == line) {
        ("●", app.theme.error())
    } else if v
        .hazards
        .iter()
        .any(|h| h.line == line || h.other_line == Some(line))
    {
        ("▲", app.theme.warning())
    } else {
        blank
    }
}

/// The line of the checked text that the editor's line `line` (1-based) is, if it was checked.
fn checked_line(ed: &EditorState, line: usize) -> Option<u32> {
    ed.checked_line(u32::try_from(line).ok()?)
}

/// The message for the cursor's line, if the last check found something there.
fn cursor_message(ed: &EditorState, line: usize) -> Option<String> {
    let v = ed.verdict.as_ref()?;
    let line = checked_line(ed, line)?;
    if let Some(d) = v.diagnostics.iter().find(|d| d.line == line) {
        return Some(format!("● {}", d.message));
    }
    v.hazards
        .iter()
        .find(|h| h.line == line || h.other_line == Some(line))
        .map(|h| format!("▲ [{}] {}", h.kind.name(), h.message))
}

/// Outside text made safe for the terminal: control characters become `?`.
pub fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}
