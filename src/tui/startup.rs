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
