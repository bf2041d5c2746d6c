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
    // In the editor and its prompts Ctrl-C copies: it never leaves the program (issue 28).
    assert_eq!(lookup(Ctx::Editor, &ctrl_c), Some(Action::EditCopy));
    for ctx in [Ctx::EditorFind, Ctx::EditorDiff, Ctx::QuitPrompt] {
        assert_eq!(lookup(ctx, &ctrl_c), None, "{ctx:?}");
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
    // The links overlay's footer lists its keys (test below); so does the tutor pane's, which
    // stays out of the help until a tutor is configured (issue 31: one line, `t`).
    for binding in BINDINGS
        .iter()
        .filter(|b| !matches!(b.ctx, Ctx::Links | Ctx::Tutor))
    {
        assert!(
            listed.contains(&binding.action.help_text().0),
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
        let label = binding.label();
        let first = label.split(' ').next().unwrap_or_default();
        let named = keys.iter().any(|k| k.contains(first) || first.contains(k));
        let pair = matches!(binding.action, Action::LinkUp | Action::LinkScrollLeft);
        assert!(
            named || pair,
            "{:?} ({}) not in the footer",
            binding.action,
            label
        );
    }
    assert!(
        help_sections(4)[0]
            .1
            .iter()
            .any(|(k, name, _)| k == "u" && *name == "links")
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
        (KeyCode::Up, Action::VerdictUp),
        (KeyCode::Down, Action::VerdictDown),
        (KeyCode::PageUp, Action::VerdictPageUp),
        (KeyCode::PageDown, Action::VerdictPageDown),
    ];
    for (code, action) in cases {
        assert_eq!(lookup(Ctx::Editor, &alt(code)), Some(action), "{code:?}");
        // Without Alt the key moves in the code.
        let plain = lookup(Ctx::Editor, &key(code));
        assert!(
            matches!(plain, Some(Action::Move(_))),
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
            .map(|(keys, _, _)| keys.clone())
    };
    assert_eq!(row(4).as_deref(), Some("1-4"));
    assert_eq!(row(1).as_deref(), Some("1"));
    assert_eq!(row(12).as_deref(), Some("1-9"));
}

#[test]
fn the_editor_timeline_keys_do_not_type_and_the_hint_names_them() {
    let alt = |code| KeyEvent::new(code, KeyModifiers::ALT);
    assert_eq!(
        lookup(Ctx::Editor, &alt(KeyCode::Left)),
        Some(Action::EditorOpPrev)
    );
    assert_eq!(
        lookup(Ctx::Editor, &alt(KeyCode::Right)),
        Some(Action::EditorOpNext)
    );
    assert_eq!(
        lookup(Ctx::Editor, &alt(KeyCode::Char('-'))),
        Some(Action::EditorZoomOut)
    );
    assert_eq!(
        lookup(Ctx::Editor, &alt(KeyCode::Char('='))),
        Some(Action::EditorZoomIn)
    );
    assert_eq!(
        lookup(Ctx::Editor, &alt(KeyCode::Char(','))),
        Some(Action::EditorPanLeft)
    );
    // The panel's plain keys are text in the editor.
    for c in ['[', ']', '+', '-', '<', '>'] {
        let typed = lookup(Ctx::Editor, &key(KeyCode::Char(c)));
        assert_eq!(typed, Some(Action::EditType(c)), "{c}");
    }
    assert_eq!(
        editor_timeline_hint(),
        "Alt-←/→ op  Alt-=/- zoom  Alt-,/. pan"
    );
}

#[test]
fn the_editor_has_the_desktop_keys_and_the_help_lists_them() {
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
        "cut",
        "copy",
        "paste",
        "select all",
        "save",
        "find",
        "comment",
        "new line",
        "page",
        "top / bottom",
        "select",
        "check",
        "hint",
        "solution",
        "timeline: zoom",
        "keep mine",
    ] {
        assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
    }
    let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    for (c, action) in [
        ('z', Action::EditUndo),
        ('y', Action::EditRedo),
        ('x', Action::EditCut),
        ('c', Action::EditCopy),
        ('v', Action::EditPaste),
        ('a', Action::EditSelectAll),
        ('s', Action::EditSave),
        ('f', Action::EditFind),
        ('/', Action::EditComment),
        ('7', Action::EditComment),
    ] {
        assert_eq!(lookup(Ctx::Editor, &ctrl(c)), Some(action), "Ctrl-{c}");
    }
    let with = |code, mods| KeyEvent::new(code, mods);
    let shift = KeyModifiers::SHIFT;
    let ctrl_mod = KeyModifiers::CONTROL;
    for (ev, action) in [
        (
            with(KeyCode::Home, KeyModifiers::NONE),
            Action::Move(Motion::LineStart),
        ),
        (with(KeyCode::End, shift), Action::Select(Motion::LineEnd)),
        (
            with(KeyCode::PageDown, KeyModifiers::NONE),
            Action::Move(Motion::PageDown),
        ),
        (with(KeyCode::PageUp, shift), Action::Select(Motion::PageUp)),
        (with(KeyCode::End, ctrl_mod), Action::Move(Motion::FileEnd)),
        (
            with(KeyCode::Home, ctrl_mod | shift),
            Action::Select(Motion::FileStart),
        ),
        (with(KeyCode::Left, shift), Action::Select(Motion::Left)),
        (
            with(KeyCode::Right, ctrl_mod | shift),
            Action::Select(Motion::WordRight),
        ),
        (with(KeyCode::F(5), KeyModifiers::NONE), Action::EditorCheck),
        (
            with(KeyCode::Char('r'), KeyModifiers::ALT),
            Action::EditorCheck,
        ),
        (with(KeyCode::F(6), KeyModifiers::NONE), Action::EditorHint),
        (
            with(KeyCode::F(7), KeyModifiers::NONE),
            Action::EditorSolution,
        ),
        (
            with(KeyCode::F(4), KeyModifiers::NONE),
            Action::EditorExternal,
        ),
        (with(KeyCode::Char('Q'), shift), Action::EditType('Q')),
    ] {
        assert_eq!(lookup(Ctx::Editor, &ev), Some(action), "{ev:?}");
    }
    // The footer names the app's own actions on their new keys.
    let footer_keys: Vec<&str> = footer(Ctx::Editor).iter().map(|f| f.keys).collect();
    for k in ["F5", "F6", "F7", "Esc", "F4", "F1"] {
        assert!(footer_keys.contains(&k), "{k} not in {footer_keys:?}");
    }
}

#[test]
fn ctrl_z_suspends_outside_the_editor_and_undoes_in_it() {
    let ctrl_z = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
    for ctx in [Ctx::Cards, Ctx::Help, Ctx::Picker, Ctx::Prediction] {
        assert_eq!(lookup(ctx, &ctrl_z), Some(Action::Suspend), "{ctx:?}");
    }
    assert_eq!(lookup(Ctx::Editor, &ctrl_z), Some(Action::EditUndo));
    let listed = help_sections(4)[0]
        .1
        .iter()
        .any(|(k, name, _)| k == "Ctrl-Z" && *name == "suspend");
    assert!(listed, "Ctrl-Z is in the help");
}

#[test]
fn the_prompts_keys_are_lines_of_the_table() {
    let alt = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::ALT);
    assert_eq!(lookup(Ctx::Editor, &alt('k')), Some(Action::ConflictKeep));
    assert_eq!(
        lookup(Ctx::EditorDiff, &alt('l')),
        Some(Action::ConflictLoad)
    );
    assert_eq!(
        lookup(Ctx::EditorDiff, &key(KeyCode::PageDown)),
        Some(Action::DiffPageDown)
    );
    assert_eq!(
        lookup(Ctx::EditorDiff, &key(KeyCode::Char('x'))),
        None,
        "the diff types nothing"
    );
    assert_eq!(
        lookup(Ctx::QuitPrompt, &key(KeyCode::Char('y'))),
        Some(Action::QuitYes)
    );
    assert_eq!(
        lookup(Ctx::Prediction, &key(KeyCode::Char('3'))),
        Some(Action::PredictionType('3'))
    );
    assert_eq!(lookup(Ctx::Prediction, &key(KeyCode::Char('x'))), None);
    assert_eq!(
        lookup(Ctx::EditorFind, &key(KeyCode::Char('q'))),
        Some(Action::FindType('q'))
    );
    let titles: Vec<&str> = help_sections(4).iter().map(|(t, _)| *t).collect();
    for ctx in [
        Ctx::Prediction,
        Ctx::EditorFind,
        Ctx::EditorDiff,
        Ctx::QuitPrompt,
    ] {
        assert!(titles.contains(&ctx.title()), "{ctx:?} has no section");
    }
}

#[test]
fn f1_lists_the_keys_in_the_editor_where_question_mark_types() {
    // `?` is text in the editor; F1 opens the help there and everywhere else.
    assert_eq!(
        lookup(Ctx::Editor, &key(KeyCode::Char('?'))),
        Some(Action::EditType('?'))
    );
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

/// The key events a footer label names: `↑↓`, `+-<>[]`, `n/p`, `a-d`, `Alt-↑↓`, `Shift-←→`,
/// `^F`, `Alt-K`, `F5`, `Enter`, `text` (any character typed).
fn named_keys(label: &str) -> Vec<KeyEvent> {
    use KeyCode as C;
    let named = match label {
        "Enter" => Some(C::Enter),
        "Esc" => Some(C::Esc),
        "Tab" => Some(C::Tab),
        "Bksp" => Some(C::Backspace),
        "PgUp" => Some(C::PageUp),
        "PgDn" => Some(C::PageDown),
        "Home" => Some(C::Home),
        "End" => Some(C::End),
        "Space" => Some(C::Char(' ')),
        "text" => Some(C::Char('x')),
        f => f
            .strip_prefix('F')
            .and_then(|n| n.parse::<u8>().ok())
            .map(C::F),
    };
    if let Some(code) = named {
        return vec![key(code)];
    }
    if label.chars().count() > 1 && label.contains('/') {
        return label.split('/').flat_map(named_keys).collect();
    }
    let modifiers = [
        ("Alt-", KeyModifiers::ALT),
        ("Ctrl-", KeyModifiers::CONTROL),
        ("^", KeyModifiers::CONTROL),
        ("Shift-", KeyModifiers::SHIFT),
    ];
    for (prefix, held) in modifiers {
        if let Some(rest) = label.strip_prefix(prefix) {
            return named_keys(rest)
                .into_iter()
                .map(|k| {
                    // `Alt-K` is Alt with the k key; Shift keeps what it shifts.
                    let code = match k.code {
                        C::Char(c) if held != KeyModifiers::SHIFT => {
                            C::Char(c.to_ascii_lowercase())
                        }
                        code => code,
                    };
                    KeyEvent::new(code, k.modifiers | held)
                })
                .collect();
        }
    }
    let chars: Vec<char> = label.chars().collect();
    if let [a, '-', b] = chars[..] {
        return (a..=b).map(|c| key(C::Char(c))).collect();
    }
    chars
        .into_iter()
        .map(|c| match c {
            '↑' => key(C::Up),
            '↓' => key(C::Down),
            '←' => key(C::Left),
            '→' => key(C::Right),
            c => key(C::Char(c)),
        })
        .collect()
}

/// The actions a footer entry stands for: its row and the rows around it in its context that
/// have no footer entry of their own (`↑↓ scroll` is on the Down row and names Up too).
fn footer_group(entry: &FooterKey) -> Vec<Action> {
    let Some(at) = BINDINGS
        .iter()
        .position(|b| b.action == entry.action && b.footer == Some((entry.keys, entry.text)))
    else {
        return Vec::new();
    };
    let ctx = BINDINGS[at].ctx;
    let quiet = |b: &&Binding| b.ctx == ctx && b.footer.is_none();
    let before = BINDINGS[..at].iter().rev().take_while(quiet);
    let after = BINDINGS[at + 1..].iter().take_while(quiet);
    before
        .chain(after)
        .map(|b| b.action)
        .chain([entry.action])
        .collect()
}

#[test]
fn every_footer_names_only_keys_that_do_what_it_says_there() {
    use std::mem::discriminant;
    let contexts = [
        Ctx::Cards,
        Ctx::Quiz,
        Ctx::Prediction,
        Ctx::Lessons,
        Ctx::Panel,
        Ctx::Params,
        Ctx::Help,
        Ctx::Confirm,
        Ctx::Editor,
        Ctx::EditorFind,
        Ctx::EditorDiff,
        Ctx::QuitPrompt,
        Ctx::Links,
        Ctx::Picker,
    ];
    let mut checked = 0;
    for ctx in contexts {
        for entry in footer(ctx) {
            let group = footer_group(&entry);
            let keys = named_keys(entry.keys);
            assert!(!keys.is_empty(), "{ctx:?}: {:?} names no key", entry.keys);
            for ev in keys {
                let does = lookup(ctx, &ev);
                assert!(
                    does.is_some_and(|a| group.iter().any(|g| discriminant(g) == discriminant(&a))),
                    "{ctx:?}: the footer says `{} {}`, but {:?} {:?} does {does:?}",
                    entry.keys,
                    entry.text,
                    ev.modifiers,
                    ev.code,
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 60, "{checked} keys checked");
    // A label that names a key bound to something else is caught.
    let wrong = FooterKey {
        action: Action::ScrollDown,
        keys: "←→",
        text: "scroll",
    };
    assert!(
        named_keys(wrong.keys)
            .iter()
            .all(|ev| lookup(Ctx::Cards, ev) != Some(Action::ScrollDown))
    );
}
