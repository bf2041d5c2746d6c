//! The exercise list: `w` lists the lesson's exercises (✓ passed, `edited`), Enter opens one,
//! `x` resets the selected one after a y/n, Esc closes.

use cuda_academy::exercise::catalog;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::{FIRST, harness};

#[test]
fn w_lists_the_lessons_exercises_and_esc_closes_it() {
    let mut h = harness();
    h.typed("w");
    let picker = h.app.exercises.picker.as_ref().expect("w opens the list");
    assert_eq!(picker.ids, h.app.lesson_exercises());
    assert_eq!(picker.selected_id(), Some(FIRST));
    let screen = h.screen(80, 24);
    for id in &picker.ids {
        assert!(screen.contains(id.as_str()), "{screen}");
    }
    h.esc();
    assert!(!h.app.picker_open());
    assert!(!h.app.editor_open());
}

#[test]
fn enter_opens_the_selected_exercise() {
    let mut h = harness();
    h.typed("w");
    h.key(KeyCode::Down, KeyModifiers::NONE);
    h.key(KeyCode::Down, KeyModifiers::NONE);
    h.typed("k"); // one row, both directions: k and ↑ go up
    let second = h.app.lesson_exercises()[1].clone();
    h.enter();
    assert!(!h.app.picker_open());
    assert_eq!(h.editor().id, second);
}

/// Open the first exercise, change it, leave: its file is now edited.
fn edited_first() -> super::Harness {
    let mut h = harness();
    h.open_first();
    h.typed("// mine\n");
    h.esc();
    h.typed("w");
    let edited = h.app.exercises.picker.as_ref().unwrap().edited.clone();
    assert!(edited.unwrap().contains(FIRST));
    assert!(h.screen(80, 24).contains("edited"));
    h
}

#[test]
fn x_then_n_keeps_the_learners_file() {
    let mut h = edited_first();
    h.typed("x");
    assert!(
        h.screen(80, 24)
            .contains("Reset “time-a-copy” to its starter?")
    );
    h.typed("n");
    assert!(h.file().starts_with("// mine"));
    assert!(h.app.picker_open(), "back in the list");
}

#[test]
fn x_then_y_puts_the_starter_back() {
    let mut h = edited_first();
    h.typed("x");
    h.typed("y");
    assert_eq!(h.file(), catalog::find(FIRST).unwrap().starter);
    let picker = h.app.exercises.picker.as_ref().unwrap();
    assert!(!picker.edited.as_ref().unwrap().contains(FIRST));
    assert!(!h.screen(80, 24).contains("edited"));
}
