//! The top line: the breadcrumb `Lesson 3/4 · card 5/12` (a contract), the lesson title, and the
//! lesson's figures on the right (cards seen and the scores, worded as everywhere else).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::app::App;
use crate::lesson::LessonEntry;
use crate::text_fit;

/// The breadcrumb for the open lesson and card.
pub fn breadcrumb(app: &App) -> String {
    let lessons = app.catalog.len();
    let n = app.nav.lesson + 1;
    match app.entry() {
        Some(LessonEntry::Ok(_)) => format!(
            "Lesson {n}/{lessons} · card {}/{}",
            app.nav.card + 1,
            app.card_count(app.nav.lesson)
        ),
        Some(LessonEntry::Broken { .. }) => format!("Lesson {n}/{lessons} · broken"),
        None => "No lessons".to_string(),
    }
}

/// Draw the header line. The breadcrumb and the scores always show (review 2026-12-01: at 80
/// columns the score was dropped); to make room, first the cards-seen count goes, then the
/// `cuda-academy` badge, then the title is cut with an ellipsis.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let title = clean(&app.entry().map(LessonEntry::title).unwrap_or_default());
    let stats = app.stats(app.nav.lesson);
    let (score, full) = if stats.cards == 0 {
        (String::new(), String::new())
    } else {
        let score = stats.score_text();
        let mut full = format!("{}/{} cards seen", stats.cards_seen, stats.cards);
        if !score.is_empty() {
            full.push_str(&format!(" · {score}"));
        }
        (score, full)
    };
    let crumb = breadcrumb(app);
    let width = usize::from(area.width);
    let (badge, right, title) = choose(&crumb, &title, &full, &score, width);
    let mut left = Vec::new();
    if badge {
        left.push(Span::styled(BADGE, theme.selected()));
    }
    left.extend([
        Span::raw(" "),
        Span::styled(crumb, theme.focus()),
        Span::styled(SEPARATOR, theme.muted()),
        Span::styled(title, theme.strong()),
    ]);
    Line::from(left).render(area, buf);
    if right.is_empty() {
        return;
    }
    let right = format!("{right} ");
    let w = u16::try_from(Span::raw(&right).width()).unwrap_or(u16::MAX);
    let at = Rect::new(area.right().saturating_sub(w), area.y, w, 1);
    Span::styled(right, theme.muted()).render(at, buf);
}

const BADGE: &str = " cuda-academy ";
const SEPARATOR: &str = " │ ";

/// Whether the badge shows, the right-hand text, and the title as it fits in `width` columns
/// with the breadcrumb `crumb` (the fullest choice that fits, in the order of [`render`]).
fn choose(
    crumb: &str,
    title: &str,
    full: &str,
    score: &str,
    width: usize,
) -> (bool, String, String) {
    let w = |t: &str| Span::raw(t).width();
    // Left: [badge] " " crumb " │ " title; right: text " "; a gap of 2 between them.
    let fixed = |badge: bool, right: &str| {
        let right = if right.is_empty() {
            0
        } else {
            w(right) + 1 + 2
        };
        usize::from(badge) * w(BADGE) + 1 + w(crumb) + w(SEPARATOR) + right
    };
    let whole = [(true, full), (true, score), (false, full), (false, score)];
    for (badge, right) in whole {
        if fixed(badge, right) + w(title) <= width {
            return (badge, right.to_string(), title.to_string());
        }
    }
    let room = width.saturating_sub(fixed(false, score));
    (false, score.to_string(), text_fit::truncate(title, room))
}

fn clean(s: &str) -> String {
    crate::sanitize::clean_line(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_stays_and_the_title_is_cut_with_an_ellipsis() {
        let crumb = "Lesson 2/4 · card 3/12";
        let title = "Pinned Memory and the DMA Engine";
        let full = "3/12 cards seen · quiz 1/4 · predictions 0/1";
        let score = "quiz 1/4 · predictions 0/1";
        let (badge, right, t) = choose(crumb, title, full, score, 200);
        assert!(badge && right == full && t == title);
        let (badge, right, t) = choose(crumb, title, full, score, 80);
        assert!(!badge && right == score, "{right}");
        assert!(t.ends_with('…') && t.len() < title.len(), "{t}");
        // Everything on one line of 80 columns.
        let w = |t: &str| Span::raw(t.to_string()).width();
        let used = 1 + w(crumb) + w(SEPARATOR) + w(&t) + 2 + w(&right) + 1;
        assert!(used <= 80, "{used}");
    }
}
