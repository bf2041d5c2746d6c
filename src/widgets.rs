//! Self-contained ratatui widgets of the experiment panel: the per-stream timeline and the
//! charts (bandwidth vs transfer size, value bars, the pipeline sweep). Each reads plain data (a
//! [`crate::timeline::TimelineView`] or a [`crate::report::Report`]) and a
//! [`crate::theme::Theme`]; none depends on colour to be read, and none panics at any size.

pub mod charts;
pub mod timeline;

pub use charts::{
    BandwidthChart, BarScale, PipelineSweep, ValueBar, ValueBars, async_copy_bars, host_memory_bars,
};
pub use timeline::TimelineWidget;
