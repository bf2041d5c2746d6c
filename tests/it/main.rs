//! All integration tests in one binary: one link instead of fourteen (each was 126-151 MB and
//! linked on its own). `tests/worker_panic.rs` stays apart because it installs the process-wide
//! panic hook, which would see the panics other tests provoke on purpose.

mod alternatives;
mod alternatives_gpu;
mod batched_copies;
mod batched_copies_gpu;
mod cli;
mod code_width;
mod e2e_panel;
mod e2e_pty;
mod e2e_pty_hangup;
mod editor;
mod editor_loop;
mod event_loop;
mod exercise;
mod exercise_native;
mod exhaustive_matches;
mod experiments_sim;
mod gpu_backend;
mod hardening;
mod import_graph;
mod lesson_parse;
mod lessons_content;
mod links;
mod no_driver;
mod panel_snapshots;
// The pseudo-terminal harness, shared by e2e_pty and e2e_panel (one module, loaded once).
#[path = "support/pty.rs"]
#[allow(dead_code)]
mod pty;
mod run_cli;
mod sim_fixture;
// The live-against-simulated rows, shared by sim_fixture and sim_search.
mod sim_model;
#[path = "support/sim_rows.rs"]
mod sim_rows;
mod sim_search;
mod timeline_widget;
mod trace_cli;
mod trace_export;
mod tutor;
mod ui_snapshots;
