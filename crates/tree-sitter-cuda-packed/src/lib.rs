//! tree-sitter-cuda 0.21.2 with a smaller footprint on disk: the grammar's two parse tables,
//! the dense one (4,893 states x 589 symbols of u16, 5.8 MB of the installed binary) and the
//! small one (the other 8,184 states' groups, 0.77 MB), are stored LZ-packed (about 0.28 and
//! 0.16 MB), as are its lex modes (78 KB, to 17 KB), and unpacked into zeroed memory the first
//! time [`LANGUAGE`] is used. Every other table, the lexer and the external scanner are
//! tree-sitter-cuda's own, compiled from its `src/`. It offers tree-sitter-cuda's `LANGUAGE` (the only item cuda-academy uses), so `tree-sitter-cuda = { package = "tree-sitter-cuda-packed", … }` is a
//! drop-in replacement.
//!
//! When build.rs cannot find or rewrite tree-sitter-cuda's `parser.c` (sources vendored
//! elsewhere, a new generator format), it warns and this crate re-exports tree-sitter-cuda's
//! language unchanged: bigger, never broken.
//!
//! Its tests (`tests/same_trees.rs`: every `.cu`/`.cuh` in the repository parses to the same
//! tree as with tree-sitter-cuda) run with the root `cargo test` (this crate is a default
//! member of the repository's workspace); alone: `cargo test -p tree-sitter-cuda-packed`.

#[cfg(not(tree_sitter_cuda_unpacked))]
mod packed {
    use tree_sitter_language::LanguageFn;

    extern "C" {
        fn tree_sitter_cuda_packed() -> *const ();
    }

    /// The tree-sitter [`LanguageFn`] for CUDA (parse table unpacked on first call).
    // SAFETY: the generated parser.c defines `tree_sitter_cuda_packed` as tree-sitter's
    // `const TSLanguage *(void)`, which is what `LanguageFn` wraps.
    pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_cuda_packed) };
}

#[cfg(not(tree_sitter_cuda_unpacked))]
pub use packed::LANGUAGE;

#[cfg(tree_sitter_cuda_unpacked)]
pub use tree_sitter_cuda::LANGUAGE;
