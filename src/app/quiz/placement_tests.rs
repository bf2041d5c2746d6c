//! The quiz offers a question only once its card has been reached (`lesson::placement`), and
//! says which card brings the first one while none is offered.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

use crate::app::{App, Msg};
use crate::lesson::Catalog;
use crate::progress::Progress;
use crate::theme::Theme;

const LESSON: &str = r#"+++
id = "placed"
title = "Placed"

[[quiz]]
id = "first"
prompt = "First?"
choices = ["yes", "no"]
answer = 0
explanation = "e"
card = "Two"

[[quiz]]
id = "second"
prompt = "Second?"
choices = ["yes", "no"]
answer = 0
explanation = "e"
card = "Three"
+++
# One
---
# Two
---
# Three
"#;

fn app() -> App {
    let files = [("lessons/placed.md".to_string(), LESSON.as_bytes().to_vec())];
    let catalog = Catalog::from_files(files);
    App::new(
        catalog,
        Theme::new(false),
        Progress::default(),
        Size::new(80, 24),
    )
}

fn press(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

#[test]
fn a_question_is_offered_once_its_card_is_reached() {
    let mut app = app();
    assert_eq!(app.questions().len(), 0, "card One teaches no question");
    assert!(app.question().is_none());
    let waiting = app.quiz_waiting().unwrap_or_default();
    assert!(waiting.contains("\"Two\""), "{waiting}");
    press(&mut app, KeyCode::Right);
    assert_eq!(app.questions().len(), 1);
    assert!(app.quiz_waiting().is_none());
    // `n` cannot reach the question of a card not read yet.
    app.nav.focus = crate::app::Focus::Quiz;
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.quiz.question, 0);
    // Back on card One, the card reached stays reached.
    app.nav.focus = crate::app::Focus::Cards;
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Left);
    assert_eq!((app.nav.card, app.questions().len()), (0, 2));
    app.nav.focus = crate::app::Focus::Quiz;
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.quiz.question, 1);
}
