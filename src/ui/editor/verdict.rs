//! Beside the exercise editor: the task, then after a check the verdict, each check, the
//! hazards and diagnostics with their lines and the program's output (its timeline is drawn in
//! `timeline`); the check's progress (queued, running, cancelled); the hints revealed so
//! far; or the solution once unlocked and asked for.
//!
//! The pane scrolls (Alt-↑↓, Alt-PgUp/PgDn, the wheel: at 80x24 it is 6 lines), says where it
//! is in its bottom border, and resolves what Ctrl-T, Ctrl-G and a new verdict ask to bring
//! into view ([`Reveal`]). It wraps the text itself so that it knows on which line a hint starts.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{check_status, clean};
use crate::app::editor::Reveal;
use crate::app::{App, EditorState};
use crate::exercise::{Verdict, catalog};
use crate::theme::Theme;
use crate::ui::{layout, pane_block, text};

/// A line of the pane before wrapping: prose wraps at spaces; code and program output keep
/// their spaces and break after the last one that fits (`code_wrap`).
struct Piece {
    line: Line<'static>,
    verbatim: bool,
    /// The heading of the last hint shown (what Ctrl-T brings into view).
    last_hint: bool,
}

fn prose(line: Line<'static>) -> Piece {
    Piece {
        line,
        verbatim: false,
        last_hint: false,
    }
}

fn verbatim(line: Line<'static>) -> Piece {
    Piece {
        line,
        verbatim: true,
        last_hint: false,
    }
}

/// Draw the verdict pane for `ed` in `area`; `stacked` when it shares its place with the
/// timeline (Ctrl-L swaps them), which its title then says.
pub fn render(app: &App, ed: &EditorState, area: Rect, stacked: bool, buf: &mut Buffer) {
    let theme = &app.theme;
    let Some(ex) = catalog::find(&ed.id) else {
        return;
    };
    // Stacked (narrow), the title names the keys that trade rows with the code and the timeline.
    let zoom = crate::keymap::first_key(
        crate::keymap::Ctx::Editor,
        crate::keymap::Action::EditorToggleZoom,
    );
    let (title, pieces) = if ed.show_solution {
        (
            if stacked {
                format!(" Solution · {zoom} zoom ")
            } else {
                " Solution ".to_string()
            },
            ex.solution
                .lines()
                .map(|l| verbatim(Line::raw(clean(l))))
                .collect(),
        )
    } else if stacked && ed.has_timeline() {
        (
            format!(
                " Verdict · {} timeline · {zoom} zoom ",
                crate::keymap::first_key(
                    crate::keymap::Ctx::Editor,
                    crate::keymap::Action::EditorToggleTimeline
                )
            ),
            verdict_pieces(app, ed, theme),
        )
    } else if stacked {
        (
            format!(" Verdict · {zoom} zoom "),
            verdict_pieces(app, ed, theme),
        )
    } else {
        (" Verdict ".to_string(), verdict_pieces(app, ed, theme))
    };
    let inner = layout::text_area(area);
    let (lines, hint_at) = wrap(pieces, inner.width);
    let to = ed.verdict_scroll.take_reveal().map(|r| match r {
        Reveal::Top => 0,
        Reveal::LastHint => hint_at.unwrap_or(0),
    });
    let top = ed.verdict_scroll.drawn(area, lines.len(), inner.height, to);
    let mut block = pane_block(theme, false).title(title);
    if let Some(hint) = position(usize::from(top), usize::from(inner.height), lines.len()) {
        block = block.title_bottom(Line::styled(hint, theme.muted()).right_aligned());
    }
    block.render(area, buf);
    let visible: Vec<Line> = lines
        .into_iter()
        .skip(usize::from(top))
        .take(usize::from(inner.height))
        .collect();
    Paragraph::new(visible).render(inner, buf);
}

/// Where the view is, for the bottom border, when the text does not fit: the lines shown and
/// the key that shows the rest.
fn position(top: usize, rows: usize, lines: usize) -> Option<String> {
    if lines <= rows || rows == 0 {
        return None;
    }
    let last = (top + rows).min(lines);
    let key = if last < lines {
        "↓ Alt-↓"
    } else {
        "↑ Alt-↑"
    };
    Some(format!(" lines {}-{last} of {lines} · {key} ", top + 1))
}

/// The pieces wrapped to `width`, and the line the last hint's heading is on.
fn wrap(pieces: Vec<Piece>, width: u16) -> (Vec<Line<'static>>, Option<usize>) {
    let mut out = Vec::new();
    let mut hint_at = None;
    for piece in pieces {
        if piece.last_hint {
            hint_at = Some(out.len());
        }
        let style = piece.line.style;
        let spans: Vec<Span<'static>> = piece
            .line
            .spans
            .into_iter()
            .map(|s| {
                let patched = style.patch(s.style);
                s.style(patched)
            })
            .collect();
        if piece.verbatim {
            out.extend(super::code_wrap::break_at_words(&spans, width));
        } else {
            out.extend(text::wrap(&spans, width, Span::raw(""), Span::raw("")));
        }
    }
    (out, hint_at)
}

fn verdict_pieces(app: &App, ed: &EditorState, theme: &Theme) -> Vec<Piece> {
    let mut out = Vec::new();
    if let Some(status) = check_status(ed) {
        out.push(prose(Line::styled(status, theme.strong())));
    } else if ed.cancelled {
        out.push(prose(Line::styled(
            format!(
                "✗ check cancelled (Esc); {} checks again",
                crate::keymap::first_key(
                    crate::keymap::Ctx::Editor,
                    crate::keymap::Action::EditorCheck
                )
            ),
            theme.wrong(),
        )));
    }
    match &ed.verdict {
        Some(v) => out.extend(pieces_of(v, &ed.id, theme)),
        None => {
            out.push(prose(Line::styled("Task", theme.strong())));
            if let Some(ex) = catalog::find(&ed.id) {
                out.extend(paragraphs(&ex.task, theme));
            }
            out.push(prose(Line::styled(
                format!(
                    "{} saves and checks the file.",
                    crate::keymap::first_key(
                        crate::keymap::Ctx::Editor,
                        crate::keymap::Action::EditorCheck
                    )
                ),
                theme.muted(),
            )));
        }
    }
    out.extend(hint_pieces(app, ed, theme));
    out
}

fn pieces_of(v: &Verdict, id: &str, theme: &Theme) -> Vec<Piece> {
    let style = if v.passed {
        theme.correct()
    } else {
        theme.wrong()
    };
    let mark = if v.passed { "✓ " } else { "✗ " };
    let mut out = vec![prose(Line::styled(
        format!("{mark}{}", clean(&v.summary(id))),
        style,
    ))];
    for c in &v.checks {
        let (glyph, style) = if c.passed {
            ("✓", theme.correct())
        } else {
            ("✗", theme.wrong())
        };
        out.push(prose(Line::from(vec![
            Span::styled(format!("{glyph} {}", clean(&c.name)), style),
            Span::raw(format!(": {}", clean(&c.detail))),
        ])));
    }
    for d in &v.diagnostics {
        out.push(prose(Line::styled(
            format!("● line {}: {}", d.line, clean(&d.message)),
            theme.error(),
        )));
    }
    for h in &v.hazards {
        let lines = match h.other_line {
            Some(other) => format!("L{} ↔ L{other}", h.line),
            None => format!("L{}", h.line),
        };
        let text = format!("▲ {} {lines}: {}", h.kind.name(), clean(&h.message));
        out.push(prose(Line::styled(text, theme.warning())));
    }
    if !v.output.is_empty() {
        out.push(prose(Line::styled("Output", theme.strong())));
        out.extend(v.output.lines().map(|l| verbatim(Line::raw(clean(l)))));
    }
    out
}

fn hint_pieces(app: &App, ed: &EditorState, theme: &Theme) -> Vec<Piece> {
    let Some(ex) = catalog::find(&ed.id) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let shown = ed.hints_shown.min(ex.hints.len());
    for (i, hint) in ex.hints.iter().take(shown).enumerate() {
        let mut heading = prose(Line::styled(
            format!("Hint {} of {}", i + 1, ex.hints.len()),
            theme.strong(),
        ));
        heading.last_hint = i + 1 == shown;
        out.push(heading);
        out.extend(paragraphs(hint, theme));
    }
    let left = ex.hints.len() - ed.hints_shown.min(ex.hints.len());
    let mut more = Vec::new();
    if left > 0 {
        more.push(format!(
            "{}: a hint ({left} left)",
            crate::keymap::first_key(
                crate::keymap::Ctx::Editor,
                crate::keymap::Action::EditorHint
            )
        ));
    }
    if app.editor_solution_unlocked() {
        more.push(format!(
            "{}: the solution",
            crate::keymap::first_key(
                crate::keymap::Ctx::Editor,
                crate::keymap::Action::EditorSolution
            )
        ));
    }
    if !more.is_empty() {
        out.push(prose(Line::styled(more.join(" · "), theme.muted())));
    }
    out
}

/// Markdown text as one line per paragraph (wrapped to the pane's width), `code` styled as
/// in the cards.
fn paragraphs(text: &str, theme: &Theme) -> Vec<Piece> {
    text.split("\n\n")
        .map(|p| {
            let words = clean(&p.split_whitespace().collect::<Vec<_>>().join(" "));
            prose(Line::from(text::inline(
                &words,
                theme.text(),
                theme.inline_code(),
            )))
        })
        .collect()
}
