//! The conversations in the state folder: `tutor/<key>.json`, one file per card or exercise,
//! each a [`Conversation`] within its bounds, written atomically (temp file and rename, as
//! `progress.json`), read through [`crate::bounded_read`].
//!
//! A conversation is never the only copy of anything: the learner's code lives in their
//! exercise files and their answers in `progress.json`; the tutor's file holds only what was
//! said, so a file that cannot be read is set aside by starting afresh (the old file is left
//! where it is until the next save replaces it) and a failed save costs only the conversation.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::conversation::{Conversation, Turn};
use crate::bounded_read::{self, Cap};

/// The folder inside the state folder.
pub const DIR: &str = "tutor";
/// This format's version.
pub const FORMAT_VERSION: u32 = 1;
/// A conversation's file is at most this (its bounds keep it far below).
const CAP: Cap = Cap {
    bytes: 1 << 20,
    what: "a tutor conversation file",
};

/// A conversation as saved.
#[derive(Debug, Serialize, Deserialize)]
struct Saved {
    format_version: u32,
    key: String,
    turns: Vec<Turn>,
}

/// The file of the conversation `key` ("card:01-pinned:3", "exercise:two-streams") in
/// `state_dir`: the key with every character but ASCII letters, digits and `-` made `_`, and a
/// hash of the whole key, so that two keys never share a file and no key leaves the folder.
pub fn path(state_dir: &Path, key: &str) -> PathBuf {
    let safe: String = key
        .chars()
        .take(80)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    state_dir
        .join(DIR)
        .join(format!("{safe}-{:08x}.json", hash as u32))
}

/// The conversation `key`, or an empty one when none was saved or the file cannot be used
/// (with why, for a banner).
pub fn load(state_dir: &Path, key: &str) -> (Conversation, Option<String>) {
    let file = path(state_dir, key);
    let text = match bounded_read::read_text(&file, CAP) {
        Ok(text) => text,
        Err(err) if err.is_not_found() => return (Conversation::default(), None),
        Err(err) => return (Conversation::default(), Some(err.to_string())),
    };
    match serde_json::from_str::<Saved>(&text) {
        Ok(saved) if saved.format_version == FORMAT_VERSION && saved.key == key => {
            let mut conversation = Conversation { turns: saved.turns };
            conversation.bound();
            (conversation, None)
        }
        Ok(_) => (Conversation::default(), None),
        Err(err) => {
            let shown = bounded_read::shown(&file);
            (
                Conversation::default(),
                Some(format!(
                    "{shown} is not a tutor conversation ({err}); starting afresh"
                )),
            )
        }
    }
}

/// Save `conversation` as `key`, atomically.
pub fn save(state_dir: &Path, key: &str, conversation: &Conversation) -> std::io::Result<()> {
    let file = path(state_dir, key);
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut bounded = conversation.clone();
    bounded.bound();
    let saved = Saved {
        format_version: FORMAT_VERSION,
        key: key.to_string(),
        turns: bounded.turns,
    };
    let bytes = crate::atomic_file::json_within(&saved, CAP)?;
    crate::atomic_file::replace_file(&file, &bytes).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::conversation::{MAX_CHARS, MAX_TURNS, Role};

    #[test]
    fn a_conversation_comes_back_as_saved() {
        let dir = tempfile::tempdir().map_err(|e| e.to_string());
        let Ok(dir) = dir else { panic!("no temp dir") };
        let mut c = Conversation::default();
        c.push(Role::User, "why does stream 2 wait?");
        c.push(Role::Assistant, "What does line 12 wait for?");
        assert!(save(dir.path(), "exercise:two-streams", &c).is_ok());
        assert_eq!(load(dir.path(), "exercise:two-streams"), (c, None));
        let (other, why) = load(dir.path(), "exercise:other");
        assert!(other.turns.is_empty() && why.is_none());
    }

    #[test]
    fn keys_stay_inside_the_folder_and_apart() {
        let dir = Path::new("/state");
        let a = path(dir, "card:../../etc/passwd");
        assert_eq!(a.parent(), Some(Path::new("/state/tutor")));
        assert_ne!(path(dir, "card:a/b"), path(dir, "card:a_b"));
    }

    #[test]
    fn a_bad_file_starts_afresh_and_says_so_and_a_huge_one_is_bounded() {
        let Ok(dir) = tempfile::tempdir() else {
            panic!("no temp dir")
        };
        let file = path(dir.path(), "k");
        let made = file.parent().map(std::fs::create_dir_all);
        assert!(matches!(made, Some(Ok(()))));
        assert!(std::fs::write(&file, "{ not json").is_ok());
        let (c, why) = load(dir.path(), "k");
        assert!(c.turns.is_empty());
        assert!(why.is_some_and(|w| w.contains("starting afresh")));
        // Written by hand past the bounds: loaded within them.
        let turns: Vec<_> = (0..200)
            .map(
                |i| serde_json::json!({"role": "user", "text": format!("{i} {}", "x".repeat(900))}),
            )
            .collect();
        let text = serde_json::json!({"format_version": 1, "key": "k", "turns": turns});
        assert!(std::fs::write(&file, text.to_string()).is_ok());
        let (c, _) = load(dir.path(), "k");
        assert!(c.turns.len() <= MAX_TURNS && c.chars() <= MAX_CHARS);
        assert!(c.turns.last().is_some_and(|t| t.text.starts_with("199 ")));
    }
}
