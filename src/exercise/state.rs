//! Which exercises the learner has passed: `exercises/passed.json` in the state folder (the
//! one `progress.json` lives in), a sorted list of ids, saved as progress is: re-read and merged
//! just before an atomic write (`atomic_file`), here under a lock, so concurrent checks keep
//! every pass. An unreadable file is never overwritten: passes are then not recorded, and the
//! caller says so.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::atomic_file;
use crate::bounded_read::{self, Cap};

/// The file, under `state_dir`.
pub fn passed_file(state_dir: &Path) -> PathBuf {
    state_dir.join("exercises").join("passed.json")
}

/// Largest `passed.json` read: a list of ids is a few hundred bytes; 16 MiB still holds a
/// million ids, and a link to `/dev/zero` stops there.
pub const PASSED_CAP: Cap = Cap {
    bytes: 16 << 20,
    what: "the passed-exercises file",
};

/// The ids passed so far; an absent file is an empty set. Read through [`bounded_read`], so a
/// FIFO, a device or an oversize file is an error naming the file, never a hang.
pub fn load_passed(state_dir: &Path) -> anyhow::Result<BTreeSet<String>> {
    let path = passed_file(state_dir);
    match bounded_read::read(&path, PASSED_CAP) {
        Ok(bytes) => serde_json::from_slice(&bytes).with_context(|| {
            format!(
                "{} is not a JSON list of exercise ids; move it aside to start afresh",
                bounded_read::shown(&path)
            )
        }),
        Err(e) if e.is_not_found() => Ok(BTreeSet::new()),
        Err(e) => Err(e.into()),
    }
}

/// The lock file that serialises updates of `passed.json` (beside it, hidden).
const LOCK_NAME: &str = ".passed.json.lock";

/// Add `id` to the passed set. Several checks may finish at once (two TUIs, a script running
/// `exercise check` in parallel): under a lock, the file is read again, `id` merged in, and
/// the set written back atomically, so no one's pass is lost (a plain load, insert and rename
/// kept 3 to 6 of 9 concurrent passes).
pub fn record_pass(state_dir: &Path, id: &str) -> anyhow::Result<()> {
    record_pass_waiting(state_dir, id, atomic_file::LOCK_WAIT)
}

/// [`record_pass`], waiting at most `wait` for a lock holder that does not let go (a test of
/// the merge, not of the wait, gives a long one: on a loaded machine one holder's read, merge
/// and fsync can take longer than the learner's 1.5 s).
fn record_pass_waiting(
    state_dir: &Path,
    id: &str,
    wait: std::time::Duration,
) -> anyhow::Result<()> {
    let path = passed_file(state_dir);
    let dir = path.parent().unwrap_or(state_dir);
    let shown_dir = bounded_read::shown(dir);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {shown_dir}"))?;
    // The lock's error names the lock file and what to do (held elsewhere; a directory).
    let _lock = atomic_file::lock_within(&dir.join(LOCK_NAME), wait)?;
    // Read under the lock: what any other instance wrote is merged, never overwritten. A file
    // that cannot be read or parsed stops here and is left as it is.
    let mut passed = load_passed(state_dir)?;
    if !passed.insert(id.to_string()) {
        return Ok(());
    }
    let json = atomic_file::json_within(&passed, PASSED_CAP)
        .with_context(|| format!("will not save {}", bounded_read::shown(&path)))?;
    atomic_file::write(&path, &json)
        .with_context(|| format!("cannot save {}", bounded_read::shown(&path)))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Review K12 (P1): concurrent checks lost each other's passes. Twelve threads record
    /// twelve ids at once, in several rounds; every id must be kept every time. (Without the
    /// lock and re-read, each round loses some with high probability; no timing is assumed.)
    #[test]
    fn twelve_concurrent_passes_are_all_kept() {
        for round in 0..5 {
            let dir = tempfile::tempdir().unwrap();
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(12));
            let threads: Vec<_> = (0..12)
                .map(|i| {
                    let state = dir.path().to_path_buf();
                    let barrier = barrier.clone();
                    std::thread::spawn(move || {
                        barrier.wait();
                        let wait = std::time::Duration::from_secs(300);
                        record_pass_waiting(&state, &format!("ex-{i}"), wait)
                    })
                })
                .collect();
            for t in threads {
                t.join().unwrap().unwrap();
            }
            let kept = load_passed(dir.path()).unwrap();
            assert_eq!(kept.len(), 12, "round {round}: kept {kept:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_passed_json_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("dotfiles-passed.json");
        std::fs::write(&elsewhere, "[\"a\"]").unwrap();
        std::fs::create_dir_all(dir.path().join("exercises")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, passed_file(dir.path())).unwrap();
        record_pass(dir.path(), "b").unwrap();
        let link = std::fs::symlink_metadata(passed_file(dir.path())).unwrap();
        assert!(link.file_type().is_symlink());
        let kept: BTreeSet<String> =
            serde_json::from_slice(&std::fs::read(&elsewhere).unwrap()).unwrap();
        assert_eq!(kept.into_iter().collect::<Vec<_>>(), ["a", "b"]);
    }
}
