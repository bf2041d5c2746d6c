//! What a bug report needs to know about this build: the version, the git commit it was built
//! from (when built from git), and the CUDA API its bindings were generated for. `--version`
//! prints it; `info` adds the driver it finds.

use serde::Serialize;

/// The cudarc bindings feature compiled in (Cargo.toml): the CUDA 13.0 driver API. The one place
/// this fact is written in the code; `--version` and `info` read it from here.
macro_rules! cuda_bindings {
    () => {
        "cuda-13000"
    };
}

/// The cudarc bindings feature compiled in (see the `cuda_bindings!` macro above).
pub const CUDA_BINDINGS: &str = cuda_bindings!();

/// The git commit (`abc1234`, `-dirty` with uncommitted changes), empty when not built from git.
pub const GIT_HASH: &str = env!("CUDA_ACADEMY_GIT_HASH");

/// `cuda-academy --version`: the version, then one line each for the commit and the bindings.
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "\ngit commit: ",
    env!("CUDA_ACADEMY_GIT_HASH"),
    "\nCUDA bindings: ",
    cuda_bindings!(),
    " (CUDA 13.0 driver API; the driver is loaded at run time: `cuda-academy info` shows it)"
);

/// This build, as `info --json` reports it.
#[derive(Debug, Clone, Serialize)]
pub struct Build {
    pub version: &'static str,
    /// `None` when not built from git.
    pub git_commit: Option<&'static str>,
    pub cuda_bindings: &'static str,
}

/// This build.
pub fn build() -> Build {
    Build {
        version: env!("CARGO_PKG_VERSION"),
        git_commit: (!GIT_HASH.is_empty()).then_some(GIT_HASH),
        cuda_bindings: CUDA_BINDINGS,
    }
}

/// One line: `cuda-academy 0.1.0 (git abc1234, CUDA bindings cuda-13000)`.
pub fn line() -> String {
    let b = build();
    let git = b
        .git_commit
        .map_or_else(|| "not built from git".to_string(), |h| format!("git {h}"));
    format!(
        "cuda-academy {} ({git}, CUDA bindings {})",
        b.version, b.cuda_bindings
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_version_commit_and_bindings() {
        let line = line();
        assert!(line.starts_with(&format!("cuda-academy {} (", env!("CARGO_PKG_VERSION"))));
        assert!(line.contains("CUDA bindings cuda-13000"), "{line}");
        assert!(LONG_VERSION.contains(CUDA_BINDINGS));
        match build().git_commit {
            Some(hash) => assert!(line.contains(hash) && hash.len() >= 7, "{line}"),
            None => assert!(line.contains("not built from git"), "{line}"),
        }
    }
}
