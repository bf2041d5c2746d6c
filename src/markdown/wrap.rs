//! Word wrapping of styled text to a column width, in one linear pass.
//!
//! Widths are display widths (unicode-width, as ratatui measures them). Words break at spaces;
//! a word wider than the line is cut at grapheme boundaries, except a URL: it is never broken
//! across lines (a broken URL can be neither clicked nor copied), so one wider than the line
//! keeps its start and end around a `…` on one line. [`fit`] is the last guard that keeps
//! every emitted line within the width, whatever odd sequences the input holds.

use std::mem::take;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use super::links::LinkSpot;

/// A run of text in one style: what the renderer builds lines from.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Piece {
    pub text: String,
    pub style: Style,
    /// The card's link this text opens (an index into [`super::links::Links`]), if any: it
    /// travels through wrapping so the view knows which cells to make a hyperlink.
    pub link: Option<usize>,
}

impl Piece {
    /// A piece of `text` in `style`.
    pub fn new(text: impl Into<String>, style: Style) -> Self {
        Piece {
            text: text.into(),
            style,
            link: None,
        }
    }
}

/// Append `text` to a line, merging with the last run when the style is the same.
pub(super) fn push(run: &mut Vec<Piece>, text: &str, style: Style) {
    push_link(run, text, style, None);
}

/// Append `text` that opens `link` (or none), merging with the last run when both match.
pub(super) fn push_link(run: &mut Vec<Piece>, text: &str, style: Style, link: Option<usize>) {
    match run.last_mut() {
        Some(last) if last.style == style && last.link == link => last.text.push_str(text),
        _ => run.push(Piece {
            text: text.to_string(),
            style,
            link,
        }),
    }
}

/// Display width of a run of pieces.
pub(super) fn width_of(run: &[Piece]) -> usize {
    run.iter().map(|p| p.text.width()).sum()
}

/// Wrap `pieces` into lines of at most `width` columns. A `'\n'` in the text is a hard break;
/// runs of spaces collapse to one, and spaces at a line's start or end are dropped.
pub(super) fn wrap(pieces: &[Piece], width: usize) -> Vec<Vec<Piece>> {
    let mut w = Wrapper {
        width: width.max(1),
        ..Wrapper::default()
    };
    for piece in pieces {
        let mut rest = piece.text.as_str();
        while let Some(first) = rest.chars().next() {
            let end = match first {
                '\n' => {
                    w.flush_word();
                    w.new_line();
                    1
                }
                ' ' => {
                    w.space(piece.style, piece.link);
                    rest.find(|c| c != ' ').unwrap_or(rest.len())
                }
                _ => {
                    let end = rest.find([' ', '\n']).unwrap_or(rest.len());
                    w.word_part(&rest[..end], piece.style, piece.link);
                    end
                }
            };
            rest = &rest[end..];
        }
    }
    w.flush_word();
    if !w.line.is_empty() || w.lines.is_empty() {
        w.new_line();
    }
    w.lines
}

#[derive(Default)]
struct Wrapper {
    width: usize,
    lines: Vec<Vec<Piece>>,
    line: Vec<Piece>,
    line_w: usize,
    word: Vec<Piece>,
    word_w: usize,
    /// The style (and link) of a space seen since the last word, if any.
    space: Option<(Style, Option<usize>)>,
}

impl Wrapper {
    fn new_line(&mut self) {
        self.lines.push(take(&mut self.line));
        self.line_w = 0;
        self.space = None;
    }

    fn space(&mut self, style: Style, link: Option<usize>) {
        self.flush_word();
        self.space = Some((style, link));
    }

    fn word_part(&mut self, text: &str, style: Style, link: Option<usize>) {
        push_link(&mut self.word, text, style, link);
        self.word_w += text.width();
    }

    fn flush_word(&mut self) {
        if self.word.is_empty() {
            return;
        }
        let gap = usize::from(self.space.is_some() && self.line_w > 0);
        if self.line_w + gap + self.word_w <= self.width {
            if let (1, Some((style, link))) = (gap, self.space) {
                push_link(&mut self.line, " ", style, link);
                self.line_w += 1;
            }
            self.append_word();
        } else {
            if self.line_w > 0 {
                self.new_line();
            }
            if self.word_w <= self.width {
                self.append_word();
            } else if self.word.iter().any(|p| p.text.contains("://")) {
                self.elide_word();
            } else {
                self.break_word();
            }
        }
        self.word_w = 0;
        self.space = None;
    }

    fn append_word(&mut self) {
        for piece in take(&mut self.word) {
            push_link(&mut self.line, &piece.text, piece.style, piece.link);
        }
        self.line_w += self.word_w;
    }

    /// Put an over-long word (a URL) on one line: its start, `…`, and its end, which names the
    /// page. The start gets the larger share (scheme and host). The `…` opens the same link as
    /// the start, so a hyperlink still carries the whole URL.
    fn elide_word(&mut self) {
        let cells: Vec<(&str, (Style, Option<usize>))> = self
            .word
            .iter()
            .flat_map(|p| p.text.graphemes(true).map(move |g| (g, (p.style, p.link))))
            .collect();
        let room = self.width.saturating_sub(1);
        let tail_room = room * 2 / 5;
        let mut head_w = 0;
        let head = cells
            .iter()
            .take_while(|(g, _)| {
                head_w += g.width();
                head_w <= room - tail_room
            })
            .count();
        let mut tail_w = 0;
        let tail = cells[head..]
            .iter()
            .rev()
            .take_while(|(g, _)| {
                tail_w += g.width();
                tail_w <= tail_room
            })
            .count();
        let (style, link) = cells.first().map_or((Style::new(), None), |c| c.1);
        let mut line = Vec::new();
        for (g, (s, l)) in &cells[..head] {
            push_link(&mut line, g, *s, *l);
        }
        push_link(&mut line, "…", style, link);
        for (g, (s, l)) in &cells[cells.len() - tail..] {
            push_link(&mut line, g, *s, *l);
        }
        self.word.clear();
        self.line = line;
        self.line_w = width_of(&self.line);
    }

    /// Cut an over-long word at grapheme boundaries, filling lines as it goes.
    fn break_word(&mut self) {
        for piece in take(&mut self.word) {
            for g in piece.text.graphemes(true) {
                let gw = g.width();
                if self.line_w + gw > self.width && self.line_w > 0 {
                    self.new_line();
                }
                push_link(&mut self.line, g, piece.style, piece.link);
                self.line_w += gw;
            }
        }
    }
}

/// The columns `from..from + len` of a code line (display columns, at grapheme boundaries): a
/// wide character cut by either edge shows as spaces, so the slice is exactly as wide as the
/// line has columns there. Code is scrolled sideways, never wrapped (issue 28).
pub(super) fn slice_columns(pieces: &[Piece], from: usize, len: usize) -> Vec<Piece> {
    let end = from.saturating_add(len);
    let mut out = Vec::new();
    let mut col = 0;
    for piece in pieces {
        // Most pieces lie wholly inside or outside the window: skip the grapheme walk then.
        let w = piece.text.width();
        if col + w <= from || col >= end {
            col += w;
            continue;
        }
        if col >= from && col + w <= end {
            push(&mut out, &piece.text, piece.style);
            col += w;
            continue;
        }
        for g in piece.text.graphemes(true) {
            let gw = g.width();
            let (start, stop) = (col, col + gw);
            col = stop;
            if stop <= from || start >= end {
                continue;
            }
            if start >= from && stop <= end {
                push(&mut out, g, piece.style);
            } else {
                let shown = stop.min(end) - start.max(from);
                push(&mut out, &" ".repeat(shown), piece.style);
            }
        }
    }
    out
}

/// Turn pieces into a ratatui line no wider than `width`, cutting the end if some sequence
/// measured wider as a whole than in parts (emoji variation selectors and the like). Also
/// returns where its links lie (with `line` 0: the caller knows the line's index).
pub(super) fn fit(mut run: Vec<Piece>, width: usize) -> (Line<'static>, Vec<LinkSpot>) {
    if width_of(&run) > width {
        let mut room = width;
        let mut kept = Vec::with_capacity(run.len());
        for mut piece in run {
            let w = piece.text.width();
            if w > room {
                piece.text.truncate(longest_prefix(&piece.text, room));
                kept.push(piece);
                break;
            }
            room -= w;
            kept.push(piece);
        }
        run = kept;
    }
    let spots = link_spots(&run);
    let line = Line::from(
        run.into_iter()
            .map(|p| Span::styled(p.text, p.style))
            .collect::<Vec<_>>(),
    );
    (line, spots)
}

/// The columns of each link in a line. Widths are summed per grapheme, as ratatui lays cells
/// out, so a spot covers exactly the cells its text is drawn in.
fn link_spots(run: &[Piece]) -> Vec<LinkSpot> {
    let mut spots: Vec<LinkSpot> = Vec::new();
    let mut col = 0usize;
    for piece in run {
        let w: usize = piece.text.graphemes(true).map(UnicodeWidthStr::width).sum();
        if let Some(link) = piece.link.filter(|_| w > 0) {
            let start = u16::try_from(col).unwrap_or(u16::MAX);
            let width = u16::try_from(w).unwrap_or(u16::MAX);
            match spots.last_mut() {
                Some(last) if last.link == link && last.col.saturating_add(last.width) == start => {
                    last.width = last.width.saturating_add(width);
                }
                _ => spots.push(LinkSpot {
                    line: 0,
                    col: start,
                    width,
                    link,
                }),
            }
        }
        col += w;
    }
    spots
}

/// The byte length of the longest prefix of `text` (at a char boundary) at most `room` wide;
/// a binary search, since width is not additive over arbitrary cuts.
fn longest_prefix(text: &str, room: usize) -> usize {
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let (mut lo, mut hi) = (0, bounds.len() - 1);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if text[..bounds[mid]].width() <= room {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    bounds[lo]
}

#[cfg(test)]
mod tests;
