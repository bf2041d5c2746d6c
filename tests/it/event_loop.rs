//! The tutorial's real event loop on a `TestBackend`: `tui::step` (the turn `tui::run` loops
//! over) with a scripted channel of keys and signals, the real [`Shell`] (the experiment worker on
//! the simulator, a temporary state folder), and assertions on the drawn buffer.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::mpsc::{Receiver, Sender, channel};

use cuda_academy::app::{App, Msg};
use cuda_academy::cli::{BackendChoice, BackendSpec};
use cuda_academy::lesson::Catalog;
use cuda_academy::progress::Progress;
use cuda_academy::theme::Theme;
use cuda_academy::tui::{Event, Exit, Screen, Shell, step};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

/// Turns of the loop a test waits for something to show. While a run is on, the loop wakes at
/// least every tick (120 ms), so this bounds the wait at minutes without timing anything.
const MAX_STEPS: usize = 2_000;

struct Rig {
    term: Terminal<TestBackend>,
    app: App,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    shell: Shell,
    state: tempfile::TempDir,
}

impl Rig {
    fn new(w: u16, h: u16) -> Rig {
        let state = tempfile::tempdir().unwrap();
        let (tx, rx) = channel();
        let backend = BackendSpec::new(BackendChoice::Sim, 0);
        let shell = Shell::start(&backend, Ok(state.path().to_path_buf()), &tx).unwrap();
        let app = App::new(
            Catalog::embedded(),
            Theme::new(false),
            Progress::default(),
            Size::new(w, h),
        );
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        Screen::draw(&mut term, &app).unwrap();
        Rig {
            term,
            app,
            tx,
            rx,
            shell,
            state,
        }
    }

    fn send(&self, event: Event) {
        self.tx.send(event).unwrap();
    }

    fn key(&self, c: char) {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        self.send(Event::App(Msg::Key(key)));
    }

    /// One turn of the real loop.
    fn step(&mut self) -> anyhow::Result<Option<Exit>> {
        step(&mut self.term, &mut self.app, &self.rx, &mut self.shell)
    }

    /// The drawn buffer, one line per row.
    fn screen(&self) -> String {
        let buf = self.term.backend().buffer();
        let area = buf.area;
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Turn the loop until the screen shows `needle`. While no run is on the loop would wait for
    /// input, so a spinner tick is queued to wake it.
    #[track_caller]
    fn step_until(&mut self, needle: &str) -> String {
        for _ in 0..MAX_STEPS {
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            if !self.app.panel.is_running() {
                self.send(Event::App(Msg::Tick));
            }
            assert_eq!(self.step().unwrap(), None, "the loop ended early");
        }
        panic!("never showed {needle:?}:\n{}", self.screen());
    }
}

#[test]
fn the_loop_runs_an_experiment_on_the_worker_and_draws_its_results() {
    let mut rig = Rig::new(160, 48);
    // The worker opens the simulator on its own thread; its event names it in the status bar.
    rig.step_until("Simulated: profile h200");
    rig.key('3');
    rig.step_until("Experiment 1/3: async-copy");
    rig.key('r');
    // The run goes to the worker and its report comes back on the channel (a fast run may end
    // within the batch that started it, so "running" need not be drawn in between).
    assert_eq!(rig.step().unwrap(), None);
    for _ in 0..MAX_STEPS {
        if rig.app.report().is_some() || !rig.app.panel.is_running() {
            break;
        }
        assert_eq!(rig.step().unwrap(), None, "the loop ended early");
    }
    assert!(rig.app.report().is_some(), "no report came back");
    // The first report opens on the timeline; `v` cycles the views to the results table.
    for _ in 0..3 {
        if rig.screen().contains("async returns (pinned)") {
            break;
        }
        rig.key('v');
        assert_eq!(rig.step().unwrap(), None);
    }
    let screen = rig.step_until("async returns (pinned)");
    assert!(
        screen.contains("✓ copy-kernel-copy output matches the host"),
        "{screen}"
    );
    assert!(!screen.contains("running async-copy"), "{screen}");
    rig.key('q');
    assert_eq!(rig.step().unwrap(), Some(Exit::Quit));
}

#[test]
fn a_signal_ends_the_loop_with_its_number() {
    let mut rig = Rig::new(80, 24);
    rig.send(Event::Signal(15));
    assert_eq!(rig.step().unwrap(), Some(Exit::Signal(15)));
}

#[test]
fn lost_input_ends_the_loop_with_the_reason() {
    let mut rig = Rig::new(80, 24);
    rig.send(Event::InputFailed("the terminal went away".into()));
    let err = rig.step().unwrap_err();
    assert!(
        format!("{err:#}").contains("the terminal went away"),
        "{err:#}"
    );
}

#[test]
fn suspend_saves_progress_first_and_the_loop_goes_on() {
    let mut rig = Rig::new(80, 24);
    rig.step_until("Lesson 1/4");
    let saved = |rig: &Rig| std::fs::read_dir(rig.state.path()).unwrap().count();
    assert_eq!(saved(&rig), 0, "nothing saved before");
    rig.send(Event::Suspend);
    assert_eq!(rig.step().unwrap(), None);
    assert!(
        saved(&rig) > 0,
        "Ctrl-Z saves progress before giving the terminal back"
    );
    rig.key('q');
    assert_eq!(rig.step().unwrap(), Some(Exit::Quit));
}
