//! The learner's exercise files: `exercises/<id>.cu` in the state folder (beside
//! `passed.json`), created from the starter the first time and written atomically (temp file in
//! the same folder, then rename), so a crash mid-save leaves the old file whole. Where the
//! folder cannot be written but the file can (an `exercises/` folder made by a run as root), the
//! file is written in place instead. Every read is bounded and non-blocking
//! ([`crate::bounded_read`]): a FIFO, a device or an oversized file is an error at once, on any
//! thread. What could not be saved at all goes to a recovery file ([`recover`]).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::Context;

use crate::exercise::catalog;

pub use crate::app::editor::Stamp;

/// The file's stamp, if it can be read (a `stat`, which never blocks on a FIFO).
pub fn stamp(path: &Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp {
        mtime: meta.modified().ok(),
        len: meta.len(),
        ino: meta.ino(),
    })
}

/// Where exercise `id` is kept.
pub fn file_for(state_dir: &Path, id: &str) -> PathBuf {
    state_dir.join("exercises").join(format!("{id}.cu"))
}

/// The learner's text, creating the file from the starter when there is none yet.
pub fn load_or_create(state_dir: &Path, id: &str) -> anyhow::Result<String> {
    let path = file_for(state_dir, id);
    if path.exists() {
        return read(&path);
    }
    let ex = catalog::find(id).with_context(|| format!("unknown exercise {id:?}"))?;
    save(state_dir, id, ex.starter)?;
    Ok(ex.starter.to_string())
}

/// Read a file back as UTF-8 text: a regular file, bounded, never blocking on a FIFO (the
/// CLI reads through the same function and cap).
pub fn read(path: &Path) -> anyhow::Result<String> {
    Ok(crate::bounded_read::read_text(
        path,
        crate::exercise::SOURCE_CAP,
    )?)
}

/// Write `text` as exercise `id`'s file, atomically; in place when the folder refuses a temp
/// file but the file itself is a writable regular file.
pub fn save(state_dir: &Path, id: &str, text: &str) -> anyhow::Result<()> {
    let path = file_for(state_dir, id);
    let dir = path.parent().unwrap_or(state_dir);
    std::fs::create_dir_all(dir).with_context(|| {
        format!(
            "cannot create the folder {}; make sure it is a folder you can write to",
            dir.display()
        )
    })?;
    // The one atomic write; where the folder takes no new file (no temp file can be made) but
    // the file itself is writable, it is overwritten in place rather than not saved at all.
    match crate::atomic_file::write(&path, text.as_bytes()) {
        Ok(()) => Ok(()),
        Err(e) => write_in_place(&path, text).map_err(|_| {
            anyhow::Error::new(e).context(format!(
                "cannot write in {}; make the folder writable or free some space",
                dir.display()
            ))
        }),
    }
}

/// Overwrite the regular file at `path` with `text` (never a FIFO or device: opened
/// non-blocking and checked before it is truncated).
fn write_in_place(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    file.set_len(0)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

/// Write text that could not be saved under its own name to a new recovery file: first
/// `recovered/<id>-<time>.cu` in the state folder, else the same name in the system's temp
/// folder. The path written, or why neither could be.
pub fn recover(
    state_dir: Option<&Path>,
    id: &str,
    text: &str,
    now: SystemTime,
) -> Result<PathBuf, String> {
    let t = crate::utc::Utc::at(now);
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = format!("{safe}-{}-{}", t.date(), t.time());
    let mut folders: Vec<PathBuf> = state_dir.map(|d| d.join("recovered")).into_iter().collect();
    folders.push(std::env::temp_dir().join("cuda-academy-recovered"));
    let mut why = Vec::new();
    for folder in folders {
        if let Err(e) = std::fs::create_dir_all(&folder) {
            why.push(format!("{}: {e}", folder.display()));
            continue;
        }
        for n in 0..100 {
            let path = match n {
                0 => folder.join(format!("{name}.cu")),
                n => folder.join(format!("{name}-{n}.cu")),
            };
            match crate::atomic_file::create_new(&path, text.as_bytes()) {
                Ok(()) => return Ok(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => {
                    why.push(format!("{}: {e}", folder.display()));
                    break;
                }
            }
        }
    }
    Err(format!(
        "no recovery file could be written ({})",
        why.join("; ")
    ))
}

/// Put the starter back.
pub fn reset(state_dir: &Path, id: &str) -> anyhow::Result<String> {
    let ex = catalog::find(id).with_context(|| format!("unknown exercise {id:?}"))?;
    save(state_dir, id, ex.starter)?;
    Ok(ex.starter.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_load_writes_the_starter_and_later_loads_keep_the_learners_text() {
        let dir = tempfile::tempdir().unwrap();
        let id = catalog::ids()[0].to_string();
        let first = load_or_create(dir.path(), &id).unwrap();
        assert_eq!(first, catalog::find(&id).unwrap().starter);
        save(dir.path(), &id, "// mine\n").unwrap();
        assert_eq!(load_or_create(dir.path(), &id).unwrap(), "// mine\n");
        assert_eq!(reset(dir.path(), &id).unwrap(), first);
        assert_eq!(read(&file_for(dir.path(), &id)).unwrap(), first);
    }
}
