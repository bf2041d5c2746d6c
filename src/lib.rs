//! cuda-academy: a terminal tutorial that teaches how data moves between host and GPU in CUDA,
//! then proves each point live on the learner's GPU (or a calibrated simulator).
//!
//! Functional core (lessons, quiz, progress, simulator, timeline math, `App::update`), imperative
//! shell (terminal, GPU, files) at the edges. See README "Architecture".

pub mod cli;
pub mod experiment;
pub mod gpu;
pub mod lesson;
pub mod report;
pub mod theme;
