//! Reading and writing `progress.json`: parse with version check, load with the corrupt-file
//! policy, read-only peek, and the atomic save (temp file, fsync, rename, fsync dir).

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::time::SystemTime;

use anyhow::Context;
use serde::Deserialize;
use tempfile::NamedTempFile;

use super::{Loaded, PROGRESS_VERSION, Progress, aside, path};

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
    if let Ok(v) = serde_json::from_slice::<VersionOnly>(bytes)
        && v.version > PROGRESS_VERSION
    {
        return Err(format!(
            "it was written by a newer cuda-academy: format version {}, this one reads up to {PROGRESS_VERSION}",
            v.version
        ));
    }
    let mut progress: Progress =
        serde_json::from_slice(bytes).map_err(|e| format!("it is not valid progress JSON: {e}"))?;
    progress.version = PROGRESS_VERSION;
    Ok(progress)
}

/// Load `dir/progress.json`; a missing file is a fresh start, an unreadable one is renamed to
/// `progress.json.corrupt-<time>` with a banner. Never fails.
pub fn load(dir: &Path) -> Loaded {
    let stamp = aside::utc_stamp(SystemTime::now());
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
    let bytes = match fs::read(&file) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return fresh(None),
        // Not corrupt, just unreadable (permissions, a folder in its place): leave it alone.
        Err(err) => {
            return fresh(Some(format!(
                "Your progress file {} could not be read ({err}). You are starting fresh, but \
                 progress will not be saved this session so that file is not lost: fix or move \
                 it, then restart.",
                file.display()
            )));
        }
    };
    match parse(&bytes) {
        Ok(progress) => Loaded {
            progress,
            banner: None,
        },
        Err(why) => fresh(Some(aside::set_aside(&file, &why, stamp, rename))),
    }
}

/// Read `dir/progress.json` without touching it: `None` when missing or unreadable. For
/// read-only views such as `cuda-academy list`.
pub fn peek(dir: &Path) -> Option<Progress> {
    fs::read(path(dir)).ok().and_then(|b| parse(&b).ok())
}

/// Write `dir/progress.json` atomically (temp file, fsync, rename, fsync dir). Refuses to replace
/// an existing file it cannot parse: that file was not moved aside, and would be lost.
pub fn save(dir: &Path, progress: &Progress) -> anyhow::Result<()> {
    save_with(dir, progress, |_| Ok(()))
}

/// [`save`] with a step run just before the rename (tests make it fail).
pub(crate) fn save_with(
    dir: &Path,
    progress: &Progress,
    before_persist: impl FnOnce(&mut NamedTempFile) -> io::Result<()>,
) -> anyhow::Result<()> {
    // Through a symlink to its target (a dotfiles setup), like every file this program writes.
    let file = crate::atomic_file::resolve_links(&path(dir)).unwrap_or_else(|_| path(dir));
    refuse_unreadable(&file)?;
    fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the progress folder {}", dir.display()))?;
    let record = Progress {
        version: PROGRESS_VERSION,
        ..progress.clone()
    };
    let mut json = serde_json::to_vec_pretty(&record).context("cannot encode progress")?;
    json.push(b'\n');
    let write_err = || format!("cannot write progress in {}", dir.display());
    // Dropping the temp file on any error below deletes it; progress.json is untouched.
    let mut tmp = NamedTempFile::new_in(dir).with_context(write_err)?;
    tmp.write_all(&json).with_context(write_err)?;
    tmp.as_file().sync_all().with_context(write_err)?;
    before_persist(&mut tmp).with_context(write_err)?;
    tmp.persist(&file)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot replace {}", file.display()))?;
    sync_dir(dir);
    Ok(())
}

fn refuse_unreadable(file: &Path) -> anyhow::Result<()> {
    let why = match fs::read(file) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(err) => format!("it cannot be read ({err})"),
        Ok(bytes) => match parse(&bytes) {
            Ok(_) => return Ok(()),
            Err(why) => why,
        },
    };
    anyhow::bail!(
        "will not overwrite {}: {why}; move or delete it to save progress again",
        file.display()
    )
}

/// Make the rename durable. Best effort: the new file is already in place, and some file
/// systems refuse to fsync a directory.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}
