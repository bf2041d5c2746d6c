//! Snapshots of the editor pane (before and after a check whose verdict has hazards, at 80x24
//! with Ctrl-L showing the timeline, and at 160x48 with verdict and timeline side by side) and
//! of the exercise list.

use cuda_academy::app::Msg;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::harness;

#[test]
fn editor_pane_snapshots() {
    for (w, hgt) in [(80, 24), (160, 48)] {
        let mut h = harness();
        h.app.update(Msg::Resize(w, hgt));
        h.typed("3"); // fix-the-race: its starter races
        h.open_first();
        h.key(KeyCode::Down, KeyModifiers::NONE);
        insta::assert_snapshot!(format!("editor_open_{w}x{hgt}"), h.screen(w, hgt));
        h.check();
        assert!(!h.editor().verdict.as_ref().unwrap().hazards.is_empty());
        insta::assert_snapshot!(format!("editor_checked_{w}x{hgt}"), h.screen(w, hgt));
        if w < 100 {
            h.f(8);
            insta::assert_snapshot!(format!("editor_timeline_{w}x{hgt}"), h.screen(w, hgt));
        }
    }
}

#[test]
fn exercise_list_snapshot() {
    let mut h = harness();
    h.typed("3");
    h.typed("w");
    insta::assert_snapshot!("exercise_list_80x24", h.screen(80, 24));
}

/// Alt-Z at 80x24: the verdict takes the rows the code gave up (the code keeps its status line
/// and a few lines), and Alt-Z again gives them back.
#[test]
fn alt_z_gives_the_verdict_the_rows_and_takes_them_back() {
    let mut h = harness();
    h.app.update(Msg::Resize(80, 24));
    h.typed("3");
    h.open_first();
    h.check();
    let rows_of = |screen: &str, title: &str| {
        let lines: Vec<&str> = screen.lines().collect();
        let top = lines.iter().position(|l| l.contains(title)).unwrap();
        let bottom = lines[top..]
            .iter()
            .position(|l| l.starts_with('╰'))
            .unwrap();
        bottom - 1
    };
    let text = h.editor().text();
    let before = h.screen(80, 24);
    assert!(before.contains("F9 zoom"), "{before}");
    let normal = rows_of(&before, "Verdict");
    h.key(KeyCode::Char('z'), KeyModifiers::ALT);
    let zoomed_screen = h.screen(80, 24);
    let zoomed = rows_of(&zoomed_screen, "Verdict");
    assert!(
        zoomed >= normal + 5,
        "{normal} -> {zoomed}:\n{zoomed_screen}"
    );
    assert!(
        zoomed_screen.contains("line 1, column 1"),
        "the code's status line stays:\n{zoomed_screen}"
    );
    h.key(KeyCode::Char('z'), KeyModifiers::ALT);
    assert_eq!(rows_of(&h.screen(80, 24), "Verdict"), normal);
    // Alt-Z typed nothing into the file.
    assert_eq!(h.editor().text(), text);
}
