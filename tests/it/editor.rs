//! The exercise editor, driven by keys through `App::update` with the shell's half
//! (`ExerciseShell`) carrying out its commands on a temporary state folder and the simulator.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use cuda_academy::app::editor_shell::ExerciseShell;
use cuda_academy::app::editor_store;
use cuda_academy::app::{App, Cmd, ExerciseMsg, Msg};
use cuda_academy::cli::{BackendChoice, BackendSpec};
use cuda_academy::exercise::catalog;
use cuda_academy::lesson::Catalog;
use cuda_academy::progress::Progress;
use cuda_academy::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

/// The first lesson's first exercise (what `w` opens on a first launch).
const FIRST: &str = "time-a-copy";

struct Harness {
    app: App,
    shell: ExerciseShell,
    replies: Receiver<Msg>,
    _dir: tempfile::TempDir,
}

impl Harness {
    fn new(dir: tempfile::TempDir) -> Harness {
        let (tx, replies) = channel();
        let shell = ExerciseShell {
            state_dir: Some(dir.path().to_path_buf()),
            backend: BackendSpec::new(BackendChoice::Sim, 0),
            send: Arc::new(move |m| {
                let _ = tx.send(m);
            }),
        };
        let app = App::new(
            Catalog::embedded(),
            Theme::new(false),
            Progress::default(),
            Size::new(80, 24),
        );
        Harness {
            app,
            shell,
            replies,
            _dir: dir,
        }
    }

    /// Apply `msg` and carry out what it asks (exercise commands; a check's reply is awaited).
    fn send(&mut self, msg: Msg) -> Vec<Cmd> {
        let mut cmds = self.app.update(msg);
        let mut rest = Vec::new();
        while !cmds.is_empty() {
            match cmds.remove(0) {
                Cmd::Exercise(c) => {
                    let checking = matches!(c, cuda_academy::app::ExerciseCmd::Check { .. });
                    cmds.extend(self.shell.carry_out(&mut self.app, c));
                    if checking {
                        let reply = self.replies.recv_timeout(Duration::from_secs(120)).unwrap();
                        cmds.extend(self.app.update(reply));
                    }
                }
                other => rest.push(other),
            }
        }
        rest
    }

    fn key(&mut self, code: KeyCode, mods: KeyModifiers) -> Vec<Cmd> {
        self.send(Msg::Key(KeyEvent::new(code, mods)))
    }

    fn ctrl(&mut self, c: char) -> Vec<Cmd> {
        self.key(KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    fn typed(&mut self, text: &str) {
        for c in text.chars() {
            self.key(KeyCode::Char(c), KeyModifiers::NONE);
        }
    }

    fn file(&self) -> String {
        let dir = self.shell.state_dir.as_ref().unwrap();
        std::fs::read_to_string(editor_store::file_for(dir, FIRST)).unwrap()
    }

    fn screen(&self, w: u16, h: u16) -> String {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| f.render_widget(&self.app, f.area())).unwrap();
        let buf = t.backend().buffer().clone();
        (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn harness() -> Harness {
    Harness::new(tempfile::tempdir().unwrap())
}

#[test]
fn open_type_check_and_leave() {
    let mut h = harness();
    h.typed("w");
    let ed = h.app.exercises.editor.as_ref().expect("w opens the editor");
    assert_eq!(ed.id, FIRST);
    assert_eq!(
        h.file(),
        catalog::find(FIRST).unwrap().starter,
        "created from the starter"
    );
    // Letters now edit the file (no lesson keys): `q` does not quit.
    h.typed("// q mine\n");
    assert!(h.app.editor_open());
    h.ctrl('r');
    assert!(
        h.file().starts_with("// q mine\n// Lesson 1"),
        "saved before the check"
    );
    let ed = h.app.exercises.editor.as_ref().unwrap();
    let verdict = ed.verdict.as_ref().expect("a verdict after Ctrl-R");
    assert!(!verdict.passed, "the starter does not pass");
    assert_eq!(ed.failed_checks, 1);
    assert!(ed.checking.is_none());
    assert!(
        h.screen(80, 24).contains("not yet"),
        "the verdict is on screen"
    );
    h.key(KeyCode::Esc, KeyModifiers::NONE);
    assert!(!h.app.editor_open(), "Esc leaves the editor");
    assert!(h.file().starts_with("// q mine"));
}

#[test]
fn the_learners_file_survives_quit_and_relaunch() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    let mut h = Harness::new(dir);
    h.typed("w");
    h.typed("// kept\n");
    let rest = h.ctrl('c');
    assert_eq!(rest, vec![Cmd::Quit], "the file is saved before the quit");
    assert!(h.file().starts_with("// kept\n"));
    // Relaunch: a new app on the same state folder opens the learner's text, not the starter.
    let dir = h._dir;
    let mut h2 = Harness::new(dir);
    assert_eq!(h2.shell.state_dir.as_deref(), Some(path.as_path()));
    h2.typed("w");
    let ed = h2.app.exercises.editor.as_ref().unwrap();
    assert_eq!(ed.text().unwrap().lines().next(), Some("// kept"));
}

#[test]
fn reset_asks_then_puts_the_starter_back() {
    let mut h = harness();
    h.typed("w");
    h.typed("// gone\n");
    h.ctrl('x');
    h.typed("n");
    assert!(
        h.app
            .exercises
            .editor
            .as_ref()
            .unwrap()
            .text()
            .unwrap()
            .starts_with("// gone")
    );
    h.ctrl('x');
    h.typed("y");
    let starter = catalog::find(FIRST).unwrap().starter;
    assert_eq!(
        h.app.exercises.editor.as_ref().unwrap().text().unwrap(),
        starter
    );
    assert_eq!(h.file(), starter);
}

#[test]
fn hints_one_at_a_time_and_the_solution_after_three_failed_checks() {
    let mut h = harness();
    h.typed("w");
    let hints = catalog::find(FIRST).unwrap().hints.len();
    assert!(hints >= 1);
    for shown in 1..=hints + 1 {
        h.ctrl('t');
        assert_eq!(
            h.app.exercises.editor.as_ref().unwrap().hints_shown,
            shown.min(hints)
        );
    }
    assert!(h.screen(160, 48).contains("Hint 1 of"));
    h.ctrl('g');
    assert!(
        !h.app.exercises.editor.as_ref().unwrap().show_solution,
        "locked before any check"
    );
    for _ in 0..3 {
        h.ctrl('r');
    }
    h.ctrl('g');
    assert!(
        h.app.exercises.editor.as_ref().unwrap().show_solution,
        "unlocked after 3 fails"
    );
    assert!(h.screen(160, 48).contains("Solution"));
}

#[test]
fn a_file_changed_by_another_editor_is_reloaded_and_checked() {
    let mut h = harness();
    h.typed("w");
    let dir = h.shell.state_dir.clone().unwrap();
    std::fs::write(
        editor_store::file_for(&dir, FIRST),
        "int main() { return 0; }\n",
    )
    .unwrap();
    // Make sure the modification time differs from the one the editor knows.
    let file = std::fs::File::options()
        .write(true)
        .open(editor_store::file_for(&dir, FIRST))
        .unwrap();
    file.set_modified(std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1))
        .unwrap();
    h.send(Msg::Tick);
    let ed = h.app.exercises.editor.as_ref().unwrap();
    assert_eq!(ed.text().unwrap(), "int main() { return 0; }\n");
    assert!(ed.verdict.is_some(), "re-checked after the reload");
}

#[test]
fn passes_recorded_show_in_the_lesson_list() {
    let mut h = harness();
    let mut passed = std::collections::BTreeSet::new();
    passed.insert(FIRST.to_string());
    h.send(Msg::Exercise(ExerciseMsg::Passed(passed)));
    h.key(KeyCode::Char('L'), KeyModifiers::NONE);
    let screen = h.screen(160, 48);
    assert!(screen.contains("exercise 1/"), "{screen}");
}

#[test]
fn editor_pane_snapshots() {
    for (w, hgt) in [(80, 24), (160, 48)] {
        let mut h = harness();
        h.app.update(Msg::Resize(w, hgt));
        h.typed("w");
        h.key(KeyCode::Down, KeyModifiers::NONE);
        insta::assert_snapshot!(format!("editor_open_{w}x{hgt}"), h.screen(w, hgt));
        h.ctrl('r');
        insta::assert_snapshot!(format!("editor_checked_{w}x{hgt}"), h.screen(w, hgt));
    }
}

#[test]
fn a_pass_that_arrives_after_leaving_the_editor_still_counts() {
    let mut h = harness();
    h.typed("w");
    h.key(KeyCode::Esc, KeyModifiers::NONE);
    let verdict = cuda_academy::exercise::Verdict {
        passed: true,
        ..Default::default()
    };
    h.send(Msg::Exercise(ExerciseMsg::Checked {
        id: FIRST.into(),
        check_id: 1,
        verdict: cuda_academy::app::editor::SharedVerdict(Arc::new(verdict)),
        recorded: Ok(()),
    }));
    assert!(h.app.exercises.passed.contains(FIRST));
    // Now `w` opens the lesson's next exercise, the one not passed yet.
    h.typed("w");
    assert_ne!(h.app.exercises.editor.as_ref().unwrap().id, FIRST);
}
