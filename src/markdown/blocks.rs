//! The block walker: turns pulldown-cmark events into lines, keeping the margin (quotes, list
//! items), the blank lines between blocks, and handing inline content, code and tables to their
//! modules.

use pulldown_cmark::{CodeBlockKind, Event, Tag, TagEnd};
use ratatui::style::Style;
use ratatui::text::Line;

use super::inline::Inline;
use super::links::{LinkSpot, Links};
use super::prefix::Margin;
use super::table::Table;
use super::text::MetricStyles;
use super::{RenderOptions, Rendered};

const BULLETS: [&str; 4] = ["• ", "◦ ", "▪ ", "‣ "];

/// Rendering state for one card.
pub(super) struct Renderer<'r, 'a> {
    opts: &'r RenderOptions<'a>,
    metrics: MetricStyles<'r>,
    width: usize,
    out: Vec<Line<'static>>,
    /// The card's web links, numbered as they come, and where their text landed.
    links: Links,
    spots: Vec<LinkSpot>,
    margin: Margin,
    /// The next number of each open list (`None` for bullets), outermost first.
    lists: Vec<Option<u64>>,
    inline: Inline,
    quotes: usize,
    /// A block ended: the next one starts after a blank line.
    needs_gap: bool,
    code: Option<(String, String)>,
    table: Option<Table>,
    in_table_head: bool,
    html: Option<String>,
    /// The most columns a code block's widest line is wider than the pane.
    code_overflow: usize,
}

impl<'r, 'a> Renderer<'r, 'a> {
    /// A renderer for one card with these options.
    pub fn new(opts: &'r RenderOptions<'a>) -> Self {
        let theme = opts.theme;
        Renderer {
            opts,
            metrics: MetricStyles {
                lookup: opts.metric,
                value: theme.strong(),
                missing: theme.muted(),
            },
            width: usize::from(opts.width.max(1)),
            out: Vec::new(),
            links: Links::default(),
            spots: Vec::new(),
            margin: Margin::default(),
            lists: Vec::new(),
            inline: Inline::new(theme),
            quotes: 0,
            needs_gap: false,
            code: None,
            table: None,
            in_table_head: false,
            html: None,
            code_overflow: 0,
        }
    }

    /// Feed every event, then return the lines and links.
    pub fn run<'e>(mut self, events: impl Iterator<Item = Event<'e>>) -> Rendered {
        for event in events {
            self.event(event);
        }
        self.flush();
        if let Some((lang, code)) = self.code.take() {
            self.code_block(&lang, &code);
        }
        Rendered {
            lines: self.out,
            links: self.links.list,
            spots: self.spots,
            code_overflow: self.code_overflow,
        }
    }

    fn event(&mut self, event: Event) {
        if let (Some((_, code)), Event::Text(text)) = (&mut self.code, &event) {
            code.push_str(text);
            return;
        }
        if let (Some(html), Event::Html(text) | Event::Text(text)) = (&mut self.html, &event) {
            html.push_str(text);
            return;
        }
        if self.inline.event(&event) {
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Rule => self.rule(),
            Event::Html(text) => self.html_block(&text),
            _ => {}
        }
    }

    fn base(&self) -> Style {
        if self.quotes > 0 {
            self.opts.theme.quote()
        } else {
            self.opts.theme.text()
        }
    }

    fn content_width(&self) -> usize {
        self.width
            .saturating_sub(self.margin.indent(self.width))
            .max(1)
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::TableHead | Tag::TableRow | Tag::TableCell => {}
            _ => self.flush(),
        }
        match tag {
            Tag::BlockQuote(_) => {
                // The blank line before a quote belongs outside it.
                self.start_block();
                self.margin.push_quote(self.opts.theme.muted());
                self.quotes += 1;
            }
            Tag::CodeBlock(kind) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::HtmlBlock => self.html = Some(String::new()),
            Tag::List(start) => {
                self.start_block();
                self.lists.push(start);
            }
            Tag::Item => self.item(),
            Tag::Table(aligns) => self.table = Some(Table::new(aligns)),
            Tag::TableHead => {
                self.in_table_head = true;
                self.table.get_or_insert_default().start_row();
            }
            Tag::TableRow => self.table.get_or_insert_default().start_row(),
            _ => {}
        }
    }

    fn item(&mut self) {
        // Items follow each other without blank lines, even in loose lists: cards are short.
        self.needs_gap = false;
        let depth = self.lists.len();
        let marker = match self.lists.last_mut() {
            Some(Some(n)) => {
                let marker = format!("{n}. ");
                *n = n.saturating_add(1);
                marker
            }
            _ => BULLETS[depth.saturating_sub(1) % BULLETS.len()].to_string(),
        };
        self.margin.push_item(marker, self.opts.theme.muted());
    }

    /// Table cells, heads and rows: collected, not emitted. True when `tag` was one of them.
    fn end_table_part(&mut self, tag: TagEnd) -> bool {
        match tag {
            TagEnd::TableCell => {
                let base = if self.in_table_head {
                    self.base().patch(self.opts.theme.strong())
                } else {
                    self.base()
                };
                let cell = self.inline.take(base, &self.metrics, &mut self.links);
                self.table.get_or_insert_default().push_cell(cell);
            }
            TagEnd::TableHead => {
                self.in_table_head = false;
                self.table.get_or_insert_default().end_head();
            }
            TagEnd::TableRow => {}
            _ => return false,
        }
        true
    }

    fn end(&mut self, tag: TagEnd) {
        if self.end_table_part(tag) {
            return;
        }
        match tag {
            TagEnd::Heading(level) => self.heading_lines(level),
            _ => self.flush(),
        }
        match tag {
            TagEnd::BlockQuote(_) => {
                self.margin.pop();
                self.quotes = self.quotes.saturating_sub(1);
            }
            TagEnd::CodeBlock => {
                if let Some((lang, code)) = self.code.take() {
                    self.code_block(&lang, &code);
                }
            }
            TagEnd::HtmlBlock => {
                // Sets the gap itself, and only when something showed.
                if let Some(html) = self.html.take() {
                    self.html_block(&html);
                }
                return;
            }
            TagEnd::List(_) => {
                self.lists.pop();
            }
            TagEnd::Item => {
                if self.margin.innermost_unused() {
                    self.emit(Vec::new());
                }
                self.margin.pop();
                return;
            }
            TagEnd::Table => self.table_lines(),
            _ => {}
        }
        self.needs_gap = true;
    }
}

mod leaf;
