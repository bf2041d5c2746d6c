//! The block walker: turns pulldown-cmark events into lines, keeping the margin (quotes, list
//! items), the blank lines between blocks, and handing inline content, code and tables to their
//! modules.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Tag, TagEnd};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use super::RenderOptions;
use super::code::code_block;
use super::inline::Inline;
use super::prefix::Margin;
use super::table::Table;
use super::text::{MetricStyles, clean_inline};
use super::wrap::{Piece, fit, width_of, wrap};

const BULLETS: [&str; 4] = ["• ", "◦ ", "▪ ", "‣ "];

/// Rendering state for one card.
pub(super) struct Renderer<'r, 'a> {
    opts: &'r RenderOptions<'a>,
    metrics: MetricStyles<'r>,
    width: usize,
    out: Vec<Line<'static>>,
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
}

impl<'r, 'a> Renderer<'r, 'a> {
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
            margin: Margin::default(),
            lists: Vec::new(),
            inline: Inline::new(theme),
            quotes: 0,
            needs_gap: false,
            code: None,
            table: None,
            in_table_head: false,
            html: None,
        }
    }

    /// Feed every event, then return the lines.
    pub fn run<'e>(mut self, events: impl Iterator<Item = Event<'e>>) -> Vec<Line<'static>> {
        for event in events {
            self.event(event);
        }
        self.flush();
        if let Some((lang, code)) = self.code.take() {
            self.code_block(&lang, &code);
        }
        self.out
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

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::TableCell => {
                let base = if self.in_table_head {
                    self.base().patch(self.opts.theme.strong())
                } else {
                    self.base()
                };
                let cell = self.inline.take(base, &self.metrics);
                self.table.get_or_insert_default().push_cell(cell);
                return;
            }
            TagEnd::TableHead => {
                self.in_table_head = false;
                self.table.get_or_insert_default().end_head();
                return;
            }
            TagEnd::TableRow => return,
            _ => {}
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

    /// Emit the inline content collected so far as a wrapped paragraph.
    fn flush(&mut self) {
        if self.inline.is_empty() {
            return;
        }
        let pieces = self.inline.take(self.base(), &self.metrics);
        self.emit_wrapped(&pieces);
    }

    fn emit_wrapped(&mut self, pieces: &[Piece]) {
        self.start_block();
        for line in wrap(pieces, self.content_width()) {
            self.emit(line);
        }
    }

    fn start_block(&mut self) {
        if self.needs_gap && !self.out.is_empty() {
            let blank = self.margin.blank_line(self.width);
            self.out.push(fit(blank, self.width));
        }
        self.needs_gap = false;
    }

    /// Push one line after the margin.
    fn emit(&mut self, line: Vec<Piece>) {
        let mut full = self.margin.next_line(self.width);
        if line.is_empty() {
            trim_end(&mut full);
        }
        full.extend(line);
        self.out.push(fit(full, self.width));
    }

    fn heading_lines(&mut self, level: HeadingLevel) {
        let theme = self.opts.theme;
        let n = level as u8;
        let mut style = theme.heading(n);
        if n >= 4 {
            style = style.add_modifier(Modifier::ITALIC);
        }
        let pieces = self.inline.take(self.base().patch(style), &self.metrics);
        if pieces.is_empty() {
            return;
        }
        self.start_block();
        let lines = wrap(&pieces, self.content_width());
        let underline = lines.iter().map(|l| width_of(l)).max().unwrap_or(0);
        for line in lines {
            self.emit(line);
        }
        // Levels 1 and 2 get a rule beneath, so levels differ without colour.
        let fill = match n {
            1 => "═",
            2 => "─",
            _ => return,
        };
        self.emit(vec![Piece::new(
            fill.repeat(underline),
            style.remove_modifier(Modifier::UNDERLINED),
        )]);
    }

    fn rule(&mut self) {
        self.start_block();
        let width = self.content_width();
        self.emit(vec![Piece::new("─".repeat(width), self.opts.theme.muted())]);
        self.needs_gap = true;
    }

    fn code_block(&mut self, lang: &str, code: &str) {
        self.start_block();
        for line in code_block(lang, code, self.opts, self.content_width()) {
            self.emit(line);
        }
    }

    fn table_lines(&mut self) {
        let Some(table) = self.table.take() else {
            return;
        };
        self.start_block();
        for line in table.render(self.content_width(), self.opts.theme.muted()) {
            self.emit(line);
        }
    }

    /// HTML blocks: comments (`<!-- source: ... -->`) vanish; anything else shows as muted text.
    fn html_block(&mut self, html: &str) {
        let shown = strip_comments(html);
        let muted = self.base().patch(self.opts.theme.muted());
        let pieces: Vec<Piece> = shown
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| Piece::new(clean_inline(l) + "\n", muted))
            .collect();
        if !pieces.is_empty() {
            self.emit_wrapped(&pieces);
            self.needs_gap = true;
        }
    }
}

/// Drop trailing spaces (the hanging indent of an otherwise empty line).
pub(super) fn trim_end(run: &mut Vec<Piece>) {
    while let Some(last) = run.last_mut() {
        last.text.truncate(last.text.trim_end().len());
        if !last.text.is_empty() {
            break;
        }
        run.pop();
    }
}

/// `html` without its `<!-- ... -->` comments; an unterminated comment runs to the end.
fn strip_comments(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        match rest[start + 4..].find("-->") {
            Some(end) => rest = &rest[start + 4 + end + 3..],
            None => rest = "",
        }
    }
    out.push_str(rest);
    out
}
