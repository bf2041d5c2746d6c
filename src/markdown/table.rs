//! Tables with box-drawing borders. Columns take their natural width when it fits; otherwise
//! the widest shrink first (water-filling) and cells wrap. When even narrow columns do not fit,
//! each row is listed as `header: value` lines instead.

use pulldown_cmark::Alignment;
use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use super::wrap::{Piece, push, width_of, wrap};

/// Narrower columns than this are unreadable: list the rows instead.
const MIN_COLUMN: usize = 3;

/// A table being collected cell by cell.
#[derive(Default)]
pub(super) struct Table {
    aligns: Vec<Alignment>,
    rows: Vec<Vec<Vec<Piece>>>,
    head_rows: usize,
}

impl Table {
    /// An empty table with the column alignments of its delimiter row.
    pub fn new(aligns: Vec<Alignment>) -> Self {
        Table {
            aligns,
            ..Table::default()
        }
    }

    /// Begin a row (the head counts as one).
    pub fn start_row(&mut self) {
        self.rows.push(Vec::new());
    }

    /// The rows so far are the head: a double rule follows them.
    pub fn end_head(&mut self) {
        self.head_rows = self.rows.len();
    }

    /// Add a cell to the current row.
    pub fn push_cell(&mut self, cell: Vec<Piece>) {
        match self.rows.last_mut() {
            Some(row) => row.push(cell),
            None => self.rows.push(vec![cell]),
        }
    }

    /// The table's lines, at most `width` columns wide, borders in `border`.
    pub fn render(self, width: usize, border: Style) -> Vec<Vec<Piece>> {
        let cols = self
            .rows
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
            .max(self.aligns.len());
        if cols == 0 {
            return Vec::new();
        }
        let frame = 3 * cols + 1;
        if width < frame + MIN_COLUMN * cols {
            return self.listed(width, border);
        }
        let mut natural = vec![1; cols];
        let mut longest_word = vec![1; cols];
        for row in &self.rows {
            for (c, cell) in row.iter().enumerate() {
                natural[c] = natural[c].max(width_of(cell));
                longest_word[c] = longest_word[c].max(longest_word_of(cell));
            }
        }
        let widths = fit_columns(&natural, &longest_word, width - frame);
        let mut out = vec![rule('┌', '─', '┬', '┐', &widths, border)];
        for (r, row) in self.rows.iter().enumerate() {
            if r > 0 && r == self.head_rows {
                out.push(rule('╞', '═', '╪', '╡', &widths, border));
            }
            self.row_lines(row, &widths, border, &mut out);
        }
        out.push(rule('└', '─', '┴', '┘', &widths, border));
        out
    }

    fn row_lines(
        &self,
        row: &[Vec<Piece>],
        widths: &[usize],
        border: Style,
        out: &mut Vec<Vec<Piece>>,
    ) {
        let cells: Vec<Vec<Vec<Piece>>> = widths
            .iter()
            .enumerate()
            .map(|(c, &w)| row.get(c).map(|cell| wrap(cell, w)).unwrap_or_default())
            .collect();
        let height = cells.iter().map(Vec::len).max().unwrap_or(0).max(1);
        for i in 0..height {
            let mut line = vec![Piece::new("│", border)];
            for (c, &w) in widths.iter().enumerate() {
                let content = cells[c].get(i).cloned().unwrap_or_default();
                let free = w.saturating_sub(width_of(&content));
                let left = match self.aligns.get(c) {
                    Some(Alignment::Right) => free,
                    Some(Alignment::Center) => free / 2,
                    _ => 0,
                };
                push(&mut line, &" ".repeat(left + 1), Style::new());
                line.extend(content);
                push(&mut line, &" ".repeat(free - left + 1), Style::new());
                line.push(Piece::new("│", border));
            }
            out.push(line);
        }
    }

    /// The fallback for panes too narrow for the grid: `header: value` per cell, rows apart.
    fn listed(self, width: usize, border: Style) -> Vec<Vec<Piece>> {
        let (head, body) = self.rows.split_at(self.head_rows.min(self.rows.len()));
        let header = head.first();
        let mut out = Vec::new();
        for row in body {
            out.push(vec![Piece::new("─".repeat(width.min(3)), border)]);
            for (c, cell) in row.iter().enumerate() {
                let mut pieces: Vec<Piece> =
                    header.and_then(|h| h.get(c)).cloned().unwrap_or_default();
                if !pieces.is_empty() {
                    push(&mut pieces, ": ", Style::new());
                }
                pieces.extend(cell.iter().cloned());
                out.extend(wrap(&pieces, width));
            }
        }
        out
    }
}

fn rule(
    left: char,
    fill: char,
    cross: char,
    right: char,
    widths: &[usize],
    style: Style,
) -> Vec<Piece> {
    let mut text = String::new();
    text.push(left);
    for (i, &w) in widths.iter().enumerate() {
        if i > 0 {
            text.push(cross);
        }
        text.extend(std::iter::repeat_n(fill, w + 2));
    }
    text.push(right);
    vec![Piece::new(text, style)]
}

/// The widest word of a cell (a word split across styles counts in parts: close enough).
fn longest_word_of(cell: &[Piece]) -> usize {
    cell.iter()
        .flat_map(|p| p.text.split(' '))
        .map(UnicodeWidthStr::width)
        .max()
        .unwrap_or(0)
}

/// Column widths summing to at most `room`: natural widths when they fit; else every column is
/// capped at the largest `cap` that fits, though never below its longest word when all the
/// longest words fit (so cells wrap between words); the columns that were cut share the rest.
fn fit_columns(natural: &[usize], words: &[usize], room: usize) -> Vec<usize> {
    if natural.iter().sum::<usize>() <= room {
        return natural.to_vec();
    }
    let floors: Vec<usize> = if words.iter().sum::<usize>() <= room {
        words.iter().zip(natural).map(|(&w, &n)| w.min(n)).collect()
    } else {
        vec![1; natural.len()]
    };
    let width = |c: usize, cap: usize| natural[c].min(cap).max(floors[c]).max(1);
    let total = |cap: usize| (0..natural.len()).map(|c| width(c, cap)).sum::<usize>();
    let (mut lo, mut hi) = (1, natural.iter().copied().max().unwrap_or(1));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if total(mid) <= room {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    let mut widths: Vec<usize> = (0..natural.len()).map(|c| width(c, lo)).collect();
    let mut left = room.saturating_sub(widths.iter().sum());
    for (w, &n) in widths.iter_mut().zip(natural) {
        if left > 0 && n > *w {
            *w += 1;
            left -= 1;
        }
    }
    widths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_keep_natural_widths_when_they_fit() {
        assert_eq!(fit_columns(&[3, 10, 4], &[3, 5, 4], 20), vec![3, 10, 4]);
    }

    #[test]
    fn the_widest_columns_shrink_first() {
        let w = fit_columns(&[4, 40, 30], &[4, 30, 30], 30);
        assert_eq!(w.iter().sum::<usize>(), 30);
        assert_eq!(w[0], 4, "a narrow column keeps its width");
        assert!(w[1] >= w[2] && w[1] - w[2] <= 1);
    }

    #[test]
    fn words_are_kept_whole_when_the_longest_ones_fit() {
        // "cudaHostRegister" (16) must not be cut while the short columns could give way.
        assert_eq!(fit_columns(&[16, 7, 6], &[16, 3, 2], 21), [16, 3, 2]);
        assert_eq!(fit_columns(&[16, 7, 6], &[16, 3, 2], 24), [16, 4, 4]);
        // When even the longest words do not fit, every column shrinks.
        assert_eq!(
            fit_columns(&[16, 7, 6], &[16, 3, 2], 20)
                .iter()
                .sum::<usize>(),
            20
        );
    }

    #[test]
    fn cells_wrap_and_the_frame_fits() {
        let mut t = Table::new(vec![Alignment::Left, Alignment::Right]);
        t.start_row();
        t.push_cell(vec![Piece::new("what", Style::new())]);
        t.push_cell(vec![Piece::new("GB/s", Style::new())]);
        t.end_head();
        t.start_row();
        t.push_cell(vec![Piece::new(
            "pinned host to device copy of 256 MiB",
            Style::new(),
        )]);
        t.push_cell(vec![Piece::new("55.3", Style::new())]);
        let lines = t.render(24, Style::new());
        let texts: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|p| p.text.as_str()).collect())
            .collect();
        assert!(texts.iter().all(|t| t.width() <= 24), "{texts:#?}");
        assert!(texts.len() > 5, "the long cell wraps: {texts:#?}");
        assert!(texts[1].contains("GB/s │"), "right-aligned: {texts:#?}");
    }

    #[test]
    fn too_narrow_for_a_grid_lists_the_rows() {
        let mut t = Table::new(vec![Alignment::None; 6]);
        t.start_row();
        for h in ["a", "b", "c", "d", "e", "f"] {
            t.push_cell(vec![Piece::new(h, Style::new())]);
        }
        t.end_head();
        t.start_row();
        for v in ["1", "2", "3", "4", "5", "6"] {
            t.push_cell(vec![Piece::new(v, Style::new())]);
        }
        let texts: Vec<String> = t
            .render(12, Style::new())
            .iter()
            .map(|l| l.iter().map(|p| p.text.as_str()).collect())
            .collect();
        assert!(texts.contains(&"c: 3".to_string()), "{texts:#?}");
    }
}
