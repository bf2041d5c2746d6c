//! cuda-academy: a terminal tutorial that teaches how data moves between host and GPU in CUDA,
//! then proves each point live on the learner's GPU (or a calibrated simulator).
//!
//! Functional core (lessons, quiz, progress, simulator, timeline math, `App::update`), imperative
//! shell (terminal, GPU, files) at the edges. See README "Architecture".

pub mod app;
pub mod atomic_file;
pub mod attach;
pub mod bounded_read;
pub mod cli;
pub mod exercise;
pub mod experiment;
pub mod gpu;
pub mod highlight;
pub mod keymap;
pub mod lesson;
pub mod markdown;
pub mod meminfo;
pub mod metric_text;
pub mod ordering;
pub mod panes;
pub mod progress;
pub mod report;
pub mod sanitize;
pub mod text_fit;
pub mod theme;
pub mod timeline;
pub mod trace;
pub mod tui;
pub mod tutor;
pub mod ui;
pub mod units;
pub mod utc;
pub mod widgets;
pub mod worker;
