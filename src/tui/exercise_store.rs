//! The learner's exercise files: `exercises/<id>.cu` in the state folder (beside
//! `passed.json`), created from the starter the first time and written only by temp file and
//! rename, so a crash, a full disk or a file-size limit mid-save leaves the old file whole
//! (there is no in-place write: it is the one that can leave a fragment). Every read is bounded and non-blocking
//! ([`crate::bounded_read`]): a FIFO, a device or an oversized file is an error at once, on any
//! thread. What could not be saved at all goes to a recovery file ([`recover`]).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::Context;

use crate::exercise::catalog;

pub use crate::app::editor::Stamp;

/// The file's stamp, if it can be read (a `stat`, which never blocks on a FIFO).
pub fn stamp(path: &Path) -> Option<Stamp> {
    std::fs::metadata(path).ok().map(|m| stamp_of(&m))
}

/// Where exercise `id` is kept.
pub fn file_for(state_dir: &Path, id: &str) -> PathBuf {
    state_dir.join("exercises").join(format!("{id}.cu"))
}

/// The learner's text, creating the file from the starter when there is none yet, with the
/// stamp of what was read. The stamp is taken before the read: a change landing between the
/// two then shows as a change on the next poll, instead of a new stamp on the old text.
pub fn load_or_create(state_dir: &Path, id: &str) -> anyhow::Result<(String, Option<Stamp>)> {
    let path = file_for(state_dir, id);
    if path.exists() {
        let before = stamp(&path);
        return Ok((read(&path)?, before));
    }
    let ex = catalog::find(id).with_context(|| format!("unknown exercise {id:?}"))?;
    let stamp = save(state_dir, id, ex.starter)?;
    Ok((ex.starter.to_string(), Some(stamp)))
}

/// Read a file back as UTF-8 text: a regular file, bounded, never blocking on a FIFO (the
/// CLI reads through the same function and cap).
pub fn read(path: &Path) -> anyhow::Result<String> {
    Ok(crate::bounded_read::read_text(
        path,
        crate::exercise::SOURCE_CAP,
    )?)
}

/// Write `text` as exercise `id`'s file: a temp file beside it, then a rename, and nothing
/// else. When that is impossible (a full disk, a file-size limit, a folder that takes no new
/// file, a FIFO or device in the file's place) the file on disk is left exactly as it was, its
/// stamp included, and the error says why and what to do; the caller keeps the text (and
/// writes a recovery copy, [`recover`]). There is no in-place fallback: truncating and
/// rewriting the file is the one write that can leave a fragment (review 2026-12-01b ST1,
/// ST2). Returns the stamp of the file written, read from that file itself, so a write by
/// someone else just after it is still seen as a change.
pub fn save(state_dir: &Path, id: &str, text: &str) -> anyhow::Result<Stamp> {
    save_checked(state_dir, id, text, |_| Ok(()))
}

/// [`save`] with a step run just before the rename (tests inject a full disk there).
pub(crate) fn save_checked(
    state_dir: &Path,
    id: &str,
    text: &str,
    before_rename: impl FnOnce(&std::fs::File) -> std::io::Result<()>,
) -> anyhow::Result<Stamp> {
    let path = file_for(state_dir, id);
    let dir = path.parent().unwrap_or(state_dir);
    std::fs::create_dir_all(dir).with_context(|| {
        format!(
            "cannot create the folder {}; make sure it is a folder you can write to",
            crate::bounded_read::shown(dir)
        )
    })?;
    match crate::atomic_file::replace_file_checked(&path, text.as_bytes(), before_rename) {
        Ok(meta) => Ok(stamp_of(&meta)),
        Err(e) => Err(anyhow::anyhow!("{}", why_not_written(&path, &e))),
    }
}

/// A failed save in words: the cause, what to do, and that the file is untouched.
fn why_not_written(path: &Path, e: &std::io::Error) -> String {
    let dir = crate::bounded_read::shown(path.parent().unwrap_or(Path::new(".")));
    use std::io::ErrorKind as K;
    // By kind: the temp file's errors carry its path, and lose the raw OS error on the way.
    let cause = match e.kind() {
        K::StorageFull => format!("the disk holding {dir} is full (free some space)"),
        K::QuotaExceeded => format!("the disk quota for {dir} is used up (free some space)"),
        K::FileTooLarge => "the file would exceed this session's file-size limit (ulimit -f; raise it, or quit and restart without it)".to_string(),
        K::PermissionDenied | K::ReadOnlyFilesystem => {
            format!("{dir} cannot be written ({e}; make the folder writable)")
        }
        _ => format!("{e}"),
    };
    format!(
        "{cause}; {} is left as it was",
        crate::bounded_read::shown(path)
    )
}

/// A stamp from metadata already read.
fn stamp_of(meta: &std::fs::Metadata) -> Stamp {
    use std::os::unix::fs::MetadataExt;
    Stamp {
        mtime: meta.modified().ok(),
        len: meta.len(),
        ino: meta.ino(),
    }
}

/// Write text that could not be saved under its own name to a new recovery file: first
/// `recovered/<id>-<time>.cu` in the state folder, else the same name in the system's temp
/// folder (a full disk under the state folder usually leaves room there). Under a file-size
/// limit (`ulimit -f`) smaller than the text, no one file can hold it, so it is written in
/// parts, `<name>.part-1-of-N.cu` and so on, which `cat` joins back in order. The path written
/// (with `*` for the part number where it was split), or why nothing could be written.
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
        if let Some(copy) = same_copy(&folder, &safe, text.as_bytes()) {
            return Ok(copy);
        }
        match recover_in(&folder, &name, text.as_bytes()) {
            Ok(path) => return Ok(path),
            Err(e) => why.push(format!("{}: {e}", folder.display())),
        }
    }
    Err(format!(
        "no recovery file could be written ({})",
        why.join("; ")
    ))
}

/// A recovery file of exercise `safe` in `folder` that already holds exactly `bytes` (a save
/// that failed twice with the same text, then quitting): that one is named again instead of
/// writing another copy.
fn same_copy(folder: &Path, safe: &str, bytes: &[u8]) -> Option<PathBuf> {
    let prefix = format!("{safe}-");
    std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(&prefix) && name.ends_with(".cu") && !name.contains(".part-")
        })
        .filter(|e| {
            e.metadata()
                .is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64)
        })
        .map(|e| e.path())
        .find(|p| {
            crate::bounded_read::read(p, crate::exercise::SOURCE_CAP).is_ok_and(|b| b == bytes)
        })
}

/// Sizes of the parts tried, largest first, when the whole text is over the file-size limit
/// (the smallest is the smallest limit `ulimit -f` can set, 1 KiB).
const PART_SIZES: [usize; 4] = [64 << 10, 16 << 10, 4 << 10, 1 << 10];

/// Most parts one recovery is split into (a 1 MiB exercise file in 1 KiB parts).
const MAX_PARTS: usize = 1024;

/// [`recover`] in one folder: a free name `name.cu` (`name-N.cu` when taken), whole, or in parts
/// when the file-size limit refuses the whole.
fn recover_in(folder: &Path, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let free = |n: usize| match n {
        0 => name.to_string(),
        n => format!("{name}-{n}"),
    };
    let mut n = 0;
    let base = loop {
        let candidate = free(n);
        let taken = std::fs::read_dir(folder)?.flatten().any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{candidate}."))
        });
        if !taken {
            break candidate;
        }
        n += 1;
        if n >= 100 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "100 recovery files of this second already exist",
            ));
        }
    };
    let whole = folder.join(format!("{base}.cu"));
    match crate::atomic_file::create_new(&whole, bytes) {
        Err(e) if is_too_large(&e) => {}
        other => return other.map(|()| whole),
    }
    let mut last = None;
    for size in PART_SIZES {
        let count = bytes.len().div_ceil(size).max(1);
        if count > MAX_PARTS {
            break;
        }
        let part = |i: usize| folder.join(format!("{base}.part-{i}-of-{count}.cu"));
        let written = bytes
            .chunks(size)
            .enumerate()
            .try_for_each(|(i, chunk)| crate::atomic_file::create_new(&part(i + 1), chunk));
        match written {
            Ok(()) => return Ok(folder.join(format!("{base}.part-*-of-{count}.cu"))),
            Err(e) => {
                for i in 1..=count {
                    let _ = std::fs::remove_file(part(i));
                }
                if !is_too_large(&e) {
                    return Err(e);
                }
                last = Some(e);
            }
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::from_raw_os_error(27)))
}

/// The file-size limit refused the write (EFBIG).
fn is_too_large(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::FileTooLarge
}

/// Where recovered text is, in words for the banner and the message at quit: the file, or the
/// parts and how to join them.
pub fn recovered_words(path: &Path) -> String {
    let shown = crate::bounded_read::shown(path);
    if let Some(at) = shown.find(".part-*-of-") {
        let joined = format!("{}.cu", &shown[..at]);
        format!(
            "{shown} (in parts: the file-size limit is smaller than the text; join them with: cat $(ls -v {shown}) > {joined})"
        )
    } else {
        shown
    }
}

/// Put the starter back (a FIFO or device in the file's place is an error, left as it is).
pub fn reset(state_dir: &Path, id: &str) -> anyhow::Result<(String, Option<Stamp>)> {
    let ex = catalog::find(id).with_context(|| format!("unknown exercise {id:?}"))?;
    let stamp = save(state_dir, id, ex.starter)?;
    Ok((ex.starter.to_string(), Some(stamp)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_load_writes_the_starter_and_later_loads_keep_the_learners_text() {
        let dir = tempfile::tempdir().unwrap();
        let id = catalog::ids()[0].to_string();
        let (first, stamp) = load_or_create(dir.path(), &id).unwrap();
        assert_eq!(first, catalog::find(&id).unwrap().starter);
        assert_eq!(stamp, super::stamp(&file_for(dir.path(), &id)));
        save(dir.path(), &id, "// mine\n").unwrap();
        assert_eq!(load_or_create(dir.path(), &id).unwrap().0, "// mine\n");
        assert_eq!(reset(dir.path(), &id).unwrap().0, first);
        assert_eq!(read(&file_for(dir.path(), &id)).unwrap(), first);
    }

    /// Review 2026-12-01b ST1: a full disk during the save cut the file to a fragment (the
    /// in-place fallback). Now the file and its stamp are as they were, and the error says so.
    #[test]
    fn a_full_disk_leaves_the_file_and_its_stamp_as_they_were() {
        let dir = tempfile::tempdir().unwrap();
        let id = catalog::ids()[0].to_string();
        save(dir.path(), &id, "// the last good save\n").unwrap();
        let path = file_for(dir.path(), &id);
        let before = stamp(&path);
        let err = save_checked(dir.path(), &id, &"z".repeat(6000), |_| {
            Err(std::io::Error::from(std::io::ErrorKind::StorageFull))
        })
        .unwrap_err();
        let err = format!("{err:#}");
        assert!(
            err.contains("full") && err.contains("left as it was"),
            "{err}"
        );
        assert_eq!(read(&path).unwrap(), "// the last good save\n");
        assert_eq!(stamp(&path), before);
    }

    /// A FIFO in the file's place is an error at once (review ED3: reset hung in `open`).
    #[test]
    fn a_fifo_in_the_files_place_is_an_error_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let id = catalog::ids()[0].to_string();
        let path = file_for(dir.path(), &id);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()));
        let err = format!("{:#}", reset(dir.path(), &id).unwrap_err());
        assert!(err.contains("FIFO"), "{err}");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&path).unwrap().file_type().is_fifo());
    }

    /// The same text recovered twice (a failed save, then quitting) is one file; a text over the
    /// part size is split and joins back.
    #[test]
    fn recovery_names_an_identical_copy_again_and_parts_join_back() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::UNIX_EPOCH;
        let a = recover(Some(dir.path()), "x", "// text\n", now).unwrap();
        let b = recover(Some(dir.path()), "x", "// text\n", now).unwrap();
        assert_eq!(a, b);
        let c = recover(Some(dir.path()), "x", "// other\n", now).unwrap();
        assert_ne!(a, c);
        assert_eq!(std::fs::read_to_string(&c).unwrap(), "// other\n");
        let folder = dir.path().join("parts");
        std::fs::create_dir_all(&folder).unwrap();
        let text = "0123456789".repeat(500);
        let count = text.len().div_ceil(1024);
        let parts: Vec<Vec<u8>> = text.as_bytes().chunks(1024).map(<[u8]>::to_vec).collect();
        for (i, p) in parts.iter().enumerate() {
            let name = folder.join(format!("n.part-{}-of-{count}.cu", i + 1));
            crate::atomic_file::create_new(&name, p).unwrap();
        }
        let words = recovered_words(&folder.join(format!("n.part-*-of-{count}.cu")));
        assert!(
            words.contains("cat $(ls -v") && words.contains("n.cu"),
            "{words}"
        );
    }
}
