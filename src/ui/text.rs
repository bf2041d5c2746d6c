//! Word wrapping of styled text, and `inline code` styling for short strings (quiz prompts and
//! options), without pulling the whole markdown renderer into one-line texts.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// Style the little markdown that short texts use: `code` in `code`, **strong** bold and
/// *emphasis* italic (added to `base`); everything else in `base`.
pub fn inline(text: &str, base: Style, code: Style) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let mut current = String::new();
    let (mut in_code, mut bold, mut italic) = (false, false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let toggle = match c {
            '`' => Some(0),
            '*' if !in_code && chars.peek() == Some(&'*') => Some(1),
            '*' if !in_code => Some(2),
            _ => None,
        };
        let Some(which) = toggle else {
            current.push(c);
            continue;
        };
        flush(
            &mut spans,
            &mut current,
            style_of(base, code, in_code, bold, italic),
        );
        match which {
            0 => in_code = !in_code,
            1 => {
                chars.next();
                bold = !bold;
            }
            _ => italic = !italic,
        }
    }
    flush(
        &mut spans,
        &mut current,
        style_of(base, code, in_code, bold, italic),
    );
    spans
}

fn style_of(base: Style, code: Style, in_code: bool, bold: bool, italic: bool) -> Style {
    let mut style = if in_code { code } else { base };
    if bold {
        style = style.add_modifier(Modifier::BOLD);
    }
    if italic {
        style = style.add_modifier(Modifier::ITALIC);
    }
    style
}

fn flush(spans: &mut Vec<Span<'static>>, text: &mut String, style: Style) {
    if !text.is_empty() {
        spans.push(Span::styled(std::mem::take(text), style));
    }
}

/// A word: pieces of text with their styles, with no space between them.
type Word = Vec<(String, Style)>;

/// Wrap `spans` to `width` columns at spaces. The first line starts with `first`, the others
/// with `rest` (a hanging indent); a word longer than a line is cut.
pub fn wrap(
    spans: &[Span<'static>],
    width: u16,
    first: Span<'static>,
    rest: Span<'static>,
) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    let mut line = vec![first.clone()];
    let mut start = first.width();
    let mut used = start;
    let mut new_line = |line: &mut Vec<Span<'static>>, used: &mut usize, start: &mut usize| {
        lines.push(Line::from(std::mem::replace(line, vec![rest.clone()])));
        *start = rest.width();
        *used = *start;
    };
    for word in words(spans) {
        let w: usize = word.iter().map(|(t, _)| width_of(t)).sum();
        if used > start && used + 1 + w > width {
            new_line(&mut line, &mut used, &mut start);
        }
        if used > start {
            // The space takes the previous word's style, so a reversed selection has no holes.
            let style = line.last().map_or_else(Style::new, |s| s.style);
            line.push(Span::styled(" ", style));
            used += 1;
        }
        if used + w <= width {
            line.extend(word.into_iter().map(|(t, s)| Span::styled(t, s)));
            used += w;
            continue;
        }
        for (text, style) in word {
            for c in text.chars() {
                let cw = width_of(c.encode_utf8(&mut [0; 4]));
                if used + cw > width && used > start {
                    new_line(&mut line, &mut used, &mut start);
                }
                line.push(Span::styled(c.to_string(), style));
                used += cw;
            }
        }
    }
    lines.push(Line::from(line));
    lines
}

fn width_of(text: &str) -> usize {
    Span::raw(text).width()
}

/// Split spans into words at spaces; pieces of different styles with no space between them
/// (such as "(`x`)") stay one word.
fn words(spans: &[Span<'static>]) -> Vec<Word> {
    let mut out = Vec::new();
    let mut current: Word = Vec::new();
    for span in spans {
        for (i, part) in span.content.split(' ').enumerate() {
            if i > 0 && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            if !part.is_empty() {
                current.push((part.to_string(), span.style));
            }
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(lines: &[Line]) -> Vec<String> {
        lines.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn inline_markup_becomes_styles() {
        let code = Style::new().underlined();
        let spans = inline("a `b*c*` **d** *e*", Style::new(), code);
        let texts: Vec<&str> = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(texts, ["a ", "b*c*", " ", "d", " ", "e"]);
        assert_eq!(spans[1].style, code);
        assert!(spans[3].style.add_modifier.contains(Modifier::BOLD));
        assert!(spans[5].style.add_modifier.contains(Modifier::ITALIC));
    }

    #[test]
    fn wraps_at_spaces_with_a_hanging_indent() {
        let spans = inline("one two three four", Style::new(), Style::new());
        let lines = wrap(&spans, 9, Span::raw("A. "), Span::raw("   "));
        assert_eq!(plain(&lines), ["A. one", "   two", "   three", "   four"]);
    }

    #[test]
    fn keeps_code_glued_to_punctuation_and_cuts_long_words() {
        let spans = inline("(`x`) abcdefghij", Style::new(), Style::new().bold());
        let lines = wrap(&spans, 4, Span::raw(""), Span::raw(""));
        assert_eq!(plain(&lines), ["(x)", "abcd", "efgh", "ij"]);
        assert!(lines.iter().all(|l| l.width() <= 4));
    }
}
