//! Navigation on its own: actions on the fixture catalog, with no app and no terminal.

use super::*;
use crate::app::fixture::sample_catalog;
use crate::progress::LessonProgress;

fn ctx<'a>(catalog: &'a Catalog, progress: &'a Progress, sidebar: bool) -> NavContext<'a> {
    NavContext {
        catalog,
        progress,
        sidebar,
    }
}

#[test]
fn cards_run_across_lesson_boundaries_and_stop_at_the_ends() {
    let (catalog, progress) = (sample_catalog(), Progress::default());
    let ctx = ctx(&catalog, &progress, true);
    let mut nav = NavState::default();
    assert_eq!(
        nav.update(NavAction::PrevCard, &ctx),
        NavEffect::None,
        "nothing before"
    );
    let first = ctx.card_count(0);
    for _ in 1..first {
        assert_eq!(
            nav.update(NavAction::NextCard, &ctx),
            NavEffect::Opened { new_lesson: false }
        );
    }
    assert_eq!((nav.lesson, nav.card), (0, first - 1));
    nav.card_scroll = 5;
    let into_next = nav.update(NavAction::NextCard, &ctx);
    assert_eq!(into_next, NavEffect::Opened { new_lesson: true });
    assert_eq!(
        (nav.lesson, nav.card, nav.card_scroll, nav.list_selected),
        (1, 0, 0, 1)
    );
    nav.update(NavAction::PrevCard, &ctx);
    assert_eq!(
        (nav.lesson, nav.card),
        (0, first - 1),
        "back to the last card"
    );
    let last = catalog.len() - 1;
    nav.update(
        NavAction::Open {
            lesson: last,
            card: 99,
        },
        &ctx,
    );
    assert_eq!(
        (nav.lesson, nav.card),
        (last, ctx.card_count(last) - 1),
        "clamped"
    );
    assert_eq!(
        nav.update(NavAction::NextCard, &ctx),
        NavEffect::None,
        "nothing after"
    );
}

#[test]
fn a_jump_resumes_where_the_lesson_was_left_and_closes_the_list_overlay() {
    let catalog = sample_catalog();
    let mut progress = Progress::default();
    let second = catalog.entries[1].key().to_string();
    let left_at = LessonProgress {
        card: 1,
        ..LessonProgress::default()
    };
    progress.lessons.insert(second, left_at);
    let mut nav = NavState::default();
    nav.update(NavAction::ToggleLessons, &ctx(&catalog, &progress, false));
    assert_eq!(nav.focus, Focus::Lessons);
    nav.update(NavAction::JumpLesson(1), &ctx(&catalog, &progress, false));
    assert_eq!((nav.lesson, nav.card, nav.focus), (1, 1, Focus::Cards));
    // With a sidebar the list keeps the focus.
    let sidebar = ctx(&catalog, &progress, true);
    nav.update(NavAction::ToggleLessons, &sidebar);
    nav.update(NavAction::JumpLesson(0), &sidebar);
    assert_eq!((nav.lesson, nav.focus), (0, Focus::Lessons));
    assert_eq!(
        nav.update(NavAction::JumpLesson(99), &sidebar),
        NavEffect::None
    );
}

#[test]
fn the_list_selection_stays_in_the_catalog_and_enter_opens_it() {
    let (catalog, progress) = (sample_catalog(), Progress::default());
    let ctx = ctx(&catalog, &progress, true);
    let mut nav = NavState::default();
    nav.update(NavAction::CycleFocus { forward: false }, &ctx);
    assert_eq!(nav.focus, Focus::Lessons, "Shift-Tab from the cards");
    nav.update(NavAction::MoveSelection(-3), &ctx);
    assert_eq!(nav.list_selected, 0);
    nav.update(NavAction::MoveSelection(40), &ctx);
    assert_eq!(nav.list_selected, catalog.len() - 1);
    let effect = nav.update(NavAction::OpenSelected, &ctx);
    assert_eq!(effect, NavEffect::Opened { new_lesson: true });
    assert_eq!((nav.lesson, nav.focus), (catalog.len() - 1, Focus::Cards));
    assert_eq!(
        nav.update(NavAction::Close, &ctx),
        NavEffect::Unhandled,
        "Esc is the app's"
    );
    nav.update(NavAction::ToggleLessons, &ctx);
    assert_eq!(nav.update(NavAction::Close, &ctx), NavEffect::None);
    assert_eq!(nav.focus, Focus::Cards, "Esc leaves the list");
}

#[test]
fn tab_cycles_only_through_the_panes_on_screen() {
    // Review 2026-12-01b: below 200 columns Tab passed through the hidden lesson list.
    let (catalog, progress) = (sample_catalog(), Progress::default());
    for (sidebar, cycle) in [
        (false, vec![Focus::Quiz, Focus::Panel, Focus::Cards]),
        (
            true,
            vec![Focus::Quiz, Focus::Panel, Focus::Lessons, Focus::Cards],
        ),
    ] {
        let ctx = ctx(&catalog, &progress, sidebar);
        let mut nav = NavState::default();
        let mut seen = Vec::new();
        for _ in 0..cycle.len() {
            nav.update(NavAction::CycleFocus { forward: true }, &ctx);
            seen.push(nav.focus);
        }
        assert_eq!(seen, cycle, "forward, sidebar {sidebar}");
        let mut back = Vec::new();
        for _ in 0..cycle.len() {
            nav.update(NavAction::CycleFocus { forward: false }, &ctx);
            back.push(nav.focus);
        }
        let mut expected: Vec<Focus> = cycle.iter().rev().skip(1).copied().collect();
        expected.push(Focus::Cards);
        assert_eq!(back, expected, "backward, sidebar {sidebar}");
    }
}
