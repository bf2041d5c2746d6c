//! The quiz on its own: actions on the fixture's lessons, effects out, with no app.

use ratatui::crossterm::event::KeyCode;

use super::*;
use crate::app::fixture::sample_catalog;
use crate::lesson::{Catalog, Lesson};
use crate::progress::LessonProgress;

fn lesson(catalog: &Catalog, idx: usize) -> &Lesson {
    catalog.entries[idx].lesson().unwrap()
}

fn ctx<'a>(lesson: &'a Lesson, progress: Option<&'a LessonProgress>) -> QuizContext<'a> {
    QuizContext {
        lesson: Some(lesson),
        progress,
        seed: 7,
        metric_shown: false,
    }
}

/// The prediction field's key for `c`, as the key table's `Ctx::Prediction` lines give it.
fn key(c: KeyCode) -> QuizAction {
    QuizAction::Input(match c {
        KeyCode::Enter => PredictionKey::Submit,
        KeyCode::Esc => PredictionKey::Cancel,
        KeyCode::Backspace => PredictionKey::Erase,
        KeyCode::Char(c) => PredictionKey::Type(c),
        other => panic!("not a key of the field: {other:?}"),
    })
}

#[test]
fn picking_the_right_letter_records_a_right_first_try_and_shows_the_verdict() {
    let catalog = sample_catalog();
    let first = lesson(&catalog, 0);
    let mut quiz = QuizState::for_lesson(0, &ctx(first, None));
    let order = ctx(first, None).option_order(0);
    let right = first.meta.quiz[0].answer.unwrap();
    let position = order.iter().position(|&i| i == right).unwrap();
    let QuizEffect::Record { question, attempt } =
        quiz.update(QuizAction::Pick(position), &ctx(first, None))
    else {
        panic!("a pick answers");
    };
    assert_eq!(
        (question.as_str(), attempt.choice, attempt.correct),
        ("staging", Some(right), Some(true))
    );
    assert!(!quiz.retrying && quiz.cursor == position);
    // Once stored, Enter on the answered question starts a retry instead of answering.
    let mut progress = LessonProgress::default();
    progress.answers.entry(question).or_default().push(*attempt);
    let answered = ctx(first, Some(&progress));
    assert!(quiz.revealed(&answered));
    assert_eq!(quiz.update(QuizAction::Answer, &answered), QuizEffect::None);
    assert!(quiz.retrying && !quiz.revealed(&answered));
}

#[test]
fn a_letter_past_the_options_goes_back_to_the_key_table() {
    let catalog = sample_catalog();
    let first = lesson(&catalog, 0);
    let mut quiz = QuizState::for_lesson(0, &ctx(first, None));
    let n = first.meta.quiz[0].choices.len();
    let effect = quiz.update(QuizAction::Pick(n), &ctx(first, None));
    assert_eq!(effect, QuizEffect::NotAnOption(char::from(b'a' + n as u8)));
}

#[test]
fn questions_move_within_the_lesson_and_review_finds_the_open_ones() {
    let catalog = sample_catalog();
    let first = lesson(&catalog, 0);
    let count = first.meta.quiz.len();
    let mut quiz = QuizState::for_lesson(0, &ctx(first, None));
    quiz.update(QuizAction::MoveQuestion(-1), &ctx(first, None));
    assert_eq!(quiz.question, 0);
    quiz.update(QuizAction::MoveQuestion(10), &ctx(first, None));
    assert_eq!(quiz.question, count - 1);
    quiz.update(QuizAction::NextToReview, &ctx(first, None));
    assert_eq!(quiz.question, 0, "wraps to the first open question");
    // With every question answered right, nothing is left to review.
    let mut progress = LessonProgress::default();
    for q in &first.meta.quiz {
        let attempt = Attempt::choice(q.answer.unwrap(), true, 1);
        progress
            .answers
            .entry(q.id.clone())
            .or_default()
            .push(attempt);
    }
    quiz.update(QuizAction::NextToReview, &ctx(first, Some(&progress)));
    assert!(
        quiz.notice
            .as_deref()
            .unwrap()
            .starts_with("nothing to review")
    );
}

#[test]
fn a_prediction_is_typed_refused_when_it_is_not_a_number_and_recorded_on_enter() {
    let catalog = sample_catalog();
    let second = lesson(&catalog, 1);
    let predict = second
        .meta
        .quiz
        .iter()
        .position(|q| q.kind == QuestionKind::Predict)
        .unwrap();
    let mut quiz = QuizState::for_lesson(1, &ctx(second, None));
    quiz.update(QuizAction::MoveQuestion(predict as i32), &ctx(second, None));
    quiz.update(QuizAction::Answer, &ctx(second, None));
    assert_eq!(quiz.input.as_deref(), Some(""), "Enter opens the field");
    for c in ['1', 'x', '2', '.', '5'] {
        quiz.update(key(KeyCode::Char(c)), &ctx(second, None));
    }
    assert_eq!(quiz.input.as_deref(), Some("12.5"), "letters are not typed");
    // `r` runs the experiment while the field is open: the table's line, not the field's.
    assert_eq!(
        crate::keymap::lookup(
            crate::keymap::Ctx::Prediction,
            &ratatui::crossterm::event::KeyEvent::from(KeyCode::Char('r'))
        ),
        Some(crate::keymap::Action::RunExperiment)
    );
    quiz.update(key(KeyCode::Char('-')), &ctx(second, None));
    quiz.update(key(KeyCode::Char('-')), &ctx(second, None));
    assert_eq!(
        quiz.update(key(KeyCode::Enter), &ctx(second, None)),
        QuizEffect::None
    );
    assert!(quiz.input_error.is_some(), "12.5-- is refused");
    quiz.update(key(KeyCode::Backspace), &ctx(second, None));
    quiz.update(key(KeyCode::Backspace), &ctx(second, None));
    let seen = QuizContext {
        metric_shown: true,
        ..ctx(second, None)
    };
    let QuizEffect::Record { attempt, .. } = quiz.update(key(KeyCode::Enter), &seen) else {
        panic!("12.5 is a prediction");
    };
    assert_eq!(
        (attempt.predicted, attempt.after_seeing),
        (Some(12.5), true)
    );
    assert_eq!(quiz.input, None, "the field closes");
}
