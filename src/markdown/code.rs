//! Code blocks: highlighted by syntect when it is warm, plain otherwise, behind a `▎ ` gutter
//! (so code reads apart from prose without colour). Code is never wrapped (issue 28: a `↪`
//! continuation read as two lines of code). A line longer than the pane whose trailing `//`
//! comment, set on its own line above, lets both fit is shown that way (still the same program:
//! at 80 columns no built-in card's code is cut); other long lines are cut at the pane's edge
//! with a `»` mark, and the block scrolls sideways by [`RenderOptions::code_scroll`] columns
//! (`«` where text is hidden on the left), as the exercise editor does.

use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use super::RenderOptions;
use super::text::clean_code_line;
use super::wrap::{Piece, slice_columns, width_of};
use crate::highlight;

const GUTTER: &str = "▎ ";
/// Where a cut line goes on to the right.
const MORE_RIGHT: &str = "»";
/// Where a scrolled line has text to the left.
const MORE_LEFT: &str = "«";

/// A code block's lines for a pane `width` wide, and how many columns its widest line is
/// wider than the pane (how far it can scroll).
pub(super) struct CodeLines {
    pub lines: Vec<Vec<Piece>>,
    pub overflow: usize,
}

/// The lines of a code block `code` in fence language `lang`, for a pane `width` wide,
/// scrolled `opts.code_scroll` columns (at most its overflow).
pub(super) fn code_block(lang: &str, code: &str, opts: &RenderOptions, width: usize) -> CodeLines {
    let code = code.strip_suffix('\n').unwrap_or(code);
    let clean: String = code
        .split('\n')
        .map(clean_code_line)
        .collect::<Vec<_>>()
        .join("\n");
    let styled = if opts.highlight {
        highlight::highlight(lang, &clean, opts.theme)
    } else {
        None
    };
    let source: Vec<Vec<Piece>> = match styled {
        Some(lines) => lines
            .into_iter()
            .map(|l| {
                l.spans
                    .into_iter()
                    .map(|s| Piece::new(s.content, s.style))
                    .collect()
            })
            .collect(),
        None => clean
            .split('\n')
            .map(|l| vec![Piece::new(l, Style::new())])
            .collect(),
    };
    let muted = opts.theme.muted();
    let body = width.saturating_sub(GUTTER.width()).max(1);
    let mut shown: Vec<Vec<Piece>> = Vec::with_capacity(source.len());
    for line in source {
        match comment_above(&line, body) {
            Some([comment, code]) if width_of(&line) > body => shown.extend([comment, code]),
            _ => shown.push(line),
        }
    }
    let overflow = shown
        .iter()
        .map(|l| width_of(l).saturating_sub(body))
        .max()
        .unwrap_or(0);
    let offset = usize::from(opts.code_scroll).min(overflow);
    let lines = shown
        .iter()
        .map(|line| with_gutter(vec![], window(line, offset, body, muted), muted))
        .collect();
    CodeLines { lines, overflow }
}

/// The `body` columns of `line` from column `offset`, with `«` in the first of them when text
/// lies to the left (and `offset` is not 0) and `»` in the last when text goes on to the right.
/// Each mark covers one column of code, shown whole one step of scrolling away.
fn window(line: &[Piece], offset: usize, body: usize, muted: Style) -> Vec<Piece> {
    let total = width_of(line);
    let right = total > offset + body;
    let left = offset > 0 && total > 0;
    if !right && !left {
        return line.to_vec();
    }
    let from = offset + usize::from(left);
    let len = body.saturating_sub(usize::from(left) + usize::from(right));
    let mut out = Vec::new();
    if left {
        out.push(Piece::new(MORE_LEFT, muted));
    }
    out.extend(slice_columns(line, from, len));
    if right {
        // Padded, so the mark sits at the edge even after a short slice.
        let pad = len.saturating_sub(width_of(&out) - usize::from(left));
        out.push(Piece::new(" ".repeat(pad), Style::new()));
        out.push(Piece::new(MORE_RIGHT, muted));
    }
    out
}

fn with_gutter(mut lead: Vec<Piece>, body: Vec<Piece>, muted: Style) -> Vec<Piece> {
    lead.insert(0, Piece::new(GUTTER, muted));
    lead.extend(body.into_iter().filter(|p| !p.text.is_empty()));
    lead
}

/// `line`'s trailing `//` comment on a line of its own at the code's indentation, then the code
/// without it, when both then fit in `body` columns (review 2026-12-01b: at 80 columns
/// `cudaMemcpy(…); // straight to` went on with `↪ DMA`). `None` for a line without such a
/// comment, a line that is only a comment, or one that still would not fit.
fn comment_above(line: &[Piece], body: usize) -> Option<[Vec<Piece>; 2]> {
    let text: String = line.iter().map(|p| p.text.as_str()).collect();
    let at = comment_start(&text)?;
    let code = text[..at].trim_end();
    let indent = &text[..text.len() - text.trim_start().len()];
    if code.trim().is_empty() || code.width() > body || indent.width() + text[at..].width() > body {
        return None;
    }
    let (before, comment) = split_at(line, at);
    let (code_pieces, _) = split_at(&before, code.len());
    let mut above = vec![Piece::new(indent, Style::new())];
    above.extend(comment);
    Some([above, code_pieces])
}

/// Where a `//` comment starts in a line of C or C++, outside string and character literals.
fn comment_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut quote = None;
    let mut i = 0;
    while i + 1 < bytes.len() {
        match (quote, bytes[i]) {
            (Some(_), b'\\') => i += 1,
            (Some(q), c) if c == q => quote = None,
            (None, c @ (b'"' | b'\'')) => quote = Some(c),
            (None, b'/') if bytes[i + 1] == b'/' => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// `pieces` cut at byte `at` of their joined text (a char boundary).
fn split_at(pieces: &[Piece], at: usize) -> (Vec<Piece>, Vec<Piece>) {
    let (mut before, mut after) = (Vec::new(), Vec::new());
    let mut pos = 0;
    for piece in pieces {
        let end = pos + piece.text.len();
        if end <= at {
            before.push(piece.clone());
        } else if pos >= at {
            after.push(piece.clone());
        } else if let (Some(head), Some(tail)) =
            (piece.text.get(..at - pos), piece.text.get(at - pos..))
        {
            before.push(Piece::new(head, piece.style));
            after.push(Piece::new(tail, piece.style));
        }
        pos = end;
    }
    (before, after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(pieces: &[Piece]) -> String {
        pieces.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn a_trailing_comment_goes_above_the_code_it_would_wrap() {
        let line = [
            Piece::new("  cudaMemcpy(d, h, n, ", Style::new()),
            Piece::new("kind); // straight to DMA", Style::new()),
        ];
        let [comment, code] = comment_above(&line, 30).unwrap();
        assert_eq!(joined(&comment), "  // straight to DMA");
        assert_eq!(joined(&code), "  cudaMemcpy(d, h, n, kind);");
        // Still too wide, or nothing to move: wrapped as before.
        assert!(comment_above(&line, 20).is_none());
        assert!(comment_above(&[Piece::new("// only a comment", Style::new())], 8).is_none());
        assert_eq!(comment_start(r#"printf("a // b"); // c"#), Some(18));
        assert_eq!(comment_start("char c = '/'; x = a / b;"), None);
    }
}
