//! Snapshots of the timeline widget and the charts (TestBackend + insta) with synthetic reports
//! at 80x24 and 160x48, checks of what must be on screen, and a sweep of sizes showing that
//! nothing panics.

// Test helpers outside #[test] functions may unwrap too (clippy.toml covers only the tests).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cuda_academy::report::{
    BackendInfo, BackendKind, HostMemKind, Metric, Op, OpKind, Params, Report, Series, TimingSource,
};
use cuda_academy::theme::Theme;
use cuda_academy::timeline::sample::{bandwidth_sweep, op, pipeline, sequential};
use cuda_academy::timeline::{TimelineView, ViewMode};
use cuda_academy::widgets::charts::series_name;
use cuda_academy::widgets::{
    BandwidthChart, TimelineWidget, ValueBar, ValueBars, async_copy_bars, host_memory_bars,
};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::widgets::Widget;

const MIB: u64 = 1 << 20;
const COLOR: Theme = Theme::new(true);
const NO_COLOR: Theme = Theme::new(false);

fn render(width: u16, height: u16, widget: impl Widget) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    widget.render(buf.area, &mut buf);
    buf
}

/// The buffer as text, one line per row, trailing spaces kept visible with a `|` margin.
fn text(buf: &Buffer) -> String {
    let width = usize::from(buf.area.width);
    let symbols: Vec<&str> = buf.content().iter().map(|c| c.symbol()).collect();
    symbols
        .chunks(width.max(1))
        .map(|row| format!("|{}|", row.concat()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn pipeline_view() -> TimelineView {
    TimelineView::new(pipeline(3, 8, 64 * MIB))
}

fn sweep() -> Vec<Series> {
    let series = |mem, dir, peak, latency| Series {
        name: series_name(mem, dir),
        x_unit: "B".into(),
        y_unit: "GB/s".into(),
        points: bandwidth_sweep(256 * MIB, peak, latency),
    };
    vec![
        series(HostMemKind::Pinned, OpKind::H2d, 55.3, 8.0),
        series(HostMemKind::Pinned, OpKind::D2h, 55.3, 9.0),
        series(HostMemKind::Pageable, OpKind::H2d, 9.0, 20.0),
        series(HostMemKind::Pageable, OpKind::D2h, 16.0, 25.0),
    ]
}

fn async_bars(theme: Theme) -> ValueBars {
    let bars = vec![
        ValueBar::new("returned, pinned", 2.2, "µs"),
        ValueBar::new("done, pinned", 1210.0, "µs"),
        ValueBar::new("returned, pageable", 6200.0, "µs"),
        ValueBar::new("done, pageable", 6210.0, "µs"),
    ];
    ValueBars::new("cuMemcpyHtoDAsync of 64 MiB", bars, theme)
}

fn memory_bars(theme: Theme) -> ValueBars {
    let bars = vec![
        ValueBar::new("pageable", 9.1, "GB/s"),
        ValueBar::new("pinned", 55.3, "GB/s"),
        ValueBar::new("write-combined", 55.0, "GB/s"),
    ];
    ValueBars::new("H2D at 256 MiB", bars, theme)
}

#[test]
fn sequential_run_80x24() {
    let view = TimelineView::new(sequential(64 * MIB));
    insta::assert_snapshot!(text(&render(80, 24, TimelineWidget::new(&view, COLOR))));
}

#[test]
fn pipeline_3_streams_8_chunks_80x24() {
    let mut view = pipeline_view();
    view.select_next();
    view.select_next();
    let buf = render(80, 24, TimelineWidget::new(&view, COLOR));
    let screen = text(&buf);
    for lane in ["host", "stream 1", "stream 2", "stream 3"] {
        assert!(screen.contains(lane), "{lane} missing:\n{screen}");
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn pipeline_without_colour_keeps_glyphs_and_reverses_the_selection() {
    let mut view = pipeline_view();
    view.select_next();
    view.select_next();
    let buf = render(80, 24, TimelineWidget::new(&view, NO_COLOR));
    let screen = text(&buf);
    for glyph in ["▶", "◀", "█", "·"] {
        assert!(screen.contains(glyph), "{glyph} missing");
    }
    // No colour anywhere; the selected op's cells and its details line are reversed.
    assert!(
        buf.content()
            .iter()
            .all(|c| c.fg == ratatui::style::Color::Reset)
    );
    let reversed: Vec<(u16, u16)> = (0..24)
        .flat_map(|y| (0..80).map(move |x| (x, y)))
        .filter(|&p| buf[p].modifier.contains(Modifier::REVERSED))
        .collect();
    let rows: std::collections::BTreeSet<u16> = reversed.iter().map(|p| p.1).collect();
    assert_eq!(
        rows.len(),
        2,
        "the bar's row and the details row: {reversed:?}"
    );
    insta::assert_debug_snapshot!(buf);
}

#[test]
fn comparison_160x48() {
    let mut view = pipeline_view().with_name("this run: 3 streams x 8 chunks");
    view.set_previous("previous run: sequential", sequential(64 * MIB));
    let screen = text(&render(160, 48, TimelineWidget::new(&view, COLOR)));
    assert!(screen.contains("previous run: sequential"));
    insta::assert_snapshot!(screen);
}

/// Event timing: inferred starts, engine lanes too, zoomed in and panned, one op selected.
fn inferred_view() -> TimelineView {
    let ops: Vec<Op> = pipeline(3, 8, 64 * MIB)
        .into_iter()
        .map(|mut o| {
            o.start_inferred = o.kind != OpKind::Host;
            o
        })
        .collect();
    let mut view = TimelineView::new(ops);
    view.set_mode(ViewMode::All);
    view.zoom_in();
    view.pan_right();
    view.select_next();
    view
}

#[test]
fn inferred_starts_and_engine_lanes_160x48() {
    let view = inferred_view();
    let screen = text(&render(160, 48, TimelineWidget::new(&view, COLOR)));
    assert!(screen.contains("┆ inferred start"));
    assert!(screen.contains("copy engine 1") && screen.contains("compute"));
    insta::assert_snapshot!(screen);
}

#[test]
fn zoomed_far_in_shows_short_ops_80x24() {
    // Ops far shorter than a cell at full zoom-out; zoomed in they get labels.
    let ops = vec![
        op(OpKind::H2d, 1, 0.0, 0.4),
        op(OpKind::Kernel, 1, 0.4, 0.9),
        op(OpKind::D2h, 1, 0.9, 1.5),
        op(OpKind::Kernel, 2, 1000.0, 2000.0),
    ];
    let mut view = TimelineView::new(ops);
    let wide = text(&render(80, 24, TimelineWidget::new(&view, COLOR)));
    assert!(wide.contains('█'), "short ops still take one cell");
    view.select_next(); // the H2D at 0 µs: zooming keeps it in place
    for _ in 0..12 {
        view.zoom_in();
    }
    assert!(view.scale.span_us() < 2.0);
    insta::assert_snapshot!(text(&render(80, 24, TimelineWidget::new(&view, COLOR))));
}

#[test]
fn bandwidth_sweep_80x24_and_160x48() {
    let series = sweep();
    let small = text(&render(
        80,
        24,
        BandwidthChart::new(series.iter().collect(), COLOR),
    ));
    for label in [
        "4K",
        "64K",
        "1M",
        "16M",
        "256M",
        "o pinned H2D",
        "x pinned D2H",
    ] {
        assert!(small.contains(label), "{label} missing:\n{small}");
    }
    insta::assert_snapshot!("bandwidth_80x24", small);
    let large = text(&render(
        160,
        48,
        BandwidthChart::new(series.iter().collect(), COLOR),
    ));
    insta::assert_snapshot!("bandwidth_160x48", large);
}

#[test]
fn value_bars_80x24() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
    (&memory_bars(COLOR)).render(Rect::new(0, 0, 80, 5), &mut buf);
    (&async_bars(COLOR)).render(Rect::new(0, 6, 80, 6), &mut buf);
    let screen = text(&buf);
    assert!(screen.contains("(log scale)"));
    assert!(screen.contains("2.20 µs") && screen.contains("55.3 GB/s"));
    insta::assert_snapshot!(screen);
}

#[test]
fn nothing_panics_at_any_size() {
    let series = sweep();
    let mut compare = pipeline_view();
    compare.set_previous("previous", sequential(MIB));
    compare.select_next();
    let mut zoomed = inferred_view();
    for _ in 0..30 {
        zoomed.zoom_in();
    }
    let odd = TimelineView::new(vec![
        op(OpKind::H2d, 7, 5.0, 5.0),
        op(OpKind::Host, 0, 9.0, 1.0),
        op(OpKind::Kernel, 1, f64::NAN, 3.0),
        op(OpKind::D2h, 1, 2.0, f64::INFINITY),
    ]);
    let views = [
        pipeline_view(),
        compare,
        zoomed,
        odd,
        TimelineView::new(Vec::new()),
    ];
    let no_data = [Series {
        name: "pinned_h2d_gbps_by_size".into(),
        x_unit: "B".into(),
        y_unit: "GB/s".into(),
        points: vec![(0.0, f64::NAN)],
    }];
    let sizes = (0..=70u16)
        .flat_map(|w| (0..=20u16).map(move |h| (w, h)))
        .chain([(200, 60)]);
    for (w, h) in sizes {
        for view in &views {
            render(w, h, TimelineWidget::new(view, NO_COLOR));
        }
        render(w, h, BandwidthChart::new(series.iter().collect(), COLOR));
        render(w, h, BandwidthChart::new(no_data.iter().collect(), COLOR));
        render(w, h, BandwidthChart::new(Vec::new(), COLOR));
        render(w, h, async_bars(NO_COLOR));
        render(w, h, ValueBars::new("empty", Vec::new(), COLOR));
    }
}

#[test]
fn bar_presets_read_the_contract_metrics() {
    let mut report = Report {
        schema_version: 1,
        experiment: "async-copy".into(),
        backend: BackendInfo {
            kind: BackendKind::Simulated,
            device: "NVIDIA H200".into(),
            profile: None,
            reason: None,
            timing: TimingSource::Model,
        },
        params: Params::default(),
        metrics: Default::default(),
        timeline: Vec::new(),
        other_timelines: Vec::new(),
        series: sweep(),
        checks: Vec::new(),
        notes: Vec::new(),
    };
    for (name, value, unit) in [
        ("pinned_h2d_gbps", 55.3, "GB/s"),
        ("pageable_h2d_gbps", 9.1, "GB/s"),
        ("async_return_us_pinned", 2.2, "µs"),
        ("copy_done_us_pageable", 6210.0, "µs"),
    ] {
        report.metrics.insert(name.into(), Metric::new(value, unit));
    }
    let memory = host_memory_bars(&report, COLOR);
    let labels: Vec<&str> = memory.bars.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["pageable", "pinned"]);
    let timing = async_copy_bars(&report, COLOR);
    assert!(timing.is_log());
    assert_eq!(timing.bars.len(), 2);
    let chart = text(&render(80, 24, BandwidthChart::from_report(&report, COLOR)));
    assert!(chart.contains("* pageable D2H"), "{chart}");
}

#[test]
fn the_owner_names_its_keys_and_a_default_stream_label_that_does_not_fit_is_shortened() {
    // The legacy default stream and a host call, in a narrow area: the label column is a third
    // of the width, too narrow for `stream 0 (default)`.
    let mut host = op(OpKind::Host, 0, 0.0, 50.0);
    host.label = "host_work".into();
    let view = TimelineView::new(vec![op(OpKind::H2d, 0, 0.0, 100.0), host]);
    let screen = text(&render(
        45,
        8,
        TimelineWidget::new(&view, NO_COLOR).keys("Alt-←/→ op"),
    ));
    assert!(screen.contains("|host "), "{screen}");
    let lane = screen.lines().find(|l| l.starts_with("|stream 0"));
    assert!(
        lane.is_some_and(|l| l.contains("stream 0 ") && l.contains('│')),
        "{screen}"
    );
    assert!(
        !screen.contains("stream 0 (d"),
        "no label cut mid-word: {screen}"
    );
    assert!(screen.contains("Alt-←/→ op"), "{screen}");
    assert!(!screen.contains("[ ] select"), "{screen}");
    // Wide enough: the whole label, and the panel's keys by default.
    let screen = text(&render(120, 8, TimelineWidget::new(&view, NO_COLOR)));
    assert!(screen.contains("stream 0 (default)"), "{screen}");
    assert!(screen.contains("[ ] select an op"), "{screen}");
}
