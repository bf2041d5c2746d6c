//! Which exercises the learner has passed: `exercises/passed.json` in the state folder (the
//! one `progress.json` lives in), a sorted list of ids, saved atomically (temp file, rename).
//! An unreadable file is never overwritten: passes are then not recorded, and the caller says so.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

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

/// Add `id` to the passed set.
pub fn record_pass(state_dir: &Path, id: &str) -> anyhow::Result<()> {
    let mut passed = load_passed(state_dir)?;
    if !passed.insert(id.to_string()) {
        return Ok(());
    }
    let path = passed_file(state_dir);
    let dir = path.parent().unwrap_or(state_dir);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    tmp.write_all(serde_json::to_string_pretty(&passed)?.as_bytes())?;
    tmp.as_file().sync_all()?;
    tmp.persist(&path)
        .with_context(|| format!("cannot save {}", path.display()))?;
    Ok(())
}
