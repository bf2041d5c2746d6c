//! The left margin that block quotes and list items put before each line: `│ ` bars, bullets
//! and numbers on an item's first line, and the hanging indent on the lines after.
//!
//! Deep nesting must not push text off the pane or cost time per level: only the outer
//! [`MAX_DEPTH`] containers draw, and only while the margin stays within half the width.

use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use super::wrap::{Piece, push};

/// Containers nested deeper than this add no more margin.
pub(super) const MAX_DEPTH: usize = 8;

struct Container {
    /// Drawn on the container's first line (a bullet or number; for quotes the bar).
    first: String,
    /// Drawn on every later line: the bar again, or spaces as wide as the marker.
    rest: String,
    style: Style,
    first_used: bool,
    width: usize,
}

/// The open quotes and list items, outermost first.
#[derive(Default)]
pub(super) struct Margin {
    stack: Vec<Container>,
}

impl Margin {
    /// Open a block quote: a `│ ` bar on every line.
    pub fn push_quote(&mut self, bar_style: Style) {
        self.push("│ ".to_string(), "│ ".to_string(), bar_style);
    }

    /// Open a list item: `marker` on its first line, as many spaces on the others.
    pub fn push_item(&mut self, marker: String, style: Style) {
        let rest = " ".repeat(marker.width());
        self.push(marker, rest, style);
    }

    fn push(&mut self, first: String, rest: String, style: Style) {
        let width = first.width();
        self.stack.push(Container {
            first,
            rest,
            style,
            first_used: false,
            width,
        });
    }

    /// Close the innermost container.
    pub fn pop(&mut self) {
        self.stack.pop();
    }

    /// Whether the innermost container has not drawn its first line yet (an empty list item).
    pub fn innermost_unused(&self) -> bool {
        self.stack.last().is_some_and(|c| !c.first_used)
    }

    /// How many outer containers draw, for a line `width` columns wide.
    fn shown(&self, width: usize) -> usize {
        let mut used = 0;
        let mut count = 0;
        for c in self.stack.iter().take(MAX_DEPTH) {
            if used + c.width > width / 2 {
                break;
            }
            used += c.width;
            count += 1;
        }
        count
    }

    /// Columns the margin takes, for a line `width` columns wide.
    pub fn indent(&self, width: usize) -> usize {
        self.stack
            .iter()
            .take(self.shown(width))
            .map(|c| c.width)
            .sum()
    }

    /// The margin for the next line; the first call after a container opens draws its marker.
    pub fn next_line(&mut self, width: usize) -> Vec<Piece> {
        let shown = self.shown(width);
        let mut out = Vec::new();
        for c in self.stack.iter_mut().take(shown) {
            let text = if c.first_used { &c.rest } else { &c.first };
            push(&mut out, text, c.style);
            c.first_used = true;
        }
        // A list item hidden by the depth cap still starts its line only once.
        if let Some(c) = self.stack.last_mut() {
            c.first_used = true;
        }
        out
    }

    /// The margin of a blank line between blocks: bars only, no markers, no trailing spaces.
    pub fn blank_line(&self, width: usize) -> Vec<Piece> {
        let mut out = Vec::new();
        for c in self.stack.iter().take(self.shown(width)) {
            push(&mut out, &c.rest, c.style);
        }
        trim_end(&mut out);
        out
    }
}

/// Drop trailing spaces (the hanging indent of an otherwise empty line). Here, not in `blocks`,
/// which reads this module: issue 20's `blocks` <-> `prefix` circle.
pub(crate) fn trim_end(run: &mut Vec<Piece>) {
    while let Some(last) = run.last_mut() {
        last.text.truncate(last.text.trim_end().len());
        if !last.text.is_empty() {
            break;
        }
        run.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(run: &[Piece]) -> String {
        run.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn item_marker_then_hanging_indent_inside_a_quote() {
        let mut m = Margin::default();
        m.push_quote(Style::new());
        m.push_item("12. ".into(), Style::new());
        assert_eq!(m.indent(80), 6);
        assert_eq!(text(&m.next_line(80)), "│ 12. ");
        assert_eq!(text(&m.next_line(80)), "│     ");
        assert_eq!(text(&m.blank_line(80)), "│");
        m.pop();
        assert_eq!(text(&m.next_line(80)), "│ ");
    }

    #[test]
    fn depth_and_width_caps_bound_the_margin() {
        let mut m = Margin::default();
        for _ in 0..1000 {
            m.push_quote(Style::new());
        }
        assert_eq!(m.indent(200), 2 * MAX_DEPTH);
        assert_eq!(m.indent(10), 4, "at most half of a narrow line");
        assert_eq!(text(&m.next_line(10)).width(), 4);
    }
}
