//! The exercise file under the TUI's editor: deleted while it is open (review 2026-12-01 E12:
//! `$EDITOR` deleted it, and leaving saved nothing because the text equalled the last save),
//! and too large to open (NP6: the editor said "opening…" for ever).

use cuda_academy::app::Msg;
use cuda_academy::tui::exercise_store as store;

use crate::editor::{FIRST, harness};

#[test]
fn a_deleted_exercise_file_gets_the_editors_text_back_and_a_banner() {
    let mut h = harness();
    h.open_first();
    h.typed("// typed before the delete\n");
    h.esc(); // saved: the editor's text now equals the file's
    assert!(!h.app.editor_open());
    h.open_first();
    assert!(!h.editor().dirty());
    let path = store::file_for(h.shell.state_dir.as_ref().unwrap(), FIRST);
    std::fs::remove_file(&path).unwrap();
    h.send(Msg::Tick); // the poll that follows $EDITOR's return is the same look at the file
    assert!(
        h.file().starts_with("// typed before the delete\n"),
        "written back"
    );
    let banners: Vec<String> = h
        .app
        .overlays
        .banners
        .iter()
        .map(|b| b.text.clone())
        .collect();
    assert!(
        banners
            .iter()
            .any(|b| b.contains("deleted") && b.contains("written back")),
        "{banners:?}"
    );
    // Leaving keeps it, and a second look does not write or warn again.
    let count = banners.len();
    h.send(Msg::Tick);
    assert_eq!(h.app.overlays.banners.len(), count);
    h.esc();
    assert!(!h.app.editor_open());
    assert!(h.file().starts_with("// typed before the delete\n"));
}

#[test]
fn a_file_too_large_to_open_is_a_message_and_is_left_whole() {
    let mut h = harness();
    let dir = h.shell.state_dir.clone().unwrap();
    std::fs::create_dir_all(dir.join("exercises")).unwrap();
    let path = store::file_for(&dir, FIRST);
    let big = format!(
        "int main()\n{{\n{}    return 0;\n}}\n",
        "    // padding padding padding padding padding padding padding padding\n".repeat(16_500)
    );
    std::fs::write(&path, &big).unwrap();
    h.open_first();
    assert!(!h.app.editor_open(), "no editor left on 'opening…'");
    let banners: Vec<String> = h
        .app
        .overlays
        .banners
        .iter()
        .map(|b| b.text.clone())
        .collect();
    assert!(
        banners
            .iter()
            .any(|b| b.contains("cannot open exercise") && b.contains("1048576")),
        "{banners:?}"
    );
    assert!(!h.screen(120, 35).contains("opening…"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), big, "left whole");
}
