//! The bindings themselves. Order matters: it is the order of the footer and the help overlay.

use ratatui::crossterm::event::KeyCode;

use super::{Action, Binding, Ctx, Key};

const fn b(
    ctx: Ctx,
    keys: &'static [Key],
    label: &'static str,
    action: Action,
    footer: Option<(&'static str, &'static str)>,
) -> Binding {
    Binding {
        ctx,
        keys,
        label,
        action,
        footer,
    }
}

const DIGITS: &[Key] = &[
    Key::Char('1'),
    Key::Char('2'),
    Key::Char('3'),
    Key::Char('4'),
    Key::Char('5'),
    Key::Char('6'),
    Key::Char('7'),
    Key::Char('8'),
    Key::Char('9'),
];

use Action as A;
use Ctx as C;
use KeyCode as K;

/// Every binding of the app.
pub const BINDINGS: &[Binding] = &[
    // Ctrl-C arrives as a key in raw mode; it quits from anywhere, dialogs and input included.
    b(C::Always, &[Key::Ctrl('c')], "Ctrl-C", A::Quit, None),
    b(
        C::Cards,
        &[Key::Code(K::Up), Key::Char('k')],
        "↑ k",
        A::ScrollUp,
        None,
    ),
    b(
        C::Cards,
        &[Key::Code(K::Down), Key::Char('j')],
        "↓ j",
        A::ScrollDown,
        Some(("↑↓", "scroll")),
    ),
    b(C::Cards, &[Key::Code(K::PageUp)], "PgUp", A::PageUp, None),
    b(
        C::Cards,
        &[Key::Code(K::PageDown), Key::Char(' ')],
        "PgDn Space",
        A::PageDown,
        None,
    ),
    b(
        C::Cards,
        &[Key::Char('g'), Key::Code(K::Home)],
        "g Home",
        A::Top,
        None,
    ),
    b(
        C::Cards,
        &[Key::Char('G'), Key::Code(K::End)],
        "G End",
        A::Bottom,
        None,
    ),
    b(
        C::Quiz,
        &[Key::Code(K::Up), Key::Char('k')],
        "↑ k",
        A::OptionUp,
        None,
    ),
    b(
        C::Quiz,
        &[Key::Code(K::Down), Key::Char('j')],
        "↓ j",
        A::OptionDown,
        Some(("↑↓", "option")),
    ),
    b(
        C::Quiz,
        &[Key::Code(K::Enter)],
        "Enter",
        A::Answer,
        Some(("Enter", "answer")),
    ),
    b(
        C::Quiz,
        &[Key::Char('n')],
        "n",
        A::NextQuestion,
        Some(("n/p", "question")),
    ),
    b(C::Quiz, &[Key::Char('p')], "p", A::PrevQuestion, None),
    b(C::Quiz, &[Key::Code(K::PageUp)], "PgUp", A::PageUp, None),
    b(
        C::Quiz,
        &[Key::Code(K::PageDown)],
        "PgDn",
        A::PageDown,
        None,
    ),
    b(
        C::Lessons,
        &[Key::Code(K::Up), Key::Char('k')],
        "↑ k",
        A::ListUp,
        None,
    ),
    b(
        C::Lessons,
        &[Key::Code(K::Down), Key::Char('j')],
        "↓ j",
        A::ListDown,
        Some(("↑↓", "select")),
    ),
    b(
        C::Lessons,
        &[Key::Code(K::Enter)],
        "Enter",
        A::OpenLesson,
        Some(("Enter", "open")),
    ),
    b(
        C::Lessons,
        &[Key::Char('x')],
        "x",
        A::ResetLesson,
        Some(("x/X", "reset")),
    ),
    b(C::Lessons, &[Key::Char('X')], "X", A::ResetAll, None),
    b(
        C::Main,
        &[Key::Code(K::Left), Key::Char('h')],
        "← h",
        A::PrevCard,
        None,
    ),
    b(
        C::Main,
        &[Key::Code(K::Right), Key::Char('l')],
        "→ l",
        A::NextCard,
        Some(("←→", "card")),
    ),
    b(
        C::Main,
        &[Key::Code(K::Tab)],
        "Tab",
        A::FocusNext,
        Some(("Tab", "pane")),
    ),
    b(
        C::Main,
        &[Key::Code(K::BackTab)],
        "Shift-Tab",
        A::FocusPrev,
        None,
    ),
    b(
        C::Main,
        &[Key::Char('L')],
        "L",
        A::ToggleLessons,
        Some(("L", "lessons")),
    ),
    b(C::Main, DIGITS, "1-9", A::JumpLesson(0), None),
    b(C::Main, &[Key::Code(K::Esc)], "Esc", A::Close, None),
    b(
        C::Main,
        &[Key::Char('?')],
        "?",
        A::ToggleHelp,
        Some(("?", "help")),
    ),
    b(
        C::Main,
        &[Key::Char('q')],
        "q",
        A::Quit,
        Some(("q", "quit")),
    ),
    b(
        C::Confirm,
        &[Key::Char('y'), Key::Char('Y'), Key::Code(K::Enter)],
        "y Enter",
        A::ConfirmYes,
        Some(("y", "yes")),
    ),
    b(
        C::Confirm,
        &[Key::Char('n'), Key::Char('N'), Key::Code(K::Esc)],
        "n Esc",
        A::ConfirmNo,
        Some(("n", "no")),
    ),
    b(
        C::Help,
        &[Key::Code(K::Esc), Key::Char('?')],
        "Esc ?",
        A::ToggleHelp,
        Some(("Esc", "close")),
    ),
    b(
        C::Help,
        &[Key::Code(K::Up), Key::Char('k')],
        "↑ k",
        A::ScrollUp,
        None,
    ),
    b(
        C::Help,
        &[Key::Code(K::Down), Key::Char('j')],
        "↓ j",
        A::ScrollDown,
        Some(("↑↓", "scroll")),
    ),
    b(C::Help, &[Key::Code(K::PageUp)], "PgUp", A::PageUp, None),
    b(
        C::Help,
        &[Key::Code(K::PageDown), Key::Char(' ')],
        "PgDn",
        A::PageDown,
        None,
    ),
    b(
        C::Help,
        &[Key::Char('q')],
        "q",
        A::Quit,
        Some(("q", "quit")),
    ),
];
