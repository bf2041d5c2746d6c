//! What the tutorial loads before its first frame: the lessons, the state folder, the saved
//! progress, each with what to tell the learner when something is wrong.

use std::path::PathBuf;
use std::time::Duration;

use super::Options;
use crate::app::{Banner, BannerKind};
use crate::lesson::Catalog;
use crate::progress;

/// How old a temp file in the state dir must be to count as left by a kill (a save in another
/// instance takes milliseconds).
pub const STALE_TEMP_AGE: Duration = Duration::from_secs(60);

/// Remove the temp files a killed save left in the state dir and in its `exercises` folder
/// (the editor's and `passed.json`'s saves write there), older than [`STALE_TEMP_AGE`].
/// Returns how many were removed.
pub fn remove_stale_temps(dir: &std::path::Path) -> usize {
    // Review 2026-12-01 W1: only the state dir itself was cleaned.
    [dir.to_path_buf(), dir.join("exercises")]
        .iter()
        .map(|d| crate::atomic_file::remove_stale_temps(d, STALE_TEMP_AGE))
        .sum()
}

/// `dir`, unless it can never be created because a file stands where a folder must be (e.g.
/// `CUDA_ACADEMY_STATE_DIR=some-file/sub`): then an error that names that file.
pub fn usable_state_dir(dir: PathBuf) -> anyhow::Result<PathBuf> {
    let blocker = dir
        .ancestors()
        .find(|p| std::fs::symlink_metadata(p).is_ok())
        .filter(|p| !p.is_dir());
    match blocker {
        Some(file) => anyhow::bail!(
            "the progress folder {} cannot be created because {} is a file, not a folder; set \
             {} to a folder you can write to",
            dir.display(),
            file.display(),
            progress::STATE_DIR_ENV
        ),
        None => Ok(dir),
    }
}

/// The saved progress and what to tell the learner about it (moved aside, or not saved at all).
pub fn load_progress(
    state_dir: Result<&PathBuf, &anyhow::Error>,
) -> (progress::Progress, Vec<Banner>) {
    match state_dir {
        Ok(dir) => {
            let loaded = progress::load(dir);
            let banner = loaded.banner.map(|text| Banner {
                kind: BannerKind::Warning,
                text,
            });
            (loaded.progress, banner.into_iter().collect())
        }
        Err(err) => (
            progress::Progress::default(),
            vec![Banner {
                kind: BannerKind::Warning,
                text: format!("progress will not be saved: {err:#}"),
            }],
        ),
    }
}

/// The lessons `--lessons` names, else the built-in ones; none at all is an error.
pub fn load_catalog(args: &Options) -> anyhow::Result<Catalog> {
    let catalog = match &args.lessons {
        Some(dir) => Catalog::load_dir(dir)?,
        None => Catalog::embedded(),
    };
    if catalog.is_empty() {
        let place = args
            .lessons
            .as_ref()
            .map_or("this build".to_string(), |d| d.display().to_string());
        anyhow::bail!(
            "no lessons found in {place}: a lesson is a `*.md` file with `+++` TOML front matter (see README, \"Writing lessons\")"
        );
    }
    Ok(catalog)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Review 2026-12-01 W1: a kill inside the exercise save left `exercises/.tmpXXXXXX` for
    /// good. Old temps go from both folders; young ones (a save in progress elsewhere) and the
    /// learner's files stay.
    #[test]
    fn old_temps_go_from_the_state_dir_and_its_exercises_folder() {
        let dir = tempfile::tempdir().unwrap();
        let ex = dir.path().join("exercises");
        std::fs::create_dir_all(&ex).unwrap();
        let old = std::time::SystemTime::now() - STALE_TEMP_AGE - Duration::from_secs(5);
        for p in [
            dir.path().join(".cuda-academy-tmp-a1"),
            ex.join(".tmp47rr2y"),
            ex.join(".cuda-academy-tmp-b2"),
        ] {
            std::fs::write(&p, "x").unwrap();
            std::fs::File::options()
                .write(true)
                .open(&p)
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        std::fs::write(ex.join(".tmpyoung1"), "x").unwrap();
        std::fs::write(ex.join("time-a-copy.cu"), "int main() {}").unwrap();
        assert_eq!(remove_stale_temps(dir.path()), 3);
        let mut left: Vec<_> = std::fs::read_dir(&ex)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, [".tmpyoung1", "time-a-copy.cu"]);
    }
}
