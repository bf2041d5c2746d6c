//! The experiment panel: a head (run in progress with a spinner and its phase, the last
//! message, a failure, or which backend produced the results), then the chosen view: the
//! per-stream timeline, the results (metrics table, checks, notes) or the chart.

mod results;
mod saved;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::app::{App, BackendState, Focus, PanelView};
use crate::experiment::registry::{self, Chart};
use crate::gpu::machine;
use crate::report::Report;
use crate::sanitize;
use crate::ui::{layout, pane_block, text};
use crate::widgets::{
    BandwidthChart, PipelineSweep, TimelineWidget, ValueBars, async_copy_bars, host_memory_bars,
};

/// Spinner frames (Braille dots; the phase text says the same thing in words).
const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// Draw the panel into `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let title = title(app);
    let room = usize::from(area.width).saturating_sub(title.chars().count() + 4);
    let mut block = pane_block(theme, app.nav.focus == Focus::Panel).title(title);
    // The backend's word goes on the border only where it does not cover the title.
    if let Some(report) = app.report().filter(|_| room >= 12) {
        let who = format!(" {} ", report.backend.kind.screen_name());
        block = block.title(Line::from(who).right_aligned());
    }
    if let Some(hint) = view_hint(app) {
        block = block.title_bottom(Line::styled(hint, theme.muted()).right_aligned());
    }
    block.render(area, buf);
    let inner = layout::text_area(area);
    if inner.is_empty() {
        return;
    }
    // A short timeline or chart panel leaves out who produced the run: the title says it already.
    let compact =
        matches!(app.panel_view(), PanelView::Timeline | PanelView::Chart) && inner.height < 16;
    let head = head_lines(app, inner.width, compact);
    let head_rows = u16::try_from(head.len())
        .unwrap_or(u16::MAX)
        .min(inner.height);
    Paragraph::new(head).render(
        Rect {
            height: head_rows,
            ..inner
        },
        buf,
    );
    let body = Rect {
        y: inner.y + head_rows,
        height: inner.height - head_rows,
        ..inner
    };
    if body.is_empty() || app.report().is_none() {
        return;
    }
    draw_view(app, body, buf);
}

fn draw_view(app: &App, body: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    match (app.panel_view(), app.report()) {
        (PanelView::Timeline, _) => {
            if let Some(view) = app.timeline() {
                let rows = timeline_rows(&view);
                // Room to spare: the metrics go under the timeline.
                if body.height >= rows + 8 {
                    let top = Rect {
                        height: rows,
                        ..body
                    };
                    TimelineWidget::new(&view, theme).render(top, buf);
                    let rest = Rect {
                        y: body.y + rows + 1,
                        height: body.height - rows - 1,
                        ..body
                    };
                    let lines = results::lines(app, rest.width);
                    Paragraph::new(lines).render(rest, buf);
                } else {
                    TimelineWidget::new(&view, theme).render(body, buf);
                }
            }
        }
        (PanelView::Chart, Some(report)) => {
            // A tall panel has room for the metrics under the chart.
            let chart = if body.height >= 30 {
                Rect {
                    height: (body.height / 2).max(16),
                    ..body
                }
            } else {
                body
            };
            draw_chart(app, report, chart, buf);
            if chart.height < body.height {
                let rest = Rect {
                    y: chart.bottom() + 1,
                    height: body.height - chart.height - 1,
                    ..body
                };
                Paragraph::new(results::lines(app, rest.width)).render(rest, buf);
            }
        }
        _ => {
            let lines = results::lines(app, body.width);
            let visible: Vec<Line> = lines
                .into_iter()
                .skip(usize::from(app.panel.scroll))
                .take(usize::from(body.height))
                .collect();
            Paragraph::new(visible).render(body, buf);
        }
    }
}

fn draw_chart(app: &App, report: &Report, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let chart = registry::find(&report.experiment).and_then(|spec| spec.chart);
    match chart {
        Some(Chart::BandwidthBySize) => {
            BandwidthChart::from_report(report, theme).render(area, buf)
        }
        Some(Chart::HostMemoryBars) => host_memory_bars(report, theme).render(area, buf),
        Some(Chart::AsyncReturnBars) if area.width < 60 => {
            short_async_bars(report, app).render(area, buf);
        }
        Some(Chart::AsyncReturnBars) => async_copy_bars(report, theme).render(area, buf),
        Some(Chart::PipelineSweep) => PipelineSweep::from_report(report, theme).render(area, buf),
        None => {}
    }
}

/// The async-copy bars with labels short enough for a narrow panel.
fn short_async_bars(report: &Report, app: &App) -> ValueBars {
    let metrics = [
        ("async_return_us_pinned", "ret. pinned"),
        ("copy_done_us_pinned", "done pinned"),
        ("async_return_us_pageable", "ret. pageable"),
        ("copy_done_us_pageable", "done pageable"),
    ];
    ValueBars::from_metrics(report, "Call returned vs copy done", &metrics, app.theme)
}

/// Rows the timeline needs to show everything: each run's lanes (and its name when two are
/// compared), then axis ticks and labels, legend and details.
fn timeline_rows(view: &crate::timeline::TimelineView) -> u16 {
    let named = usize::from(view.previous.is_some());
    let runs: usize = std::iter::once(&view.run)
        .chain(view.previous.as_ref())
        .map(|r| r.lanes.len().max(1) + named)
        .sum();
    u16::try_from(runs + 4).unwrap_or(u16::MAX)
}

/// Lines of the scrolled part (the results view), for clamping the scroll.
pub fn scroll_lines(app: &App, width: u16) -> usize {
    match app.panel_view() {
        PanelView::Results if app.report().is_some() => {
            results::lines(app, width).len() + head_lines(app, width, false).len()
        }
        _ => 0,
    }
}

fn title(app: &App) -> String {
    let list = app.experiments();
    match app.experiment() {
        None => " Experiment ".to_string(),
        Some(id) if list.len() > 1 => {
            let at = list.iter().position(|e| e == id).map_or(1, |p| p + 1);
            format!(" Experiment {at}/{}: {id} ", list.len())
        }
        Some(id) => format!(" Experiment: {id} "),
    }
}

/// The bottom border: which view, and the key for the next one.
fn view_hint(app: &App) -> Option<String> {
    app.report()?;
    let name = match app.panel_view() {
        PanelView::Timeline => "timeline",
        PanelView::Results => "results",
        PanelView::Chart => app
            .experiment()
            .and_then(registry::find)
            .and_then(|spec| spec.chart)
            .map_or("chart", Chart::view_name),
    };
    let switch = if app.experiments().len() > 1 {
        " · s other"
    } else {
        ""
    };
    Some(format!(" {name} · v view{switch} "))
}

/// What sits above the view: the run in progress, a message, a failure, the invitation, or who
/// produced the results.
fn head_lines(app: &App, width: u16, compact: bool) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let mut out = Vec::new();
    let Some(id) = app.experiment() else {
        let why = if app.entry().and_then(|e| e.lesson()).is_some() {
            "This lesson has no experiment."
        } else {
            "No experiment: the lesson did not load."
        };
        return vec![Line::styled(why, theme.muted())];
    };
    let wrap = |spans: &[Span<'static>], out: &mut Vec<Line<'static>>| {
        out.extend(text::wrap(spans, width, Span::raw(""), Span::raw("  ")));
    };
    if let Some(running) = &app.panel.running {
        let frame = SPINNER[app.panel.spinner % SPINNER.len()];
        let what = if running.experiment == id {
            "Running".to_string()
        } else {
            format!("Running {}", running.experiment)
        };
        let spans = [
            Span::styled(format!("{frame} {what}: "), theme.strong()),
            Span::styled(running.phase.clone(), theme.text()),
            Span::styled(" · Esc cancels", theme.muted()),
        ];
        wrap(&spans, &mut out);
    }
    if let Some(message) = &app.panel.message {
        let (glyph, style) = if message.error {
            ("✗ ", theme.error())
        } else {
            ("i ", theme.muted())
        };
        wrap(
            &[Span::styled(format!("{glyph}{}", message.text), style)],
            &mut out,
        );
    }
    let outcome = app.panel.outcomes.get(id);
    if let Some(why) = outcome.and_then(|o| o.error.as_ref()) {
        let spans = [Span::styled(format!("✗ {id} failed: {why}"), theme.error())];
        wrap(&spans, &mut out);
        let hint = "The app is fine: change the parameters (o) or press r to try again.";
        wrap(&[Span::styled(hint, theme.muted())], &mut out);
    }
    if let (Some(saved), Some(report)) = (outcome.and_then(|o| o.saved.as_ref()), app.report()) {
        out.extend(saved::lines(app, saved, report, width, !compact));
    }
    match app.report() {
        Some(_) if compact => {}
        Some(report) => out.extend(results::source_lines(app, report, width)),
        None if app.panel.running.is_none() => invitation(app, id, width, &mut out),
        None => {}
    }
    out
}

fn invitation(app: &App, id: &str, width: u16, out: &mut Vec<Line<'static>>) {
    let theme = &app.theme;
    let on = match &app.panel.backend {
        BackendState::Ready(info) => {
            format!(" on {}: {}", info.backend.kind.screen_name(), info.name)
        }
        BackendState::Detecting => " (it starts once the backend is open)".to_string(),
        BackendState::Failed(_) => " (no backend: see the status bar)".to_string(),
    };
    let spans = [
        Span::styled("Press ", theme.text()),
        Span::styled("r", theme.strong()),
        Span::styled(format!(" to run {id}{on}."), theme.text()),
    ];
    out.extend(text::wrap(&spans, width, Span::raw(""), Span::raw("")));
    let mut more = "o sets its parameters".to_string();
    if app.experiments().len() > 1 {
        more.push_str("; s shows the lesson's other experiment");
    }
    let spans = [Span::styled(format!("{more}."), theme.muted())];
    out.extend(text::wrap(&spans, width, Span::raw(""), Span::raw("")));
    out.push(Line::default());
    out.extend(results::params_lines(app, id, width));
    machine_lines(app, width, out);
}

/// The machine the experiment runs on, in one line, and where it leaves the lessons' case
/// ([`machine::notes`]): what `cuda-academy info` says in full (issue 30, "the device panel").
fn machine_lines(app: &App, width: u16, out: &mut Vec<Line<'static>>) {
    let BackendState::Ready(info) = &app.panel.backend else {
        return;
    };
    let theme = &app.theme;
    let line = sanitize::clean_line(&machine::one_line(info.copy_engines, &info.machine));
    let spans = [Span::styled(format!("Machine: {line}"), theme.muted())];
    out.extend(text::wrap(&spans, width, Span::raw(""), Span::raw("")));
    for note in machine::notes(info.copy_engines, &info.machine) {
        let spans = [Span::styled(format!("! {note}"), theme.warning())];
        out.extend(text::wrap(&spans, width, Span::raw(""), Span::raw("")));
    }
}
