//! Making raw text safe to draw: control characters (an ESC could drive the terminal) become
//! visible replacements, tabs become spaces, and `{{metric:NAME}}` placeholders are filled in.

use ratatui::style::Style;
use unicode_width::UnicodeWidthChar;

use super::wrap::{Piece, push};

use crate::sanitize::{REPLACEMENT, clean_line};

/// Text of a paragraph: newlines and tabs are spaces, other control characters are replaced
/// (the one sanitiser, [`crate::sanitize`]).
pub(super) fn clean_inline(text: &str) -> String {
    clean_line(text)
}

/// One line of code: tabs expand to the next multiple of 4 columns, control characters are
/// replaced, a trailing `\r` is dropped.
pub(super) fn clean_code_line(line: &str) -> String {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut out = String::with_capacity(line.len());
    let mut col = 0;
    for c in line.chars() {
        match c {
            '\t' => {
                let n = 4 - col % 4;
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
            }
            c if c.is_control() => {
                out.push(REPLACEMENT);
                col += 1;
            }
            c => {
                out.push(c);
                col += c.width().unwrap_or(0);
            }
        }
    }
    out
}

const OPEN: &str = "{{metric:";
const CLOSE: &str = "}}";

/// How a placeholder is shown.
pub(super) struct MetricStyles<'m> {
    pub lookup: &'m dyn Fn(&str) -> Option<String>,
    /// For a measured value.
    pub value: Style,
    /// For the invitation shown before a measurement exists.
    pub missing: Style,
}

/// Shown in place of a metric that has not been measured yet.
pub const METRIC_INVITATION: &str = "‹press r to measure›";

/// Append `text` in `style` to `out`, replacing each `{{metric:NAME}}` with its value or the
/// invitation. A malformed placeholder (no `}}`, an odd name) stays as written.
pub(super) fn push_with_metrics(out: &mut Vec<Piece>, text: &str, style: Style, m: &MetricStyles) {
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        let after = &rest[start + OPEN.len()..];
        let Some(len) = after.find(CLOSE) else { break };
        let name = after[..len].trim();
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.:".contains(c));
        let (before, placeholder_end) = (&rest[..start], start + OPEN.len() + len + CLOSE.len());
        if !valid {
            push(out, &rest[..placeholder_end], style);
        } else {
            push(out, before, style);
            // No-break spaces keep "55.1 GB/s" (and the invitation) whole when the line wraps.
            match (m.lookup)(name) {
                Some(value) => push(
                    out,
                    &unbreakable(&clean_inline(&value)),
                    style.patch(m.value),
                ),
                None => push(out, &unbreakable(METRIC_INVITATION), style.patch(m.missing)),
            }
        }
        rest = &rest[placeholder_end..];
    }
    if !rest.is_empty() {
        push(out, rest, style);
    }
}

fn unbreakable(text: &str) -> String {
    text.replace(' ', "\u{a0}")
}

#[cfg(test)]
mod tests {
    use ratatui::style::Modifier;

    use super::*;

    #[test]
    fn control_characters_never_reach_the_terminal() {
        assert_eq!(
            clean_inline("a\u{1b}[2Jb\tc\nd\0"),
            "a\u{FFFD}[2Jb c d\u{FFFD}"
        );
        assert_eq!(clean_code_line("\tx\u{7}\r"), "    x\u{FFFD}");
        assert_eq!(clean_code_line("ab\tc"), "ab  c");
    }

    fn filled(text: &str) -> Vec<Piece> {
        let lookup = |name: &str| (name == "h2d_gbps").then(|| "55.1 GB/s".to_string());
        let m = MetricStyles {
            lookup: &lookup,
            value: Style::new().add_modifier(Modifier::BOLD),
            missing: Style::new().add_modifier(Modifier::DIM),
        };
        let mut out = Vec::new();
        push_with_metrics(&mut out, text, Style::new(), &m);
        out
    }

    #[test]
    fn placeholders_become_values_or_an_invitation() {
        let out = filled("pinned: {{metric:h2d_gbps}}, pageable: {{metric: other }}.");
        let text: String = out.iter().map(|p| p.text.replace('\u{a0}', " ")).collect();
        assert_eq!(
            text,
            format!("pinned: 55.1 GB/s, pageable: {METRIC_INVITATION}.")
        );
        assert_eq!(out[1].text, "55.1\u{a0}GB/s", "a value never wraps inside");
        assert!(out[1].style.add_modifier.contains(Modifier::BOLD));
        assert!(out[3].style.add_modifier.contains(Modifier::DIM));
    }

    #[test]
    fn malformed_placeholders_stay_as_written() {
        for text in [
            "{{metric:h2d_gbps",
            "{{metric:}}",
            "{{metric:a b}} x",
            "{{metric",
        ] {
            let out = filled(text);
            assert_eq!(
                out.iter().map(|p| p.text.as_str()).collect::<String>(),
                text
            );
        }
    }
}
