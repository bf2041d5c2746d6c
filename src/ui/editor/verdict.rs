//! Beside the exercise editor: the task, then after a check the verdict, each check, the
//! hazards and diagnostics with their lines and the program's output (its timeline is drawn in
//! `timeline`); the check's progress (queued, running, cancelled); the hints revealed so
//! far; or the solution once unlocked and asked for.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::{check_status, clean};
use crate::app::{App, EditorState};
use crate::exercise::{Verdict, catalog};
use crate::theme::Theme;
use crate::ui::pane_block;

/// Draw the verdict pane for `ed` in `area`; `stacked` when it shares its place with the
/// timeline (Ctrl-L swaps them), which its title then says.
pub fn render(app: &App, ed: &EditorState, area: Rect, stacked: bool, buf: &mut Buffer) {
    let theme = &app.theme;
    let Some(ex) = catalog::find(&ed.id) else {
        return;
    };
    let (title, lines) = if ed.show_solution {
        (
            " Solution ",
            ex.solution.lines().map(|l| Line::raw(clean(l))).collect(),
        )
    } else if stacked && ed.timeline.is_some() {
        (" Verdict · ^L timeline ", verdict_lines(app, ed, theme))
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
    if let Some(status) = check_status(ed) {
        out.push(Line::styled(status, theme.strong()));
    } else if ed.cancelled {
        out.push(Line::styled(
            "✗ check cancelled (Esc); Ctrl-R checks again",
            theme.wrong(),
        ));
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
        let lines = match h.other_line {
            Some(other) => format!("L{} ↔ L{other}", h.line),
            None => format!("L{}", h.line),
        };
        let text = format!("▲ {} {lines}: {}", h.kind.name(), clean(&h.message));
        out.push(Line::styled(text, theme.warning()));
    }
    if !v.output.is_empty() {
        out.push(Line::styled("Output", theme.strong()));
        out.extend(v.output.lines().map(|l| Line::raw(clean(l))));
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
    if app.editor_solution_unlocked() {
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
