//! The editor's checks on a real GPU, through the experiment worker that also runs the
//! experiments (one CUDA context): `cargo test --release --features gpu-tests --test it
//! editor::gpu -- --test-threads=1`.

use cuda_academy::app::Msg;
use cuda_academy::app::editor::Stage;
use cuda_academy::cli::BackendChoice;
use cuda_academy::exercise::{HazardKind, catalog};
use cuda_academy::report::OpKind;
use cuda_academy::tui::exercise_store as editor_store;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::Harness;

fn on_gpu() -> Harness {
    Harness::on(BackendChoice::Gpu, tempfile::tempdir().unwrap())
}

/// Put `text` in the open exercise's file as another editor would; the tick reloads it (the
/// editor held no unsaved text), and Ctrl-R checks it. (An outside change is loaded, not
/// checked: only the learner's own editor's save, Ctrl-E, is checked at once. This helper was
/// written when every reload checked, and waited for a check that no longer starts.)
fn save_outside(h: &mut Harness, id: &str, text: &str) {
    let dir = h.shell.state_dir.clone().unwrap();
    let path = editor_store::file_for(&dir, id);
    std::fs::write(&path, text).unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1))
        .unwrap();
    h.send(Msg::Tick);
    assert_eq!(
        h.editor().text().unwrap(),
        cuda_academy::app::editor::normal(text),
        "the outside save is picked up"
    );
    h.check();
}

#[test]
fn after_an_experiment_the_race_is_drawn_and_the_solution_passes_on_the_same_worker() {
    let mut h = on_gpu();
    h.typed("3");
    h.typed("r");
    h.wait_until(|app| !app.panel.is_running());
    assert!(h.app.report().is_some(), "the experiment ran on the GPU");
    h.open_first();
    h.check();
    let ed = h.editor();
    let verdict = ed.verdict.as_ref().unwrap();
    assert!(!verdict.passed);
    assert!(
        verdict
            .hazards
            .iter()
            .any(|x| x.kind == HazardKind::ReadBeforeSync)
    );
    let timeline = ed.timeline().expect("a CUPTI timeline");
    let op = timeline.marks[0].op.expect("placed on the copy back");
    assert_eq!(timeline.view.run.ops[op].kind, OpKind::D2h);
    let solution = catalog::find("fix-the-race").unwrap().solution;
    save_outside(&mut h, "fix-the-race", solution);
    let verdict = h.editor().verdict.clone().unwrap();
    assert!(verdict.passed, "{:?}", verdict.checks);
}

#[test]
fn esc_cancels_a_check_on_the_gpu() {
    let mut h = on_gpu();
    h.typed("3");
    h.open_first();
    for _ in 0..5 {
        h.key(KeyCode::Down, KeyModifiers::NONE);
    }
    h.typed("for (long long i = 0; i < 1000000000000; i++) { }\n");
    h.f(5);
    h.wait_until(|app| {
        let ed = app.exercises.editor.as_ref().unwrap();
        ed.checking
            .as_ref()
            .is_some_and(|c| c.stage == Stage::Running)
    });
    h.esc();
    h.wait_until(|app| app.exercises.editor.as_ref().unwrap().checking.is_none());
    assert!(h.editor().cancelled);
    // The worker goes on: the next check runs.
    h.alt('x');
    h.typed("y");
    h.check();
    assert!(h.editor().verdict.is_some());
}
