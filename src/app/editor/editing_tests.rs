//! Each of the editor's desktop keys, driven through `App::update` as the terminal sends it.

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use super::editing::CodeView;
use super::text_area;
use crate::app::{App, Cmd, ExerciseCmd, Msg};

fn editor(text: &str) -> App {
    let mut app = crate::app::tests::app();
    let _ = app.exercises.open("vector-add".to_string());
    if let Some(ed) = app.exercises.editor.as_mut() {
        ed.area = Some(text_area(text));
        ed.saved = ed.text();
        // Where a 10-row view drew the code: column 0 is at x 6 (gutter), row 0 at y 2.
        ed.editing.view.set(CodeView {
            x: 1,
            y: 2,
            width: 60,
            height: 10,
            top: 0,
            left: 0,
            gutter: 5,
        });
    }
    app
}

fn press(app: &mut App, code: KeyCode, mods: KeyModifiers) -> Vec<Cmd> {
    app.update(Msg::Key(KeyEvent::new(code, mods)))
}

fn ctrl(app: &mut App, c: char) -> Vec<Cmd> {
    press(app, KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

fn text(app: &App) -> String {
    app.exercises
        .editor
        .as_ref()
        .and_then(|e| e.text())
        .unwrap_or_default()
}

fn cursor(app: &App) -> (usize, usize) {
    app.exercises
        .editor
        .as_ref()
        .and_then(|e| e.cursor())
        .unwrap_or_default()
}

#[test]
fn shift_selects_typing_replaces_and_cut_copy_paste_go_through_the_clipboard() {
    let mut app = editor("int a;\nint b;\n");
    for _ in 0..3 {
        press(&mut app, KeyCode::Right, KeyModifiers::SHIFT);
    }
    // Ctrl-C copies (and asks the shell for the system clipboard); it never quits.
    let cmds = ctrl(&mut app, 'c');
    assert_eq!(cmds, vec![Cmd::CopyText("int".into())]);
    typed(&mut app, "long");
    assert_eq!(
        text(&app),
        "long a;\nint b;\n",
        "typing replaced the selection"
    );
    press(&mut app, KeyCode::End, KeyModifiers::NONE);
    ctrl(&mut app, 'v');
    assert_eq!(text(&app), "long a;int\nint b;\n");
    // Ctrl-X without a selection cuts the line; Ctrl-V puts it back.
    let cut = ctrl(&mut app, 'x');
    assert_eq!(cut, vec![Cmd::CopyText("long a;int\n".into())]);
    assert_eq!(text(&app), "int b;\n");
    ctrl(&mut app, 'v');
    assert_eq!(text(&app), "long a;int\nint b;\n");
    // Backspace deletes a selection whole.
    ctrl(&mut app, 'a');
    press(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(text(&app), "\n");
}

#[test]
fn ctrl_z_undoes_a_word_at_a_time_and_ctrl_y_redoes() {
    let mut app = editor("\n");
    typed(&mut app, "int x");
    ctrl(&mut app, 'z');
    assert_eq!(text(&app), "int \n");
    ctrl(&mut app, 'z');
    ctrl(&mut app, 'z');
    assert_eq!(text(&app), "\n");
    ctrl(&mut app, 'y');
    assert_eq!(text(&app), "int\n");
    // A pause (ticks with no key) ends a step.
    press(&mut app, KeyCode::End, KeyModifiers::NONE);
    typed(&mut app, "ab");
    for _ in 0..10 {
        app.update(Msg::Tick);
    }
    typed(&mut app, "cd");
    ctrl(&mut app, 'z');
    assert_eq!(text(&app), "intab\n");
}

#[test]
fn pages_home_end_and_the_file_ends_move_the_cursor() {
    let lines: String = (0..40).map(|i| format!("line {i}\n")).collect();
    let mut app = editor(&lines);
    press(&mut app, KeyCode::PageDown, KeyModifiers::NONE);
    assert_eq!(cursor(&app), (9, 0), "a page of the 10 rows drawn");
    let top = app
        .exercises
        .editor
        .as_ref()
        .map(|e| e.editing.view.get().top);
    assert_eq!(top, Some(9), "the view scrolls with it");
    press(&mut app, KeyCode::PageUp, KeyModifiers::NONE);
    assert_eq!(cursor(&app), (0, 0));
    press(&mut app, KeyCode::End, KeyModifiers::NONE);
    assert_eq!(cursor(&app), (0, 6));
    press(&mut app, KeyCode::Home, KeyModifiers::NONE);
    assert_eq!(cursor(&app), (0, 0));
    press(&mut app, KeyCode::End, KeyModifiers::CONTROL);
    assert_eq!(cursor(&app).0, 39);
    press(
        &mut app,
        KeyCode::Home,
        KeyModifiers::CONTROL | KeyModifiers::SHIFT,
    );
    assert_eq!(cursor(&app), (0, 0));
    let selecting = app
        .exercises
        .editor
        .as_ref()
        .and_then(|e| e.area.as_ref())
        .is_some_and(|a| a.is_selecting());
    assert!(selecting, "Ctrl-Shift-Home selected");
}

#[test]
fn ctrl_s_saves_ctrl_f_finds_and_ctrl_slash_comments() {
    let mut app = editor("int a;\nfloat b;\n");
    assert!(ctrl(&mut app, 's').is_empty(), "nothing to save yet");
    typed(&mut app, "x");
    let save = ctrl(&mut app, 's');
    assert!(
        matches!(save.as_slice(), [Cmd::Exercise(ExerciseCmd::Save { .. })]),
        "{save:?}"
    );
    ctrl(&mut app, 'f');
    assert_eq!(app.key_context(), crate::keymap::Ctx::EditorFind);
    typed(&mut app, "flo");
    assert_eq!(cursor(&app), (1, 0));
    press(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.key_context(), crate::keymap::Ctx::Editor);
    assert!(
        app.exercises.editor.is_some(),
        "Esc closed the find bar, not the editor"
    );
    // Terminals send Ctrl-/ as Ctrl-7.
    ctrl(&mut app, '7');
    assert_eq!(text(&app), "xint a;\n// float b;\n");
    ctrl(&mut app, '/');
    assert_eq!(text(&app), "xint a;\nfloat b;\n");
}

#[test]
fn a_click_places_the_cursor_and_a_drag_selects() {
    let mut app = editor("int a;\nfloat b;\n");
    let mouse = |kind, column, row| {
        Msg::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    // x 6 is the code's first column; row 3 is its second line.
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), 8, 3));
    assert_eq!(cursor(&app), (1, 2));
    app.update(mouse(MouseEventKind::Drag(MouseButton::Left), 11, 3));
    let area = app.exercises.editor.as_ref().and_then(|e| e.area.as_ref());
    assert_eq!(
        area.and_then(|a| a.selection_range()),
        Some(((1, 2), (1, 5)))
    );
}

#[test]
fn ctrl_c_and_ctrl_z_never_leave_the_editor_and_ctrl_q_quits() {
    let mut app = editor("a\n");
    assert!(!ctrl(&mut app, 'c').contains(&Cmd::Quit));
    assert!(!ctrl(&mut app, 'z').contains(&Cmd::Quit));
    assert!(app.exercises.editor.is_some());
    assert!(ctrl(&mut app, 'q').contains(&Cmd::Quit));
}
