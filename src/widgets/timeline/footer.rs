//! The rows under the lanes: the time axis (tick marks, then labels with units), the legend
//! (glyph = kind) and the selected op's details.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::lane_row::{INFERRED_MARK, RowContext};
use crate::report::OpKind;
use crate::theme::Theme;
use crate::timeline::format::{format_duration_us, kind_name};
use crate::timeline::ticks;

/// Which footer rows to draw.
pub struct FooterRows {
    pub ticks: bool,
    pub labels: bool,
    pub legend: bool,
    pub details: bool,
}

/// Draws the footer rows from row `y` down, inside `area`.
pub fn draw(buf: &mut Buffer, ctx: &RowContext<'_>, rows: &FooterRows, area: Rect, mut y: u16) {
    let ticks = ticks(&ctx.scale, 2);
    let plot_x = ctx.x + ctx.label_width;
    let plot_width = usize::from(ctx.scale.columns);
    if rows.ticks {
        let mut line: Vec<char> = vec!['─'; plot_width];
        for tick in &ticks {
            if let Some(c) = line.get_mut(usize::from(tick.column)) {
                *c = '┬';
            }
        }
        let text: String = line.into_iter().collect();
        buf.set_stringn(plot_x, y, text, plot_width, ctx.theme.muted());
        y += 1;
    }
    if rows.labels {
        // The window's width sits in the label column, so zooming shows at a glance; the arrow
        // says it is a width, not a time on the axis.
        let span = format!("↔{}", format_duration_us(ctx.scale.span_us()));
        let label_room = usize::from(ctx.label_width.saturating_sub(1));
        buf.set_stringn(ctx.x, y, span, label_room, ctx.theme.muted());
        for tick in &ticks {
            let room = plot_width.saturating_sub(usize::from(tick.column));
            // A label cut at the right edge reads as another number (`6` for `60 ms`): skip it.
            if tick.label.chars().count() > room {
                continue;
            }
            let x = plot_x + tick.column;
            buf.set_stringn(x, y, &tick.label, room, ctx.theme.muted());
        }
        y += 1;
    }
    if rows.legend {
        let line = legend(ctx);
        buf.set_line(area.x, y, &line, area.width);
        y += 1;
    }
    if rows.details {
        let line = details(ctx, usize::from(area.width));
        buf.set_line(area.x, y, &line, area.width);
    }
}

/// `▶ H2D  ◀ D2H  █ kernel  · host`, plus `┆ inferred start` when any start was inferred.
fn legend(ctx: &RowContext<'_>) -> Line<'static> {
    let mut spans = Vec::new();
    for kind in [OpKind::H2d, OpKind::D2h, OpKind::Kernel, OpKind::Host] {
        let glyph = Theme::op_glyph(kind).to_string();
        spans.push(Span::styled(glyph, ctx.theme.op(kind)));
        spans.push(Span::styled(
            format!(" {}  ", kind_name(kind)),
            ctx.theme.text(),
        ));
    }
    let view = ctx.view;
    let inferred = std::iter::once(&view.run)
        .chain(view.previous.as_ref())
        .any(|run| run.ops.iter().any(|op| op.start_inferred));
    if inferred {
        spans.push(Span::styled(INFERRED_MARK.to_string(), ctx.theme.warning()));
        spans.push(Span::styled(" inferred start", ctx.theme.text()));
    }
    Line::from(spans)
}

/// The selected op's details in reversed video, cut to `width` by leaving out the least
/// important parts (never the engine), and naming the compared run when the op is in it; or a
/// hint when nothing is selected.
fn details(ctx: &RowContext<'_>, width: usize) -> Line<'static> {
    match ctx.view.details() {
        Some(details) => {
            let glyph = Theme::op_glyph(details.kind);
            // The compared run's name up to its first separator: `breadth-first`, `sequential`.
            let run = ctx.view.selected_run_name().map(|name| {
                let short = name.split([',', '·', '(']).next().unwrap_or(name).trim();
                format!("{short}: ")
            });
            let prefix = format!("{glyph} {}", run.unwrap_or_default());
            let room = width.saturating_sub(prefix.chars().count());
            let text = format!("{prefix}{}", details.summary_within(room));
            Line::from(Span::styled(text, ctx.theme.selected()))
        }
        None => Line::from(Span::styled(ctx.keys.to_string(), ctx.theme.muted())),
    }
}
