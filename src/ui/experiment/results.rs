//! The results view's text: a metrics table (friendly labels, values with units), the checks
//! (`✓`/`✗`), the notes, and the parameters; plus the line that says who produced a report.

use ratatui::text::{Line, Span};

use crate::app::App;
use crate::app::params::fields;
use crate::experiment::options::format_bytes;
use crate::report::{Report, TimingSource};
use crate::ui::{metrics, text};

/// The results view's lines at `width`.
pub fn lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(report) = app.report() else {
        return Vec::new();
    };
    let mut rows: Vec<(&String, String)> = report
        .metrics
        .iter()
        .filter(|(name, _)| !name.ends_with("_iqr"))
        .map(|(name, m)| (name, app.with_prediction(name, metrics::format_metric(m))))
        .collect();
    rows.sort_by_key(|(name, _)| metrics::rank(name));
    let label_width = rows
        .iter()
        .map(|(n, _)| metrics::label(n).chars().count())
        .max()
        .unwrap_or(0)
        .min(usize::from(width).saturating_sub(12));
    let mut out = vec![Line::styled("Metrics", theme.heading(3))];
    for (name, value) in rows {
        let label = metrics::label(name);
        let label: String = label.chars().take(label_width).collect();
        out.push(Line::from(vec![
            Span::styled(format!("{label:<label_width$}  "), theme.text()),
            Span::styled(value, theme.strong()),
        ]));
    }
    if !report.checks.is_empty() {
        out.push(Line::default());
        out.push(Line::styled("Checks", theme.heading(3)));
    }
    for check in &report.checks {
        let (glyph, style) = if check.passed {
            ("✓ ", theme.correct())
        } else {
            ("✗ ", theme.wrong())
        };
        let mut t = check.name.clone();
        if !check.passed && !check.detail.is_empty() {
            t.push_str(&format!(": {}", check.detail));
        }
        let spans = [Span::styled(t, theme.text())];
        out.extend(text::wrap(
            &spans,
            width,
            Span::styled(glyph, style),
            Span::raw("  "),
        ));
    }
    for note in &report.notes {
        let spans = [Span::styled(note.clone(), theme.muted())];
        out.extend(text::wrap(&spans, width, Span::raw("• "), Span::raw("  ")));
    }
    out
}

/// Who produced a report and with what, wrapped to `width`: `Simulated: NVIDIA H200 (profile
/// h200) · modelled timing · 256 MiB, 3 streams x 32 chunks, pinned`.
pub fn source_lines(app: &App, report: &Report, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let b = &report.backend;
    let mut who = format!("{}: {}", b.kind.screen_name(), b.device);
    if let Some(profile) = &b.profile {
        who.push_str(&format!(" (profile {profile})"));
    }
    let timing = match b.timing {
        TimingSource::Cupti => "CUPTI timing",
        TimingSource::Events => "event timing",
        TimingSource::Model => "modelled timing",
    };
    let mut what = format!(" · {timing} · {}", format_bytes(report.params.size));
    if let (Some(s), Some(c)) = (report.params.streams, report.params.chunks) {
        what.push_str(&format!(", {s} streams x {c} chunks"));
    }
    if let Some(mem) = report.params.extra.get("host_mem") {
        what.push_str(&format!(", {mem}"));
    }
    let spans = [
        Span::styled(who, theme.strong()),
        Span::styled(what, theme.muted()),
    ];
    text::wrap(&spans, width, Span::raw(""), Span::raw("  "))
}

/// The parameters the next run will use.
pub fn params_lines(app: &App, id: &str, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let options = app.panel.options.get(id).cloned().unwrap_or_default();
    let parts: Vec<String> = fields(id)
        .iter()
        .map(|f| format!("{} {}", f.label(), f.value(&options)))
        .collect();
    let spans = [Span::styled(
        format!("Next run: {}", parts.join(" · ")),
        theme.muted(),
    )];
    text::wrap(&spans, width, Span::raw(""), Span::raw("  "))
}
