//! One frame of the tutorial at 200x60 on a `TestBackend` (target: under 2 ms), with the quiz
//! answered so every pane has content; and the same frame with the experiment panel showing a
//! 10,000-op timeline compared with a previous run (issue 4: well under 5 ms), plus the cost of
//! a report arriving (the timeline view is built then, once). Card lines are cached, so this
//! measures layout and drawing.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use cuda_academy::app::{App, Cmd, Msg, fixture};
use cuda_academy::progress::Progress;
use cuda_academy::report::{BackendInfo, BackendKind, Op, OpKind, Params, Report, TimingSource};
use cuda_academy::theme::Theme;
use cuda_academy::worker::WorkerEvent;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;

const W: u16 = 200;
const H: u16 = 60;

fn key(app: &mut App, code: KeyCode) -> Vec<Cmd> {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn new_app() -> App {
    App::new(
        fixture::sample_catalog(),
        Theme::new(true),
        Progress::default(),
        Size::new(W, H),
    )
}

/// A report with `n` ops: H2D, kernel, D2H chunks over 4 streams, plus host calls.
fn big_report(n: usize) -> Box<Report> {
    let kinds = [OpKind::H2d, OpKind::Kernel, OpKind::D2h, OpKind::Host];
    let timeline = (0..n)
        .map(|i| {
            let start = i as f64 * 2.5;
            Op {
                stream: 1 + (i % 4) as u32,
                kind: kinds[i % 4],
                start_us: start,
                end_us: start + 7.0,
                bytes: if i % 4 == 3 { 0 } else { 1 << 20 },
                host_mem: None,
                engine: Some((i % 2) as u32),
                start_inferred: false,
                line: None,
                label: format!("op {i}"),
            }
        })
        .collect();
    Box::new(Report {
        schema_version: 1,
        experiment: "async-copy".into(),
        backend: BackendInfo {
            kind: BackendKind::Simulated,
            device: "NVIDIA H200".into(),
            profile: Some("h200".into()),
            reason: Some("bench".into()),
            timing: TimingSource::Model,
        },
        params: Params {
            size: 1 << 20,
            ..Params::default()
        },
        metrics: Default::default(),
        timeline,
        other_timelines: Vec::new(),
        series: Vec::new(),
        checks: Vec::new(),
        notes: Vec::new(),
    })
}

/// Run the open lesson's experiment and deliver `report` as its result.
fn deliver(app: &mut App, report: Box<Report>) {
    let cmds = key(app, KeyCode::Char('r'));
    if let Some(Cmd::RunExperiment { run_id, .. }) = cmds.last() {
        let done = WorkerEvent::Done {
            run_id: *run_id,
            result: Ok(report),
        };
        app.update(Msg::Worker(done));
    }
}

fn bench_frame(c: &mut Criterion, name: &str, app: &App) {
    // The test backend cannot fail (its error type is uninhabited).
    let Ok(mut terminal) = Terminal::new(TestBackend::new(W, H));
    c.bench_function(name, |b| {
        b.iter(|| {
            // A fresh buffer each time, so every cell is compared and nothing is skipped.
            terminal.clear().ok();
            terminal
                .draw(|f| f.render_widget(black_box(app), f.area()))
                .ok();
        })
    });
}

fn frame(c: &mut Criterion) {
    let mut app = new_app();
    for code in [KeyCode::Tab, KeyCode::Down, KeyCode::Enter] {
        key(&mut app, code);
    }
    bench_frame(c, "frame_200x60", &app);

    let mut app = new_app();
    key(&mut app, KeyCode::Char('3'));
    deliver(&mut app, big_report(10_000));
    deliver(&mut app, big_report(10_000));
    bench_frame(c, "frame_200x60_timeline_10k_ops_compared", &app);

    let mut app = new_app();
    key(&mut app, KeyCode::Char('3'));
    let report = big_report(10_000);
    c.bench_function("report_arrives_10k_ops", |b| {
        b.iter(|| deliver(&mut app, black_box(report.clone())))
    });
}

criterion_group!(benches, frame);
criterion_main!(benches);
