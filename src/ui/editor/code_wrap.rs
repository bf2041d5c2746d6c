//! Verbatim text (the solution, the program's output) cut to the verdict pane's width at word
//! boundaries: every space is kept (indentation and alignment mean something in code), and a
//! line breaks after the last space that fits, so `honestly: warm up first` never becomes
//! `honestly: w` / `arm up first` (walkthrough 2026-12-01b). A word longer than the pane
//! breaks at the edge, the only place it can.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// `spans` as lines of at most `width` columns, broken after spaces where one fits.
pub fn break_at_words(spans: &[Span<'static>], width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let cells: Vec<(char, Style)> = spans
        .iter()
        .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
        .collect();
    let mut lines = Vec::new();
    let mut line: Vec<(char, Style)> = Vec::new();
    let mut used = 0;
    for cell in cells {
        let w = cell.0.width().unwrap_or(0);
        if used + w > width && used > 0 {
            // After the last space that is not the line's indentation, if there is one.
            let indent = line.iter().take_while(|(c, _)| *c == ' ').count();
            let cut = line
                .iter()
                .rposition(|(c, _)| *c == ' ')
                .filter(|&i| i >= indent)
                .map_or(line.len(), |i| i + 1);
            let rest = line.split_off(cut);
            lines.push(to_line(&line));
            line = rest;
            used = line.iter().map(|(c, _)| c.width().unwrap_or(0)).sum();
        }
        line.push(cell);
        used += w;
    }
    lines.push(to_line(&line));
    lines
}

/// Cells back to spans, one per run of one style.
fn to_line(cells: &[(char, Style)]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut run = String::new();
    let mut style = None;
    for &(c, s) in cells {
        if style.is_some_and(|st| st != s) {
            spans.push(Span::styled(
                std::mem::take(&mut run),
                style.unwrap_or_default(),
            ));
        }
        style = Some(s);
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(Span::styled(run, style.unwrap_or_default()));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn lines_break_after_the_last_space_that_fits() {
        let line = "// time a copy with CUDA events, honestly: warm up first";
        let out = break_at_words(&[Span::raw(line)], 24);
        assert_eq!(
            text(&out),
            [
                "// time a copy with ",
                "CUDA events, honestly: ",
                "warm up first"
            ]
        );
        assert!(out.iter().all(|l| l.width() <= 24));
        assert_eq!(text(&out).concat(), line, "every character kept");
    }

    #[test]
    fn indentation_is_kept_and_a_long_word_breaks_at_the_edge() {
        let out = break_at_words(&[Span::raw("    cudaMemcpyHostToDevice);")], 10);
        assert_eq!(text(&out), ["    cudaMe", "mcpyHostTo", "Device);"]);
        let styled = [Span::styled("ab ", Style::new().bold()), Span::raw("cd")];
        let out = break_at_words(&styled, 4);
        assert_eq!(text(&out), ["ab ", "cd"]);
        assert_eq!(out[1].spans[0].style, Style::new());
    }
}
