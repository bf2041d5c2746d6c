//! One frame of the tutorial at 200x60 on a `TestBackend` (target: under 2 ms), with the quiz
//! answered so every pane has content. Card lines are cached, so this measures layout and drawing.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use cuda_academy::app::{App, Msg, fixture};
use cuda_academy::progress::Progress;
use cuda_academy::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

fn frame(c: &mut Criterion) {
    let (w, h) = (200, 60);
    let mut app = App::new(
        fixture::sample_catalog(),
        Theme::new(true),
        Progress::default(),
        Size::new(w, h),
    );
    for code in [KeyCode::Tab, KeyCode::Down, KeyCode::Enter] {
        app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }
    // The test backend cannot fail (its error type is uninhabited).
    let Ok(mut terminal) = Terminal::new(TestBackend::new(w, h));
    c.bench_function("frame_200x60", |b| {
        b.iter(|| {
            // A fresh buffer each time, so every cell is compared and nothing is skipped.
            terminal.clear().ok();
            terminal
                .draw(|f| f.render_widget(black_box(&app), f.area()))
                .ok();
        })
    });
}

criterion_group!(benches, frame);
criterion_main!(benches);
