//! Tracing any CUDA program (issue 25): `cuda-academy trace -- PROGRAM ARGS…` runs the program
//! unmodified with the CUPTI injection library of `crates/cuda-academy-inject` loaded through
//! `CUDA_INJECTION64_PATH`, and the library streams what the program did to a trace file (JSON
//! lines). Here: the embedded library and its cache copy (`library`), starting the program and
//! passing its exit status through (`launch`), and reading a trace file back on any machine
//! (`file`, then `summary`: per stream, what ran and whether copies overlapped kernels), its
//! records as the experiments' timeline (`timeline`), and the state of `trace`'s full-screen
//! view (`view`: the timeline, the summary, the findings as marks; `ui::trace_view` draws it),
//! and the recorded traces the binary carries for `--open sample:NAME` (`samples`).
//!
//! The reader is apart from the summary so that `judge` maps the same records onto the
//! exercises' call log and the ordering model: what the checker proves, and why copies did not
//! overlap kernels.

pub mod file;
pub mod judge;
pub mod launch;
pub mod library;
pub mod samples;
pub mod summary;
pub mod timeline;
pub mod view;

/// The environment variable that tells the injection library where to write (the library's
/// own `TRACE_FILE_ENV`).
pub const TRACE_FILE_ENV: &str = "CUDA_ACADEMY_TRACE_FILE";
