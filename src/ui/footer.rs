//! The bottom line: the main keys of the focused pane (or of the prediction field while one is
//! typed), every one from the key table, never written beside it. Help and quit sit at the right end so they are always
//! there; when the rest does not fit, the least needed entries are dropped first (moving between
//! cards and panes, [`keymap::FOOTER_FIRST`], goes last), never cut in half, and a `…` says
//! that some are missing (`?` lists them all). `w exercises` shows only in a lesson that has
//! exercises, `Shift-←→ code` only on a card whose code is cut at the edge.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::app::App;
use crate::keymap::{self, Action, FooterKey};
use crate::theme::Theme;

/// Actions shown at the right end.
const PINNED: &[Action] = &[Action::ToggleHelp, Action::Quit];

/// The footer's entries now: the focused pane's keys, less those that do nothing here.
pub fn entries(app: &App) -> Vec<FooterKey> {
    let exercises = !app.lesson_exercises().is_empty();
    let cut_code = || {
        let width = crate::ui::layout::text_area(app.panes().card).width;
        app.card_view(width).code_overflow > 0
    };
    keymap::footer(app.key_context())
        .into_iter()
        .filter(|k| k.action != Action::OpenEditor || exercises)
        .filter(|k| k.action != Action::CodeRight || cut_code())
        // The tutor's key shows once one is configured (issue 31).
        .filter(|k| k.action != Action::TutorOpen || app.tutor.ready())
        .filter(|k| app.tutor.ready() || !app.tutor.open || k.action == Action::TutorEscape)
        .collect()
}

/// Draw the footer line.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let (right, left): (Vec<_>, Vec<_>) = entries(app)
        .into_iter()
        .partition(|k| PINNED.contains(&k.action));
    let right = spans(&app.theme, &right);
    let right_width: usize = right.iter().map(Span::width).sum();
    let room = usize::from(area.width).saturating_sub(right_width + 1);
    let mut line = vec![Span::raw(" ")];
    line.extend(spans(&app.theme, &fit(&left, room)));
    if fit(&left, room).len() < left.len() {
        line.push(Span::styled("…", app.theme.muted()));
    }
    Line::from(line).render(area, buf);
    let w = u16::try_from(right_width)
        .unwrap_or(area.width)
        .min(area.width);
    Line::from(right).render(Rect::new(area.right() - w, area.y, w, 1), buf);
}

/// Columns an entry takes: `keys text` and two spaces.
fn width(k: &FooterKey) -> usize {
    Span::raw(k.keys).width() + Span::raw(k.text).width() + 3
}

/// The entries that fit in `room` columns (after the line's leading space), in their order:
/// all of them if they fit; else, leaving room for the `…`, [`keymap::FOOTER_FIRST`] first and
/// then the others in table order, up to the first that does not fit.
pub fn fit(keys: &[FooterKey], room: usize) -> Vec<FooterKey> {
    let total: usize = 1 + keys.iter().map(width).sum::<usize>();
    if total <= room {
        return keys.to_vec();
    }
    let first = |i: &usize| keymap::FOOTER_FIRST.contains(&keys[*i].action);
    let by_need = (0..keys.len())
        .filter(first)
        .chain((0..keys.len()).filter(|i| !first(i)));
    // The leading space, and the `…` with a space after it.
    let mut used = 1 + 2;
    let mut kept = Vec::new();
    for i in by_need {
        if used + width(&keys[i]) > room {
            break;
        }
        used += width(&keys[i]);
        kept.push(i);
    }
    kept.sort_unstable();
    kept.into_iter().map(|i| keys[i]).collect()
}

/// `key text` spans for `keys`.
fn spans(theme: &Theme, keys: &[FooterKey]) -> Vec<Span<'static>> {
    keys.iter()
        .flat_map(|k| {
            [
                Span::styled(k.keys, theme.strong()),
                Span::styled(format!(" {}  ", k.text), theme.muted()),
            ]
        })
        .collect()
}
