//! The lesson body: cards split on `---` lines outside code fences (an unterminated fence is a
//! diagnostic), and the limits that keep rendering fast (line length, nesting depth).

use pulldown_cmark::{Event, Parser};

use super::{Diagnostic, MAX_LINE_CHARS, MAX_NESTING, line_of_offset};
use crate::lesson::Card;

pub(super) fn check_line_lengths(source: &str, text: &str, out: &mut Vec<Diagnostic>) {
    if let Some((i, line)) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.len() > MAX_LINE_CHARS)
    {
        out.push(Diagnostic::new(
            source,
            i + 1,
            format!(
                "line is {} bytes long; keep lines under {MAX_LINE_CHARS}",
                line.len()
            ),
        ));
    }
}

/// Split the body on `---` lines outside code fences; report unterminated fences.
pub(super) fn split_cards(
    source: &str,
    body: &str,
    body_line: usize,
    out: &mut Vec<Diagnostic>,
) -> Vec<Card> {
    let mut cards = Vec::new();
    let mut current = String::new();
    let mut current_line = body_line;
    let mut fence: Option<(String, usize)> = None;
    for (i, line) in body.lines().enumerate() {
        let line_no = body_line + i;
        let trimmed = line.trim_start();
        let marker: String = trimmed
            .chars()
            .take_while(|c| *c == '`' || *c == '~')
            .collect();
        if marker.len() >= 3
            && (marker.chars().all(|c| c == '`') || marker.chars().all(|c| c == '~'))
        {
            match &fence {
                None => fence = Some((marker.clone(), line_no)),
                Some((open, _))
                    if marker.starts_with(open.as_str())
                        && trimmed[marker.len()..].trim().is_empty() =>
                {
                    fence = None
                }
                Some(_) => {}
            }
        }
        if fence.is_none() && line.trim_end() == "---" {
            push_card(&mut cards, &mut current, current_line);
            current_line = line_no + 1;
            continue;
        }
        if current.is_empty() && line.trim().is_empty() {
            current_line = line_no + 1;
            continue;
        }
        current.push_str(line);
        current.push('\n');
    }
    if let Some((_, open_line)) = fence {
        out.push(Diagnostic::new(
            source,
            open_line,
            "unterminated code fence: add a closing ``` line",
        ));
    }
    push_card(&mut cards, &mut current, current_line);
    cards
}

fn push_card(cards: &mut Vec<Card>, current: &mut String, line: usize) {
    let text = std::mem::take(current);
    if !text.trim().is_empty() {
        cards.push(Card {
            // Clean once here, so every view of the card (titles, lists, the body) is safe.
            markdown: crate::sanitize::clean(text.trim_end()).into_owned() + "\n",
            line,
        });
    }
}

pub(super) fn check_nesting(source: &str, card: &Card, out: &mut Vec<Diagnostic>) {
    let mut depth = 0usize;
    for (event, range) in Parser::new(&card.markdown).into_offset_iter() {
        match event {
            Event::Start(pulldown_cmark::Tag::List(_) | pulldown_cmark::Tag::BlockQuote(_)) => {
                depth += 1;
                if depth > MAX_NESTING {
                    let line = card.line + line_of_offset(&card.markdown, range.start) - 1;
                    out.push(Diagnostic::new(
                        source,
                        line,
                        format!("lists or block quotes nested more than {MAX_NESTING} deep"),
                    ));
                    return;
                }
            }
            Event::End(pulldown_cmark::TagEnd::List(_) | pulldown_cmark::TagEnd::BlockQuote(_)) => {
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
}
