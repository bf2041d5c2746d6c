//! The card pane: the open card's rendered markdown, scrolled, with where-am-I hints in the
//! border; or, for a broken lesson, its diagnostics. With hyperlinks on, link text becomes
//! OSC 8 hyperlinks (see [`hyperlink`]) while nothing is drawn over the card.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::app::{App, Focus};
use crate::keymap::Action;
use crate::lesson::{Diagnostic, LessonEntry};
use crate::text_fit;
use crate::ui::{hyperlink, layout, pane_block, text};

/// Draw the card pane into `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let text_area = layout::text_area(area);
    let (lines, scroll) = match app.entry() {
        Some(LessonEntry::Broken { problems, .. }) => {
            (broken_lines(app, problems, text_area.width), 0)
        }
        _ => (
            app.card_lines(text_area.width).to_vec(),
            usize::from(app.nav.card_scroll),
        ),
    };
    let mut block = pane_block(theme, app.nav.focus == Focus::Cards).title(" Card ");
    let height = usize::from(text_area.height);
    // The bottom border between its corners; where-am-I on the right, where → leads on the
    // left, cut with an ellipsis so the two never run into each other.
    let mut room = usize::from(area.width.saturating_sub(2));
    if lines.len() > height {
        let last = (scroll + height).min(lines.len());
        let more = if last < lines.len() { " ↓" } else { "" };
        let hint = format!(" lines {}-{last} of {}{more} ", scroll + 1, lines.len());
        room = room.saturating_sub(Span::raw(hint.as_str()).width() + 1);
        block = block.title_bottom(Line::from(hint).right_aligned());
    }
    // Code cut at the edge (`»`): the keys that show the rest, where the learner looks.
    if let Some(keys) = code_keys(app, text_area.width) {
        let hint = format!(" {keys} code ");
        room = room.saturating_sub(Span::raw(hint.as_str()).width() + 1);
        block = block.title_bottom(Line::styled(hint, theme.muted()).left_aligned());
    }
    if let Some(next) = next_lesson_hint(app) {
        let next = text_fit::truncate(next.trim_end(), room.saturating_sub(1)) + " ";
        block = block.title_bottom(Line::styled(next, theme.muted()).left_aligned());
    }
    block.render(area, buf);
    let visible: Vec<Line> = lines.into_iter().skip(scroll).take(height).collect();
    Paragraph::new(visible).render(text_area, buf);
    if app.hyperlinks && !covered(app) && matches!(app.entry(), Some(LessonEntry::Ok(_))) {
        link_cells(app, text_area, scroll, buf);
    }
}

/// Whether something is drawn over the card after it (a dialog, the lesson list overlay): a
/// hyperlink run would print its text over it.
fn covered(app: &App) -> bool {
    app.overlays.dialog.is_some() || (app.nav.focus == Focus::Lessons && !app.has_sidebar())
}

/// Make the visible link text hyperlinks to the full URLs.
fn link_cells(app: &App, text_area: Rect, scroll: usize, buf: &mut Buffer) {
    let view = app.card_view(text_area.width);
    let rows = scroll..scroll + usize::from(text_area.height);
    for spot in view.spots.iter().filter(|s| rows.contains(&s.line)) {
        let Some(link) = view.links.get(spot.link) else {
            continue;
        };
        let row = u16::try_from(spot.line - scroll).unwrap_or(u16::MAX);
        let at = (
            text_area.x.saturating_add(spot.col),
            text_area.y.saturating_add(row),
        );
        hyperlink::link_cells(buf, at, spot.width, &link.url, spot.link);
    }
}

/// The keys that scroll the card's code sideways, as the footer writes them, when some of its
/// code is cut at a text width of `width`.
fn code_keys(app: &App, width: u16) -> Option<&'static str> {
    (app.card_view(width).code_overflow > 0).then_some(())?;
    let footer = crate::keymap::footer(crate::keymap::Ctx::Cards);
    Some(footer.iter().find(|k| k.action == Action::CodeRight)?.keys)
}

/// On a lesson's last card, where → leads.
fn next_lesson_hint(app: &App) -> Option<String> {
    let last = app.nav.card + 1 >= app.card_count(app.nav.lesson);
    let next = app.catalog.entries.get(app.nav.lesson + 1)?;
    last.then(|| format!(" → Lesson {}: {} ", app.nav.lesson + 2, next.title()))
}

fn broken_lines(app: &App, problems: &[Diagnostic], width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let mut lines = vec![
        Line::styled("✗ This lesson could not be loaded", theme.error()),
        Line::default(),
    ];
    for problem in problems {
        let spans = [Span::styled(problem.to_string(), theme.text())];
        lines.extend(text::wrap(&spans, width, Span::raw("• "), Span::raw("  ")));
    }
    lines.push(Line::default());
    let advice = format!(
        "Fix the file, then check it with `cuda-academy check DIR`. \
         The other lessons work as usual: ← → or {} move on.",
        crate::keymap::lesson_digits(app.catalog.len())
    );
    let spans = text::inline(&advice, theme.muted(), theme.inline_code());
    lines.extend(text::wrap(&spans, width, Span::raw(""), Span::raw("")));
    lines
}
