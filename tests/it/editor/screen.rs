//! What the editor's screen says without being asked (issue 28): the keys, once, the first
//! time the editor opens; and a line wider than the code pane marked where it goes on (`»`
//! at the right edge) and where it was scrolled from (`«` in the gutter).

use cuda_academy::app::Msg;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::harness;

#[test]
fn the_keys_are_said_once_the_first_time_the_editor_opens() {
    let mut h = harness();
    h.app.update(Msg::Resize(80, 24));
    h.open_first();
    let first = h.screen(80, 24);
    assert!(first.contains("Keys: "), "{first}");
    assert!(first.contains("F1 all keys"), "{first}");
    assert!(!first.contains("line 1, column 1"), "{first}");
    h.key(KeyCode::Down, KeyModifiers::NONE);
    let after = h.screen(80, 24);
    assert!(
        !after.contains("Keys: "),
        "the first key: the cursor's line again"
    );
    assert!(after.contains("line 2, column 1"), "{after}");
    h.esc();
    h.open_first();
    let again = h.screen(80, 24);
    assert!(!again.contains("Keys: "), "said once a session:\n{again}");
}

#[test]
fn a_long_line_is_marked_at_the_edges_it_goes_past() {
    let mut h = harness();
    h.app.update(Msg::Resize(80, 24));
    h.open_first();
    h.typed(&format!("// {}END", "x".repeat(100)));
    h.key(KeyCode::Enter, KeyModifiers::NONE);
    h.key(KeyCode::Up, KeyModifiers::NONE);
    h.key(KeyCode::Home, KeyModifiers::NONE);
    let start = h.screen(80, 24);
    let row = |screen: &str, n: u32| {
        // The number, then a space or the `«` that takes its place.
        let number = [format!("{n:>3} "), format!("{n:>3}«")];
        screen
            .lines()
            .find(|l| number.iter().any(|n| l.contains(n)))
            .map(str::to_string)
            .unwrap_or_default()
    };
    assert!(row(&start, 1).contains('»'), "{start}");
    assert!(!row(&start, 1).contains('«'), "{start}");
    h.key(KeyCode::End, KeyModifiers::NONE);
    let end = h.screen(80, 24);
    let line = row(&end, 1);
    assert!(line.contains("«"), "scrolled: {end}");
    assert!(line.contains("END"), "{end}");
    assert!(!line.contains('»'), "nothing more to the right: {end}");
}
