//! The timeline view of a trace on the terminal: [`TraceView`] drawn by `ui::trace_view`, keys
//! from the key table's `Trace` context, until `q`, Esc or Ctrl-C. The terminal is the
//! tutorial's guard (`tui::Terminal`: raw mode and the alternate screen, given back on drop and
//! by the panic hook); SIGTERM, SIGHUP and SIGQUIT end the view the same way, seen between
//! keys (the wait for a key wakes every [`POLL`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ratatui::crossterm::event::{self, Event, KeyEventKind};

use super::Opened;
use crate::attach::view::{Flow, TraceView};
use crate::theme::Theme;

/// How often the wait for a key looks for an ending signal.
const POLL: Duration = Duration::from_millis(200);

/// Show `opened` until the learner quits; the terminal is as it was afterwards.
pub(super) fn show(opened: Opened, color: bool) -> anyhow::Result<()> {
    let theme = Theme::new(color).with_truecolor(Theme::truecolor_from_env());
    let Opened {
        source,
        summary,
        timeline,
        judged,
    } = opened;
    let causes = crate::attach::judge::overlap::view_lines(&judged.overlap_report);
    let refused = judged.findings.kernel_params_refused.as_deref().map(|why| {
        format!(
            "(the parameters were asked of the driver, which answered: {})",
            crate::sanitize::clean_line(why)
        )
    });
    let not_watched = judged
        .findings
        .not_watched
        .iter()
        .map(|n| n.to_string())
        .chain(refused);
    let mut view = TraceView::new(source, timeline, summary)
        .with_findings(&judged.findings.findings)
        .with_causes(causes, not_watched.collect());
    let ending = Arc::new(AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGQUIT,
    ] {
        signal_hook::flag::register(signal, Arc::clone(&ending))
            .map_err(|e| anyhow::anyhow!("cannot watch for signal {signal}: {e}"))?;
    }
    crate::tui::panic::install(None);
    let mut term = crate::tui::Terminal::enter(false)?;
    while !ending.load(Ordering::SeqCst) {
        term.draw_with(|frame| {
            let area = frame.area();
            crate::ui::trace_view::render(&view, &theme, area, frame.buffer_mut());
        })?;
        // Wait for something to draw: a key, a resize, or a signal.
        while !ending.load(Ordering::SeqCst) && !event::poll(POLL)? {}
        if ending.load(Ordering::SeqCst) {
            break;
        }
        if let Event::Key(key) = event::read()?
            && key.kind != KeyEventKind::Release
            && view.on_key(&key) == Flow::Quit
        {
            break;
        }
    }
    term.restore();
    Ok(())
}
