//! Unit tests of [`super::TimelineView`]: selection order, auto-pan, zoom centre, comparison.

use super::*;
use crate::report::OpKind;
use crate::timeline::sample::{op, pipeline};

fn three_ops() -> Vec<Op> {
    vec![
        op(OpKind::Kernel, 2, 500.0, 600.0),
        op(OpKind::H2d, 1, 0.0, 100.0),
        op(OpKind::D2h, 1, 900.0, 1000.0),
    ]
}

#[test]
fn next_and_prev_walk_time_order_and_stop_at_the_ends() {
    let mut v = TimelineView::new(three_ops());
    assert_eq!(v.selected_index(), None);
    v.select_next();
    assert_eq!(v.selected_index(), Some(1));
    v.select_next();
    assert_eq!(v.selected_index(), Some(0));
    v.select_next();
    v.select_next();
    assert_eq!(v.selected_index(), Some(2), "stays on the last op");
    v.select_prev();
    v.select_prev();
    v.select_prev();
    assert_eq!(v.selected_index(), Some(1), "stays on the first op");
}

#[test]
fn selection_pans_to_keep_the_op_visible() {
    let mut v = TimelineView::new(three_ops());
    v.zoom_in();
    v.zoom_in(); // 250 µs wide
    for _ in 0..10 {
        v.pan_left();
    }
    assert_eq!(v.scale.start_us, 0.0);
    v.select_next(); // H2D 0..100, visible
    assert_eq!(v.scale.start_us, 0.0);
    v.select_next(); // kernel 500..600
    let op = v.selected_op().unwrap().clone();
    assert!(v.scale.start_us <= op.start_us && v.scale.end_us >= op.end_us);
    v.select_next(); // D2H 900..1000, at the end
    assert_eq!(v.scale.end_us, 1000.0);
}

#[test]
fn first_select_starts_in_the_window() {
    let mut v = TimelineView::new(three_ops());
    v.zoom_in(); // 250..750
    v.select_next();
    assert_eq!(v.selected_op().map(|o| o.kind), Some(OpKind::Kernel));
    v.clear_selection();
    v.select_prev();
    assert_eq!(v.selected_op().map(|o| o.kind), Some(OpKind::Kernel));
}

#[test]
fn zoom_centres_on_the_selection() {
    let mut v = TimelineView::new(three_ops());
    v.select_index(2); // D2H 900..1000, centre 950
    v.zoom_in();
    v.zoom_in();
    assert!(v.scale.start_us <= 950.0 && v.scale.end_us >= 950.0);
    assert!((v.scale.span_us() - 250.0).abs() < 1e-9);
}

#[test]
fn actions_zoom_pan_and_select() {
    let mut v = TimelineView::new(three_ops());
    v.apply(TimelineAction::ZoomIn);
    assert!((v.scale.span_us() - 500.0).abs() < 1e-9);
    let start = v.scale.start_us;
    v.apply(TimelineAction::PanRight);
    assert!(v.scale.start_us > start, "pans right");
    let start = v.scale.start_us;
    v.apply(TimelineAction::PanLeft);
    assert!(v.scale.start_us < start, "pans left");
    v.apply(TimelineAction::ZoomOut);
    assert!((v.scale.span_us() - 1000.0).abs() < 1e-9);
    v.apply(TimelineAction::SelectNext);
    assert_eq!(v.selected_index(), Some(1));
    v.apply(TimelineAction::SelectNext);
    assert_eq!(v.selected_index(), Some(0));
    v.apply(TimelineAction::SelectPrev);
    assert_eq!(v.selected_index(), Some(1));
    assert!(v.details().is_some());
}

#[test]
fn comparison_shares_one_scale_covering_both_runs() {
    let mut v = TimelineView::new(pipeline(3, 8, 64 << 20));
    let short_end = v.scale.end_us;
    v.set_previous("previous run", pipeline(1, 1, 64 << 20));
    assert!(v.scale.end_us > short_end);
    assert_eq!(
        v.previous.as_ref().map(|p| p.name.as_str()),
        Some("previous run")
    );
    v.clear_previous();
    assert_eq!(v.scale.end_us, short_end);
}

#[test]
fn empty_views_do_not_select() {
    let mut v = TimelineView::new(Vec::new());
    v.select_next();
    v.select_prev();
    v.zoom_in();
    v.pan_right();
    assert_eq!(v.selected_index(), None);
    assert!(v.details().is_none());
}

#[test]
fn modes_rebuild_lanes() {
    let mut v = TimelineView::new(pipeline(2, 4, 1 << 20));
    let streams = v.run.lanes.len();
    v.set_mode(ViewMode::Engines);
    assert_ne!(v.run.lanes.len(), 0);
    assert!(v.run.lanes.lanes.iter().any(|l| l.label == "compute"));
    v.cycle_mode();
    assert_eq!(v.mode, ViewMode::All);
    assert!(v.run.lanes.len() > streams);
}

#[test]
fn brackets_walk_from_this_run_up_into_the_compared_run_and_back() {
    let mut v = TimelineView::new(three_ops());
    v.set_previous(
        "previous run",
        vec![
            op(OpKind::H2d, 1, 0.0, 50.0),
            op(OpKind::D2h, 1, 60.0, 90.0),
        ],
    );
    v.select_next();
    assert_eq!(v.selected_index(), Some(1), "starts in this run");
    v.select_prev();
    assert_eq!(
        v.selected_in(true),
        Some(1),
        "up into the compared run's last op"
    );
    assert_eq!(v.selected_index(), None);
    assert_eq!(v.selected_run_name(), Some("previous run"));
    assert_eq!(v.selected_op().map(|o| o.kind), Some(OpKind::D2h));
    v.select_prev();
    v.select_prev();
    assert_eq!(
        v.selected_in(true),
        Some(0),
        "stops at the compared run's first op"
    );
    v.select_next();
    v.select_next();
    assert_eq!(v.selected_index(), Some(1), "back down into this run");
    // Dropping the comparison keeps a selection in this run.
    v.clear_previous();
    assert_eq!(v.selected_index(), Some(1));
}

#[test]
fn a_rebuilt_view_with_the_cursor_is_the_view_it_was_taken_from() {
    let mut v = TimelineView::new(three_ops());
    assert_eq!(v.cursor(), TimelineCursor::default(), "a fresh view");
    v.zoom_in();
    v.select_next();
    v.pan_right();
    let cursor = v.cursor();
    assert!(cursor.window.is_some() && cursor.selected.is_some());
    let rebuilt = TimelineView::new(three_ops()).with_cursor(cursor);
    assert_eq!(rebuilt, v);
    // Zoomed back out to everything, the window is not kept at all.
    v.reset_zoom();
    assert_eq!(v.cursor().window, None);
    // A selection that is not in the rebuilt view (no compared run) is dropped.
    let mut compared = TimelineView::new(three_ops());
    compared.set_previous("previous run", three_ops());
    compared.select_next(); // this run's first op
    compared.select_prev(); // up into the compared run's last
    let in_previous = compared.cursor();
    assert!(in_previous.selected.is_some_and(|r| r.in_previous));
    let alone = TimelineView::new(three_ops()).with_cursor(in_previous);
    assert_eq!(alone.selected_ref(), None);
}
