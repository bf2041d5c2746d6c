//! Making outside text safe to print: the one place where lesson files, file names, profile
//! fields, driver strings, paths and parser messages are cleaned before they meet a terminal.
//!
//! A terminal acts on control characters: ESC starts a sequence that can set the window title,
//! clear the screen or (OSC 52) write the clipboard; a C1 character such as U+009B is a CSI on
//! its own in some terminals. [`clean`] replaces every one of them (C0 other than tab and
//! newline, DEL, C1) with U+FFFD, which shows that something was there. [`truncate`] cuts by
//! display width on clean text, so it can never cut inside a sequence.
//!
//! Bidirectional controls (U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates) do
//! not drive the terminal but reorder what it shows: "Trojan Source" text, or a file name
//! `x\u{202E}gnp.exe` that reads as `xexe.png`. They are shown visibly as `<U+202E>` (and
//! escaped as `\u202e` in JSON), so the reader sees the text in its logical order and sees that
//! something was there.

use std::borrow::Cow;

use unicode_width::UnicodeWidthChar;

/// Shown in place of a control character.
pub const REPLACEMENT: char = '\u{FFFD}';

/// Whether `c` could drive a terminal: C0 (except tab and newline), DEL, or C1.
pub fn is_unsafe(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// Whether `c` is a bidirectional embedding, override or isolate control (U+202A-U+202E,
/// U+2066-U+2069): shown visibly, never passed on.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Push `c` as shown: a control character as U+FFFD, a bidi control as `<U+XXXX>`.
fn push_shown(out: &mut String, c: char) {
    if is_unsafe(c) {
        out.push(REPLACEMENT);
    } else if is_bidi_control(c) {
        out.push_str(&format!("<U+{:04X}>", u32::from(c)));
    } else {
        out.push(c);
    }
}

/// `text` with every control character except tab and newline replaced by U+FFFD, and bidi
/// controls shown as `<U+XXXX>`. Borrows when there is nothing to replace (the common case).
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c) || is_bidi_control(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    text.chars().for_each(|c| push_shown(&mut out, c));
    Cow::Owned(out)
}

/// One line of outside text: as [`clean`], and newlines and tabs become spaces too, so a value
/// cannot break a table or a `file:line: message` line.
pub fn clean_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' | '\r' => out.push(' '),
            c => push_shown(&mut out, c),
        }
    }
    out
}

/// Display width (terminal columns) of clean text.
pub fn width(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// `text` cleaned as one line and cut to at most `max` columns, ending in `…` when cut
/// (cleaned first, so a cut never falls inside an escape sequence). A wide character that would
/// straddle the edge is left out whole.
pub fn truncate(text: &str, max: usize) -> String {
    crate::text_fit::truncate(&clean_line(text), max)
}

/// JSON text (from serde_json) with DEL, C1 and bidi controls escaped as `\uXXXX`. serde_json
/// escapes C0 itself but writes the others raw; they can only occur inside strings (JSON's own
/// syntax is ASCII), where the escape means the same character.
pub fn json(text: String) -> String {
    let escaped = |c: char| is_unsafe(c) || is_bidi_control(c);
    if !text.chars().any(escaped) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escaped(c) {
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
    fn bidi_controls_are_shown_visibly_and_escaped_in_json() {
        for c in ('\u{202A}'..='\u{202E}').chain('\u{2066}'..='\u{2069}') {
            let text = format!("a{c}b");
            let shown = format!("a<U+{:04X}>b", u32::from(c));
            assert_eq!(clean(&text), shown);
            assert_eq!(clean_line(&text), shown);
            let safe = json(serde_json::to_string(&text).unwrap_or_default());
            assert!(!safe.contains(c), "{safe}");
            assert_eq!(serde_json::from_str::<String>(&safe).ok(), Some(text));
        }
        // Other right-to-left text is left alone.
        assert_eq!(clean("שלום"), "שלום");
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
