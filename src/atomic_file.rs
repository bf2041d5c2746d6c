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
//! read-merge-write among processes, for files that several instances update at once, and
//! waits a bounded time (it runs on the TUI's UI thread). [`replace_file`] is the learner's
//! exercise files' write: rename only, never into a FIFO or device. No open here can block (a
//! FIFO without a reader is an error at once), and [`json_within`] never makes a state file
//! its loader would refuse.

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
    replace(path, bytes, before_rename).map(|_| ())
}

/// Replace the regular file at `path` (or create it) with `bytes` by temp file and rename only,
/// never writing into anything: the write the learner's exercise files use. Returns the new
/// file's metadata, read from the file written (not from the path, which another writer may
/// already have replaced), so the caller's stamp is of what this call put there. On any error
/// (a full disk, a file-size limit, a folder that refuses new files) the old file is exactly
/// as it was, and no temp file is left. A path that is not a regular file (a FIFO, a device)
/// is an error at once, left as it is.
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<fs::Metadata> {
    replace_file_checked(path, bytes, |_| Ok(()))
}

/// [`replace_file`] with a step run just before the rename (tests inject a failure there).
pub(crate) fn replace_file_checked(
    path: &Path,
    bytes: &[u8],
    before_rename: impl FnOnce(&fs::File) -> io::Result<()>,
) -> io::Result<fs::Metadata> {
    if let Ok(meta) = fs::metadata(path)
        && !meta.is_file()
    {
        return Err(io::Error::other(format!(
            "{} is {}, not a regular file; it is left as it is: move it away, then save again",
            crate::bounded_read::shown(path),
            crate::bounded_read::kind_of(&meta.file_type())
        )));
    }
    replace(path, bytes, before_rename)
}

/// Temp file beside the target (through symlinks), fsync, then rename over it.
fn replace(
    path: &Path,
    bytes: &[u8],
    before_rename: impl FnOnce(&fs::File) -> io::Result<()>,
) -> io::Result<fs::Metadata> {
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
    // The rename keeps the inode and the times: this is the new file's stamp.
    let meta = tmp.as_file().metadata()?;
    // Dropping `tmp` on an error above deletes it; the old file is untouched.
    tmp.persist(&target).map_err(|e| e.error)?;
    sync_dir(dir);
    Ok(meta)
}

/// Below this, a JSON state file is written pretty-printed (a person may read it); above it,
/// compact (pretty-printing a large file made it 3.2 times larger, review 2026-12-01b ST4).
const PRETTY_BELOW: usize = 1 << 20;

/// `value` as the JSON bytes of a state file the loader reads with `cap`: pretty when small,
/// compact when large, ended by a newline; an error (the caller keeps the old file) when even
/// the compact form is over the cap, since the next start would refuse to read it.
pub fn json_within<T: serde::Serialize>(
    value: &T,
    cap: crate::bounded_read::Cap,
) -> io::Result<Vec<u8>> {
    let mut json = serde_json::to_vec(value).map_err(io::Error::other)?;
    if json.len() < PRETTY_BELOW {
        json = serde_json::to_vec_pretty(value).map_err(io::Error::other)?;
    }
    json.push(b'\n');
    if json.len() as u64 > cap.bytes {
        return Err(io::Error::other(format!(
            "it would be {} bytes, and {} is at most {} bytes: it would not load again, so the \
             old file is kept as it was",
            json.len(),
            cap.what,
            cap.bytes
        )));
    }
    Ok(json)
}

/// An exclusive advisory lock (`flock`) on a lock file, held until dropped (closing the file
/// releases it, also when the process dies, so a kill never leaves it held).
#[derive(Debug)]
pub struct Lock {
    _file: fs::File,
}

/// How long [`lock`] waits for another holder before giving up with a message. Short, because
/// it runs on the TUI's UI thread: a holder that keeps it longer is a stalled instance or a hung
/// lock daemon (NFS), and waiting on would freeze the tutorial.
pub const LOCK_WAIT: Duration = Duration::from_millis(1500);

/// Pause between two tries of the lock.
const LOCK_RETRY: Duration = Duration::from_millis(25);

/// Take an exclusive lock on `path` (created if needed), waiting at most [`LOCK_WAIT`] for
/// another holder to finish (a holder that keeps it that long is not waited for). The error names the lock file and what to do (another process
/// holds it; it is a directory, not a lock file).
///
/// Re-reading and merging just before the rename (as `progress.json`'s save does) narrows the
/// window in which two writers lose each other's update, but does not close it: both can read
/// the old file before either renames. Holding this lock around the read, the merge and the
/// [`write()`] closes it. Where the system has no `flock` the lock is the open file only.
pub fn lock(path: &Path) -> io::Result<Lock> {
    lock_within(path, LOCK_WAIT)
}

/// [`lock`] with its wait given (tests).
pub(crate) fn lock_within(path: &Path, wait: Duration) -> io::Result<Lock> {
    use std::os::unix::fs::OpenOptionsExt;
    let shown = crate::bounded_read::shown(path);
    if fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(io::Error::other(format!(
            "the lock file {shown} is a directory; remove it (rmdir {shown}) and try again"
        )));
    }
    // O_NONBLOCK: a FIFO put in the lock's place opens at once instead of waiting for a writer.
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot open the lock file {shown}: {e}")))?;
    // The wait is for a holder that does not let go: each holder stamps the lock file when it
    // gets it, so while others get through in turn (twelve checks finishing at once), the
    // wait starts again; only a holder that keeps it for `wait` ends it.
    let stamp = |f: &fs::File| f.metadata().ok().and_then(|m| m.modified().ok());
    let mut last = stamp(&file);
    let mut since = std::time::Instant::now();
    loop {
        match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => {
                let _ = file.set_modified(SystemTime::now());
                return Ok(Lock { _file: file });
            }
            Err(e) if e == rustix::io::Errno::WOULDBLOCK || e == rustix::io::Errno::INTR => {
                let now = stamp(&file);
                if now != last {
                    last = now;
                    since = std::time::Instant::now();
                } else if since.elapsed() >= wait {
                    return Err(io::Error::new(
                        io::ErrorKind::WouldBlock,
                        format!(
                            "another process has held the lock file {shown} for more than {:.1} s \
                             (another cuda-academy still busy, or a hung network file system); \
                             close the other instance, or remove {shown} if none is running",
                            wait.as_secs_f64()
                        ),
                    ));
                }
                std::thread::sleep(LOCK_RETRY);
            }
            Err(e) => {
                return Err(io::Error::other(format!(
                    "cannot lock {shown}: {}",
                    io::Error::from(e)
                )));
            }
        }
    }
}

/// Write `bytes` into an existing special file (a device, a FIFO, `/dev/stdout`), as a shell's
/// `>` would; its errors (`/dev/full`: no space) are the write's errors. The open is
/// non-blocking, so a FIFO with no reader is an error at once (ENXIO), never a wait for one;
/// the writes then block as a shell's would (a device, or a reader that is there).
fn write_into(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let shown = crate::bounded_read::shown(path);
    let mut file = OpenOptions::new()
        .write(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(|e| {
            if e.raw_os_error() == Some(rustix::io::Errno::NXIO.raw_os_error()) {
                io::Error::new(
                    e.kind(),
                    format!("{shown} is a FIFO (named pipe) with no reader; nothing was written"),
                )
            } else {
                io::Error::new(e.kind(), format!("cannot open {shown}: {e}"))
            }
        })?;
    let flags = rustix::fs::fcntl_getfl(&file)?;
    rustix::fs::fcntl_setfl(&file, flags - rustix::fs::OFlags::NONBLOCK)?;
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
        // The reader is there before the write (a non-blocking open of the read end), as a
        // shell's `cat` would be.
        let mut reader = {
            use std::os::unix::fs::OpenOptionsExt;
            OpenOptions::new()
                .read(true)
                .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
                .open(&fifo)
                .unwrap()
        };
        write(&fifo, b"through").unwrap();
        let kind = fs::metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "the FIFO was replaced by a {kind:?}");
        let mut got = Vec::new();
        std::io::Read::read_to_end(&mut reader, &mut got).unwrap();
        assert_eq!(got, b"through");
    }

    /// Review ED3/ED4: a FIFO with no reader blocked `open(O_WRONLY)` (and the UI thread)
    /// until someone read it. Now the write is an error at once, naming the FIFO; the exercise
    /// files' write refuses any special file. (A blocking open would hang: the test's own
    /// timeout guard is the thread join below, bounded by a channel wait.)
    #[cfg(unix)]
    #[test]
    fn a_fifo_without_reader_is_an_error_at_once_never_a_wait() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("time-a-copy.cu");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn({
            let fifo = fifo.clone();
            move || {
                let a = write(&fifo, b"x").map_err(|e| e.to_string());
                let b = replace_file(&fifo, b"x")
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                let _ = tx.send((a, b));
            }
        });
        let got = rx.recv_timeout(Duration::from_secs(30));
        // Unblock a hung writer so the test process can end.
        if got.is_err() {
            let _ = fs::read(&fifo);
        }
        let (a, b) = got.expect("a write into a FIFO with no reader hung");
        assert!(a.unwrap_err().contains("no reader"));
        assert!(b.unwrap_err().contains("FIFO"));
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }

    /// Review ST3: a lock held by another process froze the UI thread for as long as it was
    /// held. Now the wait is bounded and the error names the lock file.
    #[cfg(unix)]
    #[test]
    fn a_held_lock_is_an_error_naming_it_after_a_bounded_wait() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".attempts.json.lock");
        let held = lock(&path).unwrap();
        // flock locks belong to the open file: a second open in this process contends as
        // another process would.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn({
            let path = path.clone();
            move || {
                let _ = tx.send(lock_within(&path, Duration::from_millis(100)).map(|_| ()));
            }
        });
        let got = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the lock waited for its holder");
        let err = got.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        assert!(err.to_string().contains(".attempts.json.lock"), "{err}");
        drop(held);
        lock_within(&path, Duration::from_millis(100)).unwrap();
    }

    /// Review ST6: a lock path that is a directory blamed the folder.
    #[test]
    fn a_lock_path_that_is_a_directory_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".passed.json.lock");
        fs::create_dir(&path).unwrap();
        let err = lock(&path).unwrap_err().to_string();
        assert!(
            err.contains(".passed.json.lock") && err.contains("directory"),
            "{err}"
        );
    }

    /// Review ST1/ST2: a write that fails before the rename (a full disk, a file-size limit)
    /// leaves the old file byte for byte, and no temp file.
    #[test]
    fn a_failed_replace_keeps_the_old_file_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("time-a-copy.cu");
        fs::write(&path, b"the learner's last good save\n").unwrap();
        let before = fs::metadata(&path).unwrap();
        let err = replace_file_checked(&path, &[b'z'; 6000], |_| {
            Err(io::Error::from_raw_os_error(28))
        })
        .unwrap_err();
        assert_eq!(err.raw_os_error(), Some(28));
        assert_eq!(fs::read(&path).unwrap(), b"the learner's last good save\n");
        let after = fs::metadata(&path).unwrap();
        assert_eq!(after.modified().unwrap(), before.modified().unwrap());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        let meta = replace_file(&path, b"new").unwrap();
        use std::os::unix::fs::MetadataExt;
        assert_eq!(meta.ino(), fs::metadata(&path).unwrap().ino());
    }

    /// Review 2026-12-01b ST4: a state file was written pretty-printed past the loader's cap.
    /// Large values are written compact, and one over the cap is refused (the old file stays).
    #[test]
    fn state_json_is_compact_when_large_and_never_over_the_cap() {
        let cap = |bytes| crate::bounded_read::Cap {
            bytes,
            what: "a test file",
        };
        let small: Vec<u32> = vec![1, 2];
        assert_eq!(
            json_within(&small, cap(1 << 20)).unwrap(),
            b"[\n  1,\n  2\n]\n"
        );
        let large: Vec<u32> = vec![7; 700_000];
        let json = json_within(&large, cap(64 << 20)).unwrap();
        assert_eq!(json.len(), 700_000 * 2 + 2, "compact");
        let err = json_within(&large, cap(100_000)).unwrap_err().to_string();
        assert!(
            err.contains("at most 100000 bytes") && err.contains("kept"),
            "{err}"
        );
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
