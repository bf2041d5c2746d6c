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
            h.ctrl('l');
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
