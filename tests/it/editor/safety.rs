//! The learner's code is never lost (issue 21; review K4, K5, K9, K11): two editors on one
//! exercise, a file changed outside while the editor holds unsaved text, a save that fails, a
//! file that is a FIFO or a link to /dev/zero.

use std::path::PathBuf;
use std::sync::mpsc::channel;
use std::time::Duration;

use cuda_academy::app::editor::DiffLine;
use cuda_academy::app::{Cmd, ExerciseMsg, Msg};
use cuda_academy::exercise::catalog;
use cuda_academy::tui::exercise_store as editor_store;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::{FIRST, Harness, harness};

/// Longest wait for a file operation that must not block (a hang is the failure).
const WATCHDOG: Duration = Duration::from_secs(60);

/// A second instance on `other`'s state folder.
fn sharing(other: &Harness) -> Harness {
    let mut h = harness();
    h.shell.state_dir = other.shell.state_dir.clone();
    h
}

fn path_of(h: &Harness) -> PathBuf {
    editor_store::file_for(h.shell.state_dir.as_ref().unwrap(), FIRST)
}

fn stamp(h: &Harness) -> Option<editor_store::Stamp> {
    editor_store::stamp(&path_of(h))
}

#[test]
fn a_second_instance_that_opens_and_leaves_does_not_touch_the_first_ones_typing() {
    // X16: B opens the exercise and leaves it unchanged; A's unsaved lines stay.
    let mut a = harness();
    a.open_first();
    a.typed("// typed in A\n// second line\n");
    let mut b = sharing(&a);
    let before = stamp(&a);
    b.open_first();
    b.esc();
    assert!(!b.app.editor_open());
    assert_eq!(stamp(&a), before, "leaving without a change writes nothing");
    a.send(Msg::Tick);
    let text = a.editor().text().unwrap();
    assert!(
        text.starts_with("// typed in A\n// second line\n"),
        "{text}"
    );
    assert!(a.editor().conflict.is_none());
}

#[test]
fn a_change_from_another_instance_is_offered_never_applied_over_unsaved_text() {
    let mut a = harness();
    a.open_first();
    a.typed("// mine\n");
    let mut b = sharing(&a);
    b.open_first();
    b.typed("// theirs\n");
    b.esc();
    assert!(!b.app.editor_open(), "B saved and left");
    assert!(a.file().starts_with("// theirs\n"));
    a.send(Msg::Tick);
    let ed = a.editor();
    assert!(ed.text().unwrap().starts_with("// mine\n"), "A's text kept");
    assert!(ed.conflict.is_some(), "the change is offered");
    let screen = a.screen(80, 24);
    assert!(screen.contains("The file changed outside"), "{screen}");
    assert!(
        screen.contains("Alt-K keep mine · Alt-L load theirs"),
        "{screen}"
    );
    // Typing goes on while the prompt is up (it appeared on its own); a save is refused
    // (never over their text).
    a.typed("x");
    assert!(a.editor().text().unwrap().starts_with("// mine\nx"));
    a.f(5);
    a.wait_until(|app| app.exercises.editor.as_ref().unwrap().checking.is_none());
    assert!(
        a.file().starts_with("// theirs\n"),
        "Ctrl-R did not write over theirs"
    );
    // Alt-C: the diff of the two texts.
    a.key(KeyCode::Char('c'), KeyModifiers::ALT);
    let diff = a.editor().conflict.as_ref().unwrap().diff.clone().unwrap();
    assert!(diff.contains(&DiffLine::Mine("// mine".into())), "{diff:?}");
    assert!(
        diff.contains(&DiffLine::Theirs("// theirs".into())),
        "{diff:?}"
    );
    let screen = a.screen(80, 24);
    assert!(screen.contains("- // mine"), "{screen}");
    assert!(screen.contains("+ // theirs"), "{screen}");
    a.esc();
    assert!(
        a.editor().conflict.as_ref().unwrap().diff.is_none(),
        "Esc closes the diff"
    );
    assert!(a.app.editor_open());
    // Alt-K: keep mine; leaving then saves it.
    a.key(KeyCode::Char('k'), KeyModifiers::ALT);
    assert!(a.editor().conflict.is_none());
    a.esc();
    assert!(!a.app.editor_open());
    assert!(a.file().starts_with("// mine\n"));
}

#[test]
fn load_theirs_takes_the_disk_text() {
    let mut a = harness();
    a.open_first();
    a.typed("// mine\n");
    std::fs::write(path_of(&a), "// theirs\n").unwrap();
    a.send(Msg::Tick);
    a.key(KeyCode::Char('l'), KeyModifiers::ALT);
    assert_eq!(a.editor().text().unwrap(), "// theirs\n");
    assert!(a.editor().conflict.is_none());
    assert!(!a.editor().dirty());
}

/// Review 2026-12-01b ED5: the prompt appears on its own, between two keys of what the
/// learner types. Plain letters (`l` of "float", `k`, `d`) are typed, never answers; Alt-L
/// loads theirs only after the editor's text went to a recovery file, which the banner names.
#[test]
fn the_prompt_takes_no_typing_and_load_theirs_keeps_a_copy() {
    let mut a = harness();
    a.open_first();
    a.typed("// my unsaved work\n");
    std::fs::write(path_of(&a), "// theirs\n").unwrap();
    a.send(Msg::Tick);
    assert!(a.editor().conflict.is_some(), "the change is offered");
    a.typed("    float k = d;");
    let text = a.editor().text().unwrap();
    assert!(
        text.starts_with("// my unsaved work\n    float k = d;"),
        "{text:?}"
    );
    assert!(
        a.editor().conflict.is_some(),
        "no letter answered the prompt"
    );
    a.key(KeyCode::Char('l'), KeyModifiers::ALT);
    assert_eq!(a.editor().text().unwrap(), "// theirs\n");
    let banner = a
        .app
        .overlays
        .banners
        .iter()
        .map(|b| b.text.clone())
        .find(|t| t.contains("before loading"))
        .expect("a banner names the copy");
    let copies: Vec<PathBuf> =
        std::fs::read_dir(a.shell.state_dir.clone().unwrap().join("recovered"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
    assert_eq!(copies.len(), 1, "{copies:?}");
    assert!(
        banner.contains(&copies[0].display().to_string()),
        "{banner}"
    );
    let kept = std::fs::read_to_string(&copies[0]).unwrap();
    assert!(
        kept.starts_with("// my unsaved work\n    float k = d;"),
        "{kept:?}"
    );
}

#[test]
fn two_idle_instances_do_not_reload_and_resave_each_other() {
    // X35: a touch (same text, new stamp) is taken silently: no reload, no check, no save.
    let mut a = harness();
    a.open_first();
    let mut b = sharing(&a);
    b.open_first();
    let file = std::fs::File::options()
        .write(true)
        .open(path_of(&a))
        .unwrap();
    file.set_modified(std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(7))
        .unwrap();
    let touched = stamp(&a);
    for _ in 0..3 {
        a.send(Msg::Tick);
        b.send(Msg::Tick);
    }
    assert_eq!(stamp(&a), touched, "nobody wrote the file");
    for h in [&a, &b] {
        let ed = h.editor();
        assert!(
            ed.checking.is_none() && ed.verdict.is_none(),
            "no check started"
        );
        assert!(ed.conflict.is_none());
        assert_eq!(ed.stamp, touched);
    }
    // Typing into A survives B's ticks and A's.
    a.typed("abcdefgh");
    for _ in 0..3 {
        a.send(Msg::Tick);
        b.send(Msg::Tick);
    }
    assert!(a.editor().text().unwrap().starts_with("abcdefgh"));
}

#[test]
fn a_failed_save_keeps_the_editor_open_with_the_text() {
    // F1/F3: the exercises folder replaced by a regular file (fails for root too).
    let mut h = harness();
    h.open_first();
    h.typed("// precious\n");
    let dir = h.shell.state_dir.clone().unwrap();
    std::fs::remove_dir_all(dir.join("exercises")).unwrap();
    std::fs::write(dir.join("exercises"), "not a folder").unwrap();
    h.esc();
    assert!(
        h.app.editor_open(),
        "the editor stays open when its save fails"
    );
    let ed = h.editor();
    assert!(ed.text().unwrap().starts_with("// precious\n"));
    let why = ed.save_error.clone().expect("the failure is kept");
    assert!(why.contains("exercises"), "says where: {why}");
    let screen = h.screen(120, 30);
    assert!(screen.contains("NOT SAVED"), "{screen}");
    assert!(screen.contains("exercise not saved"), "{screen}");
    // Quitting asks the shell to save; the text is still the editor's (the TUI's shell then
    // writes it to a recovery file: see the event-loop test).
    let rest = h.ctrl('q');
    assert_eq!(rest, vec![Cmd::Quit]);
    assert_eq!(
        h.app
            .editor_unsaved()
            .map(|(id, t)| (id, t.starts_with("// precious"))),
        Some((FIRST.to_string(), true))
    );
    // Once the folder is back, Esc saves and leaves.
    std::fs::remove_file(dir.join("exercises")).unwrap();
    h.esc();
    assert!(!h.app.editor_open());
    assert!(h.file().starts_with("// precious\n"));
}

#[test]
fn quitting_when_the_text_cannot_be_kept_asks_first() {
    let mut h = harness();
    h.open_first();
    h.typed("// x\n");
    h.send(Msg::Exercise(ExerciseMsg::QuitRefused {
        why: "no space left".into(),
    }));
    let screen = h.screen(80, 24);
    assert!(screen.contains("Quit anyway and lose it?"), "{screen}");
    h.typed("n");
    assert!(h.editor().quit_prompt.is_none());
    assert!(!h.app.exercises.quit_anyway);
    h.send(Msg::Exercise(ExerciseMsg::QuitRefused {
        why: "no space left".into(),
    }));
    let rest = h.key(KeyCode::Char('y'), KeyModifiers::NONE);
    assert_eq!(rest, vec![Cmd::Quit]);
    assert!(h.app.exercises.quit_anyway);
}

/// Run `f` on a thread; a blocked read fails the test instead of hanging it.
fn guarded(f: impl FnOnce() -> String + Send + 'static) -> String {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(WATCHDOG)
        .expect("an editor read blocked (a FIFO or a device)")
}

#[test]
fn a_fifo_or_dev_zero_as_the_exercise_file_never_blocks_the_editor() {
    // X14, X15: opening; E11: a FIFO left after the editor is open.
    for kind in ["fifo", "zero"] {
        let screen = guarded(move || {
            let mut h = harness();
            let dir = h.shell.state_dir.clone().unwrap();
            std::fs::create_dir_all(dir.join("exercises")).unwrap();
            let path = editor_store::file_for(&dir, FIRST);
            let plant = |path: &std::path::Path| match kind {
                "fifo" => {
                    let ok = std::process::Command::new("mkfifo").arg(path).status();
                    assert!(ok.is_ok_and(|s| s.success()), "mkfifo");
                }
                _ => std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
            };
            plant(&path);
            h.typed("w"); // the survey reads every file of the lesson
            h.enter();
            let opened = h.screen(120, 30);
            h.esc();
            std::fs::remove_file(&path).unwrap();
            h.open_first();
            h.typed("// mine\n");
            std::fs::remove_file(&path).unwrap();
            plant(&path);
            h.send(Msg::Tick);
            assert!(h.editor().text().unwrap().starts_with("// mine"));
            assert!(h.editor().conflict.is_some(), "offered, not loaded");
            format!("{opened}\n{}", h.screen(120, 30))
        });
        assert!(screen.contains("not a regular file"), "{kind}: {screen}");
    }
}

#[test]
fn the_starter_is_not_rewritten_by_opening() {
    let mut h = harness();
    h.open_first();
    h.esc();
    let first = stamp(&h);
    h.open_first();
    h.esc();
    assert_eq!(stamp(&h), first);
    assert_eq!(h.file(), catalog::find(FIRST).unwrap().starter);
}

/// The GPU test `after_an_experiment_the_race_is_drawn_and_the_solution_passes_on_the_same_worker`
/// on the simulator: a save by another editor is loaded on the next tick (the editor held no
/// unsaved text), and the next Ctrl-R checks it. (That test waited for a check the reload no
/// longer starts; only Ctrl-E's save is checked at once.)
#[test]
fn an_outside_save_is_loaded_and_the_next_check_checks_it() {
    let mut h = harness();
    h.typed("3");
    h.open_first();
    assert_eq!(h.editor().id, "fix-the-race");
    h.check();
    assert!(!h.editor().verdict.as_ref().unwrap().passed);
    let solution = catalog::find("fix-the-race").unwrap().solution;
    let path = editor_store::file_for(h.shell.state_dir.as_ref().unwrap(), "fix-the-race");
    std::fs::write(&path, solution).unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1))
        .unwrap();
    h.send(Msg::Tick);
    assert_eq!(
        h.editor().text().unwrap(),
        cuda_academy::app::editor::normal(solution)
    );
    h.check();
    let verdict = h.editor().verdict.clone().unwrap();
    assert!(verdict.passed, "{:?}", verdict.checks);
}
