//! The editor between checks and across visits: its marks follow the text as it is edited, the
//! cursor comes back where it was, Enter indents, the timeline's keys do not type, the
//! solution-locked banner goes when the solution shows; and the checked program's timeline:
//! a host lane, an axis from the first device op, streams numbered from 1 in creation order.

use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::interp::Limits;
use cuda_academy::exercise::{HazardKind, catalog};
use cuda_academy::gpu::profile::Profile;
use cuda_academy::gpu::sim::SimGpu;
use cuda_academy::report::OpKind;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::{FIRST, harness};

/// The gutter of `screen` marks line `n` with `▲`.
fn marked(screen: &str, n: u32) -> bool {
    screen
        .lines()
        .any(|l| l.contains(&format!("▲{n:>3} ")) || l.contains(&format!("▲ {n:>3} ")))
}

#[test]
fn marks_move_with_lines_inserted_above_and_stay_on_an_edited_line() {
    let mut h = harness();
    h.typed("3"); // lesson 3: fix-the-race first
    h.open_first();
    h.check();
    let race = h
        .editor()
        .verdict
        .as_ref()
        .unwrap()
        .hazards
        .iter()
        .find(|x| x.kind == HazardKind::ReadBeforeSync)
        .cloned()
        .expect("the starter races");
    let line = race.line;
    let screen = h.screen(160, 48);
    assert!(marked(&screen, line), "{screen}");
    assert!(!marked(&screen, line + 2), "{screen}");
    // Two lines typed at the top (the cursor is at line 1): the mark moves down two.
    h.typed("// one\n// two\n");
    let screen = h.screen(160, 48);
    assert!(marked(&screen, line + 2), "{screen}");
    assert_eq!(h.editor().line_now(line), Some(line + 2));
    assert_eq!(h.editor().checked_line(line + 2), Some(line));
    // The timeline's label follows too.
    let other = race.other_line.unwrap();
    let label = format!("read-before-sync L{} ↔ L{}", line + 2, other + 2);
    assert!(screen.contains(&label), "{screen}");
    // Edit the marked line itself: the mark stays on it; its message shows there.
    for _ in 0..line - 1 {
        h.key(KeyCode::Down, KeyModifiers::NONE);
    }
    h.key(KeyCode::End, KeyModifiers::NONE);
    h.typed(" // edited");
    assert_eq!(h.editor().cursor().unwrap().0 + 1, (line + 2) as usize);
    let screen = h.screen(160, 48);
    assert!(marked(&screen, line + 2), "{screen}");
    assert!(screen.contains("▲ [read-before-sync]"), "{screen}");
    // Deleting the two lines above moves it back.
    h.key(KeyCode::Up, KeyModifiers::NONE);
    for _ in 0..line + 2 {
        h.key(KeyCode::Up, KeyModifiers::NONE);
    }
    h.ctrl('x'); // cut the line "// one"
    h.ctrl('x'); // and the next
    assert_eq!(h.editor().line_now(line), Some(line));
    assert!(marked(&h.screen(160, 48), line));
}

#[test]
fn reopening_an_exercise_puts_the_cursor_back() {
    let mut h = harness();
    h.open_first();
    for _ in 0..7 {
        h.key(KeyCode::Down, KeyModifiers::NONE);
    }
    h.key(KeyCode::Right, KeyModifiers::NONE);
    h.key(KeyCode::Right, KeyModifiers::NONE);
    assert_eq!(h.editor().cursor(), Some((7, 2)));
    h.esc();
    assert!(!h.app.editor_open());
    h.open_first();
    assert_eq!(h.editor().id, FIRST);
    assert_eq!(h.editor().cursor(), Some((7, 2)), "back where it was");
    assert!(h.screen(80, 24).contains("line 8, column 3"));
}

#[test]
fn enter_indents_and_the_timeline_keys_do_not_type() {
    let mut h = harness();
    h.open_first();
    let before = h.editor().text().unwrap();
    // Alt keys move the timeline (none yet): nothing is typed, nothing changes.
    for code in [KeyCode::Left, KeyCode::Right] {
        h.key(code, KeyModifiers::ALT);
    }
    for c in ['=', '-', ',', '.'] {
        h.key(KeyCode::Char(c), KeyModifiers::ALT);
    }
    // An Alt or Ctrl key the table does not bind does nothing either.
    h.key(KeyCode::Char('q'), KeyModifiers::ALT);
    assert_eq!(h.editor().text().unwrap(), before);
    // On a blank line of its own.
    h.enter();
    h.key(KeyCode::Up, KeyModifiers::NONE);
    h.typed("if (1) {");
    h.enter();
    h.typed("x = 1;");
    h.enter();
    h.typed("}");
    let text = h.editor().text().unwrap();
    assert!(text.starts_with("if (1) {\n    x = 1;\n}\n"), "{text}");
    // Ctrl-Z undoes, Ctrl-Y redoes.
    h.ctrl('z');
    let undone = h.editor().text().unwrap();
    assert_ne!(undone, text);
    h.ctrl('y');
    assert_eq!(h.editor().text().unwrap(), text);
}

#[test]
fn the_timeline_keys_select_zoom_and_pan_in_the_editor() {
    let mut h = harness();
    h.typed("3");
    h.open_first();
    h.check();
    let selected = |h: &super::Harness| h.editor().timeline().unwrap().view.selected_index();
    let scale = |h: &super::Harness| h.editor().timeline().unwrap().view.scale;
    let first = selected(&h);
    h.key(KeyCode::Left, KeyModifiers::ALT);
    assert_ne!(selected(&h), first, "Alt-← selects the previous op");
    h.key(KeyCode::Right, KeyModifiers::ALT);
    assert_eq!(selected(&h), first, "Alt-→ the next one");
    let full = scale(&h);
    h.key(KeyCode::Char('='), KeyModifiers::ALT);
    assert!(scale(&h).span_us() < full.span_us(), "Alt-= zooms in");
    let zoomed = scale(&h);
    h.key(KeyCode::Char(','), KeyModifiers::ALT);
    assert!(scale(&h).start_us < zoomed.start_us, "Alt-, pans left");
    h.key(KeyCode::Char('.'), KeyModifiers::ALT);
    assert_eq!(scale(&h).start_us, zoomed.start_us, "Alt-. back right");
    assert!(!h.editor().dirty(), "nothing was typed");
}

#[test]
fn a_check_shows_its_verdict_even_with_the_timeline_in_its_place() {
    let mut h = harness();
    h.open_first();
    h.check();
    h.f(8);
    assert!(h.editor().show_timeline, "F8: the timeline below the code");
    assert!(h.screen(80, 24).contains(" Timeline"));
    h.check();
    assert!(!h.editor().show_timeline, "the new verdict is in view");
    let screen = h.screen(80, 24);
    assert!(screen.contains(" Verdict"), "{screen}");
}

#[test]
fn the_locked_banner_goes_when_the_solution_shows() {
    let mut h = harness();
    h.open_first();
    h.typed("// my try\n");
    h.f(7);
    let banner = |h: &super::Harness| {
        h.app
            .overlays
            .banners
            .iter()
            .any(|b| b.text.starts_with("the solution unlocks"))
    };
    assert!(banner(&h), "locked: the banner says when it unlocks");
    for _ in 0..3 {
        h.check();
    }
    h.f(7);
    h.typed("y");
    assert!(h.editor().show_solution);
    assert!(!banner(&h), "no 'unlocks after' banner over the solution");
}

fn sim() -> SimGpu {
    SimGpu::new(Profile::builtin("h200").unwrap(), "test".into())
}

/// Two streams; the second one created is used first.
const TWO_STREAMS: &str = r#"#include "academy.cuh"

int main()
{
    const size_t bytes = 1 << 20;
    float *h;
    cudaMallocHost(&h, bytes);
    float *d;
    cudaMalloc(&d, bytes);
    cudaStream_t first, second;
    cudaStreamCreate(&first);
    cudaStreamCreate(&second);
    cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, second);
    cudaStreamSynchronize(second);
    host_work(1.0);
    cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, first);
    cudaStreamSynchronize(first);
    cudaStreamDestroy(first);
    cudaStreamDestroy(second);
    cudaFree(d);
    cudaFreeHost(h);
    return 0;
}
"#;

#[test]
fn streams_are_numbered_from_one_per_check_in_creation_order() {
    let ex = catalog::find("fix-the-race").unwrap();
    let mut gpu = sim();
    for _ in 0..2 {
        let v = cuda_academy::exercise::check(
            ex,
            TWO_STREAMS,
            &mut gpu,
            Limits::default(),
            &AtomicBool::new(false),
        );
        let on = |kind| v.timeline.iter().find(|o| o.kind == kind).map(|o| o.stream);
        assert_eq!(on(OpKind::D2h), Some(1), "`first` was created first");
        assert_eq!(on(OpKind::H2d), Some(2), "`second` was created second");
    }
}

#[test]
fn the_host_lane_shows_waits_and_host_work_on_an_axis_from_the_first_device_op() {
    let ex = catalog::find("overlap-host-work").unwrap();
    let v = cuda_academy::exercise::check(
        ex,
        ex.starter,
        &mut sim(),
        Limits::default(),
        &AtomicBool::new(false),
    );
    let t = cuda_academy::app::editor::timeline::VerdictTimeline::new(&v).unwrap();
    let lanes = &t.view.run.lanes.lanes;
    assert_eq!(lanes[0].label, "host", "the host lane comes first");
    let host: Vec<(&str, f64, f64)> = lanes[0]
        .ops
        .iter()
        .map(|&i| {
            let o = &t.view.run.ops[i];
            (o.label.as_str(), o.start_us, o.end_us)
        })
        .collect();
    let names: Vec<&str> = host.iter().map(|h| h.0).collect();
    assert_eq!(names, ["cudaStreamSynchronize", "host_work"], "{host:?}");
    let device_start = t
        .view
        .run
        .ops
        .iter()
        .filter(|o| o.kind != OpKind::Host)
        .map(|o| o.start_us)
        .fold(f64::INFINITY, f64::min);
    assert_eq!(device_start, 0.0, "the first device op is at 0");
    assert_eq!(t.view.scale.start_us, 0.0, "and the axis starts there");
    // The starter works on the host only after the GPU is done: no overlap to see.
    let device_end = t
        .view
        .run
        .ops
        .iter()
        .filter(|o| o.kind != OpKind::Host)
        .map(|o| o.end_us)
        .fold(0.0, f64::max);
    let work = host[1];
    assert!(work.1 >= device_end - 1.0, "{work:?} after {device_end}");
    assert!(
        (work.2 - work.1 - 1000.0 * 2.0).abs() < 1.0,
        "2 ms of host work"
    );
}
