//! The card that answers a prediction is withheld until the learner has predicted, or until a
//! run has put the figure on screen.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

use crate::app::panel_tests::sim_report;
use crate::app::{App, Cmd, Focus, Msg};
use crate::lesson::Catalog;
use crate::progress::Progress;
use crate::theme::Theme;
use crate::worker::WorkerEvent;

const LESSON: &str = r#"+++
id = "withheld"
title = "Withheld"
experiments = ["pageable-vs-pinned"]

[[quiz]]
id = "guess"
kind = "predict"
prompt = "How fast is a pinned upload?"
metric = "pinned_h2d_gbps"
tolerance_pct = 20.0
explanation = "e"
card = "Predict"
answer_card = "Figures"
+++
# Predict

Guess first.
---
# Figures

The H200 measured fifty-five.
"#;

fn app() -> App {
    let files = [(
        "lessons/withheld.md".to_string(),
        LESSON.as_bytes().to_vec(),
    )];
    let catalog = Catalog::from_files(files);
    App::new(
        catalog,
        Theme::new(false),
        Progress::fresh(),
        Size::new(80, 24),
    )
}

fn key(app: &mut App, code: KeyCode) -> Vec<Cmd> {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn card_text(app: &App) -> String {
    let lines = app.card_lines(200);
    let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
    text.join("\n")
}

#[test]
fn the_answer_card_opens_once_the_learner_has_predicted() {
    let mut app = app();
    key(&mut app, KeyCode::Right);
    assert_eq!(app.nav.card, 1);
    let text = card_text(&app);
    assert!(!text.contains("fifty-five"), "{text}");
    assert!(
        text.contains("Predict first") && text.contains("pinned upload"),
        "{text}"
    );
    app.nav.focus = Focus::Quiz;
    key(&mut app, KeyCode::Enter);
    for c in "40".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    assert_eq!(key(&mut app, KeyCode::Enter), [Cmd::SaveProgress]);
    let text = card_text(&app);
    assert!(
        text.contains("fifty-five") && !text.contains("Predict first"),
        "{text}"
    );
}

#[test]
fn a_run_without_a_prediction_opens_the_answer_card_too() {
    let mut app = app();
    key(&mut app, KeyCode::Right);
    assert!(card_text(&app).contains("Predict first"));
    let run_id = match &key(&mut app, KeyCode::Char('r'))[..] {
        [Cmd::RunExperiment { run_id, .. }] => *run_id,
        other => panic!("expected a run, got {other:?}"),
    };
    let result = Ok(sim_report("pageable-vs-pinned"));
    app.update(Msg::Worker(WorkerEvent::Done { run_id, result }));
    let text = card_text(&app);
    assert!(text.contains("fifty-five"), "{text}");
}
