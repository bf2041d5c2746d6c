//! Timeline math, pure: which lane each op goes on, the visible time window and its mapping to
//! columns (fit, zoom, pan, minimum bar width), what each cell shows when ops share it, axis
//! ticks, op selection and its details. The drawing lives in `widgets::timeline`.

pub mod axis;
pub mod cells;
pub mod format;
pub mod lanes;
pub mod sample;
pub mod scale;
pub mod select;
pub mod view;

pub use axis::{Tick, ticks};
pub use cells::{LaneCell, layout_lane};
pub use lanes::{Lane, LaneKey, Lanes, ViewMode};
pub use scale::TimeScale;
pub use select::{OpDetails, time_order};
pub use view::{OpRef, TimelineAction, TimelineCursor, TimelineRun, TimelineView};
