//! OSC 8 hyperlinks in a ratatui buffer. ratatui has no hyperlink support (ratatui issue 902);
//! its documented workaround puts the escape sequence into cell symbols. Here one run of cells
//! on one row becomes one symbol on its first cell, `ESC ] 8 ; id=… ; URL ESC \` + the run's
//! text + `ESC ] 8 ; ; ESC \`, marked `CellDiffOption::ForcedWidth(run width)` (ratatui 0.30.1
//! on) so the diff counts the columns it really covers, while the cells it covers are marked
//! `Skip`. The text stays in those cells, so tests and snapshots read it as usual.
//!
//! Draw a run only where nothing will be drawn over it later in the frame: the first cell
//! prints the whole run. The URL must be a web URL without control characters; bytes outside
//! printable ASCII are percent-encoded, as OSC 8 requires.

use std::fmt::Write as _;
use std::num::NonZeroU16;

use ratatui::buffer::{Buffer, CellDiffOption};
use unicode_width::UnicodeWidthStr;

use crate::markdown::links::is_web_url;

/// Make `width` cells from `(x, y)` a hyperlink to `url`; `id` groups the runs of one link
/// (a link wrapped over two lines lights up as one). Nothing happens for a URL that may not be
/// a link, or for cells outside the buffer.
pub fn link_cells(buf: &mut Buffer, (x, y): (u16, u16), width: u16, url: &str, id: usize) {
    let Some(target) = osc8_target(url) else {
        return;
    };
    let area = buf.area;
    if y < area.y || y >= area.bottom() || x < area.x {
        return;
    }
    let end = x.saturating_add(width).min(area.right());
    let mut text = String::new();
    let mut col = x;
    while col < end {
        let symbol = buf[(col, y)].symbol();
        // A wide character's hidden neighbour is not printed: step over it.
        let step = u16::try_from(symbol.width()).unwrap_or(1).max(1);
        if col + step > end {
            break;
        }
        text.push_str(symbol);
        col += step;
    }
    let Some(forced) = NonZeroU16::new(col - x) else {
        return;
    };
    let symbol = format!("\u{1b}]8;id=cuda-academy-{id};{target}\u{1b}\\{text}\u{1b}]8;;\u{1b}\\");
    buf[(x, y)]
        .set_symbol(&symbol)
        .set_diff_option(CellDiffOption::ForcedWidth(forced));
    for covered in x + 1..col {
        buf[(covered, y)].set_diff_option(CellDiffOption::Skip);
    }
}

/// `url` as an OSC 8 target: only web URLs without control characters, with every byte
/// outside printable ASCII percent-encoded; `None` for anything else.
pub fn osc8_target(url: &str) -> Option<String> {
    if !is_web_url(url) {
        return None;
    }
    let mut out = String::with_capacity(url.len());
    for byte in url.bytes() {
        if (0x21..0x7f).contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Rect;

    use super::*;

    #[test]
    fn a_run_becomes_one_sequence_with_the_full_url() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 2));
        buf.set_string(2, 1, "docs…html x", ratatui::style::Style::new());
        let url = "https://docs.nvidia.com/cuda/page.html";
        link_cells(&mut buf, (2, 1), 9, url, 4);
        assert_eq!(
            buf[(2, 1)].symbol(),
            format!("\u{1b}]8;id=cuda-academy-4;{url}\u{1b}\\docs…html\u{1b}]8;;\u{1b}\\")
        );
        assert_eq!(
            buf[(2, 1)].diff_option,
            CellDiffOption::ForcedWidth(NonZeroU16::new(9).unwrap_or(NonZeroU16::MIN))
        );
        assert!((3..11).all(|x| buf[(x, 1)].diff_option == CellDiffOption::Skip));
        assert_eq!(buf[(11, 1)].diff_option, CellDiffOption::None);
        assert_eq!(buf[(3, 1)].symbol(), "o", "covered cells keep their text");
    }

    #[test]
    fn the_diff_prints_the_run_once_and_moves_past_it() {
        let prev = Buffer::empty(Rect::new(0, 0, 12, 1));
        let mut next = Buffer::empty(Rect::new(0, 0, 12, 1));
        next.set_string(0, 0, "see link ok", ratatui::style::Style::new());
        link_cells(&mut next, (4, 0), 4, "https://a.org", 0);
        let drawn: Vec<(u16, String)> = prev
            .diff(&next)
            .into_iter()
            .map(|(x, _, c)| (x, c.symbol().to_string()))
            .collect();
        let xs: Vec<u16> = drawn.iter().map(|d| d.0).collect();
        assert_eq!(xs, [0, 1, 2, 4, 9, 10], "{drawn:?}");
        assert!(drawn[3].1.contains("https://a.org") && drawn[3].1.contains("link"));
    }

    #[test]
    fn only_clean_web_urls_become_targets() {
        assert_eq!(
            osc8_target("https://a.org/ü x").as_deref(),
            None,
            "a space ends a URL"
        );
        assert_eq!(
            osc8_target("https://a.org/ü").as_deref(),
            Some("https://a.org/%C3%BC")
        );
        assert_eq!(osc8_target("https://a.org/\u{1b}\\x"), None);
        assert_eq!(osc8_target("https://a.org/\u{7}"), None);
        assert_eq!(osc8_target("javascript:alert(1)"), None);
        let mut buf = Buffer::empty(Rect::new(0, 0, 5, 1));
        link_cells(&mut buf, (0, 0), 5, "file:///etc/passwd", 0);
        assert!(!buf[(0, 0)].symbol().contains('\u{1b}'));
    }

    #[test]
    fn wide_characters_are_printed_once_and_runs_are_clipped() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 1));
        buf.set_string(0, 0, "日本ab", ratatui::style::Style::new());
        link_cells(&mut buf, (0, 0), 40, "https://a.org", 1);
        assert!(
            buf[(0, 0)].symbol().contains("\\日本ab\u{1b}"),
            "{:?}",
            buf[(0, 0)].symbol()
        );
        link_cells(&mut buf, (7, 0), 3, "https://a.org", 1);
    }
}
