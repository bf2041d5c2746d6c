//! Predict, then measure, driven through `update`: which run grades a prediction (the first
//! with default parameters), the frozen grade that survives a relaunch, the values lesson text
//! quotes, and the prediction field's refusals.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

use super::panel_tests::sim_report;
use super::*;
use crate::experiment::ExperimentOptions;
use crate::report::Report;
use crate::worker::WorkerEvent;

fn app_with(progress: Progress) -> App {
    App::new(
        fixture::sample_catalog(),
        Theme::new(false),
        progress,
        Size::new(80, 24),
    )
}

fn press(app: &mut App, keys: &str) -> Vec<Cmd> {
    keys.split_whitespace()
        .flat_map(|k| {
            let code = match k {
                "Enter" => KeyCode::Enter,
                "Esc" => KeyCode::Esc,
                "Tab" => KeyCode::Tab,
                "Backspace" => KeyCode::Backspace,
                t => KeyCode::Char(t.chars().next().unwrap()),
            };
            app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
        })
        .collect()
}

/// Run the lesson's experiment (with whatever options are set) and complete it with `report`.
fn run_with(app: &mut App, report: Box<Report>) -> Vec<Cmd> {
    let run_id = match &press(app, "r")[..] {
        [Cmd::RunExperiment { run_id, .. }] => *run_id,
        other => panic!("expected a run, got {other:?}"),
    };
    app.update(Msg::Worker(WorkerEvent::Done {
        run_id,
        result: Ok(report),
    }))
}

/// Type `value` as the prediction of lesson 3's predict question ("done", copy_done_us_pageable).
fn predict(app: &mut App, value: &str) {
    press(app, "3");
    app.nav.focus = Focus::Quiz;
    press(app, "Enter");
    for c in value.chars() {
        press(app, &c.to_string());
    }
    assert_eq!(
        press(app, "Enter"),
        [Cmd::SaveProgress],
        "{:?}",
        app.quiz.input_error
    );
}

fn quiz_text(app: &App) -> String {
    let lines = crate::ui::quiz::lines(app, 200);
    lines
        .iter()
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join("\n")
        .replace('\u{a0}', " ")
}

fn card_text(app: &App) -> String {
    app.card_lines(200)
        .iter()
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join("\n")
        .replace('\u{a0}', " ")
}

fn odd_options() -> ExperimentOptions {
    ExperimentOptions {
        size: Some(4 << 20),
        ..ExperimentOptions::default()
    }
}

#[test]
fn only_a_default_run_grades_and_the_grade_is_frozen_and_survives_a_relaunch() {
    let mut app = app_with(Progress::fresh());
    let report = sim_report("async-copy");
    let measured = report.metrics["copy_done_us_pageable"].value;
    predict(&mut app, &format!("{}", (measured * 1.2).round()));
    // A run with other parameters does not grade it.
    app.panel.options.insert("async-copy".into(), odd_options());
    assert_eq!(run_with(&mut app, report.clone()), []);
    assert_eq!(app.mark(), crate::progress::score::Mark::Pending);
    // The default run does, and saves.
    app.panel.options.clear();
    assert_eq!(run_with(&mut app, report.clone()), [Cmd::SaveProgress]);
    assert_eq!(
        app.mark(),
        crate::progress::score::Mark::Right,
        "20% off, 40% allowed"
    );
    let (_, grade) = app.record().unwrap().graded().unwrap();
    assert_eq!(grade.measured, measured);
    assert_eq!(grade.run.backend, crate::report::BackendKind::Simulated);
    assert_eq!(grade.run.params, report.params);
    // A later run, default or not, measuring something else does not re-grade it.
    let mut far = report.clone();
    far.metrics.get_mut("copy_done_us_pageable").unwrap().value = measured * 10.0;
    run_with(&mut app, far.clone());
    app.panel.options.insert("async-copy".into(), odd_options());
    run_with(&mut app, far);
    assert_eq!(app.record().unwrap().graded().unwrap().1.measured, measured);
    // Enter does not reopen a graded prediction.
    press(&mut app, "Enter");
    assert_eq!(app.quiz.input, None);
    assert!(app.quiz.notice.as_deref().unwrap().contains("final"));
    // After a relaunch, the grade still says what was predicted and measured, and how far.
    let relaunched = app_with(app.progress.clone());
    let mut relaunched = relaunched;
    press(&mut relaunched, "3 Tab");
    let text = quiz_text(&relaunched);
    assert!(text.contains("✓ Close enough"), "{text}");
    assert!(
        text.contains("you predicted") && text.contains("measured"),
        "{text}"
    );
    assert!(
        text.contains("(default parameters); off by a factor of 1.2"),
        "{text}"
    );
    assert_eq!(relaunched.stats(2).score_text(), "prediction 1/1");
}

#[test]
fn a_far_prediction_is_graded_off_with_its_distance() {
    let mut app = app_with(Progress::fresh());
    let report = sim_report("async-copy");
    let measured = report.metrics["copy_done_us_pageable"].value;
    predict(&mut app, &format!("{}", (measured * 3.0).round()));
    run_with(&mut app, report);
    assert_eq!(app.mark(), crate::progress::score::Mark::Wrong);
    let text = quiz_text(&app);
    assert!(
        text.contains("✗ Off") && text.contains("off by a factor of 3.00. Within a factor of"),
        "{text}"
    );
}

#[test]
fn cards_quote_the_default_run_or_name_the_odd_parameters() {
    let mut app = app_with(Progress::fresh());
    press(&mut app, "3");
    assert!(card_text(&app).contains(crate::markdown::METRIC_INVITATION));
    let report = sim_report("async-copy");
    app.panel.options.insert("async-copy".into(), odd_options());
    run_with(&mut app, report.clone());
    let odd = app.metric_text("copy_done_us_pageable").unwrap();
    assert!(odd.ends_with(" (size 4 MiB)"), "{odd}");
    assert!(card_text(&app).contains(&odd));
    // A default run takes over, and persists: a relaunch still quotes it.
    app.panel.options.clear();
    let mut default = report.clone();
    default
        .metrics
        .get_mut("copy_done_us_pageable")
        .unwrap()
        .value = 1234.0;
    run_with(&mut app, default);
    assert_eq!(app.metric_text("copy_done_us_pageable").unwrap(), "1.23 ms");
    // A later odd run does not replace the default run's value in the cards.
    app.panel.options.insert("async-copy".into(), odd_options());
    run_with(&mut app, report);
    assert_eq!(app.metric_text("copy_done_us_pageable").unwrap(), "1.23 ms");
    let mut relaunched = app_with(app.progress.clone());
    press(&mut relaunched, "3");
    assert!(card_text(&relaunched).contains("1.23 ms"));
}

#[test]
fn the_field_shows_the_unit_refuses_impossible_values_and_forgets_stale_errors() {
    let mut app = app_with(Progress::fresh());
    press(&mut app, "3 Tab Enter");
    assert!(quiz_text(&app).contains("▏"));
    assert!(quiz_text(&app).contains(" µs"), "{}", quiz_text(&app));
    press(&mut app, "- 5 Enter");
    let err = app.quiz.input_error.clone().unwrap();
    assert!(err.contains("a time is more than 0"), "{err}");
    assert!(app.record().is_none(), "refused, not saved");
    press(&mut app, "Backspace");
    assert_eq!(
        app.quiz.input_error, None,
        "a stale error goes when the input changes"
    );
    press(&mut app, "Backspace 0 Enter");
    assert!(app.quiz.input_error.is_some(), "zero is refused too");
}

#[test]
fn the_results_view_shows_the_prediction_next_to_the_measured_value() {
    let mut app = app_with(Progress::fresh());
    predict(&mut app, "900");
    let shown = app.with_prediction("copy_done_us_pageable", "812 µs".to_string());
    assert_eq!(shown, "812 µs  (you predicted 900 µs)");
    assert_eq!(
        app.with_prediction("copy_done_us_pinned", "5 µs".into()),
        "5 µs"
    );
}

#[test]
fn a_prediction_typed_with_the_value_on_screen_says_so() {
    let mut app = app_with(Progress::fresh());
    let report = sim_report("async-copy");
    let measured = report.metrics["copy_done_us_pageable"].value;
    // Typed before any run: no such remark.
    predict(&mut app, &format!("{}", measured.round()));
    run_with(&mut app, report.clone());
    assert!(!quiz_text(&app).contains("after a run had shown"));
    // Typed with the value already quoted: graded, and said so.
    let mut app = app_with(Progress::fresh());
    press(&mut app, "3");
    run_with(&mut app, report.clone());
    predict(&mut app, &format!("{}", measured.round()));
    run_with(&mut app, report);
    let text = quiz_text(&app);
    assert!(
        text.contains("You typed it after a run had") && text.contains("shown, not scored."),
        "{text}"
    );
    // Issue 18: shown with its grade, but it does not count in the score.
    assert_ne!(app.mark(), crate::progress::score::Mark::Right);
}
