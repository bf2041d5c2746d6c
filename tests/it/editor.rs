//! The exercise editor, driven by keys through `App::update`, with the shell's half
//! (`ExerciseShell`) carrying out its commands on a temporary state folder and the experiment
//! worker running checks on the simulator, as the TUI does. Waits are for states, never times.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod flow;
mod follow;
#[cfg(feature = "gpu-tests")]
mod gpu;
mod picker;
mod safety;
mod screen;
mod snapshots;

use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use cuda_academy::app::editor::EditorState;
use cuda_academy::app::{App, Cmd, Msg};
use cuda_academy::cli::{BackendChoice, BackendSpec};
use cuda_academy::lesson::Catalog;
use cuda_academy::progress::Progress;
use cuda_academy::theme::Theme;
use cuda_academy::tui::exercise_shell::ExerciseShell;
use cuda_academy::tui::exercise_store as editor_store;
use cuda_academy::worker::Worker;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

/// The first lesson's first exercise (what `w` then Enter opens on a first launch).
pub const FIRST: &str = "time-a-copy";

/// Longest wait for the worker (a check of a solution runs the reference too).
const PATIENCE: Duration = Duration::from_secs(300);

pub struct Harness {
    pub app: App,
    pub shell: ExerciseShell,
    worker: Worker,
    events: Receiver<Msg>,
    pub _dir: tempfile::TempDir,
}

impl Harness {
    pub fn new(dir: tempfile::TempDir) -> Harness {
        Self::on(BackendChoice::Sim, dir)
    }

    /// A harness whose worker runs on `backend`.
    pub fn on(backend: BackendChoice, dir: tempfile::TempDir) -> Harness {
        let (tx, events) = channel();
        let worker = Worker::spawn(BackendSpec::new(backend, 0), move |e| {
            let _ = tx.send(Msg::Worker(e));
        })
        .unwrap();
        let shell = ExerciseShell {
            state_dir: Some(dir.path().to_path_buf()),
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
            worker,
            events,
            _dir: dir,
        }
    }

    /// Apply `msg` and carry out what it asks, as the TUI's loop does; returns the rest.
    pub fn send(&mut self, msg: Msg) -> Vec<Cmd> {
        let mut cmds = self.app.update(msg);
        let mut rest = Vec::new();
        while !cmds.is_empty() {
            match cmds.remove(0) {
                Cmd::Exercise(c) => {
                    cmds.extend(self.shell.carry_out(&mut self.app, &mut self.worker, c));
                }
                Cmd::RunExperiment {
                    run_id,
                    experiment,
                    options,
                } => self.worker.run(run_id, &experiment, options).unwrap(),
                Cmd::CancelRun => self.worker.cancel(),
                other => rest.push(other),
            }
        }
        rest
    }

    /// Feed the worker's events to the app until `done` holds.
    pub fn wait_until(&mut self, done: impl Fn(&App) -> bool) {
        while !done(&self.app) {
            let event = self.events.recv_timeout(PATIENCE).expect("a worker event");
            self.send(event);
        }
    }

    pub fn editor(&self) -> &EditorState {
        self.app
            .exercises
            .editor
            .as_ref()
            .expect("the editor is open")
    }

    /// Ctrl-R, then wait for the verdict.
    pub fn check(&mut self) {
        self.f(5);
        self.wait_until(|app| {
            app.exercises
                .editor
                .as_ref()
                .is_none_or(|e| e.checking.is_none())
        });
    }

    pub fn key(&mut self, code: KeyCode, mods: KeyModifiers) -> Vec<Cmd> {
        self.send(Msg::Key(KeyEvent::new(code, mods)))
    }

    pub fn esc(&mut self) -> Vec<Cmd> {
        self.key(KeyCode::Esc, KeyModifiers::NONE)
    }

    pub fn enter(&mut self) -> Vec<Cmd> {
        self.key(KeyCode::Enter, KeyModifiers::NONE)
    }

    pub fn ctrl(&mut self, c: char) -> Vec<Cmd> {
        self.key(KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    pub fn alt(&mut self, c: char) -> Vec<Cmd> {
        self.key(KeyCode::Char(c), KeyModifiers::ALT)
    }

    /// Function key `n` (the editor's own actions: F5 check, F6 hint, F7 solution, F8
    /// timeline, F4 $EDITOR).
    pub fn f(&mut self, n: u8) -> Vec<Cmd> {
        self.key(KeyCode::F(n), KeyModifiers::NONE)
    }

    pub fn typed(&mut self, text: &str) {
        // A newline is the Enter key, as a terminal sends it.
        for c in text.chars() {
            let code = if c == '\n' {
                KeyCode::Enter
            } else {
                KeyCode::Char(c)
            };
            self.key(code, KeyModifiers::NONE);
        }
    }

    /// `w` then Enter: the exercise the list selects first (the lesson's first not passed).
    pub fn open_first(&mut self) {
        self.typed("w");
        self.enter();
    }

    pub fn file_of(&self, id: &str) -> String {
        let dir = self.shell.state_dir.as_ref().unwrap();
        std::fs::read_to_string(editor_store::file_for(dir, id)).unwrap()
    }

    pub fn file(&self) -> String {
        self.file_of(FIRST)
    }

    pub fn screen(&self, w: u16, h: u16) -> String {
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

pub fn harness() -> Harness {
    Harness::new(tempfile::tempdir().unwrap())
}
