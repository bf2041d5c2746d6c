//! Moving an unreadable progress file aside: `progress.json.corrupt-<UTC time>`, never on top of
//! an earlier one, and the banner that tells the learner what happened.

use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How many `-N` suffixes to try when corrupt files with the same timestamp already exist.
const MAX_SUFFIX: u32 = 1000;

/// `time` as `YYYYMMDDTHHMMSSZ` (UTC); times before 1970 read as 1970.
pub(crate) fn utc_stamp(time: SystemTime) -> String {
    let t = crate::utc::Utc::at(time);
    format!("{}T{}Z", t.date(), t.time())
}

/// The first `FILE.corrupt-STAMP`, `FILE.corrupt-STAMP-2`, ... that does not exist yet.
pub(crate) fn free_name(file: &Path, stamp: &str) -> Option<PathBuf> {
    let name = file.file_name()?.to_string_lossy().into_owned();
    (1..=MAX_SUFFIX)
        .map(|n| {
            let suffix = if n == 1 {
                String::new()
            } else {
                format!("-{n}")
            };
            file.with_file_name(format!("{name}.corrupt-{stamp}{suffix}"))
        })
        // symlink_metadata: a dangling link still occupies the name, so never rename onto it.
        .find(|candidate| std::fs::symlink_metadata(candidate).is_err())
}

/// Move `file` (which could not be parsed because of `why`) aside with `rename`, and return the
/// banner to show. When the move fails the banner says progress will not be saved, which is
/// what `save` enforces by refusing to replace a file it cannot parse.
pub(crate) fn set_aside(
    file: &Path,
    why: &str,
    stamp: &str,
    rename: &dyn Fn(&Path, &Path) -> io::Result<()>,
) -> String {
    let moved = match free_name(file, stamp) {
        Some(target) => rename(file, &target).map(|()| target),
        None => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "too many corrupt files with the same timestamp",
        )),
    };
    match moved {
        Ok(target) => format!(
            "Your progress file could not be read ({why}). It was kept as {} and you are starting fresh.",
            target.display()
        ),
        Err(err) => format!(
            "Your progress file {} could not be read ({why}) and could not be moved aside ({err}). \
             You are starting fresh, but progress will not be saved this session so that file is \
             not lost: move or delete it, then restart.",
            file.display()
        ),
    }
}
