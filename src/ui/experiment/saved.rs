//! The label of a run restored from progress after a relaunch (`app::Saved`): when and where it
//! ran, that `r` runs it again, and what the progress file did not keep of it.

use std::time::{Duration, UNIX_EPOCH};

use ratatui::text::{Line, Span};

use crate::app::{App, Saved};
use crate::report::Report;
use crate::ui::text;
use crate::utc::Utc;

/// `2026-12-01 17:02 UTC` for `at` ms since the epoch.
pub fn when(at: u64) -> String {
    let t = Utc::at(UNIX_EPOCH + Duration::from_millis(at));
    format!("{} {:02}:{:02} UTC", t.iso_date(), t.hour, t.minute)
}

/// `Last run 2026-12-01 17:02 UTC on Simulated: NVIDIA H200 · r runs it again`, then what was
/// not kept, wrapped to `width`. With `source_follows` the lines that follow name the backend
/// and device (the full panel), so the label says `saved` in their place.
pub fn lines(
    app: &App,
    saved: &Saved,
    report: &Report,
    width: u16,
    source_follows: bool,
) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let b = &report.backend;
    let head = Span::styled(format!("Last run {}", when(saved.at)), theme.strong());
    let mut spans = vec![head];
    if source_follows {
        spans.push(Span::styled(", saved", theme.text()));
    } else {
        // The device name comes from the driver or a profile: outside text.
        let device = crate::sanitize::clean(&b.device).into_owned();
        let on = format!(" on {}: {device}", b.kind.screen_name());
        spans.push(Span::styled(on, theme.text()));
    }
    spans.push(Span::styled(" · r runs it again", theme.muted()));
    let mut out = text::wrap(&spans, width, Span::raw(""), Span::raw("  "));
    let missing = if !saved.detail {
        Some("Saved by an older version: its figures only (no checks or timeline).".to_string())
    } else if saved
        .left_out
        .iter()
        .any(|n| n == crate::progress::SAVED_HEADLINE)
    {
        Some("Its timeline was too large to keep: figures and checks only.".to_string())
    } else if saved.left_out.is_empty() {
        None
    } else {
        let names: Vec<String> = saved
            .left_out
            .iter()
            .map(|n| crate::sanitize::clean(n).into_owned())
            .collect();
        Some(format!("Not kept (too large): {}.", names.join("; ")))
    };
    if let Some(missing) = missing {
        let spans = [Span::styled(missing, theme.muted())];
        out.extend(text::wrap(&spans, width, Span::raw(""), Span::raw("  ")));
    }
    out
}
