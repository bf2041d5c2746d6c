//! [`TimelineWidget`]: draws a [`TimelineView`] (one lane per stream, a host lane, optional engine
//! lanes, a previous run above on the same scale), its time axis, a legend and the selected op's
//! details.
//!
//! Glyphs (from [`Theme::op_glyph`], so the timeline reads without colour): `▶` H2D, `◀` D2H,
//! `█` kernel, `·` host call. `┆` replaces the first cell of a bar whose start was inferred
//! rather than measured. The selected op is drawn in reversed video. Where several ops share a
//! cell, the cell shows the kind covering most of its time (see [`crate::timeline::cells`]).
//!
//! Rows, top to bottom: for each run (the previous one first) its name (comparison mode only) and
//! its lanes; the axis (tick marks, then labels); the legend; the details line. When rows are
//! short, the tick marks go first, then (below 8 rows) legend and details, then lanes.

mod footer;
mod lane_row;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::theme::Theme;
use crate::timeline::{TimeScale, TimelineRun, TimelineView};

/// Widest the lane-label column gets, in cells.
const MAX_LABEL_WIDTH: u16 = 20;

/// The details line when no op is selected: the experiment panel's timeline keys.
pub const PANEL_KEYS: &str = "[ ] select an op   + - zoom   < > pan";

/// What the panel says to do when lanes do not fit: `z` gives the focused pane the body.
pub const PANEL_MORE_ROWS: &str = "z zooms the pane";

/// Draws a [`TimelineView`]. Build one per frame: `TimelineWidget::new(&view, theme)`.
#[derive(Debug, Clone, Copy)]
pub struct TimelineWidget<'a> {
    view: &'a TimelineView,
    theme: Theme,
    keys: &'a str,
    more_rows: &'a str,
}

impl<'a> TimelineWidget<'a> {
    /// A widget drawing `view` with `theme`.
    pub fn new(view: &'a TimelineView, theme: Theme) -> Self {
        TimelineWidget {
            view,
            theme,
            keys: PANEL_KEYS,
            more_rows: PANEL_MORE_ROWS,
        }
    }

    /// What the "… N more rows" note says to do (the owner's way to more rows).
    pub fn more_rows(mut self, advice: &'a str) -> Self {
        self.more_rows = advice;
        self
    }

    /// The keys the details line names while no op is selected (the owner's, where they are
    /// not the panel's: in the editor plain keys type into the code).
    pub fn keys(mut self, keys: &'a str) -> Self {
        self.keys = keys;
        self
    }
}

/// How many rows each part gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RowPlan {
    runs: u16,
    ticks: bool,
    labels: bool,
    legend: bool,
    details: bool,
}

fn plan_rows(height: u16, runs_needed: u16) -> RowPlan {
    let labels = height >= 2;
    let mut left = height - u16::from(labels);
    // From 8 rows up, legend and details are kept; below, lanes come first.
    let reserved = if height >= 8 { 2 } else { 0 };
    let runs = runs_needed.min(left - reserved);
    left -= runs;
    let details = left >= 1;
    let legend = left >= 2;
    let ticks = left >= 3;
    RowPlan {
        runs,
        ticks,
        labels,
        legend,
        details,
    }
}

/// The runs to draw, top to bottom, and whether to show their names.
fn runs(view: &TimelineView) -> (Vec<&TimelineRun>, bool) {
    match &view.previous {
        Some(previous) => (vec![previous, &view.run], true),
        None => (vec![&view.run], false),
    }
}

/// The width of the lane-label column for `runs` in an area `width` cells wide: the widest
/// label plus its separator, within 6..=20 cells and at most a third of the width.
fn label_width(runs: &[&TimelineRun], width: u16) -> u16 {
    let widest = runs
        .iter()
        .map(|r| r.lanes.max_label_width())
        .max()
        .unwrap_or(0);
    let widest = u16::try_from(widest).unwrap_or(u16::MAX);
    widest
        .saturating_add(1)
        .clamp(6, MAX_LABEL_WIDTH)
        .min(width / 3)
}

impl Widget for TimelineWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let (runs, named) = runs(self.view);
        let label_width = label_width(&runs, area.width);
        let ctx = lane_row::RowContext {
            view: self.view,
            theme: self.theme,
            scale: self.view.scale.with_columns(area.width - label_width),
            x: area.x,
            label_width,
            keys: self.keys,
            more_rows: self.more_rows,
        };
        let needed: u16 = runs
            .iter()
            .map(|r| (r.lanes.len().max(1) as u16).saturating_add(u16::from(named)))
            .fold(0, u16::saturating_add);
        let plan = plan_rows(area.height, needed);
        let mut y = area.y;
        let mut rows_left = plan.runs;
        for (i, run) in runs.iter().enumerate() {
            let is_current = i + 1 == runs.len();
            let used = ctx.draw_run(buf, run, y, rows_left, named, is_current);
            y += used;
            rows_left -= used;
        }
        if plan.runs < needed && plan.runs > 0 {
            ctx.draw_more_rows(buf, y - 1, needed - plan.runs + 1, area.width);
        }
        let footer = footer::FooterRows {
            ticks: plan.ticks,
            labels: plan.labels,
            legend: plan.legend,
            details: plan.details,
        };
        footer::draw(buf, &ctx, &footer, area, y);
    }
}

/// How many of this run's lanes the widget shows, from the top, in an area `height` rows high
/// (a view without a compared run): for marks drawn over its bars.
pub fn lanes_shown(view: &TimelineView, height: u16) -> u16 {
    let needed = u16::try_from(view.run.lanes.len().max(1)).unwrap_or(u16::MAX);
    let runs = plan_rows(height, needed).runs;
    // The last row gives way to the "more rows" note when some do not fit.
    if runs < needed {
        runs.saturating_sub(1)
    } else {
        runs
    }
}

/// The scale the widget draws with in an area `width` cells wide: the view's window over the
/// plot's columns. Plot column `c` starts at `area.x + width - plot.columns + c`; use it to map
/// a mouse click to a time with [`TimeScale::time_of`].
pub fn plot_scale(view: &TimelineView, width: u16) -> TimeScale {
    let (runs, _) = runs(view);
    view.scale.with_columns(width - label_width(&runs, width))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_go_to_lanes_first_when_short() {
        let p = plan_rows(5, 4);
        assert_eq!((p.runs, p.labels, p.details), (4, true, false));
        let p = plan_rows(1, 4);
        assert_eq!((p.runs, p.labels), (1, false));
        let p = plan_rows(0, 4);
        assert_eq!(p.runs, 0);
    }

    #[test]
    fn legend_and_details_are_kept_from_eight_rows() {
        let p = plan_rows(8, 20);
        assert_eq!(
            (p.runs, p.legend, p.details, p.ticks),
            (5, true, true, false)
        );
        let p = plan_rows(24, 5);
        assert_eq!(
            (p.runs, p.legend, p.details, p.ticks),
            (5, true, true, true)
        );
    }
}
