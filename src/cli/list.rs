//! `cuda-academy list` (owned by the CLI work; not written yet).
