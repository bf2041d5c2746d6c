//! The interactive tutorial's shell: terminal setup and restore, the event loop, and carrying out
//! the [`Cmd`]s that [`App::update`] returns (saving progress, quitting).
//!
//! [`run`] wires it together: the lessons and progress (`startup`), the terminal
//! (`terminal`), the input and signal threads (`events`), the [`Shell`] that carries out
//! commands (worker, exercise checks, saving), and [`event_loop`], which is generic over the
//! [`Screen`] so tests run it on ratatui's `TestBackend`.
//!
//! [`Cmd`]: crate::app::Cmd

mod child;
mod event_loop;
mod events;
pub mod exercise_shell;
pub mod exercise_store;
pub mod export;
mod external_editor;
pub mod hyperlinks;
mod links;
pub mod panic;
mod screen;
mod shell;
mod startup;
mod terminal;
mod tutor_shell;
mod warmup;

use std::sync::mpsc;

use ratatui::layout::Size;

use crate::app::{App, Msg};
use crate::gpu::detect::BackendSpec;
use crate::theme::Theme;

pub use event_loop::{Exit, event_loop, step};
pub use events::Event;
pub use screen::{Screen, draw_app};
pub use shell::{Flow, Shell};
/// The terminal guard, for full-screen views outside the tutorial (`trace`'s).
pub use terminal::Terminal;

/// What the tutorial needs from the command line (built by `cli`, so this shell does not depend
/// on the argument parser).
#[derive(Debug, Clone)]
pub struct Options {
    /// `--lessons DIR`, or the lessons built into the binary.
    pub lessons: Option<std::path::PathBuf>,
    /// Whether to draw in colour (`--color`, `NO_COLOR`).
    pub color: bool,
    /// Whether links are OSC 8 hyperlinks (`--hyperlinks`, see [`hyperlinks`]).
    pub hyperlinks: bool,
    pub no_mouse: bool,
    /// The backend experiments and exercise checks run on (`--backend`, `--device`, `--profile`).
    pub backend: BackendSpec,
}

/// Run the tutorial until the learner quits. The caller has checked that stdin and stdout are
/// terminals.
pub fn run(args: &Options) -> anyhow::Result<()> {
    let catalog = startup::load_catalog(args)?;
    let theme = Theme::new(args.color).with_truecolor(Theme::truecolor_from_env());
    let state_dir = crate::progress::state_dir().and_then(startup::usable_state_dir);
    if let Ok(dir) = &state_dir {
        // Temp files of a save that a kill interrupted (the file itself is intact).
        startup::remove_stale_temps(dir);
    }
    panic::install(state_dir.as_ref().ok().cloned());
    // Before the terminal: a refusal here leaves it as it was.
    startup::enough_descriptors()?;
    let (progress, mut banners) = startup::load_progress(state_dir.as_ref());
    let mut term = terminal::Terminal::enter(!args.no_mouse)?;
    let size = term.size().unwrap_or(Size::new(80, 24));
    let mut app = App::new(catalog, theme, progress, size);
    app.hyperlinks = args.hyperlinks;
    app.overlays.banners.append(&mut banners);
    // Read once: no tutor settings, no request ever (issue 31).
    app.tutor_configure(crate::tutor::config::load());
    let (tx, rx) = mpsc::channel();
    events::spawn_input(tx.clone());
    events::spawn_hangup_watch(tx.clone());
    events::spawn_signals(tx.clone())?;
    events::leave_room_before_cpu_kill();
    warmup::spawn_highlight_warmup(tx.clone());
    // The worker opens the backend on its own thread (CUDA init is slow). Where the answer is
    // known without CUDA (the simulator was asked for, or there is no driver) the first frame
    // names it; otherwise it says "detecting backend…" until the worker's Backend event.
    if let Some(known) = crate::gpu::detect::known_without_init(&args.backend) {
        app.update(Msg::Worker(crate::worker::WorkerEvent::Backend(known)));
    }
    let state_dir = state_dir.map_err(|e| format!("{e:#}"));
    let mut shell = Shell::start(&args.backend, state_dir, &tx)?;
    drop(tx);
    shell.load_passed(&mut app);
    let outcome = event_loop(&mut term, &mut app, &rx, &mut shell);
    // Save on the way out, whatever ended the loop; a failure is said after the terminal is
    // back, since no banner would be seen any more.
    let saved = shell.finish(&mut app);
    term.restore();
    let exit = outcome?;
    // Typed code that could not be saved: where it went (or that it is lost), and exit 1.
    if let Some(report) = shell.exercise_report() {
        say(&format!("cuda-academy: {}", crate::sanitize::clean(report)));
        if saved.is_ok()
            && let Exit::Quit = exit
        {
            std::process::exit(1);
        }
    }
    // Work that was not saved is an error: the exit status says so (1, or 128 + signal).
    if let Err(why) = saved {
        say(&format!(
            "cuda-academy: progress not saved: {}",
            crate::sanitize::clean(&why)
        ));
        if let Exit::Quit = exit {
            std::process::exit(1);
        }
    }
    match exit {
        Exit::Quit => Ok(()),
        Exit::Signal(sig) => std::process::exit(128 + sig),
    }
}

/// A last word on stderr, which may be gone: after a hangup (the terminal closed) writing to it
/// fails with EIO, and `eprintln!` would panic on the way out. The exit status still says it.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}
