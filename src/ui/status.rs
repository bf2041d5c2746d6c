//! The status bar, from the first frame: which backend runs experiments (`Live: <GPU name>` or
//! `Simulated: profile <name> — <reason>`), "detecting backend…" until the worker has opened
//! it, and the run in progress on the right.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::app::{App, BackendState};
use crate::report::BackendKind;

/// The backend's words, as the status bar shows them.
pub fn backend_text(app: &App) -> String {
    backend_texts(app).swap_remove(0)
}

/// The backend's words, fullest first: a narrow bar drops the device name and the word
/// `profile` before it cuts the reason (review 2026-12-01: below 200 columns it was cut).
fn backend_texts(app: &App) -> Vec<String> {
    if let BackendState::Ready(info) = &app.panel.backend
        && info.backend.kind == BackendKind::Simulated
    {
        let profile = info.backend.profile.as_deref().unwrap_or("unknown");
        let reason = info
            .backend
            .reason
            .as_ref()
            .map_or(String::new(), |r| format!(" — {r}"));
        return vec![
            format!("Simulated: profile {profile} ({}){reason}", info.name),
            format!("Simulated: profile {profile}{reason}"),
            format!("Simulated ({profile}){reason}"),
        ];
    }
    vec![full_text(app)]
}

fn full_text(app: &App) -> String {
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
    let texts = backend_texts(app);
    let fits = texts
        .iter()
        .find(|t| crate::sanitize::width(t) <= room)
        .or(texts.last());
    let left = crate::sanitize::truncate(fits.map_or("", String::as_str), room);
    Line::from(vec![Span::raw(" "), Span::styled(left, style)]).render(area, buf);
    if right_width > 0 && right_width < area.width {
        let at = Rect::new(area.right() - right_width, area.y, right_width, 1);
        Span::styled(right, theme.focus()).render(at, buf);
    }
}
