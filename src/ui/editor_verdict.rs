//! Beside the exercise editor: the task, then after a check the verdict, each check, the
//! hazards and diagnostics with their lines, the program's timeline (one op a line) and its
//! output; the hints revealed so far; or the solution once unlocked and asked for.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::app::{App, EditorState};
use crate::exercise::{Verdict, catalog};
use crate::theme::Theme;
use crate::timeline::format::{format_duration_us, kind_name};
use crate::ui::editor::clean;
use crate::ui::pane_block;

/// Ops listed from the program's timeline (the rest are counted).
const TIMELINE_ROWS: usize = 12;

/// Draw the verdict pane for `ed` in `area`.
pub fn render(app: &App, ed: &EditorState, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let Some(ex) = catalog::find(&ed.id) else {
        return;
    };
    let (title, lines) = if ed.show_solution {
        (
            " Solution ",
            ex.solution.lines().map(|l| Line::raw(clean(l))).collect(),
        )
    } else {
        (" Verdict ", verdict_lines(app, ed, theme))
    };
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(pane_block(theme, false).title(title))
        .render(area, buf);
}

fn verdict_lines(app: &App, ed: &EditorState, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    if ed.checking.is_some() {
        out.push(Line::styled("checking…", theme.muted()));
    }
    match &ed.verdict {
        Some(v) => out.extend(lines_of(v, &ed.id, theme)),
        None => {
            out.push(Line::styled("Task", theme.strong()));
            if let Some(ex) = catalog::find(&ed.id) {
                out.extend(paragraphs(&ex.task));
            }
            out.push(Line::styled(
                "Ctrl-R saves and checks the file.",
                theme.muted(),
            ));
        }
    }
    out.extend(hint_lines(app, ed, theme));
    out
}

fn lines_of(v: &Verdict, id: &str, theme: &Theme) -> Vec<Line<'static>> {
    let style = if v.passed {
        theme.correct()
    } else {
        theme.wrong()
    };
    let mark = if v.passed { "✓ " } else { "✗ " };
    let mut out = vec![Line::styled(
        format!("{mark}{}", clean(&v.summary(id))),
        style,
    )];
    for c in &v.checks {
        let (glyph, style) = if c.passed {
            ("✓", theme.correct())
        } else {
            ("✗", theme.wrong())
        };
        out.push(Line::from(vec![
            Span::styled(format!("{glyph} {}", clean(&c.name)), style),
            Span::raw(format!(": {}", clean(&c.detail))),
        ]));
    }
    for d in &v.diagnostics {
        out.push(Line::styled(
            format!("● line {}: {}", d.line, clean(&d.message)),
            theme.error(),
        ));
    }
    for h in &v.hazards {
        let text = format!(
            "▲ line {} [{}] {}",
            h.line,
            h.kind.name(),
            clean(&h.message)
        );
        out.push(Line::styled(text, theme.warning()));
    }
    out.extend(timeline_lines(v, theme));
    if !v.output.is_empty() {
        out.push(Line::styled("Output", theme.strong()));
        out.extend(v.output.lines().map(|l| Line::raw(clean(l))));
    }
    out
}

fn timeline_lines(v: &Verdict, theme: &Theme) -> Vec<Line<'static>> {
    if v.timeline.is_empty() {
        return Vec::new();
    }
    let mut out = vec![Line::styled("Timeline", theme.strong())];
    for op in v.timeline.iter().take(TIMELINE_ROWS) {
        out.push(Line::from(vec![
            Span::styled(
                format!("s{:<2} {:<6}", op.stream, kind_name(op.kind)),
                theme.op(op.kind),
            ),
            Span::raw(format!(
                " {:>9} +{:<9} {}",
                format_duration_us(op.start_us),
                format_duration_us(op.duration_us()),
                clean(&op.label)
            )),
        ]));
    }
    if v.timeline.len() > TIMELINE_ROWS {
        let more = format!("… {} more ops", v.timeline.len() - TIMELINE_ROWS);
        out.push(Line::styled(more, theme.muted()));
    }
    out
}

fn hint_lines(app: &App, ed: &EditorState, theme: &Theme) -> Vec<Line<'static>> {
    let Some(ex) = catalog::find(&ed.id) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, hint) in ex.hints.iter().take(ed.hints_shown).enumerate() {
        out.push(Line::styled(
            format!("Hint {} of {}", i + 1, ex.hints.len()),
            theme.strong(),
        ));
        out.extend(paragraphs(hint));
    }
    let left = ex.hints.len() - ed.hints_shown.min(ex.hints.len());
    let mut more = Vec::new();
    if left > 0 {
        more.push(format!("Ctrl-T: a hint ({left} left)"));
    }
    if ed.solution_unlocked(app.editor_passed()) {
        more.push("Ctrl-G: the solution".to_string());
    }
    if !more.is_empty() {
        out.push(Line::styled(more.join(" · "), theme.muted()));
    }
    out
}

/// Markdown text as one line per paragraph (the pane wraps them to its width).
fn paragraphs(text: &str) -> Vec<Line<'static>> {
    text.split("\n\n")
        .map(|p| Line::raw(clean(&p.split_whitespace().collect::<Vec<_>>().join(" "))))
        .collect()
}
