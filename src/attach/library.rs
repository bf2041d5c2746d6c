//! The injection library, embedded in the binary by `build.rs` and written out once per
//! content to the cache folder (`$CUDA_ACADEMY_CACHE_DIR`, else the XDG cache dir
//! `~/.cache/cuda-academy`), so that CUDA can `dlopen` it: the file name carries a hash of the
//! bytes, an existing file is used only when its bytes are the same, and a new one appears
//! whole (a temporary file, mode 0755, renamed into place).

use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// The library `build.rs` built, deflated (empty when it could not build one).
static EMBEDDED: &[u8] = include_bytes!(concat!(
    env!("OUT_DIR"),
    "/libcuda_academy_inject.so.deflate"
));

/// Overrides the cache folder (tests; machines without a home).
pub const CACHE_DIR_ENV: &str = "CUDA_ACADEMY_CACHE_DIR";

/// The embedded library's bytes, inflated, or why there are none.
pub fn embedded() -> anyhow::Result<Vec<u8>> {
    if EMBEDDED.is_empty() {
        anyhow::bail!(
            "this build of cuda-academy has no injection library (build.rs could not compile \
             crates/cuda-academy-inject; see the build's warnings), so nothing can be traced"
        );
    }
    miniz_oxide::inflate::decompress_to_vec(EMBEDDED).map_err(|e| {
        anyhow::anyhow!(
            "the injection library embedded in this build does not inflate ({e:?}); rebuild \
             cuda-academy"
        )
    })
}

/// FNV-1a, 64 bits: a name for the bytes that stays the same across builds of this tool (std's
/// hasher makes no such promise). Not a defence against anyone: the bytes are compared too.
pub fn content_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The cache folder.
pub fn cache_dir() -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::var_os(CACHE_DIR_ENV).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    use etcetera::app_strategy::{AppStrategy, AppStrategyArgs, choose_app_strategy};
    let strategy = choose_app_strategy(AppStrategyArgs {
        top_level_domain: "org".to_string(),
        author: "cuda-academy".to_string(),
        app_name: "cuda-academy".to_string(),
    })
    .map_err(|_| {
        anyhow::anyhow!(
            "cannot find your home directory for a cache folder; set ${CACHE_DIR_ENV} to a folder"
        )
    })?;
    Ok(strategy.cache_dir())
}

/// The library on disk, written there first if need be: its path.
pub fn install() -> anyhow::Result<PathBuf> {
    let bytes = embedded()?;
    let dir = cache_dir()?;
    install_into(&dir, &bytes)
}

/// [`install`] into `dir` (tests give a temporary one).
pub fn install_into(dir: &Path, bytes: &[u8]) -> anyhow::Result<PathBuf> {
    let path = dir.join(format!(
        "libcuda_academy_inject-{:016x}.so",
        content_hash(bytes)
    ));
    if std::fs::read(&path).is_ok_and(|there| there == bytes) {
        return Ok(path);
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("creating the cache folder {}", dir.display()))?;
    crate::atomic_file::write_checked(&path, bytes, |file| {
        use std::os::unix::fs::PermissionsExt as _;
        file.set_permissions(std::fs::Permissions::from_mode(0o755))
    })
    .with_context(|| format!("writing the injection library to {}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn the_embedded_library_is_stored_deflated_and_inflates_to_a_shared_object() {
        let bytes = embedded().unwrap();
        assert!(
            bytes.starts_with(b"\x7fELF"),
            "{:?}",
            &bytes[..bytes.len().min(8)]
        );
        assert!(
            EMBEDDED.len() < bytes.len() * 2 / 3,
            "{} of {}",
            EMBEDDED.len(),
            bytes.len()
        );
    }

    #[test]
    fn written_once_by_content_executable_and_rewritten_when_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let first = install_into(dir.path(), b"library one").unwrap();
        assert_eq!(std::fs::read(&first).unwrap(), b"library one");
        assert_eq!(
            std::fs::metadata(&first).unwrap().permissions().mode() & 0o777,
            0o755
        );
        assert_eq!(install_into(dir.path(), b"library one").unwrap(), first);
        let other = install_into(dir.path(), b"library two").unwrap();
        assert_ne!(other, first, "new bytes get a new name");
        std::fs::write(&first, b"damaged").unwrap();
        assert_eq!(install_into(dir.path(), b"library one").unwrap(), first);
        assert_eq!(
            std::fs::read(&first).unwrap(),
            b"library one",
            "a damaged copy is replaced"
        );
        let names = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(names, 2, "no temporary file left behind");
    }

    #[test]
    fn the_hash_is_fnv1a() {
        assert_eq!(content_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(content_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
