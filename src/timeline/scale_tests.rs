//! Unit tests of [`super::TimeScale`]: fit, zoom, pan, clamping and bar extents.

use super::*;
use crate::report::OpKind;
use crate::timeline::sample::op;

fn scale() -> TimeScale {
    TimeScale::fit_range(0.0, 1000.0, 100)
}

#[test]
fn fit_covers_all_ops_of_all_sets() {
    let a = [op(OpKind::H2d, 1, 10.0, 20.0)];
    let b = [op(OpKind::D2h, 1, 5.0, 50.0)];
    let s = TimeScale::fit(&[&a, &b], 80);
    assert_eq!((s.start_us, s.end_us), (5.0, 50.0));
    assert!(s.is_full());
}

#[test]
fn a_run_that_starts_just_after_the_origin_is_shown_from_it() {
    // A live recording: the first host call 5.7 us in, the run 5.9 ms long.
    let live = [op(OpKind::H2d, 1, 5.7, 5900.0)];
    let s = TimeScale::fit(&[&live], 80);
    assert_eq!((s.start_us, s.end_us), (0.0, 5900.0));
    // Further in than 2% of the span: shown from its first op, as before.
    let late = [op(OpKind::H2d, 1, 200.0, 5900.0)];
    assert_eq!(TimeScale::fit(&[&late], 80).start_us, 200.0);
}

#[test]
fn fit_of_nothing_or_an_instant_is_at_least_the_minimum_window() {
    let s = TimeScale::fit(&[], 10);
    assert!((s.span_us() - MIN_WINDOW_US).abs() < 1e-12);
    let s = TimeScale::fit_range(7.0, 7.0, 10);
    assert!((s.span_us() - MIN_WINDOW_US).abs() < 1e-12);
    assert!(s.start_us < 7.0 && s.end_us > 7.0);
}

#[test]
fn zoom_in_halves_the_window_around_the_centre() {
    let mut s = scale();
    s.zoom_in(500.0);
    assert_eq!((s.start_us, s.end_us), (250.0, 750.0));
    // An off-centre anchor keeps its place on screen: 100 µs at 10% of the window.
    let mut s = scale();
    s.zoom_in(100.0);
    assert_eq!((s.start_us, s.end_us), (50.0, 550.0));
}

#[test]
fn zoom_in_stops_at_the_minimum_window() {
    let mut s = scale();
    for _ in 0..40 {
        s.zoom_in(500.0);
    }
    assert!((s.span_us() - MIN_WINDOW_US).abs() < 1e-9);
    assert!(s.start_us <= 500.0 && s.end_us >= 500.0);
}

#[test]
fn zoom_out_stops_at_the_full_range() {
    let mut s = scale();
    s.zoom_in(900.0);
    s.zoom_out(900.0);
    s.zoom_out(900.0);
    assert_eq!((s.start_us, s.end_us), (0.0, 1000.0));
}

#[test]
fn pan_moves_a_quarter_window_and_clamps_at_both_ends() {
    let mut s = scale();
    s.zoom_in(500.0); // 250..750
    s.pan_right();
    assert_eq!((s.start_us, s.end_us), (375.0, 875.0));
    s.pan_right();
    s.pan_right();
    assert_eq!((s.start_us, s.end_us), (500.0, 1000.0));
    for _ in 0..10 {
        s.pan_left();
    }
    assert_eq!((s.start_us, s.end_us), (0.0, 500.0));
}

#[test]
fn pan_does_nothing_when_everything_is_visible() {
    let mut s = scale();
    s.pan_left();
    s.pan_right();
    assert_eq!((s.start_us, s.end_us), (0.0, 1000.0));
}

#[test]
fn columns_map_linearly() {
    let s = scale(); // 10 µs per column
    assert_eq!(s.column_of(0.0), 0.0);
    assert_eq!(s.column_of(505.0), 50.5);
    assert_eq!(s.time_of(30), 300.0);
}

#[test]
fn bars_cover_their_columns() {
    let s = scale();
    assert_eq!(s.bar_extent(100.0, 200.0), Some((10, 20)));
    assert_eq!(s.bar_extent(105.0, 195.0), Some((10, 20)));
}

#[test]
fn ops_shorter_than_a_cell_get_one_column() {
    let s = scale();
    assert_eq!(s.bar_extent(101.0, 101.5), Some((10, 11)));
    assert_eq!(s.bar_extent(100.0, 100.0), Some((10, 11)));
    // At the very end of the window the one column is the last one.
    assert_eq!(s.bar_extent(1000.0, 1000.0), Some((99, 100)));
}

#[test]
fn bars_are_clipped_to_the_window_and_hidden_outside() {
    let mut s = scale();
    s.zoom_in(500.0); // 250..750, 5 µs per column
    assert_eq!(s.bar_extent(0.0, 300.0), Some((0, 10)));
    assert_eq!(s.bar_extent(700.0, 2000.0), Some((90, 100)));
    assert_eq!(s.bar_extent(0.0, 200.0), None);
    assert_eq!(s.bar_extent(800.0, 900.0), None);
    assert_eq!(s.with_columns(0).bar_extent(300.0, 400.0), None);
}

#[test]
fn reveal_pans_to_an_op_without_zooming() {
    let mut s = scale();
    s.zoom_in(100.0); // 50..550
    s.reveal(900.0, 910.0);
    assert!(s.start_us <= 900.0 && s.end_us >= 910.0);
    assert!((s.span_us() - 500.0).abs() < 1e-9);
    let before = s;
    s.reveal(800.0, 810.0);
    assert_eq!(s, before, "an op already visible does not move the window");
}

#[test]
fn a_degenerate_hand_built_scale_draws_nothing_and_does_not_panic() {
    let mut s = TimeScale {
        start_us: 5.0,
        end_us: 5.0,
        columns: 80,
        full_start_us: 5.0,
        full_end_us: 5.0,
    };
    assert_eq!(s.bar_extent(5.0, 5.0), None);
    s.zoom_in(5.0);
    s.zoom_out(5.0);
    s.pan_left();
    s.reveal(0.0, 10.0);
    assert!(crate::timeline::ticks(&s, 2).is_empty());
    let nan = TimeScale {
        start_us: f64::NAN,
        ..s
    };
    assert_eq!(nan.bar_extent(1.0, 2.0), None);
    let ok = TimeScale::fit_range(0.0, 10.0, 10);
    assert_eq!(ok.bar_extent(f64::NAN, 2.0), None);
    assert_eq!(ok.bar_extent(3.0, f64::NAN), Some((3, 4)));
}
