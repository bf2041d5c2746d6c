//! Entering and leaving the full-screen terminal: raw mode, the alternate screen, mouse capture,
//! bracketed paste (a paste arrives as one event, not one key per character).
//! Leaving is idempotent and also runs on drop, so an early `?` cannot leave the terminal raw.
//! Every write of leaving ignores its error: after a hangup the terminal (and stderr with it)
//! fails every write with EIO, and ratatui's own drop of a terminal whose cursor it hid prints
//! that failure with `eprintln!`, which panics on a closed stderr (a crash log on the way out):
//! [`dispose`] shows the cursor first and forgets a terminal it could not show it on.

use std::io::{self, Stdout};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::layout::Size;

use super::screen::{Screen, draw_app};
use crate::app::App;

type Inner = ratatui::Terminal<CrosstermBackend<Stdout>>;

/// Let go of a ratatui terminal without its drop's `eprintln!` (which panics when stderr is
/// gone): once its cursor is shown again the drop writes nothing; if that write fails, the
/// terminal is forgotten (a screen buffer or two, once, on the way out).
fn dispose(mut inner: Inner) {
    if inner.show_cursor().is_ok() {
        drop(inner);
    } else {
        std::mem::forget(inner);
    }
}

/// Whether the terminal is in the tutorial's modes. One flag for the whole process, so the panic
/// hook and the drop of [`Terminal`] restore once: a second "leave alternate screen" would move
/// the cursor back over whatever was printed since.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The terminal while the tutorial owns it.
pub struct Terminal {
    /// `None` only inside `drop`.
    inner: Option<Inner>,
    active: bool,
    mouse: bool,
}

impl Terminal {
    /// Raw mode, alternate screen, and mouse capture when `mouse`.
    pub fn enter(mouse: bool) -> anyhow::Result<Terminal> {
        enable_raw_mode()
            .map_err(|e| anyhow::anyhow!("cannot switch the terminal to raw mode: {e}"))?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut out = io::stdout();
        let entered = if mouse {
            execute!(
                out,
                EnterAlternateScreen,
                EnableBracketedPaste,
                EnableMouseCapture
            )
        } else {
            execute!(out, EnterAlternateScreen, EnableBracketedPaste)
        };
        let inner = entered.and_then(|()| ratatui::Terminal::new(CrosstermBackend::new(out)));
        match inner {
            Ok(inner) => Ok(Terminal {
                inner: Some(inner),
                active: true,
                mouse,
            }),
            Err(e) => {
                restore_terminal();
                anyhow::bail!("cannot set up the terminal: {e}")
            }
        }
    }

    /// Draw one frame with `draw`: a screen other than the tutorial's (`trace`'s view).
    pub fn draw_with(&mut self, draw: impl FnOnce(&mut ratatui::Frame)) -> anyhow::Result<()> {
        match self.inner.as_mut() {
            Some(inner) => inner
                .draw(draw)
                .map(|_| ())
                .map_err(|e| anyhow::anyhow!("cannot draw to the terminal: {e}")),
            None => anyhow::bail!("cannot draw: the terminal is closed"),
        }
    }

    pub fn size(&self) -> io::Result<Size> {
        match &self.inner {
            Some(inner) => inner.size(),
            None => Err(io::Error::other("the terminal is closed")),
        }
    }

    /// Give the terminal back as it was; nothing of the tutorial stays on screen.
    pub fn restore(&mut self) {
        if std::mem::take(&mut self.active) {
            restore_terminal();
        }
    }

    /// Take the terminal (back) after a suspend or a SIGCONT: raw mode, the alternate screen and
    /// mouse capture again, and a full redraw on the next frame. Raw mode is switched off and on
    /// because while the process was stopped the shell may have reset the terminal behind
    /// crossterm's back (crossterm would think it is still raw and do nothing).
    pub fn take_back(&mut self) -> anyhow::Result<()> {
        let _ = disable_raw_mode();
        enable_raw_mode()
            .map_err(|e| anyhow::anyhow!("cannot switch the terminal back to raw mode: {e}"))?;
        self.active = true;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut out = io::stdout();
        let clear = Clear(ClearType::All);
        let entered = if self.mouse {
            execute!(
                out,
                EnterAlternateScreen,
                EnableBracketedPaste,
                EnableMouseCapture,
                cursor::Hide,
                clear
            )
        } else {
            execute!(
                out,
                EnterAlternateScreen,
                EnableBracketedPaste,
                cursor::Hide,
                clear
            )
        };
        // A fresh ratatui terminal has no previous frame, so the next draw repaints every cell
        // (`Terminal::clear` would ask the terminal for the cursor position, which the input
        // thread's reader can swallow).
        entered
            .and_then(|()| ratatui::Terminal::new(CrosstermBackend::new(io::stdout())))
            .map(|inner| {
                if let Some(old) = self.inner.replace(inner) {
                    dispose(old);
                }
            })
            .map_err(|e| anyhow::anyhow!("cannot set up the terminal again: {e}"))
    }
}

impl Screen for Terminal {
    fn draw(&mut self, app: &App) -> anyhow::Result<()> {
        match self.inner.as_mut() {
            Some(inner) => draw_app(inner, app),
            None => anyhow::bail!("cannot draw: the terminal is closed"),
        }
    }

    /// Like vim and less: give the terminal back, stop; on SIGCONT take it again.
    fn suspend(&mut self) -> anyhow::Result<()> {
        self.restore();
        super::events::stop_self();
        self.take_back()
    }

    fn resume(&mut self) -> anyhow::Result<()> {
        self.take_back()
    }

    fn edit_externally(&mut self, file: &Path) -> anyhow::Result<Result<(), String>> {
        super::external_editor::edit(self, file)
    }
}

impl super::external_editor::Handover for Terminal {
    fn restore(&mut self) {
        Terminal::restore(self);
    }

    fn enter_again(&self) -> anyhow::Result<Terminal> {
        Terminal::enter(self.mouse)
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.restore();
        if let Some(inner) = self.inner.take() {
            dispose(inner);
        }
    }
}

/// Undo everything `enter` may have done, once; errors are ignored (there is nowhere to report
/// them, and each step is worth trying on its own).
pub fn restore_terminal() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
}
