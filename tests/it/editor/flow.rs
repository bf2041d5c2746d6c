//! Key scripts of the editor: open from the list, type, check on the worker, hazards on the
//! timeline, Esc cancels a check, a check queued behind a run, files kept.

use std::collections::BTreeSet;
use std::sync::Arc;

use cuda_academy::app::editor::{SharedVerdict, Stage};
use cuda_academy::app::{Cmd, ExerciseMsg, Msg};
use cuda_academy::exercise::{HazardKind, Verdict, catalog};
use cuda_academy::tui::exercise_store as editor_store;
use cuda_academy::worker::WorkerEvent;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::{FIRST, Harness, harness};

#[test]
fn open_type_check_and_leave() {
    let mut h = harness();
    h.open_first();
    assert_eq!(h.editor().id, FIRST, "w, Enter opens the first exercise");
    assert_eq!(
        h.file(),
        catalog::find(FIRST).unwrap().starter,
        "created from the starter"
    );
    // Letters now edit the file (no lesson keys): `q` does not quit.
    h.typed("// q mine\n");
    assert!(h.app.editor_open());
    h.check();
    assert!(
        h.file().starts_with("// q mine\n// Lesson 1"),
        "saved before the check"
    );
    let ed = h.editor();
    let verdict = ed.verdict.as_ref().expect("a verdict after Ctrl-R");
    assert!(!verdict.passed, "the starter does not pass");
    assert_eq!(ed.failed_checks, 1);
    assert!(
        h.screen(80, 24).contains("not yet"),
        "the verdict is on screen"
    );
    h.esc();
    assert!(!h.app.editor_open(), "Esc leaves the editor");
    assert!(h.file().starts_with("// q mine"));
}

#[test]
fn a_race_is_drawn_on_the_timeline_at_the_copy_it_races_with() {
    let mut h = harness();
    h.app.update(Msg::Resize(160, 48));
    h.typed("3"); // lesson 3: fix-the-race first
    h.open_first();
    assert_eq!(h.editor().id, "fix-the-race");
    h.check();
    let ed = h.editor();
    let verdict = ed.verdict.as_ref().unwrap();
    let race = verdict
        .hazards
        .iter()
        .find(|x| x.kind == HazardKind::ReadBeforeSync)
        .expect("the starter reads h_out too early");
    let other = race.other_line.expect("it races with a line");
    let timeline = ed.timeline().expect("the program's timeline");
    let mark = timeline.marks.iter().find(|m| m.line == race.line).unwrap();
    let op = mark.op.expect("placed on an op");
    // The op it races with is the copy back (the D2H the starter issues on that line).
    assert_eq!(
        timeline.view.run.ops[op].kind,
        cuda_academy::report::OpKind::D2h
    );
    let label = format!("read-before-sync L{} ↔ L{other}", race.line);
    let screen = h.screen(160, 48);
    assert!(screen.contains(&label), "{screen}");
    assert!(screen.contains("Timeline"), "{screen}");
    // The gutter marks the access and the op line.
    let gutter = |n: u32| {
        screen
            .lines()
            .any(|l| l.contains(&format!("▲{n:>3} ")) || l.contains(&format!("▲ {n:>3} ")))
    };
    assert!(gutter(race.line) && gutter(other), "{screen}");
}

/// A program whose loop runs until the step budget: long enough to cancel.
const LONG_LOOP: &str = "for (long long i = 0; i < 1000000000000; i++) { }\n";

#[test]
fn esc_cancels_a_running_check_and_a_second_esc_leaves() {
    let mut h = harness();
    h.typed("3");
    h.open_first();
    for _ in 0..5 {
        h.key(KeyCode::Down, KeyModifiers::NONE);
    }
    h.typed(LONG_LOOP);
    h.f(5);
    h.wait_until(|app| {
        app.exercises
            .editor
            .as_ref()
            .unwrap()
            .checking
            .as_ref()
            .unwrap()
            .stage
            == Stage::Running
    });
    assert!(h.screen(80, 24).contains("checking… Esc cancels"));
    let cmds = h.esc();
    assert!(cmds.is_empty());
    assert!(
        h.app.editor_open(),
        "the first Esc cancels, it does not leave"
    );
    assert_eq!(
        h.editor().checking.as_ref().unwrap().stage,
        Stage::Cancelling
    );
    h.wait_until(|app| app.exercises.editor.as_ref().unwrap().checking.is_none());
    let ed = h.editor();
    assert!(ed.cancelled, "the worker stopped it");
    assert!(ed.verdict.is_none());
    assert_eq!(ed.failed_checks, 0, "a cancelled check is not a failed one");
    assert!(h.screen(80, 24).contains("check cancelled"));
    h.esc();
    assert!(!h.app.editor_open());
    assert!(h.file_of("fix-the-race").contains("1000000000000"));
}

#[test]
fn a_check_waits_behind_a_run_and_a_run_behind_a_check() {
    let mut h = harness();
    h.typed("r"); // the lesson's experiment, on the worker
    assert!(h.app.panel.is_running());
    h.open_first();
    h.f(5);
    match &h.editor().checking.as_ref().unwrap().stage {
        Stage::Queued { behind } => assert!(behind.ends_with(" run"), "{behind}"),
        other => panic!("not queued: {other:?}"),
    }
    assert!(h.screen(80, 24).contains("queued behind the"));
    h.wait_until(|app| app.exercises.editor.as_ref().unwrap().checking.is_none());
    assert!(!h.app.panel.is_running(), "the run ended first");
    assert!(h.editor().verdict.is_some());
    // And the other way round: a run started while a check is in flight waits for it.
    h.f(5);
    h.esc(); // cancels
    h.esc(); // leaves; the check's answer is still to come
    h.typed("r");
    let running = h.app.panel.running.as_ref().unwrap();
    assert_eq!(running.phase, "queued behind the exercise check");
    h.wait_until(|app| !app.panel.is_running());
}

#[test]
fn the_learners_file_survives_quit_and_relaunch() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    let mut h = Harness::new(dir);
    h.open_first();
    h.typed("// kept\n");
    let rest = h.ctrl('q');
    assert_eq!(rest, vec![Cmd::Quit], "the file is saved before the quit");
    assert!(h.file().starts_with("// kept\n"));
    // Relaunch: a new app on the same state folder opens the learner's text, not the starter.
    let dir = h._dir;
    let mut h2 = Harness::new(dir);
    assert_eq!(h2.shell.state_dir.as_deref(), Some(path.as_path()));
    h2.open_first();
    assert_eq!(h2.editor().text().unwrap().lines().next(), Some("// kept"));
}

#[test]
fn ctrl_x_asks_then_puts_the_starter_back() {
    let mut h = harness();
    h.open_first();
    h.typed("// gone\n");
    h.alt('x');
    h.typed("n");
    assert!(h.editor().text().unwrap().starts_with("// gone"));
    h.alt('x');
    h.typed("y");
    let starter = catalog::find(FIRST).unwrap().starter;
    assert_eq!(h.editor().text().unwrap(), starter);
    assert_eq!(h.file(), starter);
}

#[test]
fn hints_one_at_a_time_and_the_solution_after_three_checks_of_a_changed_file_and_a_yes() {
    let mut h = harness();
    h.open_first();
    let hints = catalog::find(FIRST).unwrap().hints.len();
    assert!(hints >= 1);
    for shown in 1..=hints + 1 {
        h.f(6);
        assert_eq!(h.editor().hints_shown, shown.min(hints));
    }
    assert!(h.screen(160, 48).contains("Hint 1 of"));
    h.f(7);
    assert!(!h.editor().show_solution, "locked before any check");
    // Three checks of the untouched starter unlock nothing.
    for _ in 0..3 {
        h.check();
    }
    h.f(7);
    assert!(
        !h.editor().show_solution,
        "the starter's checks do not count"
    );
    // Three checks of a changed file: Ctrl-G asks first; n keeps it hidden, y shows it.
    h.typed("// my try");
    h.enter();
    for _ in 0..3 {
        h.check();
    }
    h.f(7);
    assert!(!h.editor().show_solution, "asks before showing");
    assert!(h.screen(160, 48).contains("Show the solution?"));
    h.typed("n");
    assert!(!h.editor().show_solution);
    h.f(7);
    h.typed("y");
    assert!(h.editor().show_solution, "shown after the yes");
    assert!(h.screen(160, 48).contains("Solution"));
    // The view is recorded where the CLI reads it.
    let dir = h.shell.state_dir.clone().unwrap();
    let a = cuda_academy::exercise::attempts::of(&dir, FIRST).unwrap();
    assert!(a.solution_viewed);
    assert_eq!(a.changed_checks, 3);
}

#[test]
fn a_file_changed_by_another_editor_is_loaded_when_nothing_is_unsaved() {
    let mut h = harness();
    h.open_first();
    let dir = h.shell.state_dir.clone().unwrap();
    let path = editor_store::file_for(&dir, FIRST);
    std::fs::write(&path, "int main() { return 0; }\n").unwrap();
    h.send(Msg::Tick);
    assert_eq!(h.editor().text().unwrap(), "int main() { return 0; }\n");
    // Not checked: a change from another instance starts no check (two instances would
    // otherwise feed each other), and the learner is told.
    assert!(h.editor().checking.is_none() && h.editor().verdict.is_none());
    assert!(h.screen(120, 30).contains("changed outside and was loaded"));
}

#[test]
fn passes_recorded_show_in_the_lesson_list() {
    let mut h = harness();
    let mut passed = BTreeSet::new();
    passed.insert(FIRST.to_string());
    h.send(Msg::Exercise(ExerciseMsg::Passed(passed)));
    h.key(KeyCode::Char('L'), KeyModifiers::NONE);
    let screen = h.screen(160, 48);
    assert!(screen.contains("exercise 1/"), "{screen}");
}

#[test]
fn a_pass_that_arrives_after_leaving_the_editor_still_counts_and_is_recorded() {
    let mut h = harness();
    h.open_first();
    h.esc();
    let verdict = Verdict {
        passed: true,
        ..Default::default()
    };
    h.send(Msg::Worker(WorkerEvent::Checked {
        check_id: 1,
        id: FIRST.into(),
        verdict: SharedVerdict(Arc::new(verdict)),
        cancelled: false,
    }));
    assert!(h.app.exercises.passed.contains(FIRST));
    let dir = h.shell.state_dir.clone().unwrap();
    let saved = cuda_academy::exercise::state::load_passed(&dir).unwrap();
    assert!(saved.contains(FIRST), "the shell wrote the pass");
    // Now the list selects the lesson's next exercise, the one not passed yet.
    h.open_first();
    assert_ne!(h.editor().id, FIRST);
}
