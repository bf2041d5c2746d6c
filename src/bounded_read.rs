//! The one way the program reads a file it did not just write itself: exercise sources, the
//! state files (`progress.json`, `exercises/passed.json`), lesson files and simulator profiles.
//!
//! Every one of these paths can be something other than a file, by mistake or on purpose: a
//! link to `/dev/zero` (a plain `fs::read` then grows until the OOM killer ends it), a FIFO with
//! no writer (a plain `open` blocks forever, on the TUI's UI thread where no key or signal
//! reaches it), a directory. So [`read`]:
//!
//! 1. opens with `O_NONBLOCK`, so opening a FIFO returns at once instead of waiting for a
//!    writer (regular files ignore the flag);
//! 2. `fstat`s the file it opened (not the path, which could change in between) and accepts
//!    only a regular file: a FIFO, device, socket or directory is a [`ReadError::NotRegular`]
//!    naming the path;
//! 3. checks the size against the caller's cap before reading, and again while reading: at most
//!    `cap + 1` bytes are ever read, so a file that grows, or lies about its size, cannot exceed
//!    it.
//!
//! Paths in messages are cleaned with [`crate::sanitize::clean_line`], since a file name can
//! hold escape sequences. (`/proc` and `/sys` files, read by `meminfo` and the PCIe probes, are
//! the kernel's own small text files and keep their plain reads.)

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// What is being read, for messages ("an exercise file is at most 1048576 bytes").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    /// Most bytes accepted.
    pub bytes: u64,
    /// What such a file is, with its article: "an exercise file", "a progress file".
    pub what: &'static str,
}

/// Why a file could not be read. Each message names the path and says what to do.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The open or the read failed (missing, permissions, a symlink loop...).
    #[error("cannot read {path}: {err}")]
    Io { path: String, err: io::Error },
    /// Not a regular file.
    #[error("{path} is {kind}, not a regular file; {what} must be a regular file")]
    NotRegular {
        path: String,
        kind: &'static str,
        what: &'static str,
    },
    /// Over the cap; `size` when the file said so before the read.
    #[error("{path} is {}; {what} is at most {cap} bytes", size_words(*.size, *.cap))]
    TooLarge {
        path: String,
        size: Option<u64>,
        cap: u64,
        what: &'static str,
    },
    /// Not UTF-8 (only from [`read_text`]).
    #[error("{path} is not UTF-8 text; save it as UTF-8")]
    NotUtf8 { path: String },
}

fn size_words(size: Option<u64>, cap: u64) -> String {
    match size {
        Some(n) => format!("{n} bytes"),
        None => format!("more than {cap} bytes"),
    }
}

impl ReadError {
    /// The file does not exist (callers treat that as "nothing saved yet").
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io { err, .. } if err.kind() == io::ErrorKind::NotFound)
    }
}

/// `path` as shown in messages: one line, control characters replaced.
pub fn shown(path: &Path) -> String {
    crate::sanitize::clean_line(&path.display().to_string())
}

/// The bytes of the regular file at `path` (symlinks followed), at most `cap.bytes` of them.
pub fn read(path: &Path, cap: Cap) -> Result<Vec<u8>, ReadError> {
    let io_err = |err| ReadError::Io {
        path: shown(path),
        err,
    };
    let file = open_nonblocking(path).map_err(io_err)?;
    let meta = file.metadata().map_err(io_err)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular {
            path: shown(path),
            kind: kind_of(&meta.file_type()),
            what: cap.what,
        });
    }
    let too_large = |size| ReadError::TooLarge {
        path: shown(path),
        size,
        cap: cap.bytes,
        what: cap.what,
    };
    if meta.len() > cap.bytes {
        return Err(too_large(Some(meta.len())));
    }
    // The size just read is a hint, not a promise: the file may grow while it is read.
    let hint = usize::try_from(meta.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(hint.saturating_add(1));
    file.take(cap.bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_err)?;
    if bytes.len() as u64 > cap.bytes {
        return Err(too_large(None));
    }
    Ok(bytes)
}

/// [`read`], as UTF-8 text.
pub fn read_text(path: &Path, cap: Cap) -> Result<String, ReadError> {
    String::from_utf8(read(path, cap)?).map_err(|_| ReadError::NotUtf8 { path: shown(path) })
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: opening a FIFO with no writer returns at once (then fstat refuses it); a
    // regular file ignores the flag, so its reads are the same as without it.
    let nonblock = rustix::fs::OFlags::NONBLOCK.bits() as i32;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nonblock)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// A non-regular file's kind, in words.
pub(crate) fn kind_of(t: &std::fs::FileType) -> &'static str {
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    const CAP: Cap = Cap {
        bytes: 16,
        what: "a test file",
    };

    #[test]
    fn a_regular_file_within_the_cap_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, b"sixteen bytes!!!").unwrap();
        assert_eq!(read(&p, CAP).unwrap(), b"sixteen bytes!!!");
        assert_eq!(read_text(&p, CAP).unwrap(), "sixteen bytes!!!");
    }

    #[test]
    fn an_oversize_file_is_refused_with_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big");
        std::fs::write(&p, [b'x'; 17]).unwrap();
        let err = read(&p, CAP).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge { size: Some(17), .. }));
        assert!(
            err.to_string()
                .contains("is 17 bytes; a test file is at most 16 bytes")
        );
    }

    #[test]
    fn a_directory_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(dir.path(), CAP).unwrap_err();
        assert!(matches!(
            err,
            ReadError::NotRegular {
                kind: "a directory",
                ..
            }
        ));
        assert!(err.to_string().contains(&shown(dir.path())));
    }

    #[test]
    fn a_missing_file_is_not_found() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(&dir.path().join("none"), CAP).unwrap_err();
        assert!(err.is_not_found(), "{err}");
    }

    #[test]
    fn invalid_utf8_is_refused_as_text() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("latin1");
        std::fs::write(&p, b"caf\xe9").unwrap();
        assert!(matches!(read_text(&p, CAP), Err(ReadError::NotUtf8 { .. })));
    }

    /// `/dev/zero` reports size 0 and never ends: a plain read grows without bound.
    #[cfg(unix)]
    #[test]
    fn a_symlink_to_dev_zero_is_refused_as_a_device() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = read(&link, CAP).unwrap_err();
        assert!(
            matches!(
                err,
                ReadError::NotRegular {
                    kind: "a character device",
                    ..
                }
            ),
            "{err}"
        );
    }

    /// A FIFO with no writer: a blocking open would never return. Run on a thread so that the
    /// old behaviour fails the test (by the channel's generous limit) instead of hanging it.
    #[cfg(unix)]
    #[test]
    fn a_fifo_without_a_writer_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.cu");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(read(&fifo, CAP).map_err(|e| e.to_string()));
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the read of a FIFO blocked");
        let err = got.unwrap_err();
        assert!(
            err.contains("is a FIFO (named pipe), not a regular file"),
            "{err}"
        );
    }

    #[test]
    fn control_characters_in_the_path_are_not_shown_raw() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(&dir.path().join("x\u{1b}]0;t\u{7}"), CAP).unwrap_err();
        let text = err.to_string();
        assert!(!text.chars().any(crate::sanitize::is_unsafe), "{text:?}");
    }
}
