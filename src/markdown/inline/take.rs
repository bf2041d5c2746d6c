//! Handing a block's inline content over as pieces: metrics filled in, web links (markdown and
//! bare URLs) numbered in the card's [`Links`] in reading order, each followed by its `[n]`.

use std::mem::take;

use ratatui::style::{Modifier, Style};

use super::Inline;
use crate::markdown::links::{Links, bare_urls, marker};
use crate::markdown::text::{MetricStyles, push_with_metrics};
use crate::markdown::wrap::{Piece, push, push_link};

impl Inline {
    /// Hand over the pieces collected so far, each drawn over `base`, with metrics filled in
    /// and web links numbered in `links`.
    pub fn take(&mut self, base: Style, metrics: &MetricStyles, links: &mut Links) -> Vec<Piece> {
        self.styles.clear();
        self.links.clear();
        let pending = take(&mut self.pending);
        let mut ids: Vec<Option<usize>> = vec![None; pending.len()];
        let mut number = |p: usize, links: &mut Links| match ids.get_mut(p) {
            Some(id) => {
                *id.get_or_insert_with(|| links.register(&pending[p].url, &pending[p].label))
            }
            None => 0,
        };
        let mut out = Vec::with_capacity(self.runs.len());
        let mut prose = Label::default();
        for run in take(&mut self.runs) {
            let style = base.patch(run.style);
            if let Some(p) = run.marker {
                let text = format!("\u{a0}{}", marker(number(p, links)));
                push(&mut out, &text, style);
            } else if let Some(p) = run.link {
                push_link(&mut out, &run.text, style, Some(number(p, links)));
            } else if run.literal {
                push(&mut out, &run.text, style);
                prose.since.push_str(&run.text);
            } else {
                self.prose(&mut out, &run.text, style, metrics, links, &mut prose);
            }
        }
        out
    }

    /// Prose with its bare URLs made links, each followed by its `[n]`.
    fn prose(
        &self,
        out: &mut Vec<Piece>,
        text: &str,
        style: Style,
        metrics: &MetricStyles,
        links: &mut Links,
        label: &mut Label,
    ) {
        let mut done = 0;
        for range in bare_urls(text) {
            let before = &text[done..range.start];
            push_with_metrics(out, before, style, metrics);
            label.since.push_str(before);
            let url = &text[range.clone()];
            let id = links.register(url, &label.take());
            push_link(out, url, style.patch(self.theme.link()), Some(id));
            // A plain space: the URL stays a word of its own, easy to select and copy.
            let muted = style
                .patch(self.theme.muted())
                .remove_modifier(Modifier::UNDERLINED);
            push(out, &format!(" {}", marker(id)), muted);
            done = range.end;
        }
        push_with_metrics(out, &text[done..], style, metrics);
        label.since.push_str(&text[done..]);
    }
}

/// What a bare URL is called: the block's words since its start or the last bare URL; when
/// that is a word at most (`A: url1 and url2`), the last URL's label again.
#[derive(Default)]
struct Label {
    since: String,
    last: String,
}

impl Label {
    fn take(&mut self) -> String {
        let since = take(&mut self.since);
        if since.split_whitespace().count() > 1 || self.last.is_empty() {
            self.last = since;
        }
        self.last.clone()
    }
}
