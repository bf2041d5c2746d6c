//! Charts of the experiment panel: [`BandwidthChart`] (GB/s against transfer size on a log2
//! axis, from a report's `*_gbps_by_size` series) and [`ValueBars`] (horizontal bars with the
//! value and unit printed at the end, optionally on a log scale) and [`PipelineSweep`] (the
//! pipeline's streams x chunks times per issue order).
//!
//! Neither needs colour: every series has its own marker, every bar its label and value. Colours,
//! when on, come from [`SERIES_COLORS`] (the timeline's kind colours stay with `Theme::op`).

mod bandwidth;
mod bars;
mod sweep;

use ratatui::style::{Color, Style};

pub use bandwidth::{BY_SIZE_SUFFIX, BandwidthChart, parse_series_name, series_name};
pub use bars::{BarScale, ValueBar, ValueBars};
pub use sweep::PipelineSweep;

use crate::report::Report;
use crate::theme::Theme;

/// Series colours, in order, used only when the theme has colour on.
pub const SERIES_COLORS: [Color; 6] = [
    Color::LightBlue,
    Color::LightMagenta,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightCyan,
    Color::LightRed,
];

/// Series markers, in order: distinct shapes so series read apart without colour.
pub const SERIES_MARKERS: [char; 6] = ['o', 'x', '+', '*', '#', '@'];

/// The style of series `index`: its colour when the theme has colour, else plain.
pub fn series_style(theme: Theme, index: usize) -> Style {
    if theme.color {
        Style::new().fg(SERIES_COLORS[index % SERIES_COLORS.len()])
    } else {
        Style::new()
    }
}

/// The marker of series `index`.
pub fn series_marker(index: usize) -> char {
    SERIES_MARKERS[index % SERIES_MARKERS.len()]
}

/// Pageable vs pinned vs write-combined (and registered) H2D bandwidth at the largest size,
/// from the contract metrics `pageable_h2d_gbps`, `pinned_h2d_gbps`, `write_combined_h2d_gbps`
/// and `registered_h2d_gbps` (those the report has), labelled as the registry labels them less
/// the `H2D` the title says.
pub fn host_memory_bars(report: &Report, theme: Theme) -> ValueBars {
    let metrics = [
        "pageable_h2d_gbps",
        "pinned_h2d_gbps",
        "write_combined_h2d_gbps",
        "registered_h2d_gbps",
    ];
    ValueBars::from_registry(report, "H2D bandwidth by host memory", &metrics, theme)
}

/// How long `cuMemcpyHtoDAsync` took to return vs until the copy was done, from pinned and
/// pageable memory (`async_return_us_*`, `copy_done_us_*`); a log scale when they differ by
/// orders of magnitude.
pub fn async_copy_bars(report: &Report, theme: Theme) -> ValueBars {
    let metrics = [
        "async_return_us_pinned",
        "copy_done_us_pinned",
        "async_return_us_pageable",
        "copy_done_us_pageable",
    ];
    ValueBars::from_registry(
        report,
        "Async copy: call returned vs copy done",
        &metrics,
        theme,
    )
}
