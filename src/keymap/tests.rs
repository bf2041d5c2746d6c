use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

#[test]
fn up_means_option_in_quiz_and_scroll_in_cards() {
    assert_eq!(lookup(Ctx::Quiz, &key(KeyCode::Up)), Some(Action::OptionUp));
    assert_eq!(
        lookup(Ctx::Cards, &key(KeyCode::Up)),
        Some(Action::ScrollUp)
    );
    assert_eq!(
        lookup(Ctx::Lessons, &key(KeyCode::Char('j'))),
        Some(Action::ListDown)
    );
}

#[test]
fn main_keys_reach_every_pane_but_not_dialogs() {
    for ctx in [Ctx::Cards, Ctx::Quiz, Ctx::Lessons] {
        assert_eq!(lookup(ctx, &key(KeyCode::Right)), Some(Action::NextCard));
        assert_eq!(lookup(ctx, &key(KeyCode::Char('q'))), Some(Action::Quit));
    }
    assert_eq!(lookup(Ctx::Confirm, &key(KeyCode::Right)), None);
    assert_eq!(lookup(Ctx::Confirm, &key(KeyCode::Char('q'))), None);
}

#[test]
fn ctrl_c_quits_everywhere_and_plain_c_does_nothing() {
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    for ctx in [
        Ctx::Cards,
        Ctx::Quiz,
        Ctx::Lessons,
        Ctx::Panel,
        Ctx::Params,
        Ctx::Help,
        Ctx::Confirm,
    ] {
        assert_eq!(lookup(ctx, &ctrl_c), Some(Action::Quit), "{ctx:?}");
    }
    // Plain c compares timelines; it never quits.
    assert_eq!(
        lookup(Ctx::Cards, &key(KeyCode::Char('c'))),
        Some(Action::Compare)
    );
}

#[test]
fn digits_carry_their_lesson_number() {
    assert_eq!(
        lookup(Ctx::Cards, &key(KeyCode::Char('3'))),
        Some(Action::JumpLesson(3))
    );
    assert_eq!(
        lookup(Ctx::Quiz, &key(KeyCode::Char('1'))),
        Some(Action::JumpLesson(1))
    );
    assert_eq!(lookup(Ctx::Cards, &key(KeyCode::Char('0'))), None);
}

#[test]
fn shifted_letters_match_with_shift_held() {
    let big_x = KeyEvent::new(KeyCode::Char('X'), KeyModifiers::SHIFT);
    assert_eq!(lookup(Ctx::Lessons, &big_x), Some(Action::ResetAll));
    let question = KeyEvent::new(KeyCode::Char('?'), KeyModifiers::SHIFT);
    assert_eq!(lookup(Ctx::Cards, &question), Some(Action::ToggleHelp));
}

#[test]
fn experiment_keys_work_from_every_pane() {
    let expected = [
        ('r', Action::RunExperiment),
        ('e', Action::ExportTrace),
        ('+', Action::ZoomIn),
        ('-', Action::ZoomOut),
        ('<', Action::PanLeft),
        ('>', Action::PanRight),
        ('[', Action::SelectPrevOp),
        (']', Action::SelectNextOp),
        ('o', Action::OpenParams),
        ('v', Action::ToggleView),
    ];
    for (c, action) in expected {
        for ctx in [Ctx::Cards, Ctx::Quiz, Ctx::Lessons, Ctx::Panel] {
            assert_eq!(
                lookup(ctx, &key(KeyCode::Char(c))),
                Some(action),
                "{c} in {ctx:?}"
            );
        }
        // The form and the dialogs keep their own keys.
        assert_ne!(lookup(Ctx::Params, &key(KeyCode::Char(c))), Some(action));
        assert_ne!(lookup(Ctx::Help, &key(KeyCode::Char(c))), Some(action));
    }
}

#[test]
fn no_key_is_bound_twice_in_one_context() {
    for a in BINDINGS {
        for b in BINDINGS {
            if std::ptr::eq(a, b) || a.ctx != b.ctx {
                continue;
            }
            for k in a.keys {
                assert!(!b.keys.contains(k), "{k:?} bound twice in {:?}", a.ctx);
            }
        }
    }
}

#[test]
fn help_lists_every_action_of_the_table() {
    let listed: Vec<&str> = help_sections(4)
        .iter()
        .flat_map(|(_, rows)| rows.iter().map(|(_, name, _)| *name))
        .collect();
    // The links overlay's footer lists its keys (test below).
    for binding in BINDINGS.iter().filter(|b| b.ctx != Ctx::Links) {
        assert!(
            listed.contains(&binding.action.name()),
            "{:?}",
            binding.action
        );
    }
    assert!(listed.contains(&"quit") && listed.contains(&"next card"));
}

#[test]
fn footer_shows_the_pane_keys_then_the_main_keys() {
    let quiz = footer(Ctx::Quiz);
    let pos = |k: &str| quiz.iter().position(|f| f.keys == k);
    assert!(pos("Enter").is_some());
    assert!(pos("Enter") < pos("q"));
    assert!(footer(Ctx::Confirm).iter().all(|f| f.keys != "q"));
}

#[test]
fn the_links_overlay_footer_names_every_key_it_takes() {
    let keys: Vec<&str> = footer(Ctx::Links).iter().map(|f| f.keys).collect();
    assert_eq!(keys, ["↑↓", "←→", "Enter", "y", "Esc", "q"]);
    for binding in BINDINGS.iter().filter(|b| b.ctx == Ctx::Links) {
        let first = binding.label.split(' ').next().unwrap_or_default();
        let named = keys.iter().any(|k| k.contains(first) || first.contains(k));
        let pair = matches!(binding.action, Action::ListUp | Action::LinkScrollLeft);
        assert!(
            named || pair,
            "{:?} ({}) not in the footer",
            binding.action,
            binding.label
        );
    }
    assert!(
        help_sections(4)[0]
            .1
            .iter()
            .any(|(k, name, _)| *k == "u" && *name == "links")
    );
}

#[test]
fn every_pane_footer_has_cards_panes_and_exercises() {
    // Review 2026-12-01: nothing on screen said `w` opens the exercises.
    for ctx in [Ctx::Cards, Ctx::Quiz, Ctx::Panel, Ctx::Lessons] {
        let actions: Vec<Action> = footer(ctx).iter().map(|f| f.action).collect();
        for a in [Action::NextCard, Action::FocusNext, Action::OpenEditor] {
            assert!(actions.contains(&a), "{a:?} not in the {ctx:?} footer");
        }
    }
    for a in FOOTER_FIRST {
        assert!(footer(Ctx::Cards).iter().any(|f| f.action == *a), "{a:?}");
    }
}

#[test]
fn alt_arrows_scroll_the_verdict_and_plain_ones_edit() {
    let alt = |code| KeyEvent::new(code, KeyModifiers::ALT);
    let cases = [
        (KeyCode::Up, Action::VerdictScroll(-1)),
        (KeyCode::Down, Action::VerdictScroll(1)),
        (KeyCode::PageUp, Action::VerdictPage(-1)),
        (KeyCode::PageDown, Action::VerdictPage(1)),
    ];
    for (code, action) in cases {
        assert_eq!(lookup(Ctx::Editor, &alt(code)), Some(action), "{code:?}");
        // Without Alt the key moves in the code (bound to a move, or left to the editor).
        let plain = lookup(Ctx::Editor, &key(code));
        assert!(
            matches!(plain, None | Some(Action::EditMove | Action::EditPage)),
            "{code:?}: {plain:?}"
        );
    }
    let ctrl_alt = KeyEvent::new(KeyCode::Up, KeyModifiers::ALT | KeyModifiers::CONTROL);
    assert_eq!(
        lookup(Ctx::Editor, &ctrl_alt),
        None,
        "Ctrl-Alt-Up is the code's top"
    );
    let footer_keys: Vec<&str> = footer(Ctx::Editor).iter().map(|f| f.keys).collect();
    assert!(footer_keys.contains(&"Alt-↑↓"), "{footer_keys:?}");
}

#[test]
fn help_names_only_the_digits_of_lessons_there_are() {
    let row = |lessons| {
        help_sections(lessons)[0]
            .1
            .iter()
            .find(|(_, name, _)| *name == Action::JumpLesson(0).name())
            .map(|(keys, _, _)| *keys)
    };
    assert_eq!(row(4), Some("1-4"));
    assert_eq!(row(1), Some("1"));
    assert_eq!(row(12), Some("1-9"));
}

#[test]
fn the_editor_timeline_keys_do_not_type_and_the_hint_names_them() {
    let alt = |code| KeyEvent::new(code, KeyModifiers::ALT);
    assert_eq!(
        lookup(Ctx::Editor, &alt(KeyCode::Left)),
        Some(Action::EditorOp(-1))
    );
    assert_eq!(
        lookup(Ctx::Editor, &alt(KeyCode::Right)),
        Some(Action::EditorOp(1))
    );
    assert_eq!(
        lookup(Ctx::Editor, &alt(KeyCode::Char('-'))),
        Some(Action::EditorZoom(-1))
    );
    assert_eq!(
        lookup(Ctx::Editor, &alt(KeyCode::Char('='))),
        Some(Action::EditorZoom(1))
    );
    assert_eq!(
        lookup(Ctx::Editor, &alt(KeyCode::Char(','))),
        Some(Action::EditorPan(-1))
    );
    // The panel's plain keys are text in the editor.
    for c in ['[', ']', '+', '-', '<', '>'] {
        assert_eq!(lookup(Ctx::Editor, &key(KeyCode::Char(c))), None, "{c}");
    }
    assert_eq!(
        editor_timeline_hint(),
        "Alt-←/→ op  Alt-=/- zoom  Alt-,/. pan"
    );
}

#[test]
fn every_editing_key_is_in_the_help_under_the_editor() {
    let sections = help_sections(4);
    let editor = &sections
        .iter()
        .find(|(title, _)| *title == Ctx::Editor.title())
        .expect("an editor section")
        .1;
    let names: Vec<&str> = editor.iter().map(|(_, name, _)| *name).collect();
    for wanted in [
        "undo",
        "redo",
        "kill",
        "yank",
        "copy",
        "new line",
        "timeline: zoom",
    ] {
        assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
    }
    let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    for (c, action) in [
        ('u', Action::EditUndo),
        ('k', Action::EditKill),
        ('y', Action::EditYank),
        ('w', Action::EditDeleteWord),
    ] {
        let found = lookup(Ctx::Editor, &ctrl(c));
        assert_eq!(found, Some(action), "Ctrl-{c}");
        assert!(found.is_some_and(Action::edits_text));
    }
}

#[test]
fn f1_lists_the_keys_in_the_editor_where_question_mark_types() {
    // `?` is text in the editor (the editor takes unbound keys); F1 opens the help there and
    // everywhere else.
    assert_eq!(lookup(Ctx::Editor, &key(KeyCode::Char('?'))), None);
    for ctx in [Ctx::Editor, Ctx::Cards, Ctx::Quiz, Ctx::Panel] {
        assert_eq!(
            lookup(ctx, &key(KeyCode::F(1))),
            Some(Action::ToggleHelp),
            "{ctx:?}"
        );
    }
    let footer_keys: Vec<&str> = footer(Ctx::Editor).iter().map(|f| f.keys).collect();
    assert!(footer_keys.contains(&"F1"), "{footer_keys:?}");
}
