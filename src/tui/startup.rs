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
    [
        dir.to_path_buf(),
        dir.join("exercises"),
        dir.join(crate::tutor::store::DIR),
    ]
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

/// Open files the tutorial needs at once: the three standard streams, the terminal, the input
/// reader's poller and waker, the signal pipe, a file being saved or read, and the pipes of a
/// child (the CUDA probe, `$EDITOR`). It ran at 10 (2026-12-01); this leaves room.
pub const DESCRIPTORS_NEEDED: u64 = 16;

/// What the soft open-file limit is raised to when it is lower and the hard limit allows.
const DESCRIPTORS_WANTED: u64 = 64;

/// Make sure the open-file limit (`ulimit -n`) leaves room for the tutorial: raise the soft
/// limit when the hard one allows, else refuse with what to do (review 2026-12-01 U5: at
/// `ulimit -n 6` the tutorial said only "cannot read the terminal: Failed to initialize input
/// reader").
#[cfg(unix)]
pub fn enough_descriptors() -> anyhow::Result<()> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return Ok(()); // cannot tell: try, and let the failure speak
    };
    match descriptor_plan(soft, hard) {
        DescriptorPlan::Enough => Ok(()),
        DescriptorPlan::Raise(to) => {
            let _ = setrlimit(Resource::RLIMIT_NOFILE, to, hard);
            Ok(())
        }
        DescriptorPlan::Refuse => anyhow::bail!("{}", too_few_descriptors(hard)),
    }
}

#[cfg(not(unix))]
pub fn enough_descriptors() -> anyhow::Result<()> {
    Ok(())
}

/// What to do about the open-file limits `soft` and `hard`.
#[derive(Debug, PartialEq, Eq)]
enum DescriptorPlan {
    Enough,
    /// Raise the soft limit to this.
    Raise(u64),
    Refuse,
}

fn descriptor_plan(soft: u64, hard: u64) -> DescriptorPlan {
    if soft >= DESCRIPTORS_WANTED {
        DescriptorPlan::Enough
    } else if hard > soft && hard >= DESCRIPTORS_NEEDED {
        DescriptorPlan::Raise(hard.min(DESCRIPTORS_WANTED))
    } else if soft >= DESCRIPTORS_NEEDED {
        DescriptorPlan::Enough
    } else {
        DescriptorPlan::Refuse
    }
}

/// The refusal: what happened and what to do.
fn too_few_descriptors(limit: u64) -> String {
    format!(
        "cannot start: Too many open files: the open-file limit (ulimit -n) is {limit}, and the \
         tutorial needs at least {DESCRIPTORS_NEEDED}; raise it (e.g. `ulimit -n 1024` in this \
         shell) and start again"
    )
}

#[cfg(test)]
mod descriptor_tests {
    use super::*;

    #[test]
    fn the_soft_limit_is_raised_where_the_hard_one_allows_and_too_few_is_refused() {
        assert_eq!(descriptor_plan(1024, 4096), DescriptorPlan::Enough);
        assert_eq!(
            descriptor_plan(6, 4096),
            DescriptorPlan::Raise(DESCRIPTORS_WANTED)
        );
        assert_eq!(descriptor_plan(6, 20), DescriptorPlan::Raise(20));
        assert_eq!(descriptor_plan(20, 20), DescriptorPlan::Enough);
        // `ulimit -n 6` sets both limits: nothing to raise.
        assert_eq!(descriptor_plan(6, 6), DescriptorPlan::Refuse);
        assert_eq!(descriptor_plan(12, 12), DescriptorPlan::Refuse);
        assert_eq!(descriptor_plan(6, 10), DescriptorPlan::Refuse);
        let said = too_few_descriptors(6);
        assert!(said.contains("Too many open files"), "{said}");
        assert!(said.contains("ulimit -n) is 6"), "{said}");
        assert!(said.contains("ulimit -n 1024"), "{said}");
    }
}
