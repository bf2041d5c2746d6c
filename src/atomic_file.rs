//! Writing files so that a failure never destroys what was there: the one helper behind
//! `calibrate --out`, `run --trace`, the TUI's `e`, `progress.json`, `exercises/passed.json` and
//! the learner's exercise files (issue 20: one atomic write, not four).
//!
//! [`write()`] puts the bytes in a temporary file in the same folder, fsyncs it and renames it
//! over the target, so a full disk or a kill leaves either the old file or the new one, never a
//! fragment. A symlink is written through (its target is replaced, the link stays), as a user
//! who keeps files in a dotfiles folder expects. [`create_new`] is for names the program picks
//! itself: it never follows or replaces anything that already exists, a dangling symlink
//! included. [`remove_stale_temps`] cleans what a kill left behind. [`lock`] serialises a
//! read-merge-write among processes, for files that several instances update at once.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Prefix of this module's temporary files (hidden, and recognisable for cleaning).
pub const TEMP_PREFIX: &str = ".cuda-academy-tmp-";

/// Most symlinks followed before giving up (as the kernel's ELOOP limit).
const MAX_LINKS: usize = 40;

/// Replace `path` with `bytes` atomically (through a symlink, onto its target). A path that is
/// not a regular file (`/dev/stdout`, `/dev/full`, a FIFO) is written into, never replaced:
/// renaming over it would put a regular file in place of a device (as root, `/dev/null`).
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_checked(path, bytes, |_| Ok(()))
}

/// [`write()`] with a step run on the synced temporary file just before the rename: tests make
/// it fail (a full disk at the last moment) to show the old file survives and no temp is left.
pub(crate) fn write_checked(
    path: &Path,
    bytes: &[u8],
    before_rename: impl FnOnce(&fs::File) -> io::Result<()>,
) -> io::Result<()> {
    if fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return write_into(path, bytes);
    }
    let target = resolve_links(path)?;
    let dir = folder_of(&target);
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)?;
    // Keep the permissions of the file being replaced (a profile shared read-only, say).
    if let Ok(meta) = fs::metadata(&target) {
        let _ = tmp.as_file().set_permissions(meta.permissions());
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    before_rename(tmp.as_file())?;
    // Dropping `tmp` on an error above deletes it; the old file is untouched.
    tmp.persist(&target).map_err(|e| e.error)?;
    sync_dir(dir);
    Ok(())
}

/// An exclusive advisory lock (`flock`) on a lock file, held until dropped (closing the file
/// releases it, also when the process dies, so a kill never leaves it held).
#[derive(Debug)]
pub struct Lock {
    _file: fs::File,
}

/// Take an exclusive lock on `path` (created if needed), waiting for another holder to finish.
///
/// Re-reading and merging just before the rename (as `progress.json`'s save does) narrows the
/// window in which two writers lose each other's update, but does not close it: both can read
/// the old file before either renames. Holding this lock around the read, the merge and the
/// [`write()`] closes it. Where the system has no `flock` the lock is the open file only.
pub fn lock(path: &Path) -> io::Result<Lock> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    #[cfg(unix)]
    rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)?;
    Ok(Lock { _file: file })
}

/// Write `bytes` into an existing special file (a device, a FIFO, `/dev/stdout`), as a shell's
/// `>` would; its errors (`/dev/full`: no space) are the write's errors.
fn write_into(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    file.write_all(bytes)?;
    file.flush()
}

/// Create `path`, which must not exist in any form (not even as a dangling symlink), holding
/// `bytes`. The bytes go to a temporary file in the same folder first, which is then moved to
/// `path` only if nothing is there (`persist_noclobber`), so a kill or a full disk mid-write
/// never leaves a truncated file under the final name.
pub fn create_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // Checked first so a taken name costs no write; the move below checks again, atomically.
    if fs::symlink_metadata(path).is_ok() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} already exists", path.display()),
        ));
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(folder_of(path))?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    // Dropping `tmp` on an error deletes it.
    tmp.persist_noclobber(path).map_err(|e| e.error)?;
    Ok(())
}

/// The file a write to `path` lands in: `path` itself, or the end of its chain of symlinks
/// (which may not exist yet).
pub fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = folder_of(&current).join(link);
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!(
        "{} is a chain of more than {MAX_LINKS} symbolic links",
        path.display()
    )))
}

/// Remove temporary files in `dir` older than `age` left by a killed write: this module's, and
/// `tempfile`'s default `.tmpXXXXXX` ones (which only this program creates in its own state
/// folder). Younger ones may belong to a save in progress in another instance. Returns how
/// many were removed.
pub fn remove_stale_temps(dir: &Path, age: Duration) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let now = SystemTime::now();
    entries
        .flatten()
        .filter(|e| is_temp_name(&e.file_name().to_string_lossy()))
        .filter(|e| {
            e.metadata().is_ok_and(|m| {
                m.is_file()
                    && m.modified()
                        .ok()
                        .and_then(|t| now.duration_since(t).ok())
                        .is_some_and(|a| a >= age)
            })
        })
        .filter(|e| fs::remove_file(e.path()).is_ok())
        .count()
}

fn is_temp_name(name: &str) -> bool {
    let tempfile_default = name
        .strip_prefix(".tmp")
        .is_some_and(|rest| rest.len() == 6 && rest.chars().all(|c| c.is_ascii_alphanumeric()));
    name.starts_with(TEMP_PREFIX) || tempfile_default
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Make the rename durable. Best effort: the new file is in place, and some file systems refuse
/// to fsync a folder.
fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn writes_replace_and_leave_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.toml");
        write(&path, b"one").unwrap();
        write(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_written_through_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.toml");
        let link = dir.path().join("link.toml");
        fs::write(&real, b"old").unwrap();
        std::os::unix::fs::symlink("real.toml", &link).unwrap();
        write(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).unwrap(), b"new");
    }

    #[cfg(unix)]
    #[test]
    fn create_new_refuses_existing_names_and_dangling_links() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        let trap = dir.path().join("trace.json");
        std::os::unix::fs::symlink(&victim, &trap).unwrap();
        let err = create_new(&trap, b"x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert!(!victim.exists(), "wrote through a dangling symlink");
        let fresh = dir.path().join("fresh.json");
        create_new(&fresh, b"x").unwrap();
        assert!(create_new(&fresh, b"y").is_err());
        assert_eq!(fs::read(&fresh).unwrap(), b"x");
    }

    /// Review rerun: `--trace /dev/full` renamed a temp file over the device (as root, any
    /// device: `/dev/null`). A special file is written into and stays what it was. (A FIFO
    /// stands for the devices here, so that the old behaviour fails this test harmlessly.)
    #[cfg(unix)]
    #[test]
    fn special_files_are_written_into_never_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
        let reader = std::thread::spawn({
            let fifo = fifo.clone();
            move || fs::read(fifo).unwrap()
        });
        write(&fifo, b"through").unwrap();
        let kind = fs::metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "the FIFO was replaced by a {kind:?}");
        assert_eq!(reader.join().unwrap(), b"through");
    }

    #[test]
    fn stale_temps_are_removed_and_other_files_kept() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            ".tmpAb12Cd",
            ".cuda-academy-tmp-x1",
            "progress.json",
            ".tmpnotours",
        ] {
            fs::write(dir.path().join(name), b"x").unwrap();
        }
        assert_eq!(remove_stale_temps(dir.path(), Duration::from_secs(3600)), 0);
        assert_eq!(remove_stale_temps(dir.path(), Duration::ZERO), 2);
        let mut left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, [".tmpnotours", "progress.json"]);
    }
}
