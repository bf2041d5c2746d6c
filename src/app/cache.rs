//! Rendered card lines, kept per (lesson, card) for one width and highlight state, so a frame
//! only copies lines and markdown is rendered again only when the width or highlighting changes.

use std::collections::HashMap;
use std::rc::Rc;

use ratatui::text::Line;

use super::App;
use crate::lesson::LessonEntry;
use crate::markdown::{self, Link, LinkSpot, RenderOptions};

/// See the module docs.
#[derive(Debug, Default)]
pub(super) struct CardCache {
    /// (width, highlight, code scroll) the lines below were rendered for.
    stamp: Option<(u16, bool, u16)>,
    /// By (lesson, card, withheld): a withheld card opens as soon as its prediction is made.
    lines: HashMap<(usize, usize, bool), Rc<CardView>>,
}

/// A card rendered to one width: its lines, its web links and where they are drawn.
#[derive(Debug, Default)]
pub struct CardView {
    /// The lines.
    pub lines: Rc<Vec<Line<'static>>>,
    /// The web links, numbered `[index + 1]` on the card.
    pub links: Vec<Link>,
    /// Where link text lies in `lines`.
    pub spots: Vec<LinkSpot>,
    /// How far its code can scroll sideways ([`markdown::Rendered::code_overflow`]).
    pub code_overflow: usize,
}

impl App {
    /// The open card rendered to `width` columns (cached).
    pub fn card_lines(&self, width: u16) -> Rc<Vec<Line<'static>>> {
        Rc::clone(&self.card_view(width).lines)
    }

    /// The open card rendered to `width` columns, with its links (cached).
    pub fn card_view(&self, width: u16) -> Rc<CardView> {
        let withheld = self.withheld_card(self.nav.card).is_some();
        let key = (self.nav.lesson, self.nav.card, withheld);
        let stamp = Some((width, self.highlight_ready, self.nav.code_scroll));
        if let Ok(mut cache) = self.cache.try_borrow_mut() {
            if cache.stamp != stamp {
                cache.lines.clear();
                cache.stamp = stamp;
            }
            let lines = cache
                .lines
                .entry(key)
                .or_insert_with(|| Rc::new(self.render_card(width)));
            return Rc::clone(lines);
        }
        Rc::new(self.render_card(width))
    }

    /// Drop every rendered card (measured values changed what `{{metric:..}}` shows).
    pub(super) fn invalidate_cards(&self) {
        if let Ok(mut cache) = self.cache.try_borrow_mut() {
            cache.lines.clear();
        }
    }

    fn render_card(&self, width: u16) -> CardView {
        let Some(LessonEntry::Ok(lesson)) = self.entry() else {
            return CardView::default();
        };
        let Some(card) = lesson.cards.get(self.nav.card) else {
            return CardView::default();
        };
        let opts = RenderOptions {
            width: width.max(1),
            theme: self.theme,
            highlight: self.highlight_ready,
            metric: &|name| self.metric_text(name),
            code_scroll: self.nav.code_scroll,
        };
        // A card that answers a prediction not made yet shows a note instead (`predict`).
        let withheld = self.withheld_card(self.nav.card);
        let text = withheld.as_deref().unwrap_or(&card.markdown);
        let rendered = markdown::render_card(text, &opts);
        CardView {
            lines: Rc::new(rendered.lines),
            links: rendered.links,
            spots: rendered.spots,
            code_overflow: rendered.code_overflow,
        }
    }
}
