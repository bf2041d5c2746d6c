//! Making outside text safe to print: the one place where lesson files, file names, profile
//! fields, driver strings, paths and parser messages are cleaned before they meet a terminal.
//!
//! A terminal acts on control characters: ESC starts a sequence that can set the window title,
//! clear the screen or (OSC 52) write the clipboard; a C1 character such as U+009B is a CSI on
//! its own in some terminals. [`clean`] replaces every one of them (C0 other than tab and
//! newline, DEL, C1) with U+FFFD, which shows that something was there. [`truncate`] cuts by
//! display width on clean text, so it can never cut inside a sequence.

use std::borrow::Cow;

use unicode_width::UnicodeWidthChar;

/// Shown in place of a control character.
pub const REPLACEMENT: char = '\u{FFFD}';

/// Whether `c` could drive a terminal: C0 (except tab and newline), DEL, or C1.
pub fn is_unsafe(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// `text` with every control character except tab and newline replaced by U+FFFD. Borrows when
/// there is nothing to replace (the common case).
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if is_unsafe(c) { REPLACEMENT } else { c })
            .collect(),
    )
}

/// One line of outside text: as [`clean`], and newlines and tabs become spaces too, so a value
/// cannot break a table or a `file:line: message` line.
pub fn clean_line(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' | '\r' => ' ',
            c if is_unsafe(c) => REPLACEMENT,
            c => c,
        })
        .collect()
}

/// Display width (terminal columns) of clean text.
pub fn width(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// `text` cleaned as one line and cut to at most `max` columns, ending in `…` when cut. A wide
/// character that would straddle the edge is left out whole.
pub fn truncate(text: &str, max: usize) -> String {
    let line = clean_line(text);
    if width(&line) <= max {
        return line;
    }
    let room = max.saturating_sub(1);
    let mut used = 0;
    let mut out = String::new();
    for c in line.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    if max > 0 {
        out.push('…');
    }
    out
}

/// JSON text (from serde_json) with DEL and C1 characters escaped as `\u00XX`. serde_json
/// escapes C0 itself but writes DEL and C1 raw; they can only occur inside strings (JSON's own
/// syntax is ASCII), where the escape means the same character.
pub fn json(text: String) -> String {
    if !text.chars().any(is_unsafe) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_character_is_replaced_except_tab_and_newline() {
        for c in (0u32..0x20).chain(0x7f..0xa0).filter_map(char::from_u32) {
            let text = format!("a{c}b");
            let cleaned = clean(&text);
            if c == '\n' || c == '\t' {
                assert_eq!(cleaned, text);
            } else {
                assert_eq!(cleaned, "a\u{FFFD}b", "U+{:04X}", u32::from(c));
            }
        }
        assert!(matches!(clean("plain ünïcode"), Cow::Borrowed(_)));
        assert_eq!(clean_line("a\nb\tc\u{1b}"), "a b c\u{FFFD}");
    }

    #[test]
    fn truncation_counts_columns_and_never_leaves_a_sequence_open() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 3), "abc");
        // Wide characters take two columns; one that would straddle the edge is left out.
        assert_eq!(truncate("日本語です", 6), "日本…");
        assert_eq!(width(&truncate("日本語です", 6)), 5);
        let hostile = "T\u{1b}]0;pwned\u{7}\u{1b}[2JX";
        let cut = truncate(hostile, 6);
        assert!(!cut.chars().any(is_unsafe), "{cut:?}");
        assert_eq!(truncate("abc", 0), "");
    }

    #[test]
    fn json_escapes_del_and_c1_and_stays_valid() {
        let raw = serde_json::to_string(&"a\u{7f}b\u{9b}c\u{1b}").unwrap_or_default();
        let safe = json(raw);
        assert!(!safe.chars().any(is_unsafe), "{safe}");
        let back: String = serde_json::from_str(&safe).unwrap_or_default();
        assert_eq!(back, "a\u{7f}b\u{9b}c\u{1b}");
    }
}
