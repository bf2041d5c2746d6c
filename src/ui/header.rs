//! The top line: the breadcrumb `Lesson 3/4 · card 5/12` (a contract), the lesson title, and the
//! lesson's figures on the right (cards seen and the scores, worded as everywhere else).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::app::App;
use crate::lesson::LessonEntry;

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

/// Draw the header line.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let title = app.entry().map(LessonEntry::title).unwrap_or_default();
    let left = Line::from(vec![
        Span::styled(" cuda-academy ", theme.selected()),
        Span::raw(" "),
        Span::styled(breadcrumb(app), theme.focus()),
        Span::styled(" │ ", theme.muted()),
        Span::styled(title, theme.strong()),
    ]);
    let left_width = left.width();
    left.render(area, buf);
    let stats = app.stats(app.nav.lesson);
    if stats.cards == 0 {
        return;
    }
    // The fullest text that fits: cards and scores, else the scores alone.
    let score = stats.score_text();
    let mut full = format!("{}/{} cards seen", stats.cards_seen, stats.cards);
    if !score.is_empty() {
        full.push_str(&format!(" · {score}"));
    }
    let fits = |t: &str| t.chars().count() + 1 + left_width + 2 <= usize::from(area.width);
    let Some(right) = [full, score].into_iter().find(|t| !t.is_empty() && fits(t)) else {
        return;
    };
    let right = format!("{right} ");
    let width = u16::try_from(right.chars().count()).unwrap_or(u16::MAX);
    let at = Rect::new(area.right().saturating_sub(width), area.y, width, 1);
    Span::styled(right, theme.muted()).render(at, buf);
}
