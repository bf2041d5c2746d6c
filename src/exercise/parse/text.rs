//! The file's bytes before anything reads them as C: a NUL byte is named where it is (review
//! 2026-12-01b CK13: tree-sitter's error showed an empty snippet), and classic Mac line endings
//! (a CR alone) end lines, as they do for gcc and nvcc (CK12: the whole file was line 1).

use std::borrow::Cow;

use crate::exercise::Diagnostic;

/// The diagnostic for the first NUL byte in `text`, at its line and column.
pub(super) fn nul_byte(text: &str) -> Option<Diagnostic> {
    let at = text.find('\0')?;
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    Some(Diagnostic::at(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
        "the file holds a NUL byte (a zero byte, which is not text) here: delete it; it may have come from a copy of binary data",
    ))
}

/// `text` with each CR that is not part of a CRLF made a LF (not copied when there is none).
pub(super) fn lone_cr_to_lf(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    let lone = |i: usize| b[i] == b'\r' && b.get(i + 1) != Some(&b'\n');
    if !(0..b.len()).any(lone) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for i in (0..b.len()).filter(|&i| lone(i)) {
        out.push_str(&text[copied..i]);
        out.push('\n');
        copied = i + 1;
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// A character the learner may not see, named: "the character U+0007", or "a space".
pub(super) fn char_name(c: Option<char>) -> String {
    match c {
        None => "the end of the file".into(),
        Some(' ') => "a space".into(),
        Some('\t') => "a tab".into(),
        Some(c) => format!("the character U+{:04X}", u32::from(c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_bytes_are_placed_and_lone_crs_end_lines() {
        let d = nul_byte("int main()\n{\n    int x = 1;\0\n}\n").unwrap();
        assert_eq!((d.line, d.column), (3, 15));
        assert!(d.message.contains("NUL byte"), "{d:?}");
        assert!(nul_byte("int x;\n").is_none());
        assert_eq!(lone_cr_to_lf("a\rb\r\nc\r"), "a\nb\r\nc\n");
        assert!(matches!(lone_cr_to_lf("a\r\nb\n"), Cow::Borrowed(_)));
        assert_eq!(char_name(Some('\u{7}')), "the character U+0007");
    }
}
