//! Charts of the experiment panel: [`BandwidthChart`] (GB/s against transfer size on a log2
//! axis, from a report's `*_gbps_by_size` series) and [`ValueBars`] (horizontal bars with the
//! value and unit printed at the end, optionally on a log scale).
//!
//! Neither needs colour: every series has its own marker, every bar its label and value. Colours,
//! when on, come from [`SERIES_COLORS`] (the timeline's kind colours stay with `Theme::op`).

mod bandwidth;
mod bars;

use ratatui::style::{Color, Style};

pub use bandwidth::{BY_SIZE_SUFFIX, BandwidthChart, parse_series_name, series_name};
pub use bars::{BarScale, ValueBar, ValueBars};

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
