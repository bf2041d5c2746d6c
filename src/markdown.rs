//! Markdown card text to ratatui lines, wrapped to a width.
//!
//! INTERIM: a plain-text placeholder with the final API, so other modules can build against it.
//! The real renderer (headings, emphasis, lists, quotes, tables, links, syntect code) replaces it.

use ratatui::text::Line;

use crate::theme::Theme;

/// How to render a card.
pub struct RenderOptions<'a> {
    /// Columns available; text wraps to it.
    pub width: u16,
    pub theme: Theme,
    /// Highlight code blocks with syntect when it is ready (see `crate::highlight::is_ready`);
    /// otherwise code is shown plain.
    pub highlight: bool,
    /// Looks up `{{metric:NAME}}` placeholders: `Some("55.1 GB/s")` after a run, `None` before
    /// (then the placeholder reads as an invitation to run the experiment).
    pub metric: &'a dyn Fn(&str) -> Option<String>,
}

/// Render `md` into lines no wider than `opts.width`.
pub fn render(md: &str, opts: &RenderOptions) -> Vec<Line<'static>> {
    let width = usize::from(opts.width.max(1));
    md.lines()
        .flat_map(|l| {
            let chars: Vec<char> = l.chars().collect();
            if chars.is_empty() {
                return vec![Line::default()];
            }
            chars
                .chunks(width)
                .map(|c| Line::from(c.iter().collect::<String>()))
                .collect()
        })
        .collect()
}
