//! Cutting text to a terminal width. Widths are display columns (`unicode-width`), not `char`s,
//! so wide characters (CJK, most emoji) never overflow a column.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// `text` cut to at most `width` display columns, ending in `…` when cut.
pub fn truncate(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let room = width - 1; // the ellipsis takes one column
    let mut used = 0;
    let mut kept = String::new();
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        kept.push(c);
    }
    kept.push('…');
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept() {
        assert_eq!(truncate("pinned", 6), "pinned");
        assert_eq!(truncate("", 0), "");
    }

    #[test]
    fn long_text_ends_in_an_ellipsis_within_the_width() {
        assert_eq!(truncate("pageable", 5), "page…");
        assert_eq!(truncate("pageable", 1), "…");
        assert_eq!(truncate("pageable", 0), "");
    }

    #[test]
    fn wide_characters_count_two_columns() {
        // Each of these takes two columns: 3 of them are 6 columns.
        let cut = truncate("数据传输", 6);
        assert_eq!(cut, "数据…");
        assert!(cut.width() <= 6);
        // An odd room cannot be filled by a wide character: it is left empty.
        assert_eq!(truncate("数据传输", 4), "数…");
    }
}
