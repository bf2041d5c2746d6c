//! The quick-check's rules through `update`: a retry is practice and never raises the score,
//! `N` finds what to review, and each learner's shuffled options still grade by content.

use ratatui::layout::Size;

use super::tests::{app, letter_for, press};
use super::*;
use crate::progress::score::Mark;

#[test]
fn a_retry_is_practice_and_never_raises_the_score() {
    let mut app = app();
    press(&mut app, "Tab");
    let (wrong, right) = (letter_for(&app, 0), letter_for(&app, 1));
    press(&mut app, &wrong);
    assert_eq!(app.mark(), Mark::Wrong);
    assert_eq!(
        press(&mut app, "Enter"),
        [],
        "Enter on an answer starts a retry, no save"
    );
    assert!(!app.revealed());
    // Move the cursor onto the right option and answer it.
    let pos = usize::from(right.as_bytes()[0] - b'a');
    app.quiz.cursor = pos;
    assert_eq!(press(&mut app, "Enter"), [Cmd::SaveProgress]);
    let record = app.record().unwrap();
    assert_eq!(record.count(), 2);
    assert_eq!(app.latest_choice(), Some(1), "the practice answer is kept");
    assert_eq!(
        (app.stats(0).quiz_right, app.stats(0).quiz_answered),
        (0, 1)
    );
    assert_eq!(app.stats(0).score_text(), "quiz 0/2");
    // A letter on an answered question is practice too.
    press(&mut app, &right);
    assert_eq!(app.record().unwrap().count(), 3);
    assert_eq!(app.stats(0).quiz_right, 0);
}

#[test]
fn n_shift_jumps_to_the_next_question_missed_or_open() {
    let mut app = app();
    press(&mut app, "Tab");
    let right = letter_for(&app, 1);
    press(&mut app, &right);
    press(&mut app, "N");
    assert_eq!(app.quiz.question, 1, "the open one");
    let wrong = letter_for(&app, 0);
    press(&mut app, &wrong);
    press(&mut app, "N");
    assert_eq!(
        app.quiz.question, 1,
        "the missed one, itself (the first was right)"
    );
    let marks: Vec<&str> = app.question_marks(0).iter().map(|m| m.glyph()).collect();
    assert_eq!(marks, ["✓", "✗"]);
    // Nothing left to review in a lesson answered right.
    let mut app = self::app();
    press(&mut app, "Tab");
    let right = letter_for(&app, 1);
    press(&mut app, &format!("{right} n"));
    let right = letter_for(&app, 1);
    press(&mut app, &format!("{right} N"));
    assert!(
        app.quiz
            .notice
            .as_deref()
            .unwrap()
            .contains("nothing to review")
    );
}

#[test]
fn the_options_are_shuffled_per_learner_and_letters_map_back_to_the_file() {
    let with_seed = |seed| {
        let progress = Progress {
            seed: Some(seed),
            ..Progress::default()
        };
        App::new(
            fixture::sample_catalog(),
            Theme::new(false),
            progress,
            Size::new(80, 24),
        )
    };
    let orders: std::collections::BTreeSet<Vec<usize>> =
        (0..40).map(|s| with_seed(s).option_order()).collect();
    assert!(
        orders.len() > 5,
        "40 learners, only {} orders",
        orders.len()
    );
    // Whatever the order, the right option's letter scores.
    for seed in 0..10 {
        let mut app = with_seed(seed);
        press(&mut app, "Tab");
        let right = letter_for(&app, 1);
        press(&mut app, &right);
        assert_eq!(app.stats(0).quiz_right, 1, "seed {seed}");
    }
}

#[test]
fn a_letter_without_an_option_does_what_it_does_elsewhere() {
    let mut app = app();
    // Lesson 2's second question is a prediction: `c` still compares (nothing to compare yet).
    press(&mut app, "2 Tab n c");
    assert!(app.record().is_none(), "no answer recorded");
    let message = app
        .panel
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(message.contains("no timeline yet"), "{message}");
}

/// Issue 18: after a lesson reset the first try stays the score, the answer is a retake, and
/// the options are ordered by the reset's own seed.
#[test]
fn a_retake_after_a_reset_is_labelled_and_never_changes_the_score() {
    let mut app = app();
    press(&mut app, "Tab");
    let wrong = letter_for(&app, 0);
    press(&mut app, &wrong);
    assert_eq!(app.stats(0).score_text(), "quiz 0/2");
    let _ = app.reset(Reset::Lesson(0));
    assert_eq!(app.stats(0).resets, 1);
    assert_eq!(
        (app.stats(0).quiz_right, app.stats(0).quiz_answered),
        (0, 1)
    );
    // The options come in the order of the reset's seed.
    let key = app.catalog.entries[0].key().to_string();
    let lesson = &app.progress.lessons[&key];
    let seed = app.progress.seed() ^ lesson.reset_seed.unwrap();
    let q = app.question().unwrap();
    let expected = crate::progress::shuffle::order(seed, &key, &q.id, q.choices.len());
    assert_eq!(app.option_order(), expected);
    // The retake answers right: labelled so, and the score stays the first try's.
    app.nav.focus = Focus::Quiz;
    app.quiz.question = 0;
    let right = letter_for(&app, 1);
    press(&mut app, &right);
    assert_eq!(app.stats(0).quiz_right, 0, "a retake never scores");
    let text: Vec<String> = crate::ui::quiz::lines(&app, 200)
        .iter()
        .map(ToString::to_string)
        .collect();
    let text = text.join("\n");
    assert!(
        text.contains("retake: ✓ right") && text.contains("not scored"),
        "{text}"
    );
    assert!(
        text.contains("scored (first try, before the reset): ✗"),
        "{text}"
    );
}
