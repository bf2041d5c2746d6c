//! The panic hook: restore the terminal first, then write a crash log under the state dir and
//! print the message with the log's path. A panic on the experiment worker thread is caught there
//! and shown in the panel, so the hook only logs it and leaves the screen alone.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use super::terminal::restore_terminal;

/// Install the hook; `state_dir` is where the crash log goes (else the temp dir).
pub fn install(state_dir: Option<PathBuf>) {
    std::panic::set_hook(Box::new(move |info| {
        // The experiment worker catches its panics and shows them in the panel: the TUI is
        // still running, so only log them.
        if is_worker_thread(std::thread::current().name()) {
            let report =
                format!("experiment worker panicked (caught, shown in the panel): {info}\n");
            write_log(state_dir.clone(), &report);
            return;
        }
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

/// Whether a panic on the thread named `name` is the experiment worker's (caught there).
pub fn is_worker_thread(name: Option<&str>) -> bool {
    name == Some(crate::worker::THREAD_NAME)
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
