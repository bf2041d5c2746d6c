//! Timeline speed: a timeline of 10,000 ops laid out and rendered at 200x60 (target: under
//! 5 ms per frame, issue 4 "Speed"). `cargo bench --bench timeline`.

// Test helpers outside #[test] functions may unwrap too (clippy.toml covers only the tests).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use cuda_academy::report::Op;
use cuda_academy::theme::Theme;
use cuda_academy::timeline::sample::pipeline;
use cuda_academy::timeline::{TimelineView, ViewMode};
use cuda_academy::widgets::TimelineWidget;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

/// About 10,000 ops: 4 streams x 1,667 chunks of H2D, kernel, D2H and their host calls.
fn ten_thousand_ops() -> Vec<Op> {
    let ops = pipeline(4, 1_667, 1 << 30);
    assert!(ops.len() >= 10_000, "{} ops", ops.len());
    ops
}

fn render(view: &TimelineView) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, 200, 60));
    TimelineWidget::new(view, Theme::new(true)).render(buf.area, &mut buf);
    buf
}

fn bench(c: &mut Criterion) {
    let ops = ten_thousand_ops();
    let mut view = TimelineView::new(ops.clone());
    view.select_next();
    c.bench_function("render 10k ops 200x60 (all visible)", |b| {
        b.iter(|| black_box(render(black_box(&view))))
    });
    let mut zoomed = view.clone();
    for _ in 0..6 {
        zoomed.zoom_in();
    }
    c.bench_function("render 10k ops 200x60 (zoomed 64x)", |b| {
        b.iter(|| black_box(render(black_box(&zoomed))))
    });
    let mut all = view.clone();
    all.set_mode(ViewMode::All);
    c.bench_function("render 10k ops 200x60 (streams + engines)", |b| {
        b.iter(|| black_box(render(black_box(&all))))
    });
    c.bench_function("build view + render 10k ops 200x60", |b| {
        b.iter(|| {
            let view = TimelineView::new(black_box(ops.clone()));
            black_box(render(&view))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
