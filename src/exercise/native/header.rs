//! `academy.cuh`, the header every exercise includes, carried by the binary so that an
//! installed `cuda-academy` (no checkout) can write it out (`exercise header`) and compile a
//! learner's file against it (`exercise check --native`).

use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// The header's text, as `exercises/academy.cuh` holds it.
pub const ACADEMY_CUH: &str = include_str!("../../../exercises/academy.cuh");

/// The header's file name, as exercises include it.
pub const FILE_NAME: &str = "academy.cuh";

/// Write the header to `out`: a folder gets `academy.cuh` inside it, anything else is the
/// file's path. Returns the path written.
pub fn write(out: &Path) -> anyhow::Result<PathBuf> {
    let path = if out.is_dir() {
        out.join(FILE_NAME)
    } else {
        out.to_path_buf()
    };
    std::fs::write(&path, ACADEMY_CUH)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_embedded_header_is_the_exercises_one() {
        let on_disk = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/exercises/academy.cuh"
        ))
        .unwrap();
        assert_eq!(ACADEMY_CUH, on_disk);
        assert!(ACADEMY_CUH.contains("check_output"));
    }

    #[test]
    fn a_folder_gets_the_file_inside_and_a_path_is_used_as_given() {
        let dir = tempfile::tempdir().unwrap();
        let inside = write(dir.path()).unwrap();
        assert_eq!(inside, dir.path().join(FILE_NAME));
        let named = dir.path().join("my.cuh");
        assert_eq!(write(&named).unwrap(), named);
        assert_eq!(std::fs::read_to_string(&named).unwrap(), ACADEMY_CUH);
        assert!(write(&dir.path().join("no/such/dir/x.cuh")).is_err());
    }
}
