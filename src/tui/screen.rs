//! [`Screen`]: what the event loop needs of the terminal. The tutorial's own terminal
//! ([`super::terminal::Terminal`]: crossterm on stdout, raw mode, the alternate screen) is one;
//! any ratatui terminal is another, so the real loop runs in tests on ratatui's `TestBackend` and
//! draws into a buffer the test reads (as gitui's tests do).

use std::path::Path;

use ratatui::backend::Backend;

use crate::app::App;

/// Somewhere to draw the tutorial that can be handed over (suspend, the learner's editor) and
/// taken back.
pub trait Screen {
    /// Draw one frame of `app`.
    fn draw(&mut self, app: &App) -> anyhow::Result<()>;

    /// Ctrl-Z or SIGTSTP: give the terminal back, stop until SIGCONT, take it back (the next
    /// frame repaints every cell).
    fn suspend(&mut self) -> anyhow::Result<()>;

    /// SIGCONT: the terminal may have been used by others meanwhile; take it back and repaint
    /// every cell on the next frame.
    fn resume(&mut self) -> anyhow::Result<()>;

    /// Ctrl-E: hand the terminal to the learner's editor on `file`, then take it back. The inner
    /// `Err` says why the editor did not run (the tutorial goes on); the outer one that the
    /// terminal could not be taken back (the tutorial ends).
    fn edit_externally(&mut self, file: &Path) -> anyhow::Result<Result<(), String>>;
}

/// Draw `app` over the whole of `term`: the one way a frame is drawn, whatever the backend.
pub fn draw_app<B: Backend>(term: &mut ratatui::Terminal<B>, app: &App) -> anyhow::Result<()> {
    term.draw(|frame| frame.render_widget(app, frame.area()))
        .map_err(|e| anyhow::anyhow!("cannot draw to the terminal: {e}"))?;
    Ok(())
}

/// A ratatui terminal the tutorial has not set up itself (a `TestBackend` in tests): it draws,
/// and there is no terminal to hand over, so suspending and resuming only repaint, and Ctrl-E
/// says the editor cannot run here.
impl<B: Backend> Screen for ratatui::Terminal<B> {
    fn draw(&mut self, app: &App) -> anyhow::Result<()> {
        draw_app(self, app)
    }

    fn suspend(&mut self) -> anyhow::Result<()> {
        Screen::resume(self)
    }

    fn resume(&mut self) -> anyhow::Result<()> {
        self.clear()
            .map_err(|e| anyhow::anyhow!("cannot clear the terminal: {e}"))
    }

    fn edit_externally(&mut self, _file: &Path) -> anyhow::Result<Result<(), String>> {
        Ok(Err(
            "this terminal cannot be handed to an editor; edit the file in the tutorial".into(),
        ))
    }
}
