//! Reading and writing `progress.json`: parse with version check (and the version-1 migration),
//! load with the corrupt-file policy, read-only peek, and the save: re-read the file, merge it
//! with the record in memory, and write it with [`crate::atomic_file`] (temp file, fsync, rename,
//! fsync dir).

use std::fs;
use std::io;
use std::path::Path;
use std::time::SystemTime;

use anyhow::Context;
use serde::Deserialize;

use crate::bounded_read::{self, Cap};

use super::{Loaded, PROGRESS_VERSION, Progress, aside, merge, migrate, path};

/// Largest `progress.json` read. A real one is a few KiB; the cap is far above that because a
/// valid 100 MB file (half a million unknown lessons, kept for a newer release) must still load,
/// while a link to `/dev/zero` or a runaway file stops here instead of at the OOM killer.
pub const PROGRESS_CAP: Cap = Cap {
    bytes: 256 << 20,
    what: "a progress file",
};

/// Parse a progress file; `Err` says why it cannot be used, in words for the banner.
pub(crate) fn parse(bytes: &[u8]) -> Result<Progress, String> {
    /// Just the version, so a newer file is reported as newer even if its shape changed.
    #[derive(Deserialize)]
    struct VersionOnly {
        version: u32,
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err("it is empty".to_string());
    }
    if let Some(v) = newer_version(bytes) {
        return Err(format!(
            "it was written by a newer cuda-academy: format version {v}, this one reads up to {PROGRESS_VERSION}"
        ));
    }
    let version = serde_json::from_slice::<VersionOnly>(bytes).map(|v| v.version);
    if matches!(version, Ok(1)) {
        return migrate::from_v1(bytes).map_err(|e| format!("it is not valid progress JSON: {e}"));
    }
    let mut progress: Progress =
        serde_json::from_slice(bytes).map_err(|e| format!("it is not valid progress JSON: {e}"))?;
    progress.version = PROGRESS_VERSION;
    Ok(progress)
}

/// The format version of a file a newer release wrote (one this release cannot read), if it is
/// one: such a file is not corrupt, and is left where that release will look for it.
fn newer_version(bytes: &[u8]) -> Option<u32> {
    /// Just the version, so a newer file is recognised even if its shape changed.
    #[derive(Deserialize)]
    struct VersionOnly {
        version: u32,
    }
    serde_json::from_slice::<VersionOnly>(bytes)
        .ok()
        .map(|v| v.version)
        .filter(|&v| v > PROGRESS_VERSION)
}

/// Load `dir/progress.json`; a missing file is a fresh start, an unreadable one is renamed to
/// `progress.json.corrupt-<time>` with a banner, and one a newer release wrote is left alone
/// (nothing is saved this session: `save` refuses to replace a file it cannot parse); temp
/// files a killed save left are removed. Never fails.
pub fn load(dir: &Path) -> Loaded {
    let stamp = aside::utc_stamp(SystemTime::now());
    clean_temp_files(dir);
    load_with(dir, &stamp, &|from, to| fs::rename(from, to))
}

/// [`load`] with the timestamp and the rename step supplied (tests make the rename fail).
pub(crate) fn load_with(
    dir: &Path,
    stamp: &str,
    rename: &dyn Fn(&Path, &Path) -> io::Result<()>,
) -> Loaded {
    let file = path(dir);
    let fresh = |banner| Loaded {
        progress: Progress::fresh(),
        banner,
    };
    let bytes = match bounded_read::read(&file, PROGRESS_CAP) {
        Ok(bytes) => bytes,
        // A first launch: a new learner, with their own option order.
        Err(err) if err.is_not_found() => {
            return Loaded {
                progress: Progress::new_learner(),
                banner: None,
            };
        }
        // Not corrupt, just unreadable (permissions, a folder in its place): leave it alone.
        Err(err) => {
            return fresh(Some(format!(
                "Your progress file could not be read ({err}). You are starting fresh, but \
                 progress will not be saved this session so that file is not lost: fix or move \
                 it, then restart."
            )));
        }
    };
    match parse(&bytes) {
        Ok(mut progress) => {
            // A migrated version-1 file has no seed yet; it is written with the next save.
            if progress.seed.is_none() {
                progress.seed = Progress::new_learner().seed;
            }
            Loaded {
                progress,
                banner: None,
            }
        }
        // Review P2: a newer release's file moved aside was a reset progress file for that
        // release. Left in place, it is found again when the learner goes back to it.
        Err(why) if newer_version(&bytes).is_some() => fresh(Some(format!(
            "Your progress file {} could not be read ({why}). You are starting fresh, but \
             progress will not be saved this session so that the newer release still finds it: \
             use that release, or move the file aside, then restart.",
            file.display()
        ))),
        Err(why) => fresh(Some(aside::set_aside(&file, &why, stamp, rename))),
    }
}

/// Read `dir/progress.json` without touching it: `None` when missing or unreadable. For
/// read-only views such as `cuda-academy list`.
pub fn peek(dir: &Path) -> Option<Progress> {
    peek_or_why(dir).ok().flatten()
}

/// [`peek`], saying why a file that exists cannot be used: `Ok(None)` when there is none.
pub fn peek_or_why(dir: &Path) -> Result<Option<Progress>, String> {
    match bounded_read::read(&path(dir), PROGRESS_CAP) {
        Err(err) if err.is_not_found() => Ok(None),
        Err(err) => Err(format!("it cannot be read ({err})")),
        Ok(bytes) => parse(&bytes).map(Some),
    }
}

/// Merge `progress` with what `dir/progress.json` holds now (another instance may have written
/// it) and write the result atomically. Refuses to replace an existing file it cannot parse:
/// that file was not moved aside, and would be lost. A `progress.json` that is a symbolic link
/// is written through the link.
pub fn save(dir: &Path, progress: &Progress) -> anyhow::Result<()> {
    save_with(dir, progress, |_| Ok(()))
}

/// [`save`] with a step run just before the rename (tests make it fail).
pub(crate) fn save_with(
    dir: &Path,
    progress: &Progress,
    before_persist: impl FnOnce(&fs::File) -> io::Result<()>,
) -> anyhow::Result<()> {
    // Written through a symbolic link, as `atomic_file` does; read from the same file.
    let file = crate::atomic_file::resolve_links(&path(dir))
        .with_context(|| format!("cannot follow {}", path(dir).display()))?;
    let on_disk = read_for_merge(&file)?;
    fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the progress folder {}", dir.display()))?;
    let record = match on_disk {
        Some(theirs) => merge(progress, &theirs),
        None => Progress {
            version: PROGRESS_VERSION,
            ..progress.clone()
        },
    };
    // Write only what the loader reads back (review 2026-12-01b ST4: a 126 MB file rewritten
    // pretty-printed at 406 MB, over the cap, was refused at every later start).
    let json = crate::atomic_file::json_within(&record, PROGRESS_CAP)
        .with_context(|| format!("will not write progress to {}", file.display()))?;
    // Dropping the temp file on any error deletes it; progress.json is untouched.
    crate::atomic_file::write_checked(&file, &json, before_persist)
        .with_context(|| format!("cannot write progress to {}", file.display()))
}

/// Temp files of a save by earlier releases started with this; one a kill left is removed by the
/// next load. (Saves now go through `atomic_file`, whose stale temps the TUI's startup removes.)
const TEMP_PREFIX: &str = ".progress.json.tmp";

/// Remove temp files a killed save left in `dir` (best effort).
pub(crate) fn clean_temp_files(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let is_ours = entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX);
        if is_ours && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// What the file holds now: `None` when there is none; an error when it exists but cannot be
/// read or parsed (it must not be overwritten).
fn read_for_merge(file: &Path) -> anyhow::Result<Option<Progress>> {
    let why = match bounded_read::read(file, PROGRESS_CAP) {
        Err(err) if err.is_not_found() => return Ok(None),
        Err(err) => format!("it cannot be read ({err})"),
        Ok(bytes) => match parse(&bytes) {
            Ok(progress) => return Ok(Some(progress)),
            Err(why) => why,
        },
    };
    anyhow::bail!(
        "will not overwrite {}: {why}; move or delete it to save progress again",
        file.display()
    )
}
