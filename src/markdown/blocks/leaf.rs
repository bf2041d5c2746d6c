//! The leaf blocks of the walker: paragraphs, headings, rules, code, tables and HTML, and the
//! one place lines are emitted (margin first, blank lines between blocks, width guard last).

use pulldown_cmark::HeadingLevel;
use ratatui::style::Modifier;

use super::Renderer;
use crate::markdown::code::code_block;
use crate::markdown::links::LinkSpot;
use crate::markdown::prefix::trim_end;
use crate::markdown::text::clean_inline;
use crate::markdown::wrap::{Piece, fit, width_of, wrap};

impl Renderer<'_, '_> {
    /// Emit the inline content collected so far as a wrapped paragraph.
    pub(super) fn flush(&mut self) {
        if self.inline.is_empty() {
            return;
        }
        let pieces = self
            .inline
            .take(self.base(), &self.metrics, &mut self.links);
        self.emit_wrapped(&pieces);
    }

    /// Start a block and emit `pieces` word-wrapped to the width left by the margin.
    pub(super) fn emit_wrapped(&mut self, pieces: &[Piece]) {
        self.start_block();
        for line in wrap(pieces, self.content_width()) {
            self.emit(line);
        }
    }

    /// Called before a block's first line: the blank line owed by the block before, if any.
    pub(super) fn start_block(&mut self) {
        if self.needs_gap && !self.out.is_empty() {
            let blank = self.margin.blank_line(self.width);
            self.out.push(fit(blank, self.width).0);
        }
        self.needs_gap = false;
    }

    /// Push one line after the margin.
    pub(super) fn emit(&mut self, line: Vec<Piece>) {
        let mut full = self.margin.next_line(self.width);
        if line.is_empty() {
            trim_end(&mut full);
        }
        full.extend(line);
        let (line, spots) = fit(full, self.width);
        let index = self.out.len();
        self.spots.extend(spots.into_iter().map(|spot| LinkSpot {
            line: index,
            ..spot
        }));
        self.out.push(line);
    }

    /// A heading in its level's style; levels 1 and 2 get a rule beneath, 4+ are italic too.
    pub(super) fn heading_lines(&mut self, level: HeadingLevel) {
        let theme = self.opts.theme;
        let n = level as u8;
        let mut style = theme.heading(n);
        if n >= 4 {
            style = style.add_modifier(Modifier::ITALIC);
        }
        let base = self.base().patch(style);
        let pieces = self.inline.take(base, &self.metrics, &mut self.links);
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

    pub(super) fn rule(&mut self) {
        self.start_block();
        let width = self.content_width();
        self.emit(vec![Piece::new("─".repeat(width), self.opts.theme.muted())]);
        self.needs_gap = true;
    }

    pub(super) fn code_block(&mut self, lang: &str, code: &str) {
        self.start_block();
        let code = code_block(lang, code, self.opts, self.content_width());
        self.code_overflow = self.code_overflow.max(code.overflow);
        for line in code.lines {
            self.emit(line);
        }
    }

    pub(super) fn table_lines(&mut self) {
        let Some(table) = self.table.take() else {
            return;
        };
        self.start_block();
        for line in table.render(self.content_width(), self.opts.theme.muted()) {
            self.emit(line);
        }
    }

    /// HTML blocks: comments (`<!-- source: ... -->`) vanish; anything else shows as muted text.
    pub(super) fn html_block(&mut self, html: &str) {
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
