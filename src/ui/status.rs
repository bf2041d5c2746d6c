//! The status bar, from the first frame: which backend runs experiments ("Live: <GPU name>" or
//! "Simulated: profile <name> — <reason>"), "detecting backend…" until the worker has opened
//! it, and the run in progress on the right.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::app::{App, BackendState};
use crate::report::BackendKind;

/// The backend's words, as the status bar shows them.
pub fn backend_text(app: &App) -> String {
    match &app.panel.backend {
        BackendState::Detecting => "Detecting backend… (experiments run once it is open)".into(),
        BackendState::Failed(why) => format!("No backend: {why}"),
        BackendState::Ready(info) => match info.backend.kind {
            BackendKind::Cuda => format!("Live: {}", info.name),
            BackendKind::Simulated => {
                let profile = info.backend.profile.as_deref().unwrap_or("unknown");
                let mut t = format!("Simulated: profile {profile} ({})", info.name);
                if let Some(reason) = &info.backend.reason {
                    t.push_str(&format!(" — {reason}"));
                }
                t
            }
        },
    }
}

/// Draw the status bar.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let style = match &app.panel.backend {
        BackendState::Failed(_) => theme.error(),
        BackendState::Detecting => theme.muted(),
        BackendState::Ready(_) => theme.strong(),
    };
    let right = app
        .panel
        .running
        .as_ref()
        .map(|r| format!(" running {} ", r.experiment))
        .unwrap_or_default();
    let right_width = u16::try_from(right.chars().count()).unwrap_or(0);
    let room = usize::from(area.width.saturating_sub(right_width + 2));
    // Device names and reasons come from the driver or a profile: outside text.
    let left = crate::sanitize::truncate(&backend_text(app), room);
    Line::from(vec![Span::raw(" "), Span::styled(left, style)]).render(area, buf);
    if right_width > 0 && right_width < area.width {
        let at = Rect::new(area.right() - right_width, area.y, right_width, 1);
        Span::styled(right, theme.focus()).render(at, buf);
    }
}
