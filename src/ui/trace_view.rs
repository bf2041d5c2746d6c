//! `cuda-academy trace`'s full-screen view of a trace ([`TraceView`]): a title line (what is
//! shown, how the program ended, whether the trace is complete), the experiments' timeline
//! widget (a lane per stream, the host lane with the calls it waited in; `m` for the engine
//! lanes) with each finding's `▲` on its bar, the per-stream summary and the findings list
//! (the overlap of copies with kernels first, then each finding, why copies did not overlap
//! kernels, and what the judge could not see), and the keys of the key table's `Trace` context.
//! Side by side from [`WIDE`] columns, stacked below. Every outside string is cleaned.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::attach::summary::{Overlap, Summary, render as summary_text};
use crate::attach::view::{Mark, Severity, TraceView};
use crate::keymap::{self, Ctx};
use crate::sanitize::clean_line;
use crate::theme::Theme;
use crate::ui::pane_block;
use crate::widgets::timeline::{TimelineWidget, lanes_shown, plot_scale};

/// From this width the summary and the findings sit side by side under the timeline.
pub const WIDE: u16 = 120;

/// The glyph on a finding's op, and before each finding's line (the editor's hazard mark).
pub const MARK: char = crate::ui::editor::timeline::HAZARD_MARK;

/// The widget's rows under the lanes (tick marks, labels, legend, details) and the frame.
const TIMELINE_CHROME: u16 = 4 + 2;

/// Draw `view` over `area`.
pub fn render(view: &TraceView, theme: &Theme, area: Rect, buf: &mut Buffer) {
    if area.height < 3 || area.width < 20 {
        buf.set_stringn(
            area.x,
            area.y,
            "enlarge the terminal",
            usize::from(area.width),
            theme.muted(),
        );
        return;
    }
    let [title, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(area);
    title_line(view, theme).render(title, buf);
    footer_line(theme).render(footer, buf);
    let lanes = u16::try_from(view.timeline.run.lanes.len().max(1)).unwrap_or(u16::MAX);
    // The timeline takes what its lanes need, up to two thirds of the body; the rest is text.
    let wanted = lanes.saturating_add(TIMELINE_CHROME);
    let plot_rows = wanted
        .min(body.height.saturating_mul(2) / 3)
        .max(body.height.min(8));
    let [plot, text] =
        Layout::vertical([Constraint::Length(plot_rows), Constraint::Fill(1)]).areas(body);
    timeline_pane(view, theme, plot, buf);
    if text.height == 0 {
        return;
    }
    let (summary, findings) = if area.width >= WIDE {
        let [a, b] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
            .areas(text);
        (a, b)
    } else {
        // The findings are what the learner came for: up to two thirds of the rows.
        let rows = findings_rows(view)
            .saturating_add(2)
            .min(text.height.saturating_mul(2) / 3);
        let [a, b] = Layout::vertical([Constraint::Fill(1), Constraint::Length(rows)]).areas(text);
        (a, b)
    };
    summary_pane(&view.summary, theme, summary, buf);
    findings_pane(view, theme, findings, buf);
}

/// ` cuda-academy trace · exit code 0 · complete · GPU span 1.234 ms · FILE`: the source
/// last, where a narrow terminal cuts it.
fn title_line(view: &TraceView, theme: &Theme) -> Line<'static> {
    let s = &view.summary;
    let ended = match (s.exit_code, s.signal) {
        (Some(c), _) => format!("exit code {c}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        (None, None) => "end not recorded".to_string(),
    };
    let (complete, style) = if s.status != "ok" {
        (
            format!("not traced ({})", clean_line(&s.status)),
            theme.warning(),
        )
    } else if s.complete {
        ("complete".to_string(), theme.muted())
    } else {
        (
            "INCOMPLETE: the last records may be missing".to_string(),
            theme.warning(),
        )
    };
    Line::from(vec![
        Span::styled(" cuda-academy trace", theme.strong()),
        Span::styled(format!(" · {ended} · "), theme.muted()),
        Span::styled(complete, style),
        Span::styled(
            format!(" · GPU span {:.3} ms · ", s.span_ns as f64 / 1e6),
            theme.muted(),
        ),
        Span::styled(clean_line(&view.source), theme.text()),
    ])
}

/// The keys, from the key table's `Trace` context.
fn footer_line(theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::raw(" ")];
    for k in keymap::footer(Ctx::Trace) {
        spans.push(Span::styled(k.keys, theme.strong()));
        spans.push(Span::styled(format!(" {}  ", k.text), theme.muted()));
    }
    Line::from(spans)
}

fn timeline_pane(view: &TraceView, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let block = pane_block(theme, true).title(" Timeline ");
    let inner = block.inner(area);
    block.render(area, buf);
    if view.timeline.run.ops.is_empty() {
        let text = "the trace holds no timed GPU work and no host wait";
        buf.set_stringn(
            inner.x,
            inner.y,
            text,
            usize::from(inner.width),
            theme.muted(),
        );
        return;
    }
    TimelineWidget::new(&view.timeline, *theme)
        .more_rows("enlarge the terminal")
        .render(inner, buf);
    marks_on_bars(view, theme, inner, buf);
}

fn mark_style(mark: &Mark, theme: &Theme) -> Style {
    match mark.severity {
        Severity::Error => theme.error(),
        Severity::Warning => theme.warning(),
    }
    .add_modifier(Modifier::BOLD)
}

/// `▲` on the first visible cell of each finding's op, in the lane the widget drew it in.
fn marks_on_bars(view: &TraceView, theme: &Theme, plot: Rect, buf: &mut Buffer) {
    let t = &view.timeline;
    let scale = plot_scale(t, plot.width);
    let plot_x = plot.x + plot.width.saturating_sub(scale.columns);
    let lane_rows = lanes_shown(t, plot.height);
    for (mark, index) in view.marks.iter().zip(&view.mark_ops) {
        let Some(index) = *index else { continue };
        let Some(op) = t.run.ops.get(index) else {
            continue;
        };
        let lanes = &t.run.lanes.lanes;
        let Some(lane) = lanes.iter().position(|l| l.ops.contains(&index)) else {
            continue;
        };
        let Ok(lane) = u16::try_from(lane) else {
            continue;
        };
        let Some((first, _)) = scale.bar_extent(op.start_us, op.end_us) else {
            continue;
        };
        if lane < lane_rows
            && let Some(cell) = buf.cell_mut((plot_x + first, plot.y + lane))
        {
            cell.set_char(MARK)
                .set_style(mark_style(mark, theme).add_modifier(Modifier::REVERSED));
        }
    }
}

/// The summary's text less what the title and the findings pane say: its first two lines (the
/// status and how the program ended) and the overlap lines.
fn summary_pane(summary: &Summary, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let block = pane_block(theme, false).title(" Summary ");
    // `render` cleans every outside string (kernel names, notes) and cuts kernel names.
    let text = summary_text(summary);
    let overlap = overlap_prefixes();
    let lines: Vec<Line> = text
        .lines()
        .skip(2)
        .filter(|l| !overlap.iter().any(|p| l.starts_with(p.as_str())))
        .map(|l| Line::raw(l.to_string()))
        .collect();
    Paragraph::new(lines)
        .style(theme.text())
        .wrap(Wrap { trim: false })
        .block(block)
        .render(area, buf);
}

/// How `summary::render`'s overlap lines begin (`uploads: `, `downloads: `).
fn overlap_prefixes() -> [String; 2] {
    ["uploads: ".to_string(), "downloads: ".to_string()]
}

/// Lines the findings pane would like: the overlap lines, the marks, the why-no-overlap causes,
/// what the judge did not watch and the lines about what the timeline leaves out.
fn findings_rows(view: &TraceView) -> u16 {
    let n = overlap_lines(&view.summary).len()
        + view.marks.len().max(1)
        + view.causes.len()
        + view.not_watched.len()
        + view.left_out.len();
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// `uploads: 3 of 8 overlapped a kernel (0.4 of 1.2 ms)`, for each direction that copied.
fn overlap_lines(s: &Summary) -> Vec<String> {
    let line = |what: &str, o: &Overlap| {
        (o.copies > 0).then(|| {
            format!(
                "{what}: {} of {} overlapped a kernel ({:.3} of {:.3} ms)",
                o.overlapped,
                o.copies,
                o.overlapped_ns as f64 / 1e6,
                o.copy_ns as f64 / 1e6
            )
        })
    };
    [
        line("uploads", &s.uploads_vs_kernels),
        line("downloads", &s.downloads_vs_kernels),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn findings_pane(view: &TraceView, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let title = format!(" Findings ({}) ", view.marks.len());
    let block = pane_block(theme, false).title(title);
    let mut lines: Vec<Line> = overlap_lines(&view.summary)
        .into_iter()
        .map(|l| Line::styled(l, theme.text()))
        .collect();
    if view.marks.is_empty() {
        let text = if view.judged {
            "the judge reported nothing it can see in this trace"
        } else {
            "not judged here: only the overlap of copies with kernels is measured"
        };
        lines.push(Line::styled(text, theme.muted()));
    }
    for (i, mark) in view.marks.iter().enumerate() {
        let style = if view.selected_mark == Some(i) {
            mark_style(mark, theme).add_modifier(Modifier::REVERSED)
        } else {
            mark_style(mark, theme)
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{MARK} {}", clean_line(&mark.kind)), style),
            Span::styled(format!(" {}", clean_line(&mark.text)), theme.text()),
        ]));
    }
    for (i, cause) in view.causes.iter().enumerate() {
        // The first line says how many copies ran alone; each cause after it is a warning.
        let style = if i == 0 {
            theme.strong()
        } else {
            theme.warning()
        };
        lines.push(Line::styled(clean_line(cause), style));
    }
    for note in view.not_watched.iter().chain(&view.left_out) {
        lines.push(Line::styled(clean_line(note), theme.muted()));
    }
    // Keep the selected finding in view: scroll so that its last wrapped row is on the last
    // visible row at most.
    let inner_rows = usize::from(area.height.saturating_sub(2));
    let inner_width = usize::from(area.width.saturating_sub(2)).max(1);
    let first_mark = overlap_lines(&view.summary).len();
    let scroll = view
        .selected_mark
        .map(|i| {
            let rows: usize = lines
                .iter()
                .take(first_mark + i + 1)
                .map(|l| l.width().max(1).div_ceil(inner_width))
                .sum();
            rows.saturating_sub(inner_rows)
        })
        .unwrap_or(0);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .scroll((u16::try_from(scroll).unwrap_or(0), 0))
        .block(block)
        .render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attach::timeline::TraceTimeline;
    use crate::attach::view::Mark;
    use crate::report::OpKind;
    use crate::timeline::sample::op;

    fn screen(width: u16, height: u16) -> String {
        let timeline = TraceTimeline {
            ops: vec![
                op(OpKind::H2d, 13, 0.0, 10.0),
                op(OpKind::Kernel, 14, 20.0, 30.0),
            ],
            origin_ns: 1_000,
            ..Default::default()
        };
        let mark = Mark {
            kind: "device-race".into(),
            text: "call 5 (cuMemsetD8Async): two streams write".into(),
            severity: Severity::Error,
            start_ns: 21_000,
            end_ns: 29_000,
            stream: Some(14),
        };
        let view = TraceView::new("t", timeline, Summary::default())
            .with_findings(&[mark])
            .with_causes(
                vec![
                    "why no overlap: 1 copies ran while no kernel ran".into(),
                    "pageable-memory: 1 copies".into(),
                ],
                vec!["host races: not watched".into()],
            );
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        render(&view, &Theme::new(false), area, &mut buf);
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    }

    #[test]
    fn the_findings_pane_lists_the_finding_the_causes_and_what_was_not_watched() {
        for (w, h) in [(80, 24), (200, 60)] {
            let s = screen(w, h);
            for want in [
                "▲ device-race call 5",
                "why no overlap: 1 copies",
                "pageable-memory: 1 copies",
                "host races: not watched",
            ] {
                assert!(s.contains(want), "{w}x{h}: no {want:?} in\n{s}");
            }
            // The mark on the kernel's bar, besides the one before the finding's line.
            assert!(s.matches(MARK).count() >= 2, "{w}x{h}:\n{s}");
        }
    }
}
