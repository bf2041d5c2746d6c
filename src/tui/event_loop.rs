//! The event loop: block on the one channel (fed by the input thread, the signal thread, the
//! worker and exercise checks), hand each message to [`App::update`], carry out the [`Cmd`]s it
//! returns, and draw once per batch. It never ticks while idle.
//!
//! An ending signal and a lost terminal are read from their flags between queued events (the
//! channel delivers in order: behind 300,000 typed-in keys of a paste a SIGHUP waited 15
//! minutes), and a run of keys already queued is typed in one go (`typing`).
//!
//! Generic over the [`Screen`], so tests drive this very loop on ratatui's `TestBackend` with a
//! scripted channel and read the drawn buffer ([`step`] runs one turn of it).
//!
//! [`Cmd`]: crate::app::Cmd

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use anyhow::Context as _;
use ratatui::crossterm::event::{KeyEvent, KeyEventKind};

use super::Event;
use super::screen::Screen;
use super::shell::{Flow, Shell};
use crate::app::{App, Msg};

mod typing;

/// How often the spinner turns while an experiment runs (the loop sleeps when idle).
const TICK: Duration = Duration::from_millis(120);

/// Why the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The learner quit.
    Quit,
    /// A signal asked us to stop: exit with 128 + its number once the terminal is restored.
    Signal(i32),
}

/// Draw the first frame, then run until the learner quits, a signal arrives or input fails.
pub fn event_loop(
    screen: &mut impl Screen,
    app: &mut App,
    events: &Receiver<Event>,
    shell: &mut Shell,
) -> anyhow::Result<Exit> {
    screen.draw(app)?;
    loop {
        if let Some(exit) = step(screen, app, events, shell)? {
            return Ok(exit);
        }
    }
}

/// One turn of the loop: wait for an event (a tick while a run or the editor is on), handle it
/// and everything queued behind it, then draw once. `Some` when the tutorial is to end (nothing
/// is drawn then).
pub fn step(
    screen: &mut impl Screen,
    app: &mut App,
    events: &Receiver<Event>,
    shell: &mut Shell,
) -> anyhow::Result<Option<Exit>> {
    let first = next_event(app, events)?;
    // Handle everything already queued before drawing once (e.g. a burst of wheel events).
    let mut queued = std::iter::once(first).chain(events.try_iter()).peekable();
    while let Some(event) = queued.next() {
        if let Some(exit) = ending() {
            return Ok(Some(exit));
        }
        let event = match event {
            Event::App(Msg::Key(key)) => typing::run(app, key, &mut queued),
            other => other,
        };
        let msg = match event {
            Event::Signal(sig) => return Ok(Some(Exit::Signal(sig))),
            Event::InputFailed(why) => anyhow::bail!("cannot read the terminal: {why}"),
            Event::Suspend => {
                suspend(screen, app, shell)?;
                continue;
            }
            Event::App(Msg::Key(key)) if is_suspend_key(app, &key) => {
                suspend(screen, app, shell)?;
                continue;
            }
            Event::Continued => {
                screen.resume()?;
                continue;
            }
            Event::App(msg) => msg,
        };
        let cmds = app.update(msg);
        if shell.carry_out_all(screen, app, cmds)? == Flow::Quit {
            return Ok(Some(Exit::Quit));
        }
    }
    if let Some(exit) = ending() {
        return Ok(Some(exit));
    }
    if let Err(e) = screen.draw(app) {
        // A draw that failed because the terminal hung up ends the tutorial as the hangup does.
        if super::events::hung_up_now() {
            return Ok(ending());
        }
        return Err(e);
    }
    Ok(None)
}

/// What ends the tutorial ahead of the queue: a signal (the signal thread's flag), or the
/// terminal gone, which ends it as a hangup does (128 + SIGHUP); either way the shell saves
/// on the way out.
fn ending() -> Option<Exit> {
    if let Some(sig) = super::events::ending_signal() {
        return Some(Exit::Signal(sig));
    }
    super::events::terminal_lost().then_some(Exit::Signal(signal_hook::consts::SIGHUP))
}

/// The next event; while a run or the editor is on, a tick when nothing came for [`TICK`].
fn next_event(app: &App, events: &Receiver<Event>) -> anyhow::Result<Event> {
    if app.panel.is_running() || app.editor_open() {
        match events.recv_timeout(TICK) {
            Ok(event) => Ok(event),
            Err(RecvTimeoutError::Timeout) => Ok(Event::App(Msg::Tick)),
            Err(RecvTimeoutError::Disconnected) => {
                anyhow::bail!("the input thread stopped; the terminal may have closed")
            }
        }
    } else {
        events
            .recv()
            .context("the input thread stopped; the terminal may have closed")
    }
}

/// The key table's suspend key (Ctrl-Z, which raw mode delivers as a key instead of a
/// SIGTSTP) where it is pressed: in the editor Ctrl-Z undoes.
fn is_suspend_key(app: &App, key: &KeyEvent) -> bool {
    key.kind == KeyEventKind::Press
        && crate::keymap::lookup(app.key_context(), key) == Some(crate::keymap::Action::Suspend)
}

/// Suspend like vim and less: save first, then give the terminal back until SIGCONT.
fn suspend(screen: &mut impl Screen, app: &mut App, shell: &Shell) -> anyhow::Result<()> {
    shell.save(app).ok();
    screen.suspend()
}
