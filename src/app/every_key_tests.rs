//! Every key in every context: a key the table has no line for must do nothing (no effect, no
//! change of state), so that the help, which the table writes, lists every key the program
//! answers (issue 26). Each context is set up as the learner reaches it (a pane focused, a
//! dialog open, the editor with text, its find bar, its prompts, the prediction field), then
//! each key of a broad set that the table does not bind there is sent through `App::update`.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::editor::{Conflict, Find, Picker, text_area};
use super::overlay::Overlay;
use super::params::ParamsForm;
use super::tests::app;
use super::{App, Focus, Msg, Reset};
use crate::experiment::ExperimentOptions;
use crate::keymap::{self, Ctx};

/// Letters, digits, symbols, space, the F-keys and the named keys.
fn codes() -> Vec<KeyCode> {
    let mut codes: Vec<KeyCode> = ('a'..='z')
        .chain('A'..='Z')
        .chain('0'..='9')
        .map(KeyCode::Char)
        .collect();
    codes.extend(
        "`~!@#$%^&*()-_=+[]{}\\|;:'\",.<>/? "
            .chars()
            .map(KeyCode::Char),
    );
    codes.extend((1..=12).map(KeyCode::F));
    codes.extend([
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Backspace,
        KeyCode::Delete,
        KeyCode::Insert,
    ]);
    codes
}

/// Every key of [`codes`] with no modifier, Shift, Ctrl, Alt and their pairs.
fn keys() -> Vec<KeyEvent> {
    let (s, c, a) = (
        KeyModifiers::SHIFT,
        KeyModifiers::CONTROL,
        KeyModifiers::ALT,
    );
    let mods = [KeyModifiers::NONE, s, c, a, c | s, c | a, a | s];
    codes()
        .into_iter()
        .flat_map(|code| mods.iter().map(move |m| KeyEvent::new(code, *m)))
        .collect()
}

fn editor_app() -> App {
    let mut app = app();
    let _ = app.exercises.open("vector-add".to_string());
    if let Some(ed) = app.exercises.editor.as_mut() {
        ed.area = Some(text_area("int main() {\n    return 0;\n}\n"));
    }
    app
}

fn conflict() -> Conflict {
    Conflict {
        theirs: Ok("theirs\n".to_string()),
        stamp: None,
        diff: None,
        diff_top: 0,
    }
}

/// Each context, set up.
fn contexts() -> Vec<(Ctx, App)> {
    let mut out = Vec::new();
    for (ctx, focus) in [
        (Ctx::Cards, Focus::Cards),
        (Ctx::Quiz, Focus::Quiz),
        (Ctx::Lessons, Focus::Lessons),
        (Ctx::Panel, Focus::Panel),
    ] {
        let mut a = app();
        a.nav.focus = focus;
        out.push((ctx, a));
    }
    let mut a = app();
    a.quiz.input = Some(String::new());
    out.push((Ctx::Prediction, a));
    let mut a = app();
    a.overlays.dialog = Some(Overlay::Help);
    out.push((Ctx::Help, a));
    let mut a = app();
    a.overlays.dialog = Some(Overlay::Confirm(Reset::All));
    out.push((Ctx::Confirm, a));
    let mut a = app();
    let form = ParamsForm::new("pageable-vs-pinned".into(), ExperimentOptions::default());
    a.overlays.dialog = Some(Overlay::Params(form));
    out.push((Ctx::Params, a));
    let mut a = app();
    a.overlays.dialog = Some(Overlay::Links);
    out.push((Ctx::Links, a));
    let mut a = app();
    a.exercises.picker = Some(Picker {
        ids: vec!["vector-add".into()],
        selected: 0,
        edited: None,
    });
    out.push((Ctx::Picker, a));
    out.push((Ctx::Editor, editor_app()));
    let mut a = editor_app();
    if let Some(ed) = a.exercises.editor.as_mut() {
        ed.conflict = Some(conflict());
    }
    out.push((Ctx::Editor, a));
    let mut a = editor_app();
    if let Some(ed) = a.exercises.editor.as_mut() {
        ed.editing.find = Some(Find::default());
    }
    out.push((Ctx::EditorFind, a));
    let mut a = editor_app();
    if let Some(ed) = a.exercises.editor.as_mut() {
        let mut c = conflict();
        c.diff = Some(Vec::new());
        ed.conflict = Some(c);
    }
    out.push((Ctx::EditorDiff, a));
    let mut a = editor_app();
    if let Some(ed) = a.exercises.editor.as_mut() {
        ed.quit_prompt = Some("no folder".into());
    }
    out.push((Ctx::QuitPrompt, a));
    let mut a = app();
    a.tutor.open = true;
    out.push((Ctx::Tutor, a));
    out
}

#[test]
fn a_key_without_a_line_in_the_table_does_nothing_anywhere() {
    let keys = keys();
    let mut tried = 0;
    for (ctx, mut app) in contexts() {
        assert_eq!(app.key_context(), ctx, "the set-up reaches {ctx:?}");
        for key in &keys {
            if keymap::lookup(ctx, key).is_some() {
                continue;
            }
            let before = format!("{app:?}");
            let cmds = app.update(Msg::Key(*key));
            assert!(
                cmds.is_empty(),
                "{ctx:?}: {key:?} asked {cmds:?} without a line"
            );
            // Not `assert_eq!`: the whole state would be printed twice.
            let same = format!("{app:?}") == before;
            assert!(
                same,
                "{ctx:?}: {key:?} changed the state without a line in the table"
            );
            tried += 1;
        }
    }
    // The set is broad: most keys are unbound in most contexts.
    assert!(tried > 5_000, "only {tried} keys tried");
}

#[test]
fn every_bound_key_of_the_editor_is_in_its_help_section() {
    // The other half: what the table binds, the help lists (a line per key, not per action).
    let sections = keymap::help_sections(4);
    for ctx in [
        Ctx::Editor,
        Ctx::EditorFind,
        Ctx::EditorDiff,
        Ctx::QuitPrompt,
        Ctx::Prediction,
    ] {
        let rows = &sections
            .iter()
            .find(|(title, _)| *title == ctx.title())
            .expect("a section")
            .1;
        let labels: String = rows.iter().map(|(k, _, _)| format!("{k} ")).collect();
        for b in keymap::BINDINGS.iter().filter(|b| b.ctx == ctx) {
            assert!(
                labels.contains(&b.label()),
                "{ctx:?}: {} not in the help",
                b.label()
            );
        }
    }
}
