//! The exercise editor through the tutorial's real event loop (`tui::step`) and its real
//! [`Shell`] on a `TestBackend`: a 1 MB bracketed paste in one turn (review S7), an external
//! editor whose save cannot be loaded (E6), a failed save then quit writing a recovery file
//! (F1, F3). Waits are for states, never times; timings are in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};

use cuda_academy::app::{App, Msg};
use cuda_academy::cli::{BackendChoice, BackendSpec};
use cuda_academy::lesson::Catalog;
use cuda_academy::progress::Progress;
use cuda_academy::theme::Theme;
use cuda_academy::tui::exercise_store as editor_store;
use cuda_academy::tui::{Event, Exit, Screen, Shell, step};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

const FIRST: &str = "time-a-copy";

/// A test screen whose "external editor" is a function on the file.
struct Scripted {
    term: Terminal<TestBackend>,
    editor: fn(&Path),
}

impl Screen for Scripted {
    fn draw(&mut self, app: &App) -> anyhow::Result<()> {
        Screen::draw(&mut self.term, app)
    }
    fn suspend(&mut self) -> anyhow::Result<()> {
        Screen::suspend(&mut self.term)
    }
    fn resume(&mut self) -> anyhow::Result<()> {
        Screen::resume(&mut self.term)
    }
    fn edit_externally(&mut self, file: &Path) -> anyhow::Result<Result<(), String>> {
        (self.editor)(file);
        Ok(Ok(()))
    }
}

struct Rig {
    screen: Scripted,
    app: App,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    shell: Shell,
    state: tempfile::TempDir,
}

impl Rig {
    fn new(editor: fn(&Path)) -> Rig {
        let state = tempfile::tempdir().unwrap();
        let (tx, rx) = channel();
        let backend = BackendSpec::new(BackendChoice::Sim, 0);
        let shell = Shell::start(&backend, Ok(state.path().to_path_buf()), &tx).unwrap();
        let app = App::new(
            Catalog::embedded(),
            Theme::new(false),
            Progress::default(),
            Size::new(120, 30),
        );
        let term = Terminal::new(TestBackend::new(120, 30)).unwrap();
        Rig {
            screen: Scripted { term, editor },
            app,
            tx,
            rx,
            shell,
            state,
        }
    }

    fn send(&self, msg: Msg) {
        self.tx.send(Event::App(msg)).unwrap();
    }

    fn key(&self, code: KeyCode, mods: KeyModifiers) {
        self.send(Msg::Key(KeyEvent::new(code, mods)));
    }

    fn typed(&self, text: &str) {
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

    fn step(&mut self) -> Option<Exit> {
        step(&mut self.screen, &mut self.app, &self.rx, &mut self.shell).unwrap()
    }

    /// `w`, Enter: the first exercise, opened; one turn of the loop.
    fn open(&mut self) {
        self.typed("w");
        self.key(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(self.step(), None);
        assert!(self.app.editor_open());
    }

    fn text(&self) -> String {
        self.app.exercises.editor.as_ref().unwrap().text().unwrap()
    }

    fn file(&self) -> PathBuf {
        editor_store::file_for(self.state.path(), FIRST)
    }

    fn screen(&self) -> String {
        let buf = self.screen.term.backend().buffer();
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// About 1 MB of ordinary code: 14,000 lines of 70 characters, as in the review.
fn megabyte() -> String {
    let line = format!("    x = x + 1; // {}", "a".repeat(50));
    let line = format!("{line:<70}\n");
    line.repeat(14_000)
}

#[test]
fn a_one_megabyte_paste_is_one_edit_in_one_turn_of_the_loop() {
    let mut rig = Rig::new(|_| {});
    rig.open();
    let paste = megabyte();
    assert!(paste.len() > 990_000);
    rig.send(Msg::Paste(paste.clone()));
    assert_eq!(rig.step(), None, "the paste is handled and a frame drawn");
    let text = rig.text();
    assert!(text.starts_with(&paste), "pasted at the cursor, whole");
    assert_eq!(text.lines().count(), 14_000 + rig.starter_lines());
    // Drawn: the cursor is at the end of the paste, so the view shows its last lines.
    assert!(rig.screen().contains("14000"), "{}", rig.screen());
    // A paste that would pass the file cap is refused whole, with a message.
    rig.send(Msg::Paste(paste));
    assert_eq!(rig.step(), None);
    assert_eq!(rig.text(), text);
    assert!(rig.screen().contains("paste refused"), "{}", rig.screen());
}

impl Rig {
    fn starter_lines(&self) -> usize {
        cuda_academy::exercise::catalog::find(FIRST)
            .unwrap()
            .starter
            .lines()
            .count()
    }
}

/// An editor that appends a Latin-1 line (`é` as the single byte 0xE9).
fn latin1_editor(file: &Path) {
    let mut bytes = std::fs::read(file).unwrap();
    bytes.extend_from_slice(b"// caf\xe9 au lait\nint y = 0;\n");
    std::fs::write(file, bytes).unwrap();
}

#[test]
fn an_external_save_that_cannot_be_loaded_is_left_untouched_and_the_text_kept() {
    // E6: Ctrl-E, the editor writes Latin-1; then Esc, and quit.
    let mut rig = Rig::new(latin1_editor);
    rig.open();
    rig.typed("// typed\n");
    rig.key(KeyCode::F(4), KeyModifiers::NONE);
    assert_eq!(rig.step(), None);
    let on_disk = std::fs::read(rig.file()).unwrap();
    assert!(
        on_disk.starts_with(b"// typed\n"),
        "saved before the editor ran"
    );
    assert!(on_disk.ends_with(b"// caf\xe9 au lait\nint y = 0;\n"));
    assert!(
        rig.text().starts_with("// typed\n"),
        "the editor keeps its text"
    );
    let screen = rig.screen();
    assert!(screen.contains("is not UTF-8 text"), "{screen}");
    assert!(screen.contains("The file changed outside"), "{screen}");
    // The prompt takes no typing (review 2026-12-01b ED5): "zz" goes into the text. Esc then
    // saves, which is refused (the file changed outside and nothing was chosen): the file is
    // never overwritten and the editor stays open; quitting puts the text in a recovery file.
    rig.typed("zz");
    assert_eq!(rig.step(), None);
    assert!(rig.text().contains("zz"), "typing went on");
    rig.key(KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(rig.step(), None);
    assert!(rig.app.editor_open());
    assert_eq!(std::fs::read(rig.file()).unwrap(), on_disk);
    rig.key(KeyCode::Char('q'), KeyModifiers::CONTROL);
    assert_eq!(rig.step(), Some(Exit::Quit));
    rig.shell.finish(&mut rig.app).unwrap();
    assert_eq!(
        std::fs::read(rig.file()).unwrap(),
        on_disk,
        "the external edit is never overwritten"
    );
    let report = rig.shell.exercise_report().unwrap_or_default();
    assert!(report.contains("your text is in"), "{report}");
}

#[test]
fn a_failed_save_then_quit_writes_the_text_to_a_recovery_file() {
    // F1/F3: the exercises folder replaced by a regular file (a write fails for root too).
    let mut rig = Rig::new(|_| {});
    rig.open();
    rig.typed("// precious\n");
    let exercises = rig.state.path().join("exercises");
    std::fs::remove_dir_all(&exercises).unwrap();
    std::fs::write(&exercises, "a file").unwrap();
    rig.key(KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(rig.step(), None);
    assert!(
        rig.app.editor_open(),
        "leaving after a failed save keeps the text"
    );
    let screen = rig.screen();
    assert!(screen.contains("exercise not saved"), "{screen}");
    rig.key(KeyCode::Char('q'), KeyModifiers::CONTROL);
    assert_eq!(rig.step(), Some(Exit::Quit));
    rig.shell.finish(&mut rig.app).unwrap();
    let report = rig
        .shell
        .exercise_report()
        .expect("the loss is said")
        .to_string();
    assert!(report.contains("not saved"), "{report}");
    assert!(
        report.contains("exercises"),
        "says where it could not write: {report}"
    );
    let recovered = report.rsplit("your text is in ").next().unwrap();
    assert!(
        Path::new(recovered).starts_with(rig.state.path().join("recovered")),
        "{report}"
    );
    assert!(
        std::fs::read_to_string(recovered)
            .unwrap()
            .starts_with("// precious\n")
    );
}

/// Issue 29: without bracketed paste a paste is one key per character, and each edit of the
/// text area passes over the whole file (300 KB took 126 s). Keys that arrived together are
/// one edit: 20,000 of them, typed into a file already 5,000 lines long, come out as one undo
/// step in one turn of the loop (so the whole-file work is paid once per turn, however many
/// keys), inserted as they came (Enter a newline without auto-indent, the pasted text bringing
/// its own), while a key on its own is still typed with auto-indent.
#[test]
fn keys_queued_together_are_one_edit_whatever_the_file_size() {
    let mut rig = Rig::new(|_| {});
    rig.open();
    let long = "int x = 0;\n".repeat(5_000);
    rig.send(Msg::Paste(long));
    assert_eq!(rig.step(), None);
    let before = rig.text();
    let lines = "    y = y + 1; // pasted\n".repeat(800);
    let typed: Vec<char> = lines.chars().collect();
    assert!(typed.len() >= 20_000);
    for c in &typed {
        match c {
            '\n' => rig.key(KeyCode::Enter, KeyModifiers::NONE),
            c => rig.key(KeyCode::Char(*c), KeyModifiers::NONE),
        }
    }
    assert_eq!(rig.step(), None, "all of it in one turn");
    let after = rig.text();
    assert!(
        after.contains(&lines),
        "inserted as typed, indentation not doubled"
    );
    assert_eq!(after.len(), before.len() + lines.len());
    // One edit: one Ctrl-Z takes all of it back.
    rig.key(KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert_eq!(rig.step(), None);
    assert_eq!(rig.text(), before, "the run was one undo step");
    // A key alone is typed as a key: Enter after `{` indents.
    rig.typed("{");
    assert_eq!(rig.step(), None);
    rig.key(KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(rig.step(), None);
    let (row, col) = rig.app.exercises.editor.as_ref().unwrap().cursor().unwrap();
    assert_eq!(col, 4, "auto-indent after a typed {{ (row {row})");
}
