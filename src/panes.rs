//! Where each pane goes, as a pure function of the terminal size and the focus. It sits below
//! both `app` and `ui` (issue 20: layers point down): the view draws into these panes and the app
//! uses the same ones to clamp scrolling and route mouse wheels, so the two agree on sizes
//! without the app importing the view. `ui::layout` is this module.
//!
//! Code reads as code: from 140 columns on, the card pane is [`CODE_CARD_WIDTH`] wide, so an
//! 80-column code block (and the lesson 4 chunking diagram) never wraps.
//!
//! Very wide (200+ columns): lesson list | card | then three columns or panel above quiz, as
//! below. A quiz with no question to offer yet keeps only the rows (or, side by side, the
//! columns) its note needs, under the panel from 140 columns on. Wide (182+ body columns): card | panel | quiz. Code-wide (140+): card | panel above
//! quiz. Below 140: the card across the width on top (at least half the rows, more with the
//! focus, fewer when its text is shorter), then panel and quiz side by side. (A card column beside the panel below 140 columns
//! was narrower than a code block, which then wrapped: review 2026-12-01 at 100-120 columns.) The status bar (which backend runs experiments)
//! sits above the footer on every layout.

use ratatui::layout::{Constraint, Layout, Rect, Size};

/// Which pane takes the keys (the app's navigation state holds it; the layout gives the focused
/// pane the larger share where panes are stacked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// The card pane (Up/Down scroll).
    Cards,
    /// The experiment panel (Up/Down scroll its results).
    Panel,
    /// The quiz pane (Up/Down move among options).
    Quiz,
    /// The lesson list (a sidebar, or an overlay on narrow terminals).
    Lessons,
}

/// Smallest terminal the layout works in; below it a "too small" message shows instead.
pub const MIN_WIDTH: u16 = 60;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 16;
/// From this width on the lesson list is a sidebar.
pub const SIDEBAR_FROM: u16 = 200;
/// A card pane this wide shows an 80-column code block unwrapped: 80 columns of code, the
/// 2-column `▎ ` gutter, and the pane's border and padding (4).
pub const CODE_CARD_WIDTH: u16 = 86;
/// From this body width on the card is [`CODE_CARD_WIDTH`] wide, beside panel and quiz.
pub const CODE_WIDTH_FROM: u16 = 140;
/// The narrowest panel column beside the card and the quiz: a timeline needs room.
const MIN_PANEL_COLUMN: u16 = 60;
/// The quiz column's width range in the three-column layout.
const QUIZ_COLUMN: (u16, u16) = (36, 48);
/// From this body width on card, panel and quiz are three columns.
pub const THREE_COLUMNS_FROM: u16 = CODE_CARD_WIDTH + MIN_PANEL_COLUMN + QUIZ_COLUMN.0;
const SIDEBAR_WIDTH: u16 = 36;
/// Where the card is stacked above panel and quiz (narrow), the least share of the rows it
/// keeps, in percent, when another pane has the focus.
pub const CARD_SHARE_MIN: u16 = 50;
/// The card's share of the rows, in percent, when it has the focus (narrow).
const CARD_SHARE_FOCUSED: u16 = 60;
/// The fewest rows a short card shrinks to (its frame and three lines).
const MIN_CARD_ROWS: u16 = 5;
/// The narrowest an idle quiz's column gets beside the panel (below 140 columns).
const IDLE_QUIZ_MIN_WIDTH: u16 = 22;

/// The screen's areas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panes {
    /// The breadcrumb line.
    pub header: Rect,
    /// Zero height when there is no banner.
    pub banners: Rect,
    /// The lesson list, when there is room for it beside the card.
    pub sidebar: Option<Rect>,
    /// The card pane.
    pub card: Rect,
    /// The experiment panel.
    pub panel: Rect,
    /// The quiz pane.
    pub quiz: Rect,
    /// The status bar (backend, run state).
    pub status: Rect,
    /// The keys line.
    pub footer: Rect,
}

/// Whether `size` is below the minimum.
pub fn too_small(size: Size) -> bool {
    size.width < MIN_WIDTH || size.height < MIN_HEIGHT
}

/// The panes for a screen of `area`, with `banners` lines of banners (at most a quarter of the
/// screen), `focus` taking the larger share where panes are stacked, or all of the body when
/// `zoomed` (the other panes are empty rectangles, drawn as nothing). The card keeps its whole
/// share of the rows, however short its text: [`panes_fitting`] gives the spare ones away.
pub fn panes(area: Rect, banners: usize, focus: Focus, zoomed: bool) -> Panes {
    panes_fitting(area, banners, focus, zoomed, &|_| usize::MAX, None)
}

/// [`panes`] for a card whose text takes `card_lines(width)` lines at a text width of `width`:
/// where the card is stacked above the panel, a short card gives the rows it does not fill to
/// the panel and the quiz (review 2026-12-01b: at 120x40 lesson 4's comparison needed `z`
/// while the card above it had four empty rows). `idle_quiz`, when the quiz has no question to
/// offer yet, gives the lines its note takes at a text width: the quiz then keeps only those
/// rows (or, side by side with the panel, a narrower column) and the panel gets the rest
/// (at 200x60 it took 25 rows to say "no question yet").
pub fn panes_fitting(
    area: Rect,
    banners: usize,
    focus: Focus,
    zoomed: bool,
    card_lines: &dyn Fn(u16) -> usize,
    idle_quiz: Option<&dyn Fn(u16) -> usize>,
) -> Panes {
    let banner_rows = u16::try_from(banners).unwrap_or(0).min(area.height / 4);
    let [header, banners, body, status, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(banner_rows),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let (sidebar, main) = if area.width >= SIDEBAR_FROM {
        let [side, main] =
            Layout::horizontal([Constraint::Length(SIDEBAR_WIDTH), Constraint::Fill(1)])
                .areas(body);
        (Some(side), main)
    } else {
        (None, body)
    };
    let [card, panel, quiz] = match (zoomed, focus) {
        (true, Focus::Cards) => [main, Rect::default(), Rect::default()],
        (true, Focus::Panel) => [Rect::default(), main, Rect::default()],
        (true, Focus::Quiz) => [Rect::default(), Rect::default(), main],
        _ => body_panes(main, focus, card_lines, idle_quiz),
    };
    Panes {
        header,
        banners,
        sidebar,
        card,
        panel,
        quiz,
        status,
        footer,
    }
}

/// Card, panel and quiz inside `main`.
fn body_panes(
    main: Rect,
    focus: Focus,
    card_lines: &dyn Fn(u16) -> usize,
    idle_quiz: Option<&dyn Fn(u16) -> usize>,
) -> [Rect; 3] {
    // An idle quiz takes no column of its own: it goes under the panel, as from 140 columns.
    if main.width >= THREE_COLUMNS_FROM && idle_quiz.is_none() {
        let room = main.width - CODE_CARD_WIDTH - MIN_PANEL_COLUMN;
        let quiz = (main.width / 4)
            .clamp(QUIZ_COLUMN.0, QUIZ_COLUMN.1)
            .min(room);
        return Layout::horizontal([
            Constraint::Length(CODE_CARD_WIDTH),
            Constraint::Fill(1),
            Constraint::Length(quiz),
        ])
        .areas(main);
    }
    if main.width >= CODE_WIDTH_FROM {
        let card = Constraint::Length(CODE_CARD_WIDTH);
        let [card, right] = Layout::horizontal([card, Constraint::Fill(1)]).areas(main);
        let quiz_share = if focus == Focus::Quiz { 55 } else { 38 };
        let [panel, quiz] = Layout::vertical([
            Constraint::Percentage(100 - quiz_share),
            Constraint::Percentage(quiz_share),
        ])
        .areas(right);
        if let Some(lines) = idle_quiz {
            // Only the rows the note fills (and its frame), never more than its share.
            let rows = lines(right.width.saturating_sub(4)).saturating_add(2);
            let rows = u16::try_from(rows)
                .unwrap_or(u16::MAX)
                .max(3)
                .min(quiz.height);
            let [panel, quiz] =
                Layout::vertical([Constraint::Fill(1), Constraint::Length(rows)]).areas(right);
            return [card, panel, quiz];
        }
        return [card, panel, quiz];
    }
    // The card is what the learner reads: it keeps half the rows (fewer only when its text is
    // shorter) whatever has the focus (at 80x24 a quarter was 3 lines of text); the card pane
    // with the focus gets more.
    let card_share = if focus == Focus::Cards {
        CARD_SHARE_FOCUSED
    } else {
        CARD_SHARE_MIN
    };
    let card_rows = (u32::from(main.height) * u32::from(card_share)).div_ceil(100);
    let card_rows = u16::try_from(card_rows).unwrap_or(main.height);
    // A card shorter than its share keeps only the rows its text fills (and its frame).
    let needed = card_lines(main.width.saturating_sub(4)).saturating_add(2);
    let needed = u16::try_from(needed).unwrap_or(u16::MAX).max(MIN_CARD_ROWS);
    let card_rows = card_rows.min(needed);
    let [card, bottom] =
        Layout::vertical([Constraint::Length(card_rows), Constraint::Fill(1)]).areas(main);
    // The focused one of the two gets the wider half; an idle quiz a narrow column, when its
    // note still fits the rows there.
    let quiz_width = if focus == Focus::Quiz {
        bottom.width * 11 / 20
    } else {
        bottom.width * 2 / 5
    };
    let narrow = (bottom.width / 4).max(IDLE_QUIZ_MIN_WIDTH).min(quiz_width);
    let quiz_width = match idle_quiz {
        Some(lines) if lines(narrow.saturating_sub(4)) + 2 <= usize::from(bottom.height) => narrow,
        _ => quiz_width,
    };
    let [panel, quiz] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Length(quiz_width)]).areas(bottom);
    [card, panel, quiz]
}

/// The text area inside a bordered pane: one cell of border, one column of padding each side.
pub fn text_area(pane: Rect) -> Rect {
    Rect {
        x: pane.x.saturating_add(2),
        y: pane.y.saturating_add(1),
        width: pane.width.saturating_sub(4),
        height: pane.height.saturating_sub(2),
    }
}

/// A box of at most `width` x `height` centred in `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampled_sizes_give_panes_inside_the_screen() {
        // Each layout's edges, and a stride through the rest.
        let edges = [
            MIN_WIDTH,
            CODE_WIDTH_FROM,
            THREE_COLUMNS_FROM,
            SIDEBAR_FROM,
            SIDEBAR_FROM + THREE_COLUMNS_FROM - SIDEBAR_WIDTH,
        ];
        let widths = edges
            .iter()
            .flat_map(|&e| [e - 1, e])
            .chain((0..400).step_by(17));
        for w in widths {
            for h in [0u16, 1, 5, 16, 24, 60] {
                let area = Rect::new(0, 0, w, h);
                let p = panes(area, 3, Focus::Quiz, false);
                for r in [
                    p.header, p.banners, p.card, p.panel, p.quiz, p.status, p.footer,
                ] {
                    assert!(area.contains(r.as_position()) || r.area() == 0, "{w}x{h}");
                    assert!(r.right() <= w && r.bottom() <= h, "{w}x{h}: {r:?}");
                }
            }
        }
    }

    #[test]
    fn code_gets_eighty_columns_from_140_on() {
        // The card's text area holds the gutter and 80 columns of code.
        let code_area = usize::from(CODE_CARD_WIDTH) - 4;
        assert_eq!(code_area, 80 + "▎ ".chars().count());
        for w in [140, 160, 181, 182, 199, 200, 240, 300] {
            for focus in [Focus::Cards, Focus::Panel, Focus::Quiz] {
                let p = panes(Rect::new(0, 0, w, 48), 0, focus, false);
                assert!(text_area(p.card).width >= CODE_CARD_WIDTH - 4, "{w}: {p:?}");
                assert!(p.panel.width >= 50 && p.quiz.width >= 36, "{w}: {p:?}");
            }
        }
        // Below 140 the card spans the screen: code fits from 86 columns on.
        for w in [86, 100, 120, 139] {
            for focus in [Focus::Cards, Focus::Panel, Focus::Quiz] {
                let p = panes(Rect::new(0, 0, w, 40), 0, focus, false);
                assert!(text_area(p.card).width >= CODE_CARD_WIDTH - 4, "{w}: {p:?}");
            }
        }
    }

    #[test]
    fn the_card_keeps_half_the_rows_whatever_has_the_focus() {
        // Review 2026-12-01: at 80x24 the card shrank to 3 lines of text when the quiz or the
        // panel had the focus.
        for (w, h) in [(60, 16), (80, 24), (100, 30), (120, 40), (139, 50)] {
            for banners in [0, 2] {
                for focus in [Focus::Cards, Focus::Panel, Focus::Quiz, Focus::Lessons] {
                    let p = panes(Rect::new(0, 0, w, h), banners, focus, false);
                    let body = p.status.y - p.banners.bottom();
                    assert!(
                        p.card.height * 2 >= body,
                        "{w}x{h} {focus:?}: card {} of {body} rows",
                        p.card.height
                    );
                    assert!(p.panel.height > 0 && p.quiz.height > 0, "{w}x{h}");
                }
            }
        }
    }

    #[test]
    fn a_short_card_gives_its_spare_rows_to_the_panel() {
        for (w, h) in [(60, 20), (80, 24), (120, 40), (139, 50)] {
            for focus in [Focus::Cards, Focus::Panel, Focus::Quiz] {
                let area = Rect::new(0, 0, w, h);
                let full = panes(area, 0, focus, false);
                let short = panes_fitting(
                    area,
                    0,
                    focus,
                    false,
                    &|width| {
                        assert_eq!(width, w - 4, "measured at the card's text width");
                        4
                    },
                    None,
                );
                assert_eq!(
                    short.card.height, 6,
                    "{w}x{h} {focus:?}: four lines and a frame"
                );
                assert_eq!(short.panel.y, short.card.bottom(), "{w}x{h}");
                assert_eq!(
                    short.panel.height,
                    full.panel.height + full.card.height - 6,
                    "{w}x{h} {focus:?}"
                );
                // A long card keeps its share; an empty one keeps three lines.
                let long = panes_fitting(area, 0, focus, false, &|_| 500, None);
                assert_eq!(long, full, "{w}x{h}");
                let empty = panes_fitting(area, 0, focus, false, &|_| 0, None);
                assert_eq!(empty.card.height, MIN_CARD_ROWS, "{w}x{h}");
            }
        }
        // Side by side (140 columns on) the card's length changes nothing.
        let area = Rect::new(0, 0, 160, 48);
        assert_eq!(
            panes_fitting(area, 0, Focus::Panel, false, &|_| 1, None),
            panes(area, 0, Focus::Panel, false)
        );
    }

    #[test]
    fn a_quiz_with_nothing_to_ask_gives_its_room_to_the_panel() {
        let long_card = |_: u16| 500;
        let note = |width: u16| if width >= 60 { 2 } else { 4 };
        for (w, h) in [
            (60, 20),
            (80, 24),
            (120, 40),
            (160, 48),
            (200, 60),
            (240, 60),
        ] {
            let area = Rect::new(0, 0, w, h);
            let asking = panes_fitting(area, 0, Focus::Cards, false, &long_card, None);
            let idle = panes_fitting(area, 0, Focus::Cards, false, &long_card, Some(&note));
            assert_eq!(idle.card, asking.card, "{w}x{h}: the card keeps its place");
            let room = |p: &Panes| u32::from(p.panel.width) * u32::from(p.panel.height);
            assert!(room(&idle) > room(&asking), "{w}x{h}: {idle:?}");
            // The note still shows whole.
            let text = text_area(idle.quiz);
            assert!(
                usize::from(text.height) >= note(text.width),
                "{w}x{h}: {:?}",
                idle.quiz
            );
            if w >= CODE_WIDTH_FROM + 20 {
                // Under the panel, with its frame: the rows the note fills and no more.
                assert_eq!(idle.quiz.height, 4, "{w}x{h}");
                assert_eq!(idle.quiz.y, idle.panel.bottom(), "{w}x{h}");
            }
        }
    }

    #[test]
    fn layout_adapts_to_width() {
        let huge = panes(Rect::new(0, 0, 220, 60), 0, Focus::Cards, false);
        assert!(huge.sidebar.is_some() && huge.card.x < huge.panel.x && huge.panel.x < huge.quiz.x);
        let wide = panes(Rect::new(0, 0, 190, 48), 0, Focus::Cards, false);
        assert!(wide.sidebar.is_none() && wide.card.x < wide.panel.x && wide.panel.x < wide.quiz.x);
        let code_wide = panes(Rect::new(0, 0, 160, 48), 0, Focus::Cards, false);
        assert!(code_wide.panel.x > code_wide.card.x && code_wide.quiz.y > code_wide.panel.y);
        let medium = panes(Rect::new(0, 0, 120, 40), 0, Focus::Cards, false);
        assert!(medium.panel.y > medium.card.y && medium.quiz.y == medium.panel.y);
        let narrow = panes(Rect::new(0, 0, 80, 24), 0, Focus::Quiz, false);
        assert!(narrow.panel.y > narrow.card.y && narrow.quiz.y == narrow.panel.y);
        let reading = panes(Rect::new(0, 0, 80, 24), 0, Focus::Cards, false);
        assert!(
            reading.card.height > narrow.card.height,
            "the focused card is taller"
        );
        // The quiz sits beside the panel's timeline, on the same rows, at every size.
        for p in [wide, narrow] {
            assert!(p.quiz.y < p.panel.bottom() && p.panel.y < p.quiz.bottom());
        }
    }

    #[test]
    fn a_zoomed_pane_fills_the_body_and_the_others_are_empty() {
        for (w, h) in [(80, 24), (120, 40), (220, 60)] {
            let area = Rect::new(0, 0, w, h);
            let normal = panes(area, 0, Focus::Panel, false);
            let zoomed = panes(area, 0, Focus::Panel, true);
            assert!(zoomed.panel.area() > normal.panel.area(), "{w}x{h}");
            assert!(zoomed.card.is_empty() && zoomed.quiz.is_empty(), "{w}x{h}");
            // Header, status and footer stay; the sidebar too, where there is one.
            assert_eq!(zoomed.header, normal.header);
            assert_eq!(zoomed.footer, normal.footer);
            assert_eq!(zoomed.sidebar, normal.sidebar);
            let quiz = panes(area, 0, Focus::Quiz, true);
            assert!(quiz.panel.is_empty() && quiz.quiz == zoomed.panel);
            // The lesson list has no pane to fill: the layout stays as it is.
            assert_eq!(
                panes(area, 0, Focus::Lessons, true),
                panes(area, 0, Focus::Lessons, false)
            );
        }
    }
}
