//! Collecting the inline content of one block (a paragraph, heading, list item text or table
//! cell) as styled pieces: emphasis, strong, strikethrough, inline code, links, hard breaks,
//! hidden HTML comments and filled-in metric placeholders.
//!
//! A web link (markdown or a bare `http(s)://` URL in prose) is numbered in the card's
//! [`Links`] when the block is taken, in reading order; its text carries that number through
//! wrapping, and a muted `[n]` after it matches the links overlay. Other links show their
//! target in brackets after the text, as written.

use pulldown_cmark::{Event, LinkType, Tag, TagEnd};
use ratatui::style::{Modifier, Style};

use super::links::is_web_url;
use super::text::clean_inline;
use crate::theme::Theme;

/// A piece of inline text; `literal` pieces (inline code, URLs) skip metric substitution.
/// `link` and `marker` index the block's [`Pending`] web links: the text of one, or the place
/// for its `[n]`.
struct Run {
    text: String,
    style: Style,
    literal: bool,
    link: Option<usize>,
    marker: Option<usize>,
}

/// An open link: where its text starts and where it points.
struct OpenLink {
    url: String,
    first_run: usize,
    autolink: bool,
    /// Its index among the block's pending web links (`None`: not an http(s) link).
    web: Option<usize>,
}

/// A web link of this block, numbered when the block is taken.
struct Pending {
    url: String,
    label: String,
}

/// The inline content collected so far.
pub(super) struct Inline {
    theme: Theme,
    runs: Vec<Run>,
    styles: Vec<Style>,
    links: Vec<OpenLink>,
    pending: Vec<Pending>,
}

impl Inline {
    /// Nothing collected yet.
    pub fn new(theme: Theme) -> Self {
        Inline {
            theme,
            runs: Vec::new(),
            styles: Vec::new(),
            links: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// Whether nothing has been collected since the last [`Inline::take`].
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    fn style(&self) -> Style {
        self.styles.last().copied().unwrap_or_default()
    }

    fn add(&mut self, text: &str, style: Style, literal: bool) {
        let link = self.links.iter().rev().find_map(|l| l.web);
        match self.runs.last_mut() {
            // Merging keeps a placeholder (or a URL) that the parser split (at `_`, say) in
            // one run.
            Some(last)
                if last.style == style
                    && last.literal == literal
                    && last.link == link
                    && last.marker.is_none() =>
            {
                last.text.push_str(text)
            }
            _ => self.runs.push(Run {
                text: text.to_string(),
                style,
                literal,
                link,
                marker: None,
            }),
        }
    }

    fn open(&mut self, modifier: Style) {
        self.styles.push(self.style().patch(modifier));
    }

    /// Take one inline event; returns false when the event is not inline (the caller's job).
    pub fn event(&mut self, event: &Event) -> bool {
        match event {
            Event::Text(t) => self.add(&clean_inline(t), self.style(), false),
            Event::Code(t) => self.code(t),
            Event::InlineMath(t) | Event::DisplayMath(t) => self.code(t),
            Event::SoftBreak => self.add(" ", self.style(), false),
            Event::HardBreak => self.add("\n", self.style(), true),
            Event::InlineHtml(html) => self.html(html),
            Event::FootnoteReference(name) => {
                self.add(&format!("[^{}]", clean_inline(name)), self.style(), true)
            }
            Event::TaskListMarker(done) => {
                self.add(if *done { "[x] " } else { "[ ] " }, self.style(), true)
            }
            Event::Start(tag) => return self.start(tag),
            Event::End(tag) => return self.end(*tag),
            _ => return false,
        }
        true
    }

    fn code(&mut self, text: &str) {
        let text = clean_inline(text);
        // Without colour inline code would look like prose: keep its backticks.
        let text = if self.theme.color {
            text
        } else {
            format!("`{text}`")
        };
        self.add(&text, self.style().patch(self.theme.inline_code()), true);
    }

    fn html(&mut self, html: &str) {
        // Comments (`<!-- source: ... -->`) and tags are hidden; `<br>` still breaks the line.
        let tag = html.trim().to_ascii_lowercase();
        if tag.starts_with("<br") {
            self.add("\n", self.style(), true);
        }
    }

    fn start(&mut self, tag: &Tag) -> bool {
        match tag {
            Tag::Emphasis => self.open(self.theme.emphasis()),
            Tag::Strong => self.open(self.theme.strong()),
            Tag::Strikethrough => self.open(Style::new().add_modifier(Modifier::CROSSED_OUT)),
            Tag::Superscript | Tag::Subscript => self.open(Style::new()),
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => {
                let autolink = matches!(link_type, LinkType::Autolink | LinkType::Email);
                self.link(dest_url, autolink, self.theme.link());
            }
            Tag::Image { dest_url, .. } => {
                self.link(dest_url, false, self.theme.muted());
                self.add("[image: ", self.style(), true);
            }
            _ => return false,
        }
        true
    }

    fn link(&mut self, url: &str, autolink: bool, style: Style) {
        let url = clean_inline(url);
        let web = is_web_url(url.trim()).then(|| {
            self.pending.push(Pending {
                url: url.trim().to_string(),
                label: String::new(),
            });
            self.pending.len() - 1
        });
        self.links.push(OpenLink {
            url,
            first_run: self.runs.len(),
            autolink,
            web,
        });
        self.open(style);
    }

    fn end(&mut self, tag: TagEnd) -> bool {
        match tag {
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {}
            TagEnd::Superscript | TagEnd::Subscript => {}
            TagEnd::Link | TagEnd::Image => {
                if tag == TagEnd::Image {
                    self.add("]", self.style(), true);
                }
                self.close_link();
            }
            _ => return false,
        }
        self.styles.pop();
        true
    }

    /// A web link gets its `[n]` place (its text becomes its label); another shows its target
    /// after the text (muted), unless the text already is the target.
    fn close_link(&mut self) {
        let Some(link) = self.links.pop() else { return };
        let text: String = self.runs[link.first_run.min(self.runs.len())..]
            .iter()
            .map(|r| r.text.as_str())
            .collect();
        if let Some(web) = link.web {
            if let Some(pending) = self.pending.get_mut(web) {
                pending.label = text;
            }
            self.runs.push(Run {
                text: String::new(),
                style: self.marker_style(),
                literal: true,
                link: None,
                marker: Some(web),
            });
            return;
        }
        let bare = link.url.trim_start_matches("mailto:");
        if link.autolink || link.url.is_empty() || text.trim() == bare {
            return;
        }
        self.add(&format!(" ({})", link.url), self.marker_style(), true);
    }

    /// Muted, and not underlined even inside a link.
    fn marker_style(&self) -> Style {
        let base = self.styles.first().copied().unwrap_or_default();
        base.patch(self.theme.muted())
            .remove_modifier(Modifier::UNDERLINED)
    }
}

mod take;
