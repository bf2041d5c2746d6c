//! Drives the real binary in a pseudo-terminal and reads the screen through a terminal emulator
//! (vt100): launch, move through cards, answer a question, quit, relaunch and see it resume; and
//! check that a signal restores the terminal.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use cuda_academy::app::fixture;

use crate::pty::{DOWN, RIGHT, Tui};

const COLS: u16 = 100;
const ROWS: u16 = 30;

fn launch(lessons: &Path, state: &Path) -> Tui {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cuda-academy"));
    cmd.arg("--lessons").arg(lessons).arg("--no-mouse");
    cmd.env("CUDA_ACADEMY_STATE_DIR", state);
    Tui::spawn(cmd, COLS, ROWS)
}

/// How a person uses it: wait to see something, press a key and let the app draw.
trait Person {
    fn wait_for(&mut self, needle: &str);
    fn keys(&mut self, keys: &str);
}

impl Person for Tui {
    #[track_caller]
    fn wait_for(&mut self, needle: &str) {
        self.wait_for_within(needle, Duration::from_secs(15));
    }

    /// No pause after the keys: the terminal queues them and the app reads them in order, and
    /// every check that follows waits for the screen to show its result.
    fn keys(&mut self, keys: &str) {
        self.send(keys);
        self.pump();
    }
}

fn lesson_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in fixture::sample_files() {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

/// A state folder whose learner has option-order seed 0, and the key that picks file option
/// `index` of question `question` in lesson `lesson` for that learner.
fn known_learner() -> tempfile::TempDir {
    let state = tempfile::tempdir().unwrap();
    std::fs::write(
        state.path().join("progress.json"),
        r#"{"version": 2, "seed": 0}"#,
    )
    .unwrap();
    state
}

fn key_for(lesson: &str, question: &str, n: usize, index: usize) -> String {
    let order = cuda_academy::progress::shuffle::order(0, lesson, question, n);
    let pos = order.iter().position(|&i| i == index).unwrap();
    char::from(b'a' + u8::try_from(pos).unwrap()).to_string()
}

#[test]
fn answer_quit_relaunch_and_resume() {
    let lessons = lesson_dir();
    let state = known_learner();
    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 1/3");
    tui.keys(RIGHT);
    tui.wait_for("Lesson 1/4 · card 2/3");
    tui.keys("\t");
    tui.keys(DOWN);
    tui.keys(&key_for("pageable", "staging", 4, 1));
    tui.wait_for("✓ Correct");
    tui.keys("q");
    let (code, screen) = tui.exit_code();
    assert_eq!(code, 0);
    assert!(
        !screen.contains("Lesson"),
        "the TUI stayed on screen:\n{screen}"
    );

    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 2/3");
    tui.wait_for("✓ Correct");
    tui.wait_for("quiz 1/2");
    tui.keys("\x03");
    assert_eq!(tui.exit_code().0, 0, "Ctrl-C quits normally");
}

#[test]
fn two_instances_on_one_state_folder_keep_each_others_answers() {
    let lessons = lesson_dir();
    let state = known_learner();
    let mut a = launch(lessons.path(), state.path());
    let mut b = launch(lessons.path(), state.path());
    a.wait_for("Lesson 1/4 · card 1/3");
    b.wait_for("Lesson 1/4 · card 1/3");
    // A answers lesson 1's first question (saved at once).
    a.keys("\t");
    a.keys(&key_for("pageable", "staging", 4, 1));
    a.wait_for("✓ Correct");
    // B, which has not seen A's answer, answers lesson 2's and saves over the file.
    b.keys("2");
    b.wait_for("Lesson 2/4");
    b.keys("\t");
    b.keys(&key_for("pinned", "alloc", 4, 2));
    b.wait_for("✓ Correct");
    a.keys("q");
    assert_eq!(a.exit_code().0, 0);
    b.keys("q");
    assert_eq!(b.exit_code().0, 0);
    let file = std::fs::read_to_string(state.path().join("progress.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&file).unwrap();
    let attempts =
        |lesson: &str, q: &str| json["lessons"][lesson]["answers"][q]["attempts"].clone();
    assert_eq!(attempts("pageable", "staging")[0]["choice"], 1, "{file}");
    assert_eq!(attempts("pinned", "alloc")[0]["choice"], 2, "{file}");
    assert_eq!(
        json["current_lesson"], "pinned",
        "the last one to move wins"
    );
}

#[test]
fn sigterm_saves_and_restores_the_terminal() {
    let lessons = lesson_dir();
    let state = tempfile::tempdir().unwrap();
    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 1/3");
    tui.keys(RIGHT);
    tui.wait_for("card 2/3");
    let pid = tui.pid();
    let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(status.success());
    let (code, screen) = tui.exit_code();
    assert_eq!(code, 128 + 15, "exit status 128 + SIGTERM");
    assert!(
        !screen.contains("Lesson"),
        "the TUI stayed on screen:\n{screen}"
    );
    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 2/3");
    tui.keys("q");
    tui.exit_code();
}

fn kill(sig: &str, pid: &str) {
    let status = Command::new("kill").args([sig, pid]).status().unwrap();
    assert!(status.success(), "kill {sig} {pid}");
}

/// The process state letter from /proc (`T` = stopped).
fn proc_state(pid: &str) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the `(comm)` field, which may hold spaces.
    stat.rsplit(')').next()?.trim_start().chars().next()
}

/// Review M1: SIGQUIT saves and restores like SIGTERM (exit 128 + 3).
#[test]
fn sigquit_saves_and_restores_the_terminal() {
    let lessons = lesson_dir();
    let state = tempfile::tempdir().unwrap();
    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 1/3");
    tui.send(RIGHT);
    tui.wait_for("card 2/3");
    kill("-QUIT", &tui.pid());
    let (code, screen) = tui.exit_code();
    assert_eq!(code, 128 + 3, "exit status 128 + SIGQUIT");
    assert!(
        !screen.contains("Lesson"),
        "the TUI stayed on screen:\n{screen}"
    );
    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 2/3");
    tui.send("q");
    tui.exit_code();
}

/// Review M2: Ctrl-Z and SIGTSTP give the terminal back and stop; SIGCONT takes it again, in
/// raw mode (a single arrow key moves on, without Enter) and redrawn.
#[test]
fn suspend_and_continue_like_vim() {
    let lessons = lesson_dir();
    let state = tempfile::tempdir().unwrap();
    let mut tui = launch(lessons.path(), state.path());
    tui.wait_for("Lesson 1/4 · card 1/3");
    let pid = tui.pid();
    let limit = Duration::from_secs(15);
    for (how, card) in [("ctrl-z", "card 2/3"), ("SIGTSTP", "card 3/3")] {
        match how {
            "ctrl-z" => tui.send("\x1a"),
            _ => kill("-TSTP", &pid),
        }
        tui.wait_until("leaving the alternate screen", limit, |t| {
            !t.alternate_screen()
        });
        tui.wait_until("the process stopping", limit, |_| {
            proc_state(&pid) == Some('T')
        });
        kill("-CONT", &pid);
        tui.wait_until("the TUI coming back", limit, |t| {
            t.alternate_screen() && t.text().contains("Lesson 1/4")
        });
        tui.send(RIGHT);
        tui.wait_for(card);
    }
    tui.send("q");
    assert_eq!(tui.exit_code().0, 0);
}

/// Review minor 13: `TERM=dumb` cannot draw a full-screen interface: refused with a message.
#[test]
fn a_dumb_terminal_is_refused_with_a_message() {
    let lessons = lesson_dir();
    let state = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cuda-academy"));
    cmd.arg("--lessons").arg(lessons.path());
    cmd.env("CUDA_ACADEMY_STATE_DIR", state.path())
        .env("TERM", "dumb");
    let tui = Tui::spawn(cmd, COLS, ROWS);
    let (code, screen) = tui.exit_code();
    assert_eq!(code, 1);
    assert!(screen.contains("TERM=dumb"), "{screen}");
}

/// Review minor 5, 3 and 4: a state dir under a regular file names that file and the exit
/// status says progress was not saved; stale temp files are cleaned at start; a progress.json
/// that is a symlink keeps being written through it.
#[test]
fn state_dir_problems_are_said_and_files_are_kept_honest() {
    let lessons = lesson_dir();
    let scratch = tempfile::tempdir().unwrap();
    let afile = scratch.path().join("afile");
    std::fs::write(&afile, "not a folder").unwrap();
    let mut tui = launch(lessons.path(), &afile.join("sub"));
    tui.wait_for("is a file, not a folder");
    tui.send("q");
    assert_eq!(tui.exit_code().0, 1, "progress was not saved: exit 1");

    // A temp file a kill left an hour ago, and progress.json as a link to the real file.
    let state = scratch.path().join("state");
    std::fs::create_dir(&state).unwrap();
    let stale = state.join(".tmpAb12Cd");
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::create(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let real = scratch.path().join("dotfiles-progress.json");
    std::fs::write(&real, r#"{"version": 1}"#).unwrap();
    std::os::unix::fs::symlink(&real, state.join("progress.json")).unwrap();
    let mut tui = launch(lessons.path(), &state);
    tui.wait_for("Lesson 1/4 · card 1/3");
    tui.send(RIGHT);
    tui.wait_for("card 2/3");
    tui.send("q");
    assert_eq!(tui.exit_code().0, 0);
    assert!(!stale.exists(), "the stale temp file was not cleaned");
    let link = std::fs::symlink_metadata(state.join("progress.json")).unwrap();
    assert!(
        link.file_type().is_symlink(),
        "the link was replaced by a file"
    );
    let saved = std::fs::read_to_string(&real).unwrap();
    assert!(
        saved.len() > r#"{"version": 1}"#.len(),
        "the target was not updated: {saved}"
    );
}

/// Review 2026-12-01 S2, S3: SIGUSR1, SIGALRM and SIGXCPU (the soft CPU-time limit) used to kill
/// the TUI with their default action, the terminal left in the alternate screen. Each now saves
/// and restores like SIGTERM (exit 128 + N), and the progress made is kept.
#[test]
fn other_fatal_signals_save_and_restore_the_terminal() {
    for (sig, number) in [("-USR1", 10), ("-ALRM", 14), ("-XCPU", 24)] {
        let lessons = lesson_dir();
        let state = tempfile::tempdir().unwrap();
        let mut tui = launch(lessons.path(), state.path());
        tui.wait_for("Lesson 1/4 · card 1/3");
        tui.send(RIGHT);
        tui.wait_for("card 2/3");
        kill(sig, &tui.pid());
        let (code, screen) = tui.exit_code();
        assert_eq!(code, 128 + number, "exit status 128 + SIG{sig}");
        assert!(
            !screen.contains("Lesson"),
            "{sig}: the TUI stayed on screen:\n{screen}"
        );
        let mut tui = launch(lessons.path(), state.path());
        tui.wait_for("Lesson 1/4 · card 2/3");
        tui.send("q");
        tui.exit_code();
    }
}
