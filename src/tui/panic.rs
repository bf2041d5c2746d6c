//! The panic hook: restore the terminal first, then write a crash log under the state dir and
//! print the message with the log's path.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use super::terminal::restore_terminal;

/// Install the hook; `state_dir` is where the crash log goes (else the temp dir).
pub fn install(state_dir: Option<PathBuf>) {
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        let backtrace = std::backtrace::Backtrace::force_capture();
        let report = format!(
            "cuda-academy {} crashed: {info}\n\n{backtrace}\n",
            env!("CARGO_PKG_VERSION")
        );
        let log = write_log(state_dir.clone(), &report);
        let mut err = std::io::stderr();
        let _ = writeln!(err, "cuda-academy crashed: {info}");
        let _ = match log {
            Some(path) => writeln!(
                err,
                "A crash log was written to {}; please attach it to a bug report.",
                path.display()
            ),
            None => writeln!(err, "(no crash log could be written)\n{backtrace}"),
        };
    }));
}

fn write_log(state_dir: Option<PathBuf>, report: &str) -> Option<PathBuf> {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let name = format!("crash-{secs}.log");
    [state_dir, Some(std::env::temp_dir())]
        .into_iter()
        .flatten()
        .find_map(|dir| {
            std::fs::create_dir_all(&dir).ok()?;
            let path = dir.join(&name);
            std::fs::write(&path, report).ok()?;
            Some(path)
        })
}
