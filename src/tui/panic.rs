//! The panic hook: restore the terminal first, then write a crash log under the state dir and
//! print the message with the log's path. A panic on the experiment worker thread is caught there
//! and shown in the panel, so the hook only logs it and leaves the screen alone. A panic caught
//! quietly inside the CUDA libraries ([`crate::gpu::detect::catch_quietly`]) leaves no trace.
//!
//! Logs are named `crash-<UTC time>-<pid>-<n>.log` and created with `create_new` (two in one
//! second never overwrite each other); only the newest [`MAX_LOGS`] are kept.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::terminal::restore_terminal;

/// Install the hook; `state_dir` is where the crash log goes (else the temp dir).
pub fn install(state_dir: Option<PathBuf>) {
    std::panic::set_hook(Box::new(move |info| {
        if crate::gpu::detect::panics_silenced() {
            return;
        }
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

/// Crash logs kept per folder; older ones are removed when a new one is written.
pub const MAX_LOGS: usize = 20;

/// Write `report` as a new crash log in the state dir (else the temp dir); its path.
pub fn write_log(state_dir: Option<PathBuf>, report: &str) -> Option<PathBuf> {
    let t = crate::utc::Utc::at(SystemTime::now());
    let stem = format!("crash-{}T{}Z-{}", t.date(), t.time(), std::process::id());
    [state_dir, Some(std::env::temp_dir())]
        .into_iter()
        .flatten()
        .find_map(|dir| {
            std::fs::create_dir_all(&dir).ok()?;
            // After the highest number this second already has (a pruned low number must not
            // be reused: it would sort first and be pruned at once), zero-padded so that logs
            // of one second sort in the order they were written.
            let first = next_number(&dir, &stem);
            let path = (first..first + 1000)
                .map(|n| dir.join(format!("{stem}-{n:03}.log")))
                .find(|p| crate::atomic_file::create_new(p, report.as_bytes()).is_ok())?;
            prune_logs(&dir);
            Some(path)
        })
}

/// One more than the highest `n` of the logs named `{stem}-{n}.log` in `dir`, else 0.
fn next_number(dir: &Path, stem: &str) -> u32 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let n = name
                .strip_prefix(stem)?
                .strip_prefix('-')?
                .strip_suffix(".log")?;
            n.parse::<u32>().ok()
        })
        .max()
        .map_or(0, |n| n.saturating_add(1))
}

/// Keep the newest [`MAX_LOGS`] crash logs in `dir` (their names sort by time).
fn prune_logs(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut logs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy())
                .is_some_and(|n| n.starts_with("crash-") && n.ends_with(".log"))
        })
        .collect();
    logs.sort();
    let excess = logs.len().saturating_sub(MAX_LOGS);
    for old in &logs[..excess] {
        let _ = std::fs::remove_file(old);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Review minor 13: logs written in one second had one name (each overwrote the last) and
    /// piled up without limit. Now every log gets its own file and only the newest
    /// [`MAX_LOGS`] stay, the oldest going first.
    #[test]
    fn crash_logs_are_unique_and_the_oldest_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let written: Vec<PathBuf> = (0..MAX_LOGS + 5)
            .map(|i| write_log(Some(dir.path().to_path_buf()), &format!("log {i}")).unwrap())
            .collect();
        let mut left: Vec<PathBuf> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        left.sort();
        assert_eq!(left.len(), MAX_LOGS);
        // The survivors are exactly the last MAX_LOGS written, each with its own text.
        let mut newest = written[5..].to_vec();
        newest.sort();
        assert_eq!(left, newest);
        let last = std::fs::read_to_string(written.last().unwrap()).unwrap();
        assert_eq!(last, format!("log {}", MAX_LOGS + 4));
    }
}
