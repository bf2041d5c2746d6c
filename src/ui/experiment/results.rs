//! The results view's text: a metrics table (friendly labels, values with units), the checks
//! (`✓`/`✗`), the notes, and the parameters; plus the line that says who produced a report.

use ratatui::text::{Line, Span};

use crate::app::App;
use crate::app::params::fields;
use crate::experiment::options::format_bytes;
use crate::experiment::registry;
use crate::report::{Report, TimingSource};
use crate::ui::{metrics, text};

/// The results view's lines at `width`.
pub fn lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let Some(report) = app.report() else {
        return Vec::new();
    };
    let mut out = metric_lines(app, report, width);
    out.extend(check_lines(app, report, width));
    for note in &report.notes {
        let spans = [Span::styled(note.clone(), app.theme.muted())];
        out.extend(text::wrap(&spans, width, Span::raw("• "), Span::raw("  ")));
    }
    out
}

/// The metrics table: the heading (with the clock all share), the winning layout, then a row
/// a metric (label, value, and how it was measured beside it or under it).
fn metric_lines(app: &App, report: &Report, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let common = metrics::common_clock(report.metrics.values());
    let mut rows: Vec<(&String, String, String)> = report
        .metrics
        .iter()
        .map(|(name, m)| {
            (
                name,
                app.with_prediction(name, metrics::format_metric(m)),
                metrics::provenance(m, common),
            )
        })
        .collect();
    rows.sort_by_key(|(name, _, _)| metrics::rank(&report.experiment, name));
    let label_width = rows
        .iter()
        .map(|(n, _, _)| metrics::label(n).chars().count())
        .max()
        .unwrap_or(0)
        .min(usize::from(width).saturating_sub(12));
    let value_width = rows
        .iter()
        .map(|(_, v, _)| v.chars().count())
        .max()
        .unwrap_or(0);
    let mut heading = vec![Span::styled("Metrics", theme.heading(3))];
    if let Some(clock) = common {
        heading.push(Span::styled(
            format!(" · clock: {}", clock.name()),
            theme.muted(),
        ));
    }
    let mut out = vec![Line::from(heading)];
    out.extend(winning_order(app, report, width));
    for (name, value, how) in rows {
        let label = metrics::label(name);
        let label: String = label.chars().take(label_width).collect();
        let mut spans = vec![
            Span::styled(format!("{label:<label_width$}  "), theme.text()),
            Span::styled(format!("{value:<value_width$}"), theme.strong()),
        ];
        // How it was measured goes beside the value where it fits, else under it.
        let used = label_width + 2 + value_width;
        if how.is_empty() {
            out.push(Line::from(spans));
        } else if how.chars().count() + 2 + used <= usize::from(width) {
            spans.push(Span::styled(format!("  {how}"), theme.muted()));
            out.push(Line::from(spans));
        } else {
            out.push(Line::from(spans));
            let indent = " ".repeat((label_width + 2).min(usize::from(width) / 2));
            let how = [Span::styled(how, theme.muted())];
            out.extend(text::wrap(
                &how,
                width,
                Span::raw(indent.clone()),
                Span::raw(indent),
            ));
        }
    }
    out
}

/// The checks, `✓` or `✗` each (a failed one with its detail), under a heading.
fn check_lines(app: &App, report: &Report, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let mut out = Vec::new();
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
    // A run saved by an older version did not keep its timing source.
    let timing_known = app
        .panel
        .outcomes
        .get(&report.experiment)
        .and_then(|o| o.saved.as_ref())
        .is_none_or(|s| s.detail);
    let mut what = if timing_known {
        format!(" · {timing} · {}", format_bytes(report.params.size))
    } else {
        format!(" · {}", format_bytes(report.params.size))
    };
    let words = registry::words(report);
    if let Some(shape) = (words.shape)(report) {
        what.push_str(&format!(", {shape}"));
        // The sizes of the pieces the run chose (the pipeline's tapered ends show here).
        if let Some(sizes) = (words.pieces)(report) {
            what.push_str(&format!(" ({})", crate::sanitize::clean(&sizes)));
        }
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

/// For a run that compared the best layout with the best of the others: which won, by how much
/// (`Winning layout: per-chunk, 5.66 ms against 7.21 ms breadth-first (3 streams x 32 chunks)`).
fn winning_order(app: &App, report: &Report, width: u16) -> Vec<Line<'static>> {
    let Some((winner, how)) = (registry::words(report).winner)(report) else {
        return Vec::new();
    };
    let spans = [
        Span::styled("Winning layout: ", app.theme.text()),
        Span::styled(winner, app.theme.strong()),
        Span::styled(format!(", {how}"), app.theme.text()),
    ];
    text::wrap(&spans, width, Span::raw(""), Span::raw("  "))
}
