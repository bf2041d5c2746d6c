//! `cuda-academy completions` (owned by the CLI work; not written yet).
