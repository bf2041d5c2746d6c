//! The visible time window and its mapping onto terminal columns: fit, zoom, pan, and the
//! columns a bar covers (at least one, so ops shorter than a cell stay visible).

use crate::report::Op;

/// The narrowest window zooming can reach, in microseconds.
pub const MIN_WINDOW_US: f64 = 1.0;
/// How much one zoom step magnifies.
pub const ZOOM_FACTOR: f64 = 2.0;
/// How far one pan step moves, as a fraction of the visible window.
pub const PAN_FRACTION: f64 = 0.25;

/// How close to the origin (a fraction of the span) a run's first op may start for the fitted
/// scale to begin at the origin (see [`TimeScale::fit`]).
pub const ORIGIN_SNAP: f64 = 0.02;

/// The visible window `start_us..end_us` drawn over `columns` cells, within the full range
/// `full_start_us..full_end_us` that zooming out and panning are clamped to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeScale {
    /// Left edge of the visible window, µs from the timeline's origin.
    pub start_us: f64,
    /// Right edge of the visible window.
    pub end_us: f64,
    /// Cells the window is drawn over (the widget sets its own; see `with_columns`).
    pub columns: u16,
    /// The whole range, which zoom-out and pan never leave.
    pub full_start_us: f64,
    pub full_end_us: f64,
}

impl TimeScale {
    /// A scale showing all of `full_start_us..full_end_us` (widened to at least
    /// [`MIN_WINDOW_US`]; a reversed or non-finite range becomes `0..1` µs).
    pub fn fit_range(full_start_us: f64, full_end_us: f64, columns: u16) -> Self {
        let (mut lo, mut hi) = (full_start_us, full_end_us);
        if !lo.is_finite() || !hi.is_finite() || hi < lo {
            (lo, hi) = (0.0, MIN_WINDOW_US);
        }
        if hi - lo < MIN_WINDOW_US {
            let mid = (lo + hi) / 2.0;
            (lo, hi) = (mid - MIN_WINDOW_US / 2.0, mid + MIN_WINDOW_US / 2.0);
        }
        TimeScale {
            start_us: lo,
            end_us: hi,
            columns,
            full_start_us: lo,
            full_end_us: hi,
        }
    }

    /// A scale showing every op of every slice (e.g. this run and the previous one, so both are
    /// drawn on the same scale). A run whose first op starts within [`ORIGIN_SNAP`] of the span
    /// after the origin is shown from the origin, so the axis begins at `0`: a live recording's
    /// first host call starts a few microseconds in, and without this the first labelled tick
    /// was 1 or 2 ms into a 6 ms run.
    pub fn fit(op_sets: &[&[Op]], columns: u16) -> Self {
        let ops = op_sets.iter().flat_map(|ops| ops.iter());
        let (mut lo, hi) = ops
            .filter(|op| op.start_us.is_finite() && op.end_us.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), op| {
                (lo.min(op.start_us), hi.max(op.end_us.max(op.start_us)))
            });
        if lo > 0.0 && hi.is_finite() && lo <= ORIGIN_SNAP * (hi - lo) {
            lo = 0.0;
        }
        Self::fit_range(lo, hi, columns)
    }

    /// The same window over a different number of columns.
    pub fn with_columns(self, columns: u16) -> Self {
        TimeScale { columns, ..self }
    }

    /// Back to the whole range.
    pub fn reset(&mut self) {
        self.start_us = self.full_start_us;
        self.end_us = self.full_end_us;
    }

    /// The visible span in microseconds.
    pub fn span_us(&self) -> f64 {
        self.end_us - self.start_us
    }

    /// Microseconds per column (the whole span if there are no columns).
    pub fn us_per_column(&self) -> f64 {
        self.span_us() / f64::from(self.columns.max(1))
    }

    /// Whether the window already shows the whole range.
    pub fn is_full(&self) -> bool {
        self.start_us <= self.full_start_us && self.end_us >= self.full_end_us
    }

    /// Zooms in by [`ZOOM_FACTOR`] keeping `centre_us` at the same place on screen.
    pub fn zoom_in(&mut self, centre_us: f64) {
        self.zoom(centre_us, 1.0 / ZOOM_FACTOR);
    }

    /// Zooms out by [`ZOOM_FACTOR`] keeping `centre_us` at the same place on screen (as far as
    /// the full range allows).
    pub fn zoom_out(&mut self, centre_us: f64) {
        self.zoom(centre_us, ZOOM_FACTOR);
    }

    /// The middle of the visible window (the default zoom centre).
    pub fn centre_us(&self) -> f64 {
        (self.start_us + self.end_us) / 2.0
    }

    fn zoom(&mut self, centre_us: f64, span_factor: f64) {
        let full = self.full_end_us - self.full_start_us;
        // A hand-built scale may be degenerate; clamp() below would panic on NaN bounds.
        if !full.is_finite() || full <= 0.0 {
            return;
        }
        let span = self.span_us();
        let new_span = (span * span_factor).clamp(MIN_WINDOW_US.min(full), full);
        let centre = centre_us.clamp(self.start_us, self.end_us);
        let ratio = if span > 0.0 {
            (centre - self.start_us) / span
        } else {
            0.5
        };
        let start = centre - ratio * new_span;
        self.place(start, new_span);
    }

    /// Moves the window left by [`PAN_FRACTION`] of its span, stopping at the start.
    pub fn pan_left(&mut self) {
        self.place(
            self.start_us - self.span_us() * PAN_FRACTION,
            self.span_us(),
        );
    }

    /// Moves the window right by [`PAN_FRACTION`] of its span, stopping at the end.
    pub fn pan_right(&mut self) {
        self.place(
            self.start_us + self.span_us() * PAN_FRACTION,
            self.span_us(),
        );
    }

    /// Pans (never zooms) so that `start_us..end_us` is visible: centred if it fits, else its
    /// start a little right of the left edge. Does nothing if it is already fully visible.
    pub fn reveal(&mut self, start_us: f64, end_us: f64) {
        if start_us >= self.start_us && end_us <= self.end_us {
            return;
        }
        let span = self.span_us();
        let length = end_us - start_us;
        let start = if length <= span {
            (start_us + end_us) / 2.0 - span / 2.0
        } else {
            start_us - span * 0.05
        };
        self.place(start, span);
    }

    /// Sets the window to `start..start+span`, shifted to lie inside the full range.
    fn place(&mut self, start: f64, span: f64) {
        let start = start.min(self.full_end_us - span).max(self.full_start_us);
        self.start_us = start;
        self.end_us = (start + span).min(self.full_end_us);
    }

    /// The (fractional) column of time `us`; negative or `>= columns` when outside the window.
    pub fn column_of(&self, us: f64) -> f64 {
        (us - self.start_us) / self.us_per_column()
    }

    /// The time at the left edge of `column`.
    pub fn time_of(&self, column: u16) -> f64 {
        self.start_us + f64::from(column) * self.us_per_column()
    }

    /// The columns `first..last` (end exclusive) a bar from `start_us` to `end_us` covers,
    /// clipped to the window and at least one column wide; `None` when it lies outside.
    pub fn bar_extent(&self, start_us: f64, end_us: f64) -> Option<(u16, u16)> {
        let columns = f64::from(self.columns);
        // Times from a hand-made report may be NaN; clamp() below must never see one.
        if !start_us.is_finite() {
            return None;
        }
        let end_us = if end_us.is_finite() {
            end_us.max(start_us)
        } else {
            start_us
        };
        let span = self.span_us();
        let visible = self.columns > 0 && span.is_finite() && span > 0.0;
        if !visible || end_us < self.start_us || start_us > self.end_us {
            return None;
        }
        let first = self.column_of(start_us).floor().clamp(0.0, columns - 1.0);
        let last = self.column_of(end_us).ceil().clamp(first + 1.0, columns);
        Some((first as u16, last as u16))
    }
}

#[cfg(test)]
#[path = "scale_tests.rs"]
mod tests;
