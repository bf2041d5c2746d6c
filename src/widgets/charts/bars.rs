//! Horizontal bars comparing a few values (pageable vs pinned vs write-combined GB/s; async
//! return vs completion time in µs), each with its label before and its value and unit after.
//!
//! Values that differ by orders of magnitude (2 µs against 6 ms) use a log scale, where the
//! smallest bar still gets about a fifth of the width; the printed value says the rest.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::series_style;
use crate::experiment::registry;
use crate::report::Report;
use crate::theme::Theme;
use crate::timeline::format::{format_duration_us, three_digits};

/// The fewest columns a bar keeps before its label is cut (the value is printed after it, so
/// a short bar still reads; review 2026-12-01b: at 80x24 `write-comb…` was cut for 10).
const MIN_BAR: usize = 6;
/// Above this ratio of largest to smallest value, [`BarScale::Auto`] picks a log scale.
pub const AUTO_LOG_RATIO: f64 = 100.0;

/// How bar lengths follow values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BarScale {
    Linear,
    /// Length follows log10 of the value; the title says "(log scale)".
    Log,
    /// Log when the largest value exceeds `AUTO_LOG_RATIO` times the smallest, else linear.
    #[default]
    Auto,
}

/// One bar: `pinned`, 55.1, `GB/s`.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueBar {
    pub label: String,
    pub value: f64,
    pub unit: String,
}

impl ValueBar {
    /// A bar labelled `label` showing `value` `unit`.
    pub fn new(label: impl Into<String>, value: f64, unit: impl Into<String>) -> Self {
        ValueBar {
            label: label.into(),
            value,
            unit: unit.into(),
        }
    }

    /// `55.1 GB/s`, `812 µs`, `8.29 ms` (times in the unit that fits them), or `n/a` for a
    /// value that is not a finite number.
    pub fn value_text(&self) -> String {
        match self.unit.as_str() {
            _ if !self.value.is_finite() => "n/a".to_string(),
            "us" => format_duration_us(self.value),
            "ms" => format_duration_us(self.value * 1e3),
            unit => format!("{} {unit}", three_digits(self.value)),
        }
    }
}

/// The widget: a title row, then one row per bar.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueBars {
    pub title: String,
    pub bars: Vec<ValueBar>,
    pub scale: BarScale,
    pub theme: Theme,
}

impl ValueBars {
    /// Bars under `title`, on [`BarScale::Auto`].
    pub fn new(title: impl Into<String>, bars: Vec<ValueBar>, theme: Theme) -> Self {
        ValueBars {
            title: title.into(),
            bars,
            scale: BarScale::Auto,
            theme,
        }
    }

    /// Bars for the report's metrics named in `metrics` as (metric name, bar label), in that
    /// order; metrics the report lacks are left out. E.g.
    /// `[("pageable_h2d_gbps", "pageable"), ("pinned_h2d_gbps", "pinned")]`.
    pub fn from_metrics(
        report: &Report,
        title: impl Into<String>,
        metrics: &[(&str, &str)],
        theme: Theme,
    ) -> Self {
        let bars = metrics
            .iter()
            .filter_map(|(name, label)| {
                let metric = report.metrics.get(*name)?;
                Some(ValueBar::new(*label, metric.value, metric.unit.clone()))
            })
            .collect();
        Self::new(title, bars, theme)
    }

    /// Bars for the report's metrics `names`, in that order, labelled as the experiment registry
    /// labels them (issue 26: the charts restated the labels), less a last word every label
    /// shares that the title says (`pinned H2D`, `pageable H2D` under `H2D bandwidth…`:
    /// `pinned`, `pageable`).
    /// Metrics the report lacks are left out.
    pub fn from_registry(
        report: &Report,
        title: impl Into<String>,
        names: &[&str],
        theme: Theme,
    ) -> Self {
        let title = title.into();
        let present: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| report.metrics.contains_key(*n))
            .collect();
        let labels: Vec<&str> = present.iter().map(|n| registry::label(n)).collect();
        let shared = labels
            .first()
            .and_then(|l| l.rsplit_once(' '))
            .map(|(_, last)| format!(" {last}"))
            .filter(|last| title.contains(last.trim()))
            .filter(|last| labels.len() > 1 && labels.iter().all(|l| l.ends_with(last.as_str())));
        let pairs: Vec<(&str, &str)> = present
            .iter()
            .zip(&labels)
            .map(|(name, label)| {
                let short = shared.as_deref().and_then(|s| label.strip_suffix(s));
                (*name, short.unwrap_or(label))
            })
            .collect();
        Self::from_metrics(report, title, &pairs, theme)
    }

    /// Forces a linear or log scale.
    pub fn with_scale(mut self, scale: BarScale) -> Self {
        self.scale = scale;
        self
    }

    /// Whether lengths are drawn on a log scale (after resolving [`BarScale::Auto`]).
    pub fn is_log(&self) -> bool {
        let (min, max) = self.positive_range();
        match self.scale {
            BarScale::Linear => false,
            BarScale::Log => true,
            BarScale::Auto => min > 0.0 && max / min > AUTO_LOG_RATIO,
        }
    }

    fn positive_range(&self) -> (f64, f64) {
        let positive = self
            .bars
            .iter()
            .map(|b| b.value)
            .filter(|v| *v > 0.0 && v.is_finite());
        positive.fold((0.0, 0.0), |(lo, hi), v| {
            (if lo == 0.0 { v } else { lo.min(v) }, hi.max(v))
        })
    }

    /// The length in cells of a bar of `value` when the longest gets `width` cells; at least
    /// one cell for any positive value, none for zero, negative or non-finite values.
    pub fn bar_length(&self, value: f64, width: u16) -> u16 {
        let (min, max) = self.positive_range();
        if !value.is_finite() || value <= 0.0 || max <= 0.0 || width == 0 {
            return 0;
        }
        let fraction = if self.is_log() {
            // The floor sits a decade below the smallest value, so the smallest bar is visible.
            let floor = min / 10.0;
            (value / floor).ln() / (max / floor).ln()
        } else {
            value / max
        };
        let cells = (fraction * f64::from(width)).round();
        cells.clamp(1.0, f64::from(width)) as u16
    }
}

impl Widget for &ValueBars {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let width = usize::from(area.width);
        let mut y = area.y;
        // The title goes only when every bar still fits below it.
        if usize::from(area.height) > self.bars.len() {
            let log = if self.is_log() { " (log scale)" } else { "" };
            let title = format!("{}{log}", self.title);
            buf.set_stringn(area.x, y, title, width, self.theme.heading(3));
            y += 1;
        }
        let label_width = self
            .bars
            .iter()
            .map(|b| b.label.chars().count())
            .max()
            .unwrap_or(0);
        let value_width = self
            .bars
            .iter()
            .map(|b| b.value_text().chars().count())
            .max()
            .unwrap_or(0);
        // Labels whole when the bars keep MIN_BAR columns (at 80 columns `write-combined H2D`
        // was cut to `write-combi`), else cut with an ellipsis; never more than 3/5 of the width.
        let label_room = width
            .saturating_sub(value_width + 2 + MIN_BAR)
            .clamp(width / 3, width * 3 / 5);
        let label_width = label_width.min(label_room);
        let bar_room = width.saturating_sub(label_width + value_width + 2) as u16;
        for (i, bar) in self.bars.iter().enumerate() {
            if y >= area.bottom() {
                break;
            }
            let label = crate::text_fit::truncate(&bar.label, label_width);
            let label = format!("{label:>label_width$} ");
            buf.set_stringn(area.x, y, label, width, self.theme.text());
            let length = self.bar_length(bar.value, bar_room);
            let x = area.x + (label_width + 1).min(width) as u16;
            let room = usize::from(area.right().saturating_sub(x));
            let text = "█".repeat(usize::from(length));
            buf.set_stringn(x, y, text, room, series_style(self.theme, i));
            let value_x = x.saturating_add(length + 1);
            let room = usize::from(area.right().saturating_sub(value_x));
            buf.set_stringn(value_x, y, bar.value_text(), room, self.theme.strong());
            y += 1;
        }
    }
}

impl Widget for ValueBars {
    fn render(self, area: Rect, buf: &mut Buffer) {
        (&self).render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bars(values: &[f64]) -> ValueBars {
        let bars = values
            .iter()
            .map(|v| ValueBar::new("x", *v, "µs"))
            .collect();
        ValueBars::new("t", bars, Theme::new(false))
    }

    #[test]
    fn linear_bars_are_proportional() {
        let b = bars(&[10.0, 55.0]);
        assert!(!b.is_log());
        assert_eq!(b.bar_length(55.0, 40), 40);
        assert_eq!(b.bar_length(10.0, 40), 7);
    }

    #[test]
    fn a_thousandfold_gap_goes_log_and_the_small_bar_shows() {
        let b = bars(&[2.2, 6200.0]);
        assert!(b.is_log());
        let small = b.bar_length(2.2, 40);
        assert!(small >= 5, "{small}");
        assert_eq!(b.bar_length(6200.0, 40), 40);
        assert!(!b.clone().with_scale(BarScale::Linear).is_log());
        assert_eq!(
            b.with_scale(BarScale::Linear).bar_length(2.2, 40),
            1,
            "at least one cell"
        );
    }

    #[test]
    fn bars_take_the_registrys_labels_less_the_word_they_share() {
        let gpu = crate::gpu::detect::open_sim(None, "test".into()).unwrap();
        let params = crate::report::Params::default();
        let mut report = crate::experiment::new_report("pinned-alloc", gpu.as_ref(), params);
        for name in ["pinned_h2d_gbps", "write_combined_h2d_gbps"] {
            report
                .metrics
                .insert(name.into(), crate::report::Metric::new(50.0, "GB/s"));
        }
        let names = [
            "pageable_h2d_gbps",
            "pinned_h2d_gbps",
            "write_combined_h2d_gbps",
        ];
        let b = ValueBars::from_registry(&report, "H2D bandwidth", &names, Theme::new(false));
        let labels: Vec<&str> = b.bars.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(
            labels,
            ["pinned", "write-combined"],
            "the missing one left out"
        );
        assert_eq!(
            registry::label("write_combined_h2d_gbps"),
            "write-combined H2D"
        );
        let async_names = ["async_return_us_pinned", "copy_done_us_pinned"];
        for name in async_names {
            report
                .metrics
                .insert(name.into(), crate::report::Metric::new(2.0, "us"));
        }
        // Both end in `(pinned)`, which the title does not say: kept.
        let b = ValueBars::from_registry(&report, "Async copy", &async_names, Theme::new(false));
        assert_eq!(b.bars[0].label, registry::label("async_return_us_pinned"));
        assert!(b.bars[0].label.ends_with("(pinned)"));
    }

    #[test]
    fn write_combined_is_not_cut_at_80_columns() {
        let bars = ["pageable", "pinned", "write-combined"]
            .map(|l| ValueBar::new(l, 55.4, "GB/s"))
            .to_vec();
        let b = ValueBars::new("t", bars, Theme::new(false));
        // The panel's text at 80x24 (quiz focused, and not), and at 60 columns.
        for width in [32, 44] {
            let area = Rect::new(0, 0, width, 5);
            let mut buf = Buffer::empty(area);
            (&b).render(area, &mut buf);
            let row: String = (0..width).map(|x| buf[(x, 3)].symbol()).collect();
            assert!(row.contains("write-combined █"), "{width}: {row}");
        }
    }

    #[test]
    fn zero_and_missing_values_get_no_bar() {
        let b = bars(&[0.0, f64::NAN, 3.0]);
        assert_eq!(b.bar_length(0.0, 10), 0);
        assert_eq!(b.bar_length(f64::NAN, 10), 0);
        assert_eq!(b.bars[1].value_text(), "n/a");
    }
}
