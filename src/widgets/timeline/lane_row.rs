//! Drawing one run's rows: its name, then one row per lane with labelled bars, inferred-start
//! marks and the selected op in reversed video.

use ratatui::buffer::Buffer;
use ratatui::style::Style;

use crate::report::Op;
use crate::text_fit::truncate;
use crate::theme::Theme;
use crate::timeline::format::{format_bytes, kind_name};
use crate::timeline::{Lane, LaneCell, TimeScale, TimelineRun, TimelineView, layout_lane};

/// Marks the first cell of a bar whose start was inferred.
pub const INFERRED_MARK: char = '┆';

/// What every row needs: the view, the theme, the plot scale and where the plot starts.
pub struct RowContext<'a> {
    pub view: &'a TimelineView,
    pub theme: Theme,
    /// The view's window over the plot's columns.
    pub scale: TimeScale,
    pub x: u16,
    pub label_width: u16,
    /// The details line's text while no op is selected.
    pub keys: &'a str,
    /// What the "… N more rows" note advises.
    pub more_rows: &'a str,
}

impl RowContext<'_> {
    /// Draws `run` from row `y`, using at most `rows` rows; returns how many it used.
    pub fn draw_run(
        &self,
        buf: &mut Buffer,
        run: &TimelineRun,
        y: u16,
        rows: u16,
        named: bool,
        is_current: bool,
    ) -> u16 {
        let mut used = 0;
        if rows == 0 {
            return 0;
        }
        if named {
            let width = usize::from(self.label_width + self.scale.columns);
            // Cut with an ellipsis, so a name cut at the panel's edge says so.
            let name = truncate(&run.name, width);
            buf.set_stringn(self.x, y, &name, width, self.theme.heading(3));
            used += 1;
        }
        if run.lanes.is_empty() && used < rows {
            self.draw_label(buf, y + used, "");
            let text = "no operations recorded";
            let width = usize::from(self.scale.columns);
            buf.set_stringn(self.plot_x(), y + used, text, width, self.theme.muted());
            return used + 1;
        }
        for lane in &run.lanes.lanes {
            if used >= rows {
                break;
            }
            self.draw_lane(buf, run, lane, y + used, is_current);
            used += 1;
        }
        used
    }

    /// Replaces row `y` by a note that `hidden` rows did not fit.
    pub fn draw_more_rows(&self, buf: &mut Buffer, y: u16, hidden: u16, width: u16) {
        let blank = " ".repeat(usize::from(width));
        buf.set_stringn(self.x, y, &blank, usize::from(width), Style::new());
        let text = format!("… {hidden} more rows: {}", self.more_rows);
        let text = crate::text_fit::truncate(&text, usize::from(width));
        buf.set_stringn(self.x, y, text, usize::from(width), self.theme.muted());
    }

    fn plot_x(&self) -> u16 {
        self.x + self.label_width
    }

    /// The lane label, truncated to the label column, then a `│` separator.
    fn draw_label(&self, buf: &mut Buffer, y: u16, label: &str) {
        if self.label_width == 0 {
            return;
        }
        let text_width = usize::from(self.label_width - 1);
        let padded = format!("{label:<text_width$}");
        buf.set_stringn(self.x, y, padded, text_width, self.theme.text());
        buf.set_stringn(self.plot_x() - 1, y, "│", 1, self.theme.muted());
    }

    fn draw_lane(&self, buf: &mut Buffer, run: &TimelineRun, lane: &Lane, y: u16, current: bool) {
        let room = usize::from(self.label_width.saturating_sub(1));
        if lane.label.chars().count() > room {
            self.draw_label(buf, y, &lane.key.short_label());
        } else {
            self.draw_label(buf, y, &lane.label);
        }
        let cells = layout_lane(&run.ops, &lane.ops, &self.scale);
        for (column, cell) in cells.iter().enumerate() {
            let Some(kind) = cell.kind else { continue };
            self.put(buf, column, y, Theme::op_glyph(kind), self.theme.op(kind));
        }
        self.draw_bar_labels(buf, &run.ops, &cells, y);
        self.draw_inferred_marks(buf, &run.ops, lane, &cells, y);
        // The selection may be in either run: this one (`current`) or the compared one above.
        if let Some(selected) = self.view.selected_in(!current) {
            self.draw_selection(buf, (&run.ops, selected), lane, &cells, y);
        }
    }

    fn put(&self, buf: &mut Buffer, column: usize, y: u16, symbol: char, style: Style) {
        let x = self.plot_x().saturating_add(column as u16);
        if let Some(cell) = buf.cell_mut((x, y)) {
            cell.set_char(symbol).set_style(style);
        }
    }

    /// Writes "H2D 8 MiB" (or just "H2D") centred in each run of cells that one op owns alone.
    fn draw_bar_labels(&self, buf: &mut Buffer, ops: &[Op], cells: &[LaneCell], y: u16) {
        let mut column = 0;
        while column < cells.len() {
            let Some(index) = cells[column].op else {
                column += 1;
                continue;
            };
            let start = column;
            while column < cells.len() && cells[column].op == Some(index) {
                column += 1;
            }
            let Some(op) = ops.get(index) else { continue };
            let width = column - start;
            let label = [bar_label(op), kind_name(op.kind).to_string()]
                .into_iter()
                .find(|l| l.chars().count() + 2 <= width);
            if let Some(label) = label {
                let offset = (width - label.chars().count()) / 2;
                let x = self.plot_x() + (start + offset) as u16;
                buf.set_stringn(x, y, &label, width, self.theme.op(op.kind));
            }
        }
    }

    fn draw_inferred_marks(
        &self,
        buf: &mut Buffer,
        ops: &[Op],
        lane: &Lane,
        cells: &[LaneCell],
        y: u16,
    ) {
        for &index in &lane.ops {
            let Some(op) = ops.get(index) else { continue };
            if !op.start_inferred || op.start_us < self.scale.start_us {
                continue;
            }
            if let Some((first, _)) = self.scale.bar_extent(op.start_us, op.end_us) {
                let column = usize::from(first);
                if cells.get(column).and_then(|c| c.op) == Some(index) {
                    self.put(buf, column, y, INFERRED_MARK, self.theme.op(op.kind));
                }
            }
        }
    }

    /// Reverses the selected op's cells (and gives them its glyph where another op won them).
    fn draw_selection(
        &self,
        buf: &mut Buffer,
        (ops, selected): (&[Op], usize),
        lane: &Lane,
        cells: &[LaneCell],
        y: u16,
    ) {
        let Some(op) = ops.get(selected) else { return };
        if !lane.ops.contains(&selected) {
            return;
        }
        let Some((first, last)) = self.scale.bar_extent(op.start_us, op.end_us) else {
            return;
        };
        let style = self.theme.op(op.kind).patch(self.theme.selected());
        for column in first..last {
            let x = self.plot_x() + column;
            let owned = cells.get(usize::from(column)).and_then(|c| c.op) == Some(selected);
            if let Some(cell) = buf.cell_mut((x, y)) {
                if !owned {
                    cell.set_char(Theme::op_glyph(op.kind));
                }
                cell.set_style(style);
            }
        }
    }
}

/// The text inside a bar: `H2D 8 MiB`, `kernel 8 MiB`, or a host call's name.
pub fn bar_label(op: &Op) -> String {
    match (op.bytes, op.label.is_empty()) {
        (0, false) => op.label.clone(),
        (0, true) => kind_name(op.kind).to_string(),
        (bytes, _) => format!("{} {}", kind_name(op.kind), format_bytes(bytes)),
    }
}
