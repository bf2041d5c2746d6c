//! The checked program's timeline beside the exercise editor: the experiment panel's timeline
//! widget (lanes per stream, host lane, copy engines) fed with the verdict's ops, each hazard's
//! operation marked `▲` on its bar (the first one selected, so the details line describes it),
//! and one line per hazard under it: `▲ read-before-sync L24 ↔ L22`.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

use super::clean;
use crate::app::App;
use crate::app::EditorState;
use crate::app::editor::timeline::{HazardMark, VerdictTimeline};
use crate::theme::Theme;
use crate::ui::pane_block;
use crate::widgets::timeline::{TimelineWidget, lanes_shown, plot_scale};

/// The widget's rows under the lanes: tick marks, tick labels, legend, details.
const FOOTER_ROWS: u16 = 4;

/// The glyph on a hazard's operation, and before each hazard's line.
pub const HAZARD_MARK: char = '▲';

/// Rows the pane would like: its frame, the lanes, the widget's footer, a line per hazard (0
/// when there is no timeline, so the verdict keeps the room).
pub fn rows_wanted(timeline: Option<&VerdictTimeline>) -> u16 {
    timeline.map_or(0, |t| {
        let lanes = u16::try_from(t.view.run.lanes.len()).unwrap_or(u16::MAX);
        let marks = u16::try_from(t.marks.len()).unwrap_or(u16::MAX);
        2u16.saturating_add(lanes)
            .saturating_add(FOOTER_ROWS)
            .saturating_add(marks)
    })
}

/// Draw the timeline pane (`timeline`: the editor's, derived once per drawing) in `area`;
/// `stacked` when it shares its place with the verdict.
pub fn render(
    app: &App,
    (ed, timeline): (&EditorState, Option<&VerdictTimeline>),
    area: Rect,
    stacked: bool,
    buf: &mut Buffer,
) {
    if area.height == 0 {
        return;
    }
    let base = if stacked {
        format!(
            " Timeline · {} verdict ",
            crate::keymap::first_key(
                crate::keymap::Ctx::Editor,
                crate::keymap::Action::EditorToggleTimeline
            )
        )
    } else {
        " Timeline ".to_string()
    };
    // The keys also go in the title where it has room: the details line, which names them
    // while no op is selected, describes the selected op.
    let keys = crate::keymap::editor_timeline_hint();
    let with_keys = format!("{base}· {keys} ");
    let title = if with_keys.chars().count() + 2 <= usize::from(area.width) {
        with_keys
    } else {
        base
    };
    let block = pane_block(&app.theme, false).title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    let Some(t) = timeline else {
        let text = if ed.verdict.is_some() {
            "the program recorded no GPU operation".to_string()
        } else {
            format!(
                "{} runs the program; its timeline shows here",
                crate::keymap::first_key(
                    crate::keymap::Ctx::Editor,
                    crate::keymap::Action::EditorCheck
                )
            )
        };
        buf.set_stringn(
            inner.x,
            inner.y,
            text,
            usize::from(inner.width),
            app.theme.muted(),
        );
        return;
    };
    let mark_rows = u16::try_from(t.marks.len())
        .unwrap_or(u16::MAX)
        .min(inner.height / 2);
    let [plot, labels] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(mark_rows)]).areas(inner);
    TimelineWidget::new(&t.view, app.theme)
        .keys(&keys)
        // Plain keys type in the editor: only a larger terminal gives the lanes more rows.
        .more_rows("enlarge the terminal")
        .render(plot, buf);
    draw_marks_on_bars(t, plot, &app.theme, buf);
    for (row, mark) in t.marks.iter().take(usize::from(mark_rows)).enumerate() {
        let y = labels.y + u16::try_from(row).unwrap_or(0);
        let label = mark.label_now(|line| ed.line_now(line));
        let text = format!("{HAZARD_MARK} {}", clean(&label));
        let width = usize::from(labels.width);
        buf.set_stringn(labels.x, y, text, width, mark_style(mark, &app.theme));
    }
}

fn mark_style(mark: &HazardMark, theme: &Theme) -> Style {
    let style = if mark.kind.is_warning() {
        theme.warning()
    } else {
        theme.error()
    };
    style.add_modifier(Modifier::BOLD)
}

/// `▲` on the first visible cell of each hazard's operation, in the lane the widget drew it in.
fn draw_marks_on_bars(t: &VerdictTimeline, plot: Rect, theme: &Theme, buf: &mut Buffer) {
    let scale = plot_scale(&t.view, plot.width);
    let plot_x = plot.x + plot.width.saturating_sub(scale.columns);
    let lane_rows = lanes_shown(&t.view, plot.height);
    for mark in &t.marks {
        let Some(index) = mark.op else { continue };
        let Some(op) = t.view.run.ops.get(index) else {
            continue;
        };
        let lanes = &t.view.run.lanes.lanes;
        let Some(lane) = lanes.iter().position(|l| l.ops.contains(&index)) else {
            continue;
        };
        let Ok(lane) = u16::try_from(lane) else {
            continue;
        };
        let Some((first, _)) = scale.bar_extent(op.start_us, op.end_us) else {
            continue;
        };
        if lane < lane_rows
            && let Some(cell) = buf.cell_mut((plot_x + first, plot.y + lane))
        {
            cell.set_char(HAZARD_MARK)
                .set_style(mark_style(mark, theme).add_modifier(Modifier::REVERSED));
        }
    }
}
