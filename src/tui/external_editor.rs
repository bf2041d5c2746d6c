//! Ctrl-E: the learner's own editor (`$VISUAL`, else `$EDITOR`, else `vi`) on the exercise
//! file, as git and lazygit do: the input thread is paused (so it does not steal the editor's
//! keys), the terminal leaves raw mode and the alternate screen, the editor runs in the
//! foreground, and then the TUI comes back and redraws from scratch.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::terminal::Terminal;

/// Set while another program owns the terminal: the input thread stops reading.
pub static INPUT_PAUSED: AtomicBool = AtomicBool::new(false);
/// The input thread's answer: it has seen the pause and is not inside a read.
pub static INPUT_IDLE: AtomicBool = AtomicBool::new(false);

/// The editor command line to run (a program and its arguments, split on whitespace).
fn editor_command() -> Vec<String> {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".into())
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Suspend the TUI, edit `file`, come back. The inner `Err` says why the editor did not run (the
/// TUI is back); the outer one that the terminal could not be taken back (the tutorial ends).
pub fn edit(term: &mut Terminal, mouse: bool, file: &Path) -> anyhow::Result<Result<(), String>> {
    INPUT_PAUSED.store(true, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_millis(500);
    while !INPUT_IDLE.load(Ordering::SeqCst) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    term.restore();
    let argv = editor_command();
    let status = match argv.split_first() {
        Some((program, args)) => Command::new(program).args(args).arg(file).status(),
        None => Err(std::io::Error::other("no editor set")),
    };
    let back = Terminal::enter(mouse);
    INPUT_PAUSED.store(false, Ordering::SeqCst);
    *term = back?;
    Ok(match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{} exited with {s}", argv.join(" "))),
        Err(e) => Err(format!(
            "cannot run {:?}: {e}; set $VISUAL or $EDITOR to your editor",
            argv.join(" ")
        )),
    })
}
