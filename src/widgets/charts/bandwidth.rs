//! Bandwidth against transfer size, x on a log2 axis labelled `4K, 64K, 1M, 16M, 256M`.
//!
//! Series naming convention (the experiments write it, this chart reads it):
//! `<memkind>_<dir>_gbps_by_size`, where `<memkind>` is `pageable`, `pinned`, `write_combined` or
//! `registered`, and `<dir>` is `h2d` or `d2h`; x is the transfer size in bytes (`x_unit` "B"),
//! y the bandwidth in GB/s (`y_unit` "GB/s"), points by ascending size. Example:
//! `pinned_h2d_gbps_by_size`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Widget};

use super::{series_marker, series_style};
use crate::report::{HostMemKind, OpKind, Report, Series};
use crate::theme::Theme;
use crate::timeline::axis::nice_step;
use crate::timeline::format::{kind_name, three_digits};

/// The suffix that marks a bandwidth-by-size series.
pub const BY_SIZE_SUFFIX: &str = "_gbps_by_size";

/// The series name for `mem` copies in direction `dir`, e.g. `pinned_h2d_gbps_by_size`.
pub fn series_name(mem: HostMemKind, dir: OpKind) -> String {
    let mem = mem.name().replace('-', "_");
    format!("{mem}_{}{BY_SIZE_SUFFIX}", kind_name(dir).to_lowercase())
}

/// What a series name says, for the legend: `Some("pinned H2D")` for
/// `pinned_h2d_gbps_by_size`; `None` when the name does not follow the convention.
pub fn parse_series_name(name: &str) -> Option<String> {
    let stem = name.strip_suffix(BY_SIZE_SUFFIX)?;
    let (mem, dir) = stem.rsplit_once('_')?;
    if mem.is_empty() || dir.is_empty() {
        return None;
    }
    Some(format!("{} {}", mem.replace('_', "-"), dir.to_uppercase()))
}

/// The chart. Build it per frame from a report: `BandwidthChart::from_report(&report, theme)`.
#[derive(Debug, Clone)]
pub struct BandwidthChart<'a> {
    series: Vec<&'a Series>,
    theme: Theme,
    title: String,
}

impl<'a> BandwidthChart<'a> {
    /// A chart of these series (any name; the legend shows the parsed name when it parses).
    pub fn new(series: Vec<&'a Series>, theme: Theme) -> Self {
        BandwidthChart {
            series,
            theme,
            title: "Bandwidth vs transfer size".to_string(),
        }
    }

    /// A chart of every `*_gbps_by_size` series of `report`, in report order.
    pub fn from_report(report: &'a Report, theme: Theme) -> Self {
        let series = report
            .series
            .iter()
            .filter(|s| s.name.ends_with(BY_SIZE_SUFFIX))
            .collect();
        Self::new(series, theme)
    }

    /// Replaces the title (default "Bandwidth vs transfer size").
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = title.into();
        self
    }

    fn legend_name(series: &Series) -> String {
        parse_series_name(&series.name).unwrap_or_else(|| series.name.clone())
    }

    /// The legend's entries: `o pinned H2D`, `x pageable H2D`, ..., and the overlap marker's
    /// when `overlap` (points of two series on one cell).
    fn legend_entries(&self, overlap: bool) -> Vec<Vec<Span<'static>>> {
        let mut entries: Vec<Vec<Span<'static>>> = Vec::new();
        for (i, series) in self.series.iter().enumerate() {
            let style = series_style(self.theme, i);
            entries.push(vec![
                Span::styled(series_marker(i).to_string(), style),
                Span::styled(format!(" {}", Self::legend_name(series)), style),
            ]);
        }
        if overlap {
            entries.push(vec![Span::styled(
                format!("{OVERLAP_MARKER} overlapping"),
                self.theme.strong(),
            )]);
        }
        entries
    }

    /// The legend in lines of `width` columns, whole entries two spaces apart (at 100 columns
    /// one line cut off the `◎` entry: review 2026-12-01); an entry wider than a line is cut
    /// with an ellipsis.
    fn legend(&self, overlap: bool, width: u16) -> Vec<Line<'static>> {
        let width = usize::from(width);
        let mut lines: Vec<Vec<Span<'static>>> = vec![Vec::new()];
        let mut used = 0;
        for entry in self.legend_entries(overlap) {
            let w: usize = entry.iter().map(Span::width).sum();
            let gap = if used == 0 { 0 } else { 2 };
            if used > 0 && used + gap + w > width {
                lines.push(Vec::new());
                used = 0;
            }
            let Some(line) = lines.last_mut() else {
                break;
            };
            if used > 0 {
                line.push(Span::raw("  "));
                used += 2;
            }
            if w > width {
                let text: String = entry.iter().map(|s| s.content.as_ref()).collect();
                let style = entry.first().map(|s| s.style).unwrap_or_default();
                line.push(Span::styled(crate::text_fit::truncate(&text, width), style));
                used = width;
            } else {
                line.extend(entry);
                used += w;
            }
        }
        lines.into_iter().map(Line::from).collect()
    }

    /// Too small for a chart: one line per series with its peak.
    fn render_summary(&self, area: Rect, buf: &mut Buffer) {
        for (i, series) in self
            .series
            .iter()
            .enumerate()
            .take(usize::from(area.height))
        {
            let peak = series.points.iter().map(|p| p.1).fold(0.0, f64::max);
            let text = format!(
                "{} {}: peak {} GB/s",
                series_marker(i),
                Self::legend_name(series),
                three_digits(peak)
            );
            let y = area.y + i as u16;
            buf.set_stringn(
                area.x,
                y,
                text,
                usize::from(area.width),
                series_style(self.theme, i),
            );
        }
    }
}

/// The log2 x bounds and labels for sizes `min..max` bytes with room for `width` columns: the
/// sweep's own first and last sizes, and between them labels a step of 2, 4, 8 or 16 powers of
/// two apart where the step divides the sweep, so labels are evenly spaced and the axis never
/// runs past the data (review 2026-12-01b: at 80x24 a 4 KiB..256 MiB sweep read `256 … 4G`).
fn x_axis(min: f64, max: f64, width: u16) -> ([f64; 2], Vec<String>) {
    let lo = min.max(1.0).log2().floor();
    let hi = max.max(1.0).log2().ceil().max(lo + 1.0);
    let span = hi - lo;
    // Steps of 4 powers give the familiar 4K, 64K, 1M, 16M, 256M; short sweeps use 2, and a
    // sweep that 4, 8 and 16 do not divide (4K..4M) steps by 2 or 5 where those do.
    let steps: &[f64] = if span <= 8.0 {
        &[2.0, 4.0, 8.0]
    } else {
        &[4.0, 8.0, 16.0, 2.0, 5.0]
    };
    let fits = |step: f64| ((span / step) as usize + 1) * 6 <= usize::from(width);
    let step = steps
        .iter()
        .copied()
        .find(|&step| span % step == 0.0 && fits(step))
        .unwrap_or(span);
    let count = (span / step) as usize + 1;
    let labels = (0..count)
        .map(|k| size_label(lo + k as f64 * step))
        .collect();
    ([lo, hi], labels)
}

/// `2^exp` bytes as `4K`, `64K`, `1M`, `16M`, `256M`, `4G`.
pub fn size_label(exp: f64) -> String {
    // 2^59 bytes (512P) is beyond any transfer; the clamp keeps the shift in range.
    let exp = exp.clamp(0.0, 59.0) as u32;
    let suffix = ["", "K", "M", "G", "T", "P"];
    let group = (exp / 10).min(5);
    format!("{}{}", 1u64 << (exp - group * 10), suffix[group as usize])
}

/// A point the log axis can show: positive finite size, finite bandwidth.
fn plottable(point: &(f64, f64)) -> bool {
    point.0 > 0.0 && point.0.is_finite() && point.1.is_finite()
}

/// The fewest rows of plot the chart draws (below, the one-line-per-series summary): at four
/// rows of a 0..60 GB/s axis a row is 15 GB/s, so 8 and 55 GB/s land three rows apart.
const MIN_PLOT_ROWS: u16 = 4;

/// The marker of a point two series share (same size, same cell row).
pub const OVERLAP_MARKER: char = '◎';

/// Each series' scatter points that no other series shares, and the shared points (drawn
/// once, with [`OVERLAP_MARKER`]), for a plot `rows` cells tall.
fn split_overlaps(plot: &Plot, rows: u16) -> Overlaps {
    let cell = plot.y_top / f64::from(rows.max(1));
    let row = |y: f64| (y / cell).round() as i64;
    let mut own: Vec<Vec<(f64, f64)>> = plot.data.clone();
    let mut shared = Vec::new();
    for i in 0..plot.data.len() {
        for &(x, y) in &plot.data[i] {
            let twin = plot.data[..i]
                .iter()
                .any(|earlier| earlier.iter().any(|&(ex, ey)| ex == x && row(ey) == row(y)));
            if twin {
                shared.push((x, y));
            }
        }
    }
    for series in &mut own {
        series.retain(|&(x, y)| !shared.iter().any(|&(sx, sy)| sx == x && row(sy) == row(y)));
    }
    Overlaps { own, shared }
}

/// See [`split_overlaps`].
struct Overlaps {
    own: Vec<Vec<(f64, f64)>>,
    shared: Vec<(f64, f64)>,
}

/// What the chart draws: each series as (log2 bytes, GB/s), the axes' bounds and labels.
struct Plot {
    data: Vec<Vec<(f64, f64)>>,
    x_bounds: [f64; 2],
    x_labels: Vec<String>,
    y_top: f64,
}

impl BandwidthChart<'_> {
    /// The plot for a chart `width` columns wide, or `None` when no point is plottable.
    fn plot(&self, width: u16) -> Option<Plot> {
        let points = || {
            self.series
                .iter()
                .flat_map(|s| s.points.iter())
                .filter(|p| plottable(p))
        };
        let min_x = points().map(|p| p.0).reduce(f64::min)?;
        let max_x = points().map(|p| p.0).fold(min_x, f64::max);
        let max_y = points().map(|p| p.1).fold(0.0, f64::max);
        let y_step = nice_step(max_y.max(1e-9) / 4.0);
        let (x_bounds, x_labels) = x_axis(min_x, max_x, width.saturating_sub(8));
        let data = self
            .series
            .iter()
            .map(|s| {
                s.points
                    .iter()
                    .filter(|p| plottable(p))
                    .map(|p| (p.0.log2(), p.1))
                    .collect()
            })
            .collect();
        Some(Plot {
            data,
            x_bounds,
            x_labels,
            y_top: (max_y / y_step).ceil().max(1.0) * y_step,
        })
    }

    /// Each series twice: a thin braille line for the trend, its marker at the measured sizes.
    /// Where a later series' point lands in the same cell row as an earlier one's at the same
    /// size (pinned H2D and D2H both near 55 GB/s), neither marker would show the other: both
    /// become [`OVERLAP_MARKER`], which the legend explains.
    fn chart<'p>(&self, plot: &'p Plot, points: &'p Overlaps) -> Chart<'p> {
        let mut datasets = Vec::new();
        let (own, shared) = (&points.own, &points.shared);
        for (i, data) in plot.data.iter().enumerate() {
            let style = series_style(self.theme, i);
            let line = Dataset::default().data(data).graph_type(GraphType::Line);
            datasets.push(line.marker(Marker::Braille).style(style));
        }
        for (i, data) in own.iter().enumerate() {
            let style = series_style(self.theme, i);
            let points = Dataset::default().data(data).graph_type(GraphType::Scatter);
            datasets.push(points.marker(Marker::Custom(series_marker(i))).style(style));
        }
        let both = Dataset::default()
            .data(shared)
            .graph_type(GraphType::Scatter);
        datasets.push(
            both.marker(Marker::Custom(OVERLAP_MARKER))
                .style(self.theme.strong()),
        );
        let top = plot.y_top;
        let y_labels = vec!["0".to_string(), three_digits(top / 2.0), three_digits(top)];
        let muted = self.theme.muted();
        Chart::new(datasets)
            .legend_position(None)
            .x_axis(
                Axis::default()
                    .title("bytes")
                    .bounds(plot.x_bounds)
                    .labels(plot.x_labels.clone())
                    .style(muted),
            )
            .y_axis(
                Axis::default()
                    .title("GB/s")
                    .bounds([0.0, top])
                    .labels(y_labels)
                    .style(muted),
            )
    }
}

impl Widget for BandwidthChart<'_> {
    /// Title, chart and legend; a one-line-per-series summary when smaller than 24x6 or when the
    /// plot would have fewer than `MIN_PLOT_ROWS` rows.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let width = usize::from(area.width);
        let Some(plot) = self.plot(area.width) else {
            let text = "no bandwidth data: run the experiment (r)";
            buf.set_stringn(area.x, area.y, text, width, self.theme.muted());
            return;
        };
        if area.width < 24 || area.height < 6 {
            self.render_summary(area, buf);
            return;
        }
        buf.set_stringn(area.x, area.y, &self.title, width, self.theme.heading(3));
        // Whether points overlap depends on the plot's rows, which depend on the legend's: ask
        // with the legend on one line, then with the lines it takes (overlaps only grow as the
        // plot shrinks, so the second answer is the one drawn).
        let rows_with = |legend_rows: u16| area.height.saturating_sub(1 + legend_rows + 2);
        let one_line = split_overlaps(&plot, rows_with(1));
        let mut legend = self.legend(!one_line.shared.is_empty(), area.width);
        let mut points = one_line;
        if legend.len() > 1 {
            points = split_overlaps(&plot, rows_with(legend.len() as u16));
            legend = self.legend(!points.shared.is_empty(), area.width);
        }
        // At most half the chart's rows for the legend; the rest of it is cut (rare: 3+ lines).
        let legend_rows = (legend.len() as u16).min((area.height - 1) / 2).max(1);
        // Fewer plot rows than this cannot tell 8 from 55 GB/s (review 2026-12-01b: two rows
        // of markers at 80x24): the peaks say it in words instead.
        if area.height.saturating_sub(1 + legend_rows + 2) < MIN_PLOT_ROWS {
            self.render_summary(area, buf);
            return;
        }
        let chart_area = Rect {
            y: area.y + 1,
            height: area.height - 1 - legend_rows,
            ..area
        };
        self.chart(&plot, &points).render(chart_area, buf);
        let top = area.bottom() - legend_rows;
        for (i, line) in legend.iter().take(usize::from(legend_rows)).enumerate() {
            buf.set_line(area.x, top + i as u16, line, area.width);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_the_convention() {
        let name = series_name(HostMemKind::WriteCombined, OpKind::H2d);
        assert_eq!(name, "write_combined_h2d_gbps_by_size");
        assert_eq!(
            parse_series_name(&name).as_deref(),
            Some("write-combined H2D")
        );
        assert_eq!(
            parse_series_name("pinned_d2h_gbps_by_size").as_deref(),
            Some("pinned D2H")
        );
        assert_eq!(parse_series_name("pinned_h2d_gbps"), None);
    }

    #[test]
    fn size_labels_are_short() {
        let labels: Vec<String> = [12.0, 16.0, 20.0, 24.0, 28.0, 32.0]
            .map(size_label)
            .to_vec();
        assert_eq!(labels, ["4K", "64K", "1M", "16M", "256M", "4G"]);
    }

    #[test]
    fn x_axis_spans_the_sweep_in_even_steps() {
        let (bounds, labels) = x_axis(4096.0, 268_435_456.0, 100);
        assert_eq!(bounds, [12.0, 28.0]);
        assert_eq!(labels, ["4K", "64K", "1M", "16M", "256M"]);
        let (bounds, labels) = x_axis(4096.0, 268_435_456.0, 24);
        assert_eq!(bounds, [12.0, 28.0], "never past the sweep");
        assert_eq!(labels, ["4K", "1M", "256M"]);
        let (bounds, labels) = x_axis(4096.0, 268_435_456.0, 12);
        assert_eq!(
            (bounds, labels),
            ([12.0, 28.0], vec!["4K".into(), "256M".into()])
        );
        let (_, labels) = x_axis(4096.0, 65536.0, 100);
        assert_eq!(labels, ["4K", "16K", "64K"]);
        let (_, labels) = x_axis(4096.0, 4_194_304.0, 40);
        assert_eq!(labels, ["4K", "16K", "64K", "256K", "1M", "4M"]);
        // A sweep no step divides: its first and last size.
        let (bounds, labels) = x_axis(1024.0, 131_072.0, 100);
        assert_eq!(
            (bounds, labels),
            ([10.0, 17.0], vec!["1K".into(), "128K".into()])
        );
    }

    /// Lesson 1's sweep: 4 KiB to 256 MiB, pinned near 55 GB/s, pageable near 8.
    fn lesson_one() -> Vec<Series> {
        let sizes = (12..=28).step_by(2).map(|e| f64::from(1u32 << e));
        let series = |name: &str, peak: f64| Series {
            name: name.into(),
            x_unit: "B".into(),
            y_unit: "GB/s".into(),
            points: sizes
                .clone()
                .map(|x| (x, peak * x / (x + 65536.0)))
                .collect(),
        };
        vec![
            series("pinned_h2d_gbps_by_size", 55.4),
            series("pageable_h2d_gbps_by_size", 8.1),
        ]
    }

    fn rows(series: &[Series], w: u16, h: u16) -> Vec<String> {
        let chart = BandwidthChart::new(series.iter().collect(), Theme::new(false));
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        chart.render(area, &mut buf);
        (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    #[test]
    fn the_small_chart_reads_right_at_every_panel_width() {
        // Review 2026-12-01b: at 80x24 the axis read `256 … 4G` and two rows of plot could not
        // tell 8 from 55 GB/s. The panel's text area at every width from 60 to 200, on the
        // heights a panel has at 24 and 40 rows.
        let series = lesson_one();
        for screen in 60..=200u16 {
            for (pane_h, focus) in [
                (24, crate::panes::Focus::Cards),
                (40, crate::panes::Focus::Quiz),
            ] {
                let panes = crate::panes::panes(Rect::new(0, 0, screen, pane_h), 0, focus, false);
                let text = crate::panes::text_area(panes.panel);
                for h in [text.height.saturating_sub(2), text.height] {
                    let at = format!("{screen}x{pane_h}: chart {}x{h}", text.width);
                    let rows = rows(&series, text.width, h);
                    let Some(axis) = rows.iter().find(|r| r.trim_start().starts_with("4K")) else {
                        // No plot: the peaks in words, each series on its own line.
                        let all = rows.join("\n");
                        assert!(all.contains("pinned H2D: peak 55.4"), "{at}\n{all}");
                        assert!(all.contains("pageable H2D: peak"), "{at}\n{all}");
                        continue;
                    };
                    assert!(axis.trim_end().ends_with("256M"), "{at}: {axis}");
                    assert!(
                        !axis.contains("4G") && !axis.contains("256 "),
                        "{at}: {axis}"
                    );
                    // The measured points of the two series on different rows at the large
                    // sizes: 8 and 55 GB/s read apart.
                    let row_of =
                        |marker: char| rows.iter().position(|r| r.trim_end().ends_with(marker));
                    let (pinned, pageable) = (row_of('o'), row_of('x'));
                    assert!(
                        pinned.is_some() && pageable.is_some() && pinned < pageable,
                        "{at}: pinned row {pinned:?}, pageable row {pageable:?}\n{}",
                        rows.join("\n")
                    );
                    assert!(pageable.unwrap_or(0) - pinned.unwrap_or(0) >= 2, "{at}");
                }
            }
        }
    }
}
