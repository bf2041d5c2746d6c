//! The learner's exercise files: `exercises/<id>.cu` in the state folder (beside
//! `passed.json`), created from the starter the first time and written atomically (temp file in
//! the same folder, then rename), so a crash mid-save leaves the old file whole.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::Context;

use crate::exercise::catalog;

/// Where exercise `id` is kept.
pub fn file_for(state_dir: &Path, id: &str) -> PathBuf {
    state_dir.join("exercises").join(format!("{id}.cu"))
}

/// The file's modification time, if it can be read.
pub fn mtime(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
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

/// Write `text` as exercise `id`'s file, atomically.
pub fn save(state_dir: &Path, id: &str, text: &str) -> anyhow::Result<()> {
    let path = file_for(state_dir, id);
    let dir = path.parent().unwrap_or(state_dir);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    crate::atomic_file::write(&path, text.as_bytes())
        .with_context(|| format!("cannot save {}", path.display()))
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
