//! Tests of word wrapping, column slices of code and the final width guard.

use ratatui::style::{Modifier, Style};
use unicode_width::UnicodeWidthStr;

use super::*;

fn plain(text: &str) -> Vec<Piece> {
    vec![Piece::new(text, Style::new())]
}

fn texts(lines: &[Vec<Piece>]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.iter().map(|p| p.text.as_str()).collect())
        .collect()
}

#[test]
fn words_wrap_at_spaces_and_spaces_collapse() {
    let lines = wrap(&plain("the quick  brown fox jumps over"), 10);
    assert_eq!(texts(&lines), ["the quick", "brown fox", "jumps over"]);
}

#[test]
fn a_word_longer_than_the_line_is_cut() {
    let lines = wrap(&plain("ab cudaMemcpyAsyncWithAVeryLongName x"), 8);
    assert_eq!(
        texts(&lines),
        ["ab", "cudaMemc", "pyAsyncW", "ithAVery", "LongName", "x"]
    );
}

#[test]
fn wide_characters_count_two_columns() {
    let lines = wrap(&plain("日本語 日本語"), 7);
    assert_eq!(texts(&lines), ["日本語", "日本語"]);
    let lines = wrap(&plain("日本語日本語"), 5);
    assert!(
        lines.iter().all(|l| width_of(l) <= 5),
        "{:?}",
        texts(&lines)
    );
}

#[test]
fn styles_survive_and_a_word_may_span_styles() {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let pieces = vec![
        Piece::new("see ", Style::new()),
        Piece::new("pinned", bold),
        Piece::new("memory now", Style::new()),
    ];
    let lines = wrap(&pieces, 12);
    assert_eq!(texts(&lines), ["see", "pinnedmemory", "now"]);
    assert_eq!(lines[1][0], Piece::new("pinned", bold));
}

#[test]
fn newline_is_a_hard_break() {
    assert_eq!(texts(&wrap(&plain("a\nb c"), 80)), ["a", "b c"]);
}

#[test]
fn a_slice_of_columns_keeps_styles_and_cuts_wide_characters_to_spaces() {
    let bold = Style::new().bold();
    let line = [
        Piece::new("copy(", Style::new()),
        Piece::new("dst, src", bold),
    ];
    assert_eq!(texts(&[slice_columns(&line, 0, 4)]), ["copy"]);
    assert_eq!(
        slice_columns(&line, 3, 4),
        [Piece::new("y(", Style::new()), Piece::new("ds", bold)]
    );
    assert_eq!(texts(&[slice_columns(&line, 9, 20)]), [" src"]);
    assert!(slice_columns(&line, 40, 5).is_empty());
    // `漢` is two columns: cut by the window's start, its column inside shows as a space.
    assert_eq!(texts(&[slice_columns(&plain("a漢b"), 2, 2)]), [" b"]);
    assert_eq!(texts(&[slice_columns(&plain("a漢b"), 0, 2)]), ["a "]);
    // Linear in the line: a long line is sliced without a walk of what lies outside.
    let long = "x".repeat(256_000);
    assert_eq!(width_of(&slice_columns(&plain(&long), 255_990, 100)), 10);
}

#[test]
fn fit_cuts_what_measures_wider_as_a_whole() {
    let (line, _) = fit(plain("abcdef"), 4);
    assert_eq!(line.to_string(), "abcd");
    // VS16 makes the heart two columns wide in unicode-width's eyes.
    let (line, _) = fit(plain("x\u{2764}\u{FE0F}"), 2);
    assert!(line.width() <= 2);
}

#[test]
fn a_huge_line_wraps_into_full_lines() {
    // 16 words of 4 letters and their spaces fill 79 of 80 columns.
    let text = "word ".repeat(51_200);
    let lines = wrap(&plain(&text), 80);
    assert_eq!(lines.len(), 51_200 / 16);
    let long_word = "x".repeat(256_000);
    let lines = wrap(&plain(&long_word), 80);
    assert_eq!(lines.len(), 3_200);
    assert_eq!("x".repeat(80).width(), width_of(&lines[0]));
}

#[test]
fn a_url_is_never_broken_across_lines() {
    let url = "(https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html)";
    let text = format!("Further reading: API synchronization behavior {url} and more");
    for width in [80, 72, 40, 20] {
        let lines = texts(&wrap(&plain(&text), width));
        if url.len() <= width {
            assert!(lines.iter().any(|l| l.contains(url)), "{width}: {lines:?}");
        } else {
            // Cut in the middle on one line: the start and the page's name are kept.
            let line = lines.iter().find(|l| l.contains('…')).unwrap();
            let (head, tail) = line.split_once('…').unwrap();
            assert!(url.starts_with(head) && head.len() >= width / 2, "{line}");
            assert!(url.ends_with(tail) && tail.len() >= width / 4, "{line}");
            assert!(line.width() <= width, "{line}");
        }
        // No line holds only a fragment of the URL.
        let fragments = lines
            .iter()
            .filter(|l| l.contains("nvidia") || l.contains("behavior.html"));
        assert!(fragments.count() <= 1, "{width}: {lines:?}");
    }
}

fn linked(text: &str, link: usize) -> Piece {
    Piece {
        text: text.to_string(),
        style: Style::new(),
        link: Some(link),
    }
}

#[test]
fn links_keep_their_cells_through_wrapping_and_elision() {
    let url = "https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html";
    let pieces = vec![
        Piece::new("read ", Style::new()),
        linked("the guide", 0),
        Piece::new(" or ", Style::new()),
        linked(url, 1),
    ];
    let lines = wrap(&pieces, 30);
    let spots: Vec<Vec<LinkSpot>> = lines.into_iter().map(|l| fit(l, 30).1).collect();
    // "read the guide or" on line 1: the link covers "the guide", the space between included.
    assert_eq!(
        (spots[0][0].col, spots[0][0].width, spots[0][0].link),
        (5, 9, 0)
    );
    // The URL, elided on a line of its own, is one spot of the whole line: `…` included.
    assert_eq!(spots[1].len(), 1);
    assert_eq!(
        (spots[1][0].col, spots[1][0].width, spots[1][0].link),
        (0, 30, 1)
    );
}

#[test]
fn spots_count_wide_characters_as_ratatui_lays_them_out() {
    let (line, spots) = fit(
        vec![Piece::new("日本 ", Style::new()), linked("リンク", 3)],
        40,
    );
    assert_eq!(line.width(), 11);
    assert_eq!((spots[0].col, spots[0].width), (5, 6));
}
