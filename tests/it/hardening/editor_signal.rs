//! A signal that ends the tutorial while `$EDITOR` runs (review 2026-12-01 E10: SIGTERM waited
//! for the editor to exit; an editor that never exits kept the tutorial for ever). The signal
//! is passed on to the editor, the tutorial saves, restores the terminal and exits 128 + 15.

use std::process::Command;
use std::time::Duration;

use crate::pty::Tui;

/// Longest wait for one step (a hang is the failure, not a slow machine).
const PATIENCE: Duration = Duration::from_secs(60);

#[test]
fn sigterm_while_the_editor_hangs_ends_the_tutorial_saved_and_restored() {
    let state = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    let started = bin.path().join("editor-pid");
    let editor = bin.path().join("hang.sh");
    // Says it started (its pid: `exec` keeps it), then never exits.
    std::fs::write(
        &editor,
        format!(
            "#!/bin/sh\necho $$ > {}\nexec sleep 1000\n",
            started.display()
        ),
    )
    .unwrap();
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&editor, mode).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cuda-academy"));
    cmd.args(["--backend", "sim", "--no-mouse"])
        .env("CUDA_ACADEMY_STATE_DIR", state.path())
        .env("EDITOR", &editor)
        .env_remove("VISUAL");
    let mut tui = Tui::spawn(cmd, 100, 30);
    tui.wait_for_within("Lesson 1/4", PATIENCE);
    tui.send("w");
    tui.wait_for_within("Exercise", PATIENCE);
    tui.send("\r");
    tui.wait_for_within("Exercise: ", PATIENCE);
    tui.send("// typed before the editor\r");
    tui.wait_for_within("typed before the editor", PATIENCE);
    tui.send("\u{1b}[14~"); // F4: $EDITOR
    tui.wait_until("the editor started", PATIENCE, |_| started.exists());
    let editor_pid = std::fs::read_to_string(&started)
        .unwrap()
        .trim()
        .to_string();
    let status = Command::new("kill")
        .args(["-TERM", &tui.pid()])
        .status()
        .unwrap();
    assert!(status.success());
    let (code, screen) = tui.exit_code();
    assert_eq!(code, 128 + 15, "exit status 128 + SIGTERM:\n{screen}");
    assert!(
        !screen.contains("Exercise: "),
        "the TUI stayed on screen:\n{screen}"
    );
    let saved = std::fs::read_to_string(state.path().join("exercises/time-a-copy.cu")).unwrap();
    assert!(saved.contains("// typed before the editor"), "{saved}");
    assert!(
        !std::path::Path::new(&format!("/proc/{editor_pid}")).exists(),
        "the editor outlived the tutorial"
    );
}
