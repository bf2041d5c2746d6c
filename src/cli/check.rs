//! `cuda-academy check` (owned by the CLI work; not written yet).
