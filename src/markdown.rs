//! Markdown card text to ratatui lines, wrapped to a width.
//!
//! pulldown-cmark parses (tables and strikethrough on); `blocks` walks the events. Headings,
//! emphasis, strong, strikethrough, inline code, nested block quotes (`│ ` bars) and lists
//! (bullet glyphs, numbers, hanging indent), tables with box borders, links (web links
//! numbered `[n]`, see [`links`]; others with their target muted), rules, code blocks (syntect, see [`crate::highlight`]) and `{{metric:NAME}}`
//! placeholders. HTML comments are hidden.
//!
//! Every line fits `width` (for widths of a few columns and up), nothing depends on colour alone,
//! and any input renders in time linear in its size: control characters are replaced, deep
//! nesting stops indenting after `prefix::MAX_DEPTH` levels, over-long words are cut, and code
//! lines are cut at the edge with a `»` mark (they scroll sideways, never wrap).

mod blocks;
mod code;
mod inline;
pub mod links;
mod prefix;
mod table;
mod text;
mod wrap;

use pulldown_cmark::{Options, Parser};
use ratatui::text::Line;

use crate::theme::Theme;

pub use links::{Link, LinkSpot};
pub use text::METRIC_INVITATION;

/// A rendered card: its lines, its web links in order, and where each link is drawn.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    /// The lines, each at most the width wide.
    pub lines: Vec<Line<'static>>,
    /// The card's web links; the `[n]` after a link's text is its index plus one.
    pub links: Vec<Link>,
    /// Where link text lies in `lines`, for making those cells hyperlinks.
    pub spots: Vec<LinkSpot>,
    /// How many columns the widest code line is wider than its pane: how far
    /// [`RenderOptions::code_scroll`] can scroll code sideways (0: all code fits).
    pub code_overflow: usize,
}

/// How to render a card.
pub struct RenderOptions<'a> {
    /// Columns available; text wraps to it.
    pub width: u16,
    /// The palette; with `theme.color == false` only modifiers (bold, italic, ...) and glyphs
    /// (bars, bullets, gutters, URLs) set things apart.
    pub theme: Theme,
    /// Highlight code blocks with syntect when it is ready (see `crate::highlight::is_ready`);
    /// otherwise code is shown plain.
    pub highlight: bool,
    /// Looks up `{{metric:NAME}}` placeholders: `Some("55.1 GB/s")` after a run, `None` before
    /// (then the placeholder reads as an invitation to run the experiment).
    pub metric: &'a dyn Fn(&str) -> Option<String>,
    /// Columns code blocks are scrolled to the left: code is cut at the pane's edge, never
    /// wrapped, and read whole by scrolling (see [`Rendered::code_overflow`]).
    pub code_scroll: u16,
}

/// The pulldown-cmark extensions lessons use.
pub fn parser_options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

/// Render `md` into lines no wider than `opts.width`.
pub fn render(md: &str, opts: &RenderOptions) -> Vec<Line<'static>> {
    render_card(md, opts).lines
}

/// Render `md` into lines no wider than `opts.width`, with its links.
pub fn render_card(md: &str, opts: &RenderOptions) -> Rendered {
    blocks::Renderer::new(opts).run(Parser::new_ext(md, parser_options()))
}

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;
