//! `e`: the last run as Chrome trace JSON in the current directory, named
//! `cuda-academy-<experiment>-<YYYYMMDD-HHMMSS>.json` (UTC), never on top of an existing file:
//! each name is tried with `create_new`, which also refuses a dangling symlink planted there.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::atomic_file::create_new;
use crate::report::Report;
use crate::trace::{TraceError, write_with};

/// Write `report` as a trace into `dir`; the path written, or why not (said for people).
pub fn export(report: &Report, dir: &Path, now: SystemTime) -> Result<PathBuf, String> {
    let base = file_stem(&report.experiment, now);
    for n in 0..100 {
        let path = match n {
            0 => dir.join(format!("{base}.json")),
            n => dir.join(format!("{base}-{n}.json")),
        };
        match write_with(report, &path, create_new) {
            Ok(()) => return Ok(path),
            // Taken (a file, or any kind of link): try the next name, never write through it.
            Err(TraceError::Write { cause, .. })
                if cause.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(err) => {
                return Err(format!(
                    "{err}; check that {} is writable, or run cuda-academy from another directory",
                    dir.display()
                ));
            }
        }
    }
    Err(format!(
        "too many traces named {base}-N.json in {}",
        dir.display()
    ))
}

/// `cuda-academy-<experiment>-<YYYYMMDD-HHMMSS>` for `now` in UTC.
pub fn file_stem(experiment: &str, now: SystemTime) -> String {
    let t = crate::utc::Utc::at(now);
    let safe: String = experiment
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("cuda-academy-{safe}-{}-{}", t.date(), t.time())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::time::Duration;

    fn report() -> Report {
        serde_json::from_value(serde_json::json!({
            "schema_version": 1, "experiment": "pipeline",
            "backend": {"kind": "simulated", "device": "NVIDIA H200", "timing": "model"},
            "params": {"size": 1024}, "metrics": {},
            "timeline": [{"stream": 1, "kind": "h2d", "start_us": 0.0, "end_us": 5.0, "bytes": 1024}]
        }))
        .unwrap()
    }

    #[test]
    fn names_carry_the_experiment_and_the_utc_time() {
        // 2026-11-29 18:09:31 UTC.
        let t = std::time::UNIX_EPOCH + Duration::from_secs(1_795_975_771);
        assert_eq!(
            file_stem("pipeline", t),
            "cuda-academy-pipeline-20261129-180931"
        );
    }

    #[test]
    fn writes_a_trace_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let first = export(&report(), dir.path(), now).unwrap();
        let second = export(&report(), dir.path(), now).unwrap();
        assert_ne!(first, second);
        let text = std::fs::read_to_string(&first).unwrap();
        assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
    }

    /// Review minor 2: a dangling symlink planted at the next name is skipped, never written
    /// through.
    #[cfg(unix)]
    #[test]
    fn a_planted_symlink_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        let now = SystemTime::now();
        let planted = dir
            .path()
            .join(format!("{}.json", file_stem("pipeline", now)));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let written = export(&report(), dir.path(), now).unwrap();
        assert_ne!(written, planted);
        assert!(!victim.exists(), "wrote through the planted link");
        assert!(
            std::fs::symlink_metadata(&planted)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn an_unwritable_directory_says_why() {
        let err = export(&report(), Path::new("/nonexistent/dir"), SystemTime::now()).unwrap_err();
        assert!(err.contains("/nonexistent/dir"), "{err}");
    }
}
