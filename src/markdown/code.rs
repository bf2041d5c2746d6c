//! Code blocks: highlighted by syntect when it is warm, plain otherwise, behind a `▎ ` gutter
//! (so code reads apart from prose without colour). Lines longer than the pane are cut and go
//! on after a `↪ ` continuation marker, since every character of code matters.

use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use super::RenderOptions;
use super::text::clean_code_line;
use super::wrap::{Piece, hard_wrap};
use crate::highlight;

const GUTTER: &str = "▎ ";
const CONTINUATION: &str = "↪ ";

/// The lines of a code block `code` in fence language `lang`, for a pane `width` wide.
pub(super) fn code_block(
    lang: &str,
    code: &str,
    opts: &RenderOptions,
    width: usize,
) -> Vec<Vec<Piece>> {
    let code = code.strip_suffix('\n').unwrap_or(code);
    let clean: String = code
        .split('\n')
        .map(clean_code_line)
        .collect::<Vec<_>>()
        .join("\n");
    let styled = if opts.highlight {
        highlight::highlight(lang, &clean, opts.theme)
    } else {
        None
    };
    let source: Vec<Vec<Piece>> = match styled {
        Some(lines) => lines
            .into_iter()
            .map(|l| {
                l.spans
                    .into_iter()
                    .map(|s| Piece::new(s.content, s.style))
                    .collect()
            })
            .collect(),
        None => clean
            .split('\n')
            .map(|l| vec![Piece::new(l, Style::new())])
            .collect(),
    };
    let muted = opts.theme.muted();
    let body = width.saturating_sub(GUTTER.width()).max(1);
    let mut out = Vec::with_capacity(source.len());
    let narrower = body.saturating_sub(CONTINUATION.width()).max(1);
    for line in source {
        for (i, chunk) in hard_wrap(line, body, narrower).into_iter().enumerate() {
            let lead = if i == 0 {
                vec![]
            } else {
                vec![Piece::new(CONTINUATION, muted)]
            };
            out.push(with_gutter(lead, chunk, muted));
        }
    }
    out
}

fn with_gutter(mut lead: Vec<Piece>, body: Vec<Piece>, muted: Style) -> Vec<Piece> {
    lead.insert(0, Piece::new(GUTTER, muted));
    lead.extend(body.into_iter().filter(|p| !p.text.is_empty()));
    lead
}
