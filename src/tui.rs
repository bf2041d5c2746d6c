//! The interactive tutorial's shell: terminal setup and restore, the event loop, and carrying out
//! the [`Cmd`]s that [`App::update`] returns (saving progress, quitting).
//!
//! The loop blocks on one channel fed by the input thread, the signal thread and workers; it
//! redraws after each batch of messages and never ticks while idle.

mod events;
pub mod export;
mod external_editor;
pub mod hyperlinks;
mod links;
pub mod panic;
mod terminal;
mod warmup;

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, SystemTime};

use anyhow::Context as _;
use ratatui::layout::Size;

use crate::app::editor_shell::ExerciseShell;
use crate::app::{App, Banner, BannerKind, Cmd, ExerciseCmd, ExerciseMsg, Msg};
use crate::gpu::detect::BackendChoice;
use crate::lesson::Catalog;
use crate::progress;
use crate::theme::Theme;
use crate::worker::Worker;

pub use events::Event;

/// How often the spinner turns while an experiment runs (the loop sleeps when idle).
const TICK: Duration = Duration::from_millis(120);

/// Why the loop ended.
enum Exit {
    Quit,
    /// A signal asked us to stop: exit with 128 + its number once the terminal is restored.
    Signal(i32),
}

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
    pub backend: BackendChoice,
    pub device: u32,
}

/// Run the tutorial until the learner quits. The caller has checked that stdin and stdout are
/// terminals.
pub fn run(args: &Options) -> anyhow::Result<()> {
    let catalog = load_catalog(args)?;
    let theme = Theme::new(args.color).with_truecolor(Theme::truecolor_from_env());
    let state_dir = progress::state_dir().and_then(usable_state_dir);
    if let Ok(dir) = &state_dir {
        // Temp files of a save that a kill interrupted (the file itself is intact).
        crate::atomic_file::remove_stale_temps(dir, STALE_TEMP_AGE);
    }
    panic::install(state_dir.as_ref().ok().cloned());
    let (progress, mut banners) = load_progress(state_dir.as_ref());
    let mut term = terminal::Terminal::enter(!args.no_mouse)?;
    let size = term.size().unwrap_or(Size::new(80, 24));
    let mut app = App::new(catalog, theme, progress, size);
    app.links.osc8 = args.hyperlinks;
    app.banners.append(&mut banners);
    let (tx, rx) = mpsc::channel();
    events::spawn_input(tx.clone());
    events::spawn_signals(tx.clone())?;
    warmup::spawn_highlight_warmup(tx.clone());
    // The worker opens the backend on its own thread (CUDA init is slow). Where the answer is
    // known without CUDA (the simulator was asked for, or there is no driver) the first frame
    // names it; otherwise it says "detecting backend…" until the worker's Backend event.
    if let Some(known) = crate::gpu::detect::known_without_init(args.backend, args.device) {
        app.update(Msg::Worker(crate::worker::WorkerEvent::Backend(known)));
    }
    let exercises = ExerciseShell {
        state_dir: state_dir.as_ref().ok().cloned(),
    };
    if let Some(dir) = &exercises.state_dir
        && let Ok(passed) = crate::exercise::state::load_passed(dir)
    {
        app.update(Msg::Exercise(ExerciseMsg::Passed(passed)));
    }
    let worker_tx = tx;
    let mut worker = Worker::spawn(args.backend, args.device, move |event| {
        let _ = worker_tx.send(Event::App(Msg::Worker(event)));
    })
    .context("cannot start the experiment worker thread")?;
    let saver = Saver {
        dir: state_dir.map_err(|e| format!("{e:#}")),
    };
    let mut shell = Shell {
        saver: &saver,
        worker: &mut worker,
        exercises: &exercises,
        mouse: !args.no_mouse,
    };
    let outcome = event_loop(&mut term, &mut app, &rx, &mut shell);
    // The learner's exercise file is saved whatever ended the loop.
    if let Some(Cmd::Exercise(save)) = app.editor_save_cmd() {
        exercises.carry_out(&mut app, shell.worker, save);
    }
    // Save on the way out, whatever ended the loop; a failure is said after the terminal is
    // back, since no banner would be seen any more.
    let saved = saver.save(&mut app);
    term.restore();
    let exit = outcome?;
    // Work that was not saved is an error: the exit status says so (1, or 128 + signal).
    if let Err(why) = saved {
        eprintln!(
            "cuda-academy: progress not saved: {}",
            crate::sanitize::clean(&why)
        );
        if let Exit::Quit = exit {
            std::process::exit(1);
        }
    }
    match exit {
        Exit::Quit => Ok(()),
        Exit::Signal(sig) => std::process::exit(128 + sig),
    }
}

/// How old a temp file in the state dir must be to count as left by a kill (a save in another
/// instance takes milliseconds).
const STALE_TEMP_AGE: Duration = Duration::from_secs(60);

/// `dir`, unless it can never be created because a file stands where a folder must be (e.g.
/// `CUDA_ACADEMY_STATE_DIR=some-file/sub`): then an error that names that file.
fn usable_state_dir(dir: PathBuf) -> anyhow::Result<PathBuf> {
    let blocker = dir
        .ancestors()
        .find(|p| std::fs::symlink_metadata(p).is_ok())
        .filter(|p| !p.is_dir());
    match blocker {
        Some(file) => anyhow::bail!(
            "the progress folder {} cannot be created because {} is a file, not a folder; set \
             {} to a folder you can write to",
            dir.display(),
            file.display(),
            progress::STATE_DIR_ENV
        ),
        None => Ok(dir),
    }
}

/// The saved progress and what to tell the learner about it (moved aside, or not saved at all).
fn load_progress(state_dir: Result<&PathBuf, &anyhow::Error>) -> (progress::Progress, Vec<Banner>) {
    match state_dir {
        Ok(dir) => {
            let loaded = progress::load(dir);
            let banner = loaded.banner.map(|text| Banner {
                kind: BannerKind::Warning,
                text,
            });
            (loaded.progress, banner.into_iter().collect())
        }
        Err(err) => (
            progress::Progress::default(),
            vec![Banner {
                kind: BannerKind::Warning,
                text: format!("progress will not be saved: {err:#}"),
            }],
        ),
    }
}

/// What the loop carries commands out with.
struct Shell<'a> {
    saver: &'a Saver,
    worker: &'a mut Worker,
    exercises: &'a ExerciseShell,
    mouse: bool,
}

fn event_loop(
    term: &mut terminal::Terminal,
    app: &mut App,
    rx: &Receiver<Event>,
    shell: &mut Shell,
) -> anyhow::Result<Exit> {
    term.draw(app)?;
    loop {
        let first = if app.panel.is_running() || app.editor_open() {
            match rx.recv_timeout(TICK) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => Event::App(Msg::Tick),
                Err(RecvTimeoutError::Disconnected) => {
                    anyhow::bail!("the input thread stopped; the terminal may have closed")
                }
            }
        } else {
            rx.recv()
                .context("the input thread stopped; the terminal may have closed")?
        };
        // Handle everything already queued before drawing once (e.g. a burst of wheel events).
        for event in std::iter::once(first).chain(rx.try_iter()) {
            let msg = match event {
                Event::Signal(sig) => return Ok(Exit::Signal(sig)),
                Event::InputFailed(why) => anyhow::bail!("cannot read the terminal: {why}"),
                Event::Suspend => {
                    suspend(term, app, shell.saver)?;
                    continue;
                }
                Event::App(Msg::Key(key)) if is_suspend_key(&key) => {
                    suspend(term, app, shell.saver)?;
                    continue;
                }
                Event::Continued => {
                    term.resume()?;
                    continue;
                }
                Event::App(msg) => msg,
            };
            let mut cmds = app.update(msg);
            while !cmds.is_empty() {
                let cmd = cmds.remove(0);
                match cmd {
                    // A failure shows as a banner (set by `save`); the tutorial goes on.
                    Cmd::SaveProgress => {
                        shell.saver.save(app).ok();
                    }
                    Cmd::Quit => return Ok(Exit::Quit),
                    Cmd::Exercise(ExerciseCmd::External { id, text }) => {
                        cmds.extend(edit_externally(term, app, shell, id, text)?);
                    }
                    Cmd::Exercise(cmd) => {
                        cmds.extend(shell.exercises.carry_out(app, shell.worker, cmd));
                    }
                    other => cmds.extend(carry_out(app, shell.worker, other)),
                }
            }
        }
        term.draw(app)?;
    }
}

/// Ctrl-Z, which raw mode delivers as a key instead of a SIGTSTP.
fn is_suspend_key(key: &ratatui::crossterm::event::KeyEvent) -> bool {
    use ratatui::crossterm::event::{KeyCode, KeyEventKind, KeyModifiers};
    key.code == KeyCode::Char('z')
        && key.modifiers.contains(KeyModifiers::CONTROL)
        && key.kind == KeyEventKind::Press
}

/// Suspend like vim and less: save, give the terminal back, stop; on SIGCONT take the terminal
/// again (a full redraw follows).
fn suspend(term: &mut terminal::Terminal, app: &mut App, saver: &Saver) -> anyhow::Result<()> {
    saver.save(app).ok();
    term.restore();
    events::stop_self();
    term.resume()
}

/// The experiment commands: hand runs to the worker, write traces.
fn carry_out(app: &mut App, worker: &mut Worker, cmd: Cmd) -> Vec<Cmd> {
    match cmd {
        Cmd::RunExperiment {
            run_id,
            experiment,
            options,
        } => {
            if let Err(why) = worker.run(run_id, &experiment, options) {
                let result = Err(why);
                let done = crate::worker::WorkerEvent::Done { run_id, result };
                return app.update(Msg::Worker(done));
            }
            Vec::new()
        }
        Cmd::CancelRun => {
            worker.cancel();
            Vec::new()
        }
        Cmd::ExportTrace(report) => {
            let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
            let result = export::export(&report, &dir, SystemTime::now());
            app.update(Msg::Exported(result))
        }
        Cmd::OpenUrl(url) => app.update(Msg::LinkReport(links::open(&url))),
        Cmd::CopyText(text) => app.update(Msg::LinkReport(links::copy(&text))),
        Cmd::SaveProgress | Cmd::Quit | Cmd::Exercise(_) => vec![cmd],
    }
}

/// Ctrl-E: save, suspend for the learner's editor, then reload and re-check (the tick's poll
/// notices the new modification time).
fn edit_externally(
    term: &mut terminal::Terminal,
    app: &mut App,
    shell: &mut Shell,
    id: String,
    text: String,
) -> anyhow::Result<Vec<Cmd>> {
    let mut cmds = shell.exercises.carry_out(
        app,
        shell.worker,
        ExerciseCmd::Save {
            id: id.clone(),
            text,
        },
    );
    let Some(dir) = &shell.exercises.state_dir else {
        return Ok(cmds);
    };
    let file = crate::app::editor_store::file_for(dir, &id);
    if let Err(why) = external_editor::edit(term, shell.mouse, &file)? {
        cmds.extend(app.update(Msg::Exercise(ExerciseMsg::Failed(why))));
    }
    cmds.extend(app.update(Msg::Tick));
    Ok(cmds)
}

/// Writes progress where it belongs; failures become a banner, never a crash.
struct Saver {
    /// The state dir, or why there is none (said once, by the start-up banner).
    dir: Result<PathBuf, String>,
}

impl Saver {
    /// Save `app.progress`, and tell the app how it went.
    fn save(&self, app: &mut App) -> Result<(), String> {
        let dir = self.dir.as_ref()?;
        let result = progress::save(dir, &app.progress).map_err(|err| format!("{err:#}"));
        app.update(match &result {
            Ok(()) => Msg::Saved,
            Err(why) => Msg::SaveFailed(why.clone()),
        });
        result
    }
}

fn load_catalog(args: &Options) -> anyhow::Result<Catalog> {
    let catalog = match &args.lessons {
        Some(dir) => Catalog::load_dir(dir)?,
        None => Catalog::embedded(),
    };
    if catalog.is_empty() {
        let place = args
            .lessons
            .as_ref()
            .map_or("this build".to_string(), |d| d.display().to_string());
        anyhow::bail!(
            "no lessons found in {place}: a lesson is a `*.md` file with `+++` TOML front matter (see README, \"Writing lessons\")"
        );
    }
    Ok(catalog)
}
