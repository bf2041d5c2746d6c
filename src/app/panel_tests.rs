//! `update` for the experiment panel: run, cancel, worker events, timeline keys, export, the
//! parameter form (grading predictions: `predict_tests`), with reports from real runs on the simulator.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

use super::*;
use crate::experiment::{self, ExperimentOptions, RunContext};
use crate::gpu::detect;
use crate::report::Report;
use crate::worker::WorkerEvent;

fn app() -> App {
    App::new(
        fixture::sample_catalog(),
        Theme::new(false),
        Progress::default(),
        Size::new(80, 24),
    )
}

fn press(app: &mut App, keys: &str) -> Vec<Cmd> {
    keys.split_whitespace()
        .flat_map(|k| {
            let code = match k {
                "Esc" => KeyCode::Esc,
                "Enter" => KeyCode::Enter,
                "Down" => KeyCode::Down,
                "Up" => KeyCode::Up,
                "Right" => KeyCode::Right,
                "Left" => KeyCode::Left,
                "Tab" => KeyCode::Tab,
                t => KeyCode::Char(t.chars().next().unwrap()),
            };
            app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
        })
        .collect()
}

/// A real run of `id` on the simulator, small.
pub(crate) fn sim_report(id: &str) -> Box<Report> {
    let mut gpu = detect::open_sim(None, "test".into()).unwrap();
    let opts = ExperimentOptions {
        size: Some(4 << 20),
        ..ExperimentOptions::default()
    };
    Box::new(experiment::run(id, gpu.as_mut(), &opts, &RunContext::silent()).unwrap())
}

fn run_id(cmds: &[Cmd]) -> u64 {
    match cmds {
        [Cmd::RunExperiment { run_id, .. }] => *run_id,
        other => panic!("expected one run command, got {other:?}"),
    }
}

fn done(app: &mut App, run_id: u64, report: Box<Report>) -> Vec<Cmd> {
    app.update(Msg::Worker(WorkerEvent::Done {
        run_id,
        result: Ok(report),
    }))
}

#[test]
fn r_runs_the_lessons_experiment_once_and_esc_cancels_it() {
    let mut app = app();
    let focus = app.nav.focus;
    let cmds = press(&mut app, "r");
    assert_eq!(app.nav.focus, focus, "r leaves the focus where it was");
    match &cmds[..] {
        [Cmd::RunExperiment { experiment, .. }] => assert_eq!(experiment, "pageable-vs-pinned"),
        other => panic!("{other:?}"),
    }
    assert!(app.panel.is_running());
    assert!(press(&mut app, "r").is_empty(), "one run at a time");
    assert!(
        app.panel
            .message
            .as_ref()
            .unwrap()
            .text
            .contains("Esc cancels")
    );
    // An overlay takes Esc first; the run goes on.
    press(&mut app, "?");
    assert!(press(&mut app, "Esc").is_empty());
    assert!(app.overlays.dialog.is_none() && app.panel.is_running());
    assert_eq!(press(&mut app, "Esc"), [Cmd::CancelRun]);
    assert!(app.panel.running.as_ref().unwrap().cancelling);
}

#[test]
fn four_then_r_runs_the_pipeline_in_the_real_lessons() {
    let mut app = App::new(
        Catalog::embedded(),
        Theme::new(false),
        Progress::default(),
        Size::new(80, 24),
    );
    match &press(&mut app, "4 r")[..] {
        [Cmd::RunExperiment { experiment, .. }] => assert_eq!(experiment, "pipeline"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_report_shows_its_timeline_and_a_stale_one_is_ignored() {
    let mut app = app();
    let id = run_id(&press(&mut app, "3 r"));
    let phase = WorkerEvent::Phase {
        run_id: id,
        text: "pinned H2D 4 MiB".into(),
    };
    app.update(Msg::Worker(phase));
    assert_eq!(
        app.panel.running.as_ref().unwrap().phase,
        "pinned H2D 4 MiB"
    );
    done(&mut app, id + 7, sim_report("async-copy"));
    assert!(
        app.panel.is_running(),
        "another run's result is not this one's"
    );
    done(&mut app, id, sim_report("async-copy"));
    assert!(!app.panel.is_running());
    assert_eq!(app.panel_view(), PanelView::Timeline);
    assert!(app.timeline().is_some());
    // `s` shows the other experiment of lesson 3, which has not run.
    press(&mut app, "s");
    assert_eq!(app.experiment(), Some("default-stream"));
    assert!(app.report().is_none() && app.timeline().is_none());
}

#[test]
fn timeline_keys_reach_the_timeline_only_when_there_is_one() {
    let mut app = app();
    press(&mut app, "3 ]");
    assert!(app.timeline().is_none());
    let said = &app.panel.message.as_ref().unwrap().text;
    assert!(
        said.contains("no timeline to select from") && said.contains("press r"),
        "{said}"
    );
    let id = run_id(&press(&mut app, "r"));
    done(&mut app, id, sim_report("async-copy"));
    press(&mut app, "v");
    assert_eq!(app.panel_view(), PanelView::Results);
    let before = app.timeline().unwrap().scale;
    press(&mut app, "] ]");
    assert_eq!(
        app.panel_view(),
        PanelView::Timeline,
        "a timeline key shows it"
    );
    let details = app.timeline().unwrap().details().unwrap();
    assert!(!details.summary().is_empty());
    press(&mut app, "+");
    let after = app.timeline().unwrap().scale;
    assert!(after.end_us - after.start_us < before.end_us - before.start_us);
    press(&mut app, "- < >");
    press(&mut app, "m");
    assert_ne!(
        app.timeline().unwrap().mode,
        crate::timeline::ViewMode::Streams
    );
}

#[test]
fn export_asks_the_shell_and_shows_the_path_or_why_not() {
    let mut app = app();
    assert!(press(&mut app, "e").is_empty());
    assert!(app.panel.message.as_ref().unwrap().error);
    let id = run_id(&press(&mut app, "r"));
    done(&mut app, id, sim_report("pageable-vs-pinned"));
    match &press(&mut app, "e")[..] {
        [Cmd::ExportTrace(report)] => assert_eq!(report.experiment, "pageable-vs-pinned"),
        other => panic!("{other:?}"),
    }
    let path = std::path::PathBuf::from("cuda-academy-pageable-vs-pinned-20261129-180931.json");
    app.update(Msg::Exported(Ok(path)));
    let msg = app.panel.message.clone().unwrap();
    assert!(!msg.error && msg.text.contains("cuda-academy-pageable-vs-pinned-2026"));
    app.update(Msg::Exported(Err("permission denied".into())));
    let msg = app.panel.message.clone().unwrap();
    assert!(msg.error && msg.text.contains("permission denied"));
}

#[test]
fn the_parameter_form_sets_options_and_enter_runs_with_them() {
    let mut app = App::new(
        Catalog::embedded(),
        Theme::new(false),
        Progress::default(),
        Size::new(80, 24),
    );
    press(&mut app, "4 o");
    assert!(matches!(app.overlays.dialog, Some(Overlay::Params(_))));
    // Typing: digits do not jump to lessons while the form is open.
    press(&mut app, "3 x");
    assert!(press(&mut app, "Enter").is_empty(), "`3x` is not a size");
    assert!(app.overlays.params().unwrap().error.is_some());
    assert_eq!(app.nav.lesson, 3);
    let form = app.overlays.params_mut().unwrap();
    form.typed.clear();
    press(&mut app, "8 M Down Right Right Down Right");
    let cmds = press(&mut app, "Enter");
    assert!(app.overlays.dialog.is_none());
    match &cmds[..] {
        [
            Cmd::RunExperiment {
                experiment,
                options,
                ..
            },
        ] => {
            assert_eq!(experiment, "pipeline");
            assert_eq!(options.size, Some(8 << 20));
            assert_eq!((options.streams, options.chunks), (Some(2), Some(1)));
        }
        other => panic!("{other:?}"),
    }
    // Esc keeps the values without running.
    let id = app.panel.last_run_id;
    done(&mut app, id, sim_report("pipeline"));
    press(&mut app, "o Left");
    assert!(press(&mut app, "Esc").is_empty());
    assert!(app.overlays.dialog.is_none());
    assert_eq!(app.panel.options["pipeline"].size, Some(4 << 20));
}

#[test]
fn a_failed_run_says_why_and_the_app_goes_on() {
    let mut app = app();
    let id = run_id(&press(&mut app, "r"));
    let result = Err("out of memory: pick a smaller --size".to_string());
    app.update(Msg::Worker(WorkerEvent::Done { run_id: id, result }));
    let outcome = &app.panel.outcomes["pageable-vs-pinned"];
    assert!(outcome.error.as_ref().unwrap().contains("out of memory"));
    assert!(!app.panel.is_running());
    assert_eq!(run_id(&press(&mut app, "r")), id + 1, "r works again");
    press(&mut app, "Right");
    assert_eq!(app.nav.card, 1, "Left/Right still move between cards");
}

#[test]
fn the_backend_event_replaces_detecting() {
    let mut app = app();
    assert_eq!(app.panel.backend, BackendState::Detecting);
    let gpu = detect::open_sim(None, "--backend sim".into()).unwrap();
    app.update(Msg::Worker(WorkerEvent::Backend(Ok(gpu.info().clone()))));
    let text = crate::ui::status::backend_text(&app);
    assert!(text.starts_with("Simulated: profile h200"), "{text}");
    app.update(Msg::Worker(WorkerEvent::Backend(Err("no driver".into()))));
    assert!(crate::ui::status::backend_text(&app).contains("no driver"));
}

#[test]
fn a_second_run_is_compared_with_the_first_on_one_scale() {
    let mut app = app();
    press(&mut app, "3 s");
    let id = run_id(&press(&mut app, "r"));
    done(&mut app, id, sim_report("default-stream"));
    let view = app.timeline().unwrap();
    assert_eq!(
        view.previous.as_ref().map(|p| p.name.as_str()),
        Some("two non-blocking streams"),
        "legacy vs non-blocking, same scale"
    );
    let id = run_id(&press(&mut app, "r"));
    done(&mut app, id, sim_report("default-stream"));
    let outcome = &app.panel.outcomes["default-stream"];
    assert_eq!(outcome.compare(None), Compare::Previous);
    press(&mut app, "c");
    assert_eq!(
        app.panel.outcomes["default-stream"].compare(None),
        Compare::Nothing
    );
    assert!(app.timeline().unwrap().previous.is_none());
}

#[test]
fn r_runs_even_while_a_prediction_is_typed() {
    let mut app = app();
    press(&mut app, "2 Tab n Enter");
    assert!(app.quiz.input.is_some(), "the prediction field is open");
    press(&mut app, "4");
    assert_eq!(app.nav.lesson, 1, "digits type into the field");
    let cmds = press(&mut app, "r");
    assert!(matches!(&cmds[..], [Cmd::RunExperiment { .. }]), "{cmds:?}");
    assert_eq!(app.quiz.input.as_deref(), Some("4"), "the field stays open");
}

#[test]
fn a_cancelled_run_is_not_a_failure() {
    let mut app = app();
    let id = run_id(&press(&mut app, "r"));
    press(&mut app, "Esc");
    let result = Err("the experiment was cancelled".to_string());
    app.update(Msg::Worker(WorkerEvent::Done { run_id: id, result }));
    assert!(
        app.panel
            .outcomes
            .get("pageable-vs-pinned")
            .is_none_or(|o| o.error.is_none())
    );
    let msg = app.panel.message.clone().unwrap();
    assert!(!msg.error && msg.text.contains("cancelled"));
}

#[test]
fn a_click_on_the_panel_focuses_it_and_the_wheel_scrolls_its_results() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut app = app();
    let id = run_id(&press(&mut app, "3 r"));
    done(&mut app, id, sim_report("async-copy"));
    press(&mut app, "v");
    assert_eq!(app.panel_view(), PanelView::Results);
    app.update(Msg::Resize(80, 16));
    app.nav.focus = Focus::Cards;
    let panel = app.panes().panel;
    let mouse = |kind| MouseEvent {
        kind,
        column: panel.x + 2,
        row: panel.y + 2,
        modifiers: KeyModifiers::NONE,
    };
    app.update(Msg::Mouse(mouse(MouseEventKind::Down(MouseButton::Left))));
    assert_eq!(app.nav.focus, Focus::Panel);
    let panel = app.panes().panel;
    let mouse = |kind| MouseEvent {
        kind,
        column: panel.x + 2,
        row: panel.y + 2,
        modifiers: KeyModifiers::NONE,
    };
    app.update(Msg::Mouse(mouse(MouseEventKind::ScrollDown)));
    assert!(app.panel.scroll > 0, "the results scroll under the pointer");
    press(&mut app, "k k k k");
    assert_eq!(app.panel.scroll, 0, "Up scrolls back in the focused panel");
}

#[test]
fn c_and_s_say_so_when_there_is_nothing_to_compare_or_switch_to() {
    let mut app = app();
    press(&mut app, "s");
    let said = app.panel.message.as_ref().unwrap().text.clone();
    assert!(said.contains("one experiment"), "{said}");
    let id = run_id(&press(&mut app, "r"));
    done(&mut app, id, sim_report("pageable-vs-pinned"));
    press(&mut app, "c");
    let said = app.panel.message.as_ref().unwrap().text.clone();
    assert!(said.contains("nothing to compare with yet"), "{said}");
    let id = run_id(&press(&mut app, "r"));
    done(&mut app, id, sim_report("pageable-vs-pinned"));
    press(&mut app, "c");
    let said = app.panel.message.as_ref().unwrap().text.clone();
    assert!(said.contains("comparison off"), "{said}");
    press(&mut app, "c");
    let said = app.panel.message.as_ref().unwrap().text.clone();
    assert!(said.contains("comparing with previous run"), "{said}");
}

#[test]
fn right_on_an_auto_size_goes_above_the_experiments_default() {
    let mut app = app();
    press(&mut app, "o Right");
    let form = app.overlays.params().unwrap();
    let default = crate::experiment::registry::find(&form.experiment)
        .unwrap()
        .default_size;
    assert!(
        form.options.size.unwrap() > default,
        "{:?}",
        form.options.size
    );
    press(&mut app, "Left Left");
    let form = app.overlays.params().unwrap();
    assert!(
        form.options.size.unwrap() < default,
        "{:?}",
        form.options.size
    );
}

#[test]
fn a_second_run_keeps_the_view_the_learner_chose() {
    let mut app = app();
    let id = run_id(&press(&mut app, "r"));
    done(&mut app, id, sim_report("pageable-vs-pinned"));
    assert_eq!(
        app.panel_view(),
        PanelView::Chart,
        "the first run opens on its chart"
    );
    press(&mut app, "v");
    let chosen = app.panel_view();
    assert_ne!(chosen, PanelView::Chart);
    let id = run_id(&press(&mut app, "r"));
    done(&mut app, id, sim_report("pageable-vs-pinned"));
    assert_eq!(app.panel_view(), chosen);
}

/// Lesson 4's panel follows the card (issue 19): a card cued `breadth-first` shows the best
/// breadth-first run against the best per-chunk run, one cued `by-stage` the best by-stage run
/// against it, any other card the default comparison; `c` on a cued card holds for cards with
/// the same cue only.
#[test]
fn lesson_four_s_panel_follows_the_card_cue() {
    use crate::experiment::options::IssueOrder;
    use crate::lesson::PanelCue;
    let catalog = Catalog::embedded();
    let lesson = catalog.entries[3].lesson().unwrap();
    let card_with = |cue: Option<PanelCue>| {
        lesson
            .cards
            .iter()
            .position(|c| c.panel_cue() == cue)
            .unwrap_or_else(|| panic!("lesson 4 has no card with {cue:?}"))
    };
    let breadth = card_with(Some(PanelCue::Layout(IssueOrder::BreadthFirst)));
    let by_stage = card_with(Some(PanelCue::Layout(IssueOrder::ByStage)));
    let plain = card_with(None);
    let mut app = App::new(
        catalog.clone(),
        Theme::new(false),
        Progress::default(),
        Size::new(120, 40),
    );
    press(&mut app, "4");
    let id = run_id(&press(&mut app, "r"));
    done(&mut app, id, sim_report("pipeline"));
    let names = |app: &App| {
        let view = app.timeline().unwrap();
        (
            view.run.name.clone(),
            view.previous.map(|p| p.name).unwrap_or_default(),
        )
    };
    let at = |app: &mut App, card: usize| {
        app.nav.card = card;
        names(app)
    };
    let (below, above) = at(&mut app, breadth);
    assert!(below.starts_with("breadth-first, "), "{below}");
    assert!(above.starts_with("per-chunk, "), "{above}");
    // The same chunks: only the issue order differs.
    let shape = |name: &str| name.rsplit(" · ").next().unwrap_or_default().to_string();
    assert_eq!(shape(&below), shape(&above));
    let (below, above) = at(&mut app, by_stage);
    assert!(below.starts_with("by-stage, "), "{below}");
    assert!(above.starts_with("per-chunk, "), "{above}");
    // A card without a cue: the best run (headline) against the best of the other layouts.
    let (below, _) = at(&mut app, plain);
    assert!(below.starts_with("best: "), "{below}");
    // `c` on the breadth-first card chooses another comparison, which holds there only.
    at(&mut app, breadth);
    press(&mut app, "c");
    let chosen = names(&app);
    assert_ne!(chosen.0.split(',').next(), Some("breadth-first"));
    assert!(at(&mut app, plain).0.starts_with("best: "));
    assert_eq!(at(&mut app, breadth), chosen);
}
