//! The pipeline's sweep view: the time of every streams x chunks point the search tried, one
//! table per issue order (rows: streams, columns: chunks), shaded by how far each is from the
//! fastest, with the chosen configuration marked `◆` and reversed. It is the picture behind
//! "two or three streams suffice": the rows for 2, 3 and 4 streams are nearly the same.
//!
//! Without colour, the chosen cell is still reversed and marked, and cells within 1% of the
//! fastest are bold. Tables sit side by side when they fit, else one above the other.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::experiment::options::IssueOrder;
use crate::experiment::pipeline::grid::{GridPoint, points};
use crate::experiment::pipeline::schedule::Config;
use crate::experiment::registry;
use crate::report::Report;
use crate::theme::Theme;
use crate::timeline::format::three_digits;

/// Width of the row-label column (`breadth-first`, `4 streams`).
const LABEL: usize = 14;

/// The widget (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineSweep {
    points: Vec<GridPoint>,
    chosen: Option<Config>,
    /// The chosen configuration in the experiment's words (`3 streams x 32 chunks`).
    chosen_shape: Option<String>,
    theme: Theme,
}

impl PipelineSweep {
    /// The sweep of a pipeline report (empty for other reports).
    pub fn from_report(report: &Report, theme: Theme) -> PipelineSweep {
        let order = report.params.extra.get("best_order");
        let chosen = match (report.params.streams, report.params.chunks, order) {
            (Some(streams), Some(chunks), Some(order)) => IssueOrder::ALL
                .into_iter()
                .find(|o| o.name() == order)
                .map(|order| Config::equal(streams, chunks, order)),
            _ => None,
        };
        let chosen_shape = chosen.and_then(|_| (registry::words(report).shape)(report));
        PipelineSweep {
            points: points(report),
            chosen,
            chosen_shape,
            theme,
        }
    }

    fn fastest(&self) -> f64 {
        self.points
            .iter()
            .map(|p| p.ms)
            .fold(f64::INFINITY, f64::min)
    }

    fn axis<T: Ord + Copy>(&self, f: impl Fn(&GridPoint) -> T) -> Vec<T> {
        let mut v: Vec<T> = self.points.iter().map(f).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The lines of one order's table, with columns `chunks`: a header row (the order, then the
    /// chunk counts), then one row per stream count.
    fn table(&self, order: IssueOrder, chunks: &[u32], cell: usize) -> Vec<Line<'static>> {
        let theme = self.theme;
        let head: String = chunks.iter().map(|c| format!("{c:>cell$}")).collect();
        let mut out = vec![Line::from(vec![
            Span::styled(format!("{:<LABEL$}", order.name()), theme.heading(3)),
            Span::styled(head, theme.muted()),
        ])];
        for streams in self.axis(|p| p.config.streams) {
            // By-stage runs on three streams only: no empty rows for the counts it never has.
            let tried = |p: &GridPoint| p.config.order == order && p.config.streams == streams;
            if !self.points.iter().any(tried) {
                continue;
            }
            let word = if streams == 1 { "stream" } else { "streams" };
            let label = format!("{:>LABEL$}", format!("{streams} {word} "));
            let mut spans = vec![Span::styled(label, theme.text())];
            for &c in chunks {
                let config = Config::equal(streams, c, order);
                spans.push(self.cell(config, cell));
            }
            out.push(Line::from(spans));
        }
        out
    }

    fn cell(&self, config: Config, width: usize) -> Span<'static> {
        let Some(point) = self.points.iter().find(|p| p.config == config) else {
            return Span::styled(format!("{:>width$}", "·"), self.theme.muted());
        };
        let chosen = self.chosen == Some(config);
        let mark = if chosen { "◆" } else { "" };
        let text = format!("{:>width$}", format!("{mark}{}", three_digits(point.ms)));
        let mut style = self.shade(point.ms / self.fastest());
        if chosen {
            style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
        }
        Span::styled(text, style)
    }

    /// Colour by distance from the fastest (bold within 1%, which also shows without colour).
    fn shade(&self, ratio: f64) -> Style {
        let near = if ratio <= 1.01 {
            Modifier::BOLD
        } else {
            Modifier::empty()
        };
        let color = match ratio {
            r if r <= 1.01 => Color::LightGreen,
            r if r <= 1.10 => Color::Green,
            r if r <= 1.25 => Color::Yellow,
            r if r <= 1.60 => Color::LightRed,
            _ => Color::Red,
        };
        let style = Style::new().add_modifier(near);
        if self.theme.color {
            style.fg(color)
        } else {
            style
        }
    }

    fn legend(&self) -> String {
        let chosen = self
            .chosen_shape
            .as_ref()
            .map_or(String::new(), |shape| format!("◆ chosen ({shape}) · "));
        format!("{chosen}bold: within 1% of the fastest · ·: not tried")
    }
}

impl Widget for PipelineSweep {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        if self.points.is_empty() {
            let why = "No sweep in this run: the streams and chunks were fixed (o sets them).";
            Paragraph::new(Line::styled(why, theme.muted())).render(area, buf);
            return;
        }
        let width = usize::from(area.width);
        let cell = self
            .points
            .iter()
            .map(|p| three_digits(p.ms).chars().count() + 2)
            .max()
            .unwrap_or(6)
            .max(5);
        let mut chunks = self.axis(|p| p.config.chunks);
        // Too many columns: keep those nearest the chosen chunk count.
        let fit = width.saturating_sub(LABEL) / cell;
        if chunks.len() > fit.max(1) {
            let centre = self.chosen.map_or(chunks[chunks.len() / 2], |c| c.chunks);
            chunks.sort_by_key(|c| c.abs_diff(centre));
            chunks.truncate(fit.max(1));
            chunks.sort_unstable();
        }
        let mut orders = self.axis(|p| p.config.order.name());
        // The chosen order first, then the others fastest first (on a short panel the closest
        // competitor stays in view).
        let first = self.chosen.map(|c| c.order.name());
        let best_of = |name: &str| {
            self.points
                .iter()
                .filter(|p| p.config.order.name() == name)
                .map(|p| p.ms)
                .fold(f64::INFINITY, f64::min)
        };
        orders.sort_by(|a, b| {
            (Some(*a) != first)
                .cmp(&(Some(*b) != first))
                .then(best_of(a).total_cmp(&best_of(b)))
        });
        let tables: Vec<Vec<Line>> = orders
            .iter()
            .filter_map(|name| IssueOrder::ALL.into_iter().find(|o| o.name() == *name))
            .map(|o| self.table(o, &chunks, cell))
            .collect();
        let table_width = LABEL + cell * chunks.len();
        let mut lines = vec![
            Line::styled(
                "ms for each streams x chunks tried (one run each; columns: chunks)",
                theme.strong(),
            ),
            Line::styled(self.legend(), theme.muted()),
        ];
        if tables.len() == 2 && 2 * table_width + 4 <= width {
            let [left, right] = [&tables[0], &tables[1]];
            for (l, r) in left.iter().zip(right) {
                let pad = table_width + 4 - l.width();
                let mut spans = l.spans.clone();
                spans.push(Span::raw(" ".repeat(pad)));
                spans.extend(r.spans.iter().cloned());
                lines.push(Line::from(spans));
            }
        } else {
            for t in tables {
                lines.extend(t);
            }
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(area, buf);
    }
}
