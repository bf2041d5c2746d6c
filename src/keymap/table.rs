//! The bindings themselves, one line each: where, which keys, what it does, and what the footer
//! says (the help's key labels are derived from the keys). Order matters: it is the order of
//! the footer and of the help overlay, and within a context the first line whose key matches
//! wins (so a `Shift` line comes before the plain line of the same key).

use ratatui::crossterm::event::KeyCode as K;

use super::Key::{Alt, AltCode, Char, Code, Ctrl, CtrlCode, CtrlShift, Shift, Text};
use super::{Action as A, Binding, Ctx, Key, Motion as M};

const fn b(
    ctx: Ctx,
    keys: &'static [Key],
    action: A,
    footer: Option<(&'static str, &'static str)>,
) -> Binding {
    Binding {
        ctx,
        keys,
        action,
        footer,
    }
}

const DIGITS: &[Key] = &[
    Char('1'),
    Char('2'),
    Char('3'),
    Char('4'),
    Char('5'),
    Char('6'),
    Char('7'),
    Char('8'),
    Char('9'),
];
const NUMBER: &[Key] = &[
    Char('0'),
    Char('1'),
    Char('2'),
    Char('3'),
    Char('4'),
    Char('5'),
    Char('6'),
    Char('7'),
    Char('8'),
    Char('9'),
    Char('.'),
    Char(','),
    Char('-'),
    Char('+'),
    Char('e'),
    Char('E'),
];

use Ctx::{
    Always, Cards, Confirm, Editor as Ed, EditorDiff, EditorFind, Help, Lessons, Links, Main,
    Panel, Params, Picker, Prediction, QuitPrompt, Quiz,
};

/// Every binding of the app.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    // Ctrl-C arrives as a key in raw mode; it quits from anywhere but the editor (which copies).
    b(Always, &[Ctrl('c')], A::Quit, None),
    // Ctrl-Z too (raw mode takes the SIGTSTP): the event loop suspends; in the editor it undoes.
    b(Always, &[Ctrl('z')], A::Suspend, None),
    b(Cards, &[Code(K::Up), Char('k')], A::ScrollUp, None),
    b(Cards, &[Code(K::Down), Char('j')], A::ScrollDown, Some(("↑↓", "scroll"))),
    b(Cards, &[Code(K::PageUp)], A::PageUp, None),
    b(Cards, &[Code(K::PageDown), Char(' ')], A::PageDown, None),
    // Before Main's ←→ (which take Shift-← too): code is cut at the pane's edge, never wrapped.
    b(Cards, &[Shift(K::Left)], A::CodeLeft, None),
    b(Cards, &[Shift(K::Right)], A::CodeRight, Some(("Shift-←→", "code"))),
    b(Cards, &[Char('g'), Code(K::Home)], A::Top, None),
    b(Cards, &[Char('G'), Code(K::End)], A::Bottom, None),
    b(Quiz, &[Code(K::Up), Char('k')], A::OptionUp, None),
    b(Quiz, &[Code(K::Down), Char('j')], A::OptionDown, Some(("↑↓", "option"))),
    b(Quiz, &[Code(K::Enter)], A::Answer, Some(("Enter", "answer"))),
    b(Quiz, &[Char('n')], A::NextQuestion, Some(("n/p", "question"))),
    b(Quiz, &[Char('p')], A::PrevQuestion, None),
    b(Quiz, &[Char('a'), Char('b'), Char('c'), Char('d')], A::PickOption(0), Some(("a-d", "pick"))),
    b(Quiz, &[Char('N')], A::NextToReview, Some(("N", "review"))),
    b(Quiz, &[Code(K::PageUp)], A::PageUp, None),
    b(Quiz, &[Code(K::PageDown)], A::PageDown, None),
    // The prediction field takes the number; `r` still runs (it is not part of a number).
    b(Prediction, NUMBER, A::PredictionType('0'), Some(("0-9", "type"))),
    b(Prediction, &[Code(K::Backspace)], A::PredictionErase, None),
    b(Prediction, &[Code(K::Enter)], A::PredictionSubmit, Some(("Enter", "submit"))),
    b(Prediction, &[Code(K::Esc)], A::PredictionCancel, Some(("Esc", "cancel"))),
    b(Prediction, &[Char('r')], A::RunExperiment, Some(("r", "run"))),
    b(Lessons, &[Code(K::Up), Char('k')], A::ListUp, None),
    b(Lessons, &[Code(K::Down), Char('j')], A::ListDown, Some(("↑↓", "select"))),
    b(Lessons, &[Code(K::Enter)], A::OpenLesson, Some(("Enter", "open"))),
    b(Lessons, &[Char('x')], A::ResetLesson, Some(("x/X", "reset"))),
    b(Lessons, &[Char('X')], A::ResetAll, None),
    b(Panel, &[Code(K::Up), Char('k')], A::ScrollUp, None),
    b(Panel, &[Code(K::Down), Char('j')], A::ScrollDown, Some(("↑↓", "scroll"))),
    b(Panel, &[Code(K::PageUp)], A::PageUp, None),
    b(Panel, &[Code(K::PageDown)], A::PageDown, None),
    // First the keys a learner needs on every card (the footer drops from the end what does
    // not fit, keeping `keymap::FOOTER_FIRST` longest): cards, panes, the lesson's exercises.
    b(Main, &[Code(K::Left), Char('h')], A::PrevCard, None),
    b(Main, &[Code(K::Right), Char('l')], A::NextCard, Some(("←→", "card"))),
    b(Main, &[Code(K::Tab)], A::FocusNext, Some(("Tab", "pane"))),
    b(Main, &[Code(K::BackTab)], A::FocusPrev, None),
    b(Main, &[Char('w')], A::OpenEditor, Some(("w", "exercises"))),
    // Before the experiment keys: links are the only way to a URL wider than the card.
    b(Main, &[Char('u')], A::ToggleLinks, Some(("u", "links"))),
    b(Main, &[Char('r')], A::RunExperiment, Some(("r", "run"))),
    b(Main, &[Char('o')], A::OpenParams, Some(("o", "params"))),
    b(Main, &[Char('v')], A::ToggleView, Some(("v", "view"))),
    b(Main, &[Char('s')], A::SwitchExperiment, None),
    b(Main, &[Char('e')], A::ExportTrace, Some(("e", "export"))),
    b(Main, &[Char('c')], A::Compare, None),
    b(Main, &[Char('m')], A::LaneMode, None),
    b(Main, &[Char('+'), Char('=')], A::ZoomIn, Some(("+-<>[]", "timeline"))),
    b(Main, &[Char('-')], A::ZoomOut, None),
    b(Main, &[Char('<'), Char(',')], A::PanLeft, None),
    b(Main, &[Char('>'), Char('.')], A::PanRight, None),
    b(Main, &[Char('[')], A::SelectPrevOp, None),
    b(Main, &[Char(']')], A::SelectNextOp, None),
    b(Picker, &[Code(K::Up), Char('k')], A::PickerUp, None),
    b(Picker, &[Code(K::Down), Char('j')], A::PickerDown, Some(("↑↓", "select"))),
    b(Picker, &[Code(K::Enter)], A::PickerOpen, Some(("Enter", "open"))),
    b(Picker, &[Char('x')], A::PickerReset, Some(("x", "reset"))),
    b(Picker, &[Code(K::Esc)], A::PickerClose, Some(("Esc", "close"))),
    // After the pane's own keys: the "… more rows" note names it where it is needed.
    b(Main, &[Char('z')], A::ZoomPane, Some(("z", "zoom"))),
    b(Main, &[Char('L')], A::ToggleLessons, Some(("L", "lessons"))),
    // The editor's own actions are F-keys (and Alt-letters, for a terminal that takes the
    // F-keys), so that the Ctrl-letters are the desktop editor's (issue 28). The footer at 80
    // columns: check, hint, solution, leaving, scrolling the verdict.
    b(Ed, &[Code(K::F(5)), Alt('r')], A::EditorCheck, Some(("F5", "check"))),
    b(Ed, &[Code(K::F(6)), Alt('h')], A::EditorHint, Some(("F6", "hint"))),
    b(Ed, &[Code(K::F(7)), Alt('s')], A::EditorSolution, Some(("F7", "solution"))),
    b(Ed, &[Code(K::Esc)], A::EditorLeave, Some(("Esc", "leave"))),
    // Alt: plain arrows and PgUp/PgDn move in the code, and Alt with an arrow types nothing
    // (tmux and xterm send ESC [1;3A, which crossterm reports as Alt-Up).
    b(Ed, &[AltCode(K::Up)], A::VerdictUp, None),
    b(Ed, &[AltCode(K::Down)], A::VerdictDown, Some(("Alt-↑↓", "verdict"))),
    b(Ed, &[AltCode(K::PageUp)], A::VerdictPageUp, None),
    b(Ed, &[AltCode(K::PageDown)], A::VerdictPageDown, None),
    b(Ed, &[Ctrl('f')], A::EditFind, Some(("^F", "find"))),
    b(Ed, &[Code(K::F(8)), Alt('t')], A::EditorToggleTimeline, Some(("F8", "timeline"))),
    b(Ed, &[Code(K::F(9)), Alt('z')], A::EditorToggleZoom, None),
    b(Ed, &[Code(K::F(4)), Alt('e')], A::EditorExternal, Some(("F4", "$EDITOR"))),
    b(Ed, &[Alt('x')], A::EditorReset, None),
    // The editor's timeline: Alt with the panel's keys' neighbours (plain keys type; Alt-[
    // starts a terminal escape sequence, so op selection is on Alt-arrows).
    b(Ed, &[AltCode(K::Left)], A::EditorOpPrev, None),
    b(Ed, &[AltCode(K::Right)], A::EditorOpNext, None),
    b(Ed, &[Alt('='), Alt('+')], A::EditorZoomIn, None),
    b(Ed, &[Alt('-')], A::EditorZoomOut, None),
    b(Ed, &[Alt(',')], A::EditorPanLeft, None),
    b(Ed, &[Alt('.')], A::EditorPanRight, None),
    // The "file changed outside" prompt appears on its own, while the learner may be typing:
    // its answers are Alt keys, so no typed letter is taken as one (review 2026-12-01b ED5).
    b(Ed, &[Alt('k')], A::ConflictKeep, None),
    b(Ed, &[Alt('l')], A::ConflictLoad, None),
    b(Ed, &[Alt('c')], A::ConflictCompare, None),
    // The desktop editing keys, as micro and the code editors have them.
    b(Ed, &[Ctrl('z')], A::EditUndo, None),
    b(Ed, &[Ctrl('y'), Ctrl('Z')], A::EditRedo, None),
    b(Ed, &[Ctrl('x')], A::EditCut, None),
    b(Ed, &[Ctrl('c')], A::EditCopy, None),
    b(Ed, &[Ctrl('v')], A::EditPaste, None),
    b(Ed, &[Ctrl('a')], A::EditSelectAll, None),
    b(Ed, &[Ctrl('s')], A::EditSave, None),
    // Terminals send Ctrl-/ as 0x1F, which crossterm reads as Ctrl-7 (Ctrl-_ on some).
    b(Ed, &[Ctrl('/'), Ctrl('7'), Ctrl('_')], A::EditComment, None),
    b(Ed, &[Shift(K::Left)], A::Select(M::Left), None),
    b(Ed, &[Shift(K::Right)], A::Select(M::Right), None),
    b(Ed, &[Shift(K::Up)], A::Select(M::Up), None),
    b(Ed, &[Shift(K::Down)], A::Select(M::Down), None),
    b(Ed, &[CtrlShift(K::Left)], A::Select(M::WordLeft), None),
    b(Ed, &[CtrlShift(K::Right)], A::Select(M::WordRight), None),
    b(Ed, &[Shift(K::Home)], A::Select(M::LineStart), None),
    b(Ed, &[Shift(K::End)], A::Select(M::LineEnd), None),
    b(Ed, &[CtrlShift(K::Up)], A::Select(M::ParagraphUp), None),
    b(Ed, &[CtrlShift(K::Down)], A::Select(M::ParagraphDown), None),
    b(Ed, &[Shift(K::PageUp)], A::Select(M::PageUp), None),
    b(Ed, &[Shift(K::PageDown)], A::Select(M::PageDown), None),
    b(Ed, &[CtrlShift(K::Home)], A::Select(M::FileStart), None),
    b(Ed, &[CtrlShift(K::End)], A::Select(M::FileEnd), None),
    b(Ed, &[Code(K::Left)], A::Move(M::Left), None),
    b(Ed, &[Code(K::Right)], A::Move(M::Right), None),
    b(Ed, &[Code(K::Up)], A::Move(M::Up), None),
    b(Ed, &[Code(K::Down)], A::Move(M::Down), None),
    b(Ed, &[CtrlCode(K::Left)], A::Move(M::WordLeft), None),
    b(Ed, &[CtrlCode(K::Right)], A::Move(M::WordRight), None),
    b(Ed, &[Code(K::Home)], A::Move(M::LineStart), None),
    b(Ed, &[Code(K::End)], A::Move(M::LineEnd), None),
    b(Ed, &[CtrlCode(K::Up)], A::Move(M::ParagraphUp), None),
    b(Ed, &[CtrlCode(K::Down)], A::Move(M::ParagraphDown), None),
    b(Ed, &[Code(K::PageUp)], A::Move(M::PageUp), None),
    b(Ed, &[Code(K::PageDown)], A::Move(M::PageDown), None),
    b(Ed, &[CtrlCode(K::Home)], A::Move(M::FileStart), None),
    b(Ed, &[CtrlCode(K::End)], A::Move(M::FileEnd), None),
    b(Ed, &[Code(K::Enter)], A::EditNewline, None),
    b(Ed, &[Code(K::Tab)], A::EditIndent, None),
    b(Ed, &[Code(K::Backspace)], A::EditDeleteBack, None),
    b(Ed, &[Code(K::Delete)], A::EditDeleteForward, None),
    // Ctrl-Backspace reaches a program as Ctrl-H in most terminals.
    b(Ed, &[CtrlCode(K::Backspace), AltCode(K::Backspace), Ctrl('h'), Ctrl('w')], A::EditDeleteWordBack, None),
    b(Ed, &[CtrlCode(K::Delete), AltCode(K::Delete)], A::EditDeleteWordForward, None),
    // In the editor `?` types: F1 lists the keys, the editor's first.
    b(Ed, &[Code(K::F(1))], A::ToggleHelp, Some(("F1", "keys"))),
    // Ctrl-Q quits as in micro (saved first); Ctrl-C copies.
    b(Ed, &[Ctrl('q')], A::Quit, None),
    // Last: every other character is text (`?` included).
    b(Ed, &[Text], A::EditType(' '), None),
    b(EditorFind, &[Code(K::Enter), Code(K::Down), Code(K::F(3)), Ctrl('f')], A::FindNext, Some(("Enter", "next"))),
    b(EditorFind, &[Code(K::Up), Shift(K::F(3))], A::FindPrev, None),
    b(EditorFind, &[Code(K::Backspace)], A::FindErase, None),
    b(EditorFind, &[Code(K::Esc)], A::FindClose, Some(("Esc", "close"))),
    b(EditorFind, &[Text], A::FindType(' '), Some(("text", "search"))),
    b(EditorDiff, &[Alt('k')], A::ConflictKeep, Some(("Alt-K", "keep mine"))),
    b(EditorDiff, &[Alt('l')], A::ConflictLoad, Some(("Alt-L", "load theirs"))),
    b(EditorDiff, &[Alt('c')], A::ConflictCompare, None),
    b(EditorDiff, &[Code(K::Up)], A::DiffUp, None),
    b(EditorDiff, &[Code(K::Down)], A::DiffDown, Some(("↑↓", "scroll"))),
    b(EditorDiff, &[Code(K::PageUp)], A::DiffPageUp, None),
    b(EditorDiff, &[Code(K::PageDown)], A::DiffPageDown, None),
    b(EditorDiff, &[Code(K::Esc)], A::DiffClose, Some(("Esc", "close diff"))),
    b(QuitPrompt, &[Char('y'), Char('Y')], A::QuitYes, Some(("y", "quit anyway"))),
    b(QuitPrompt, &[Char('n'), Char('N'), Code(K::Esc)], A::QuitNo, Some(("n", "back"))),
    b(Main, DIGITS, A::JumpLesson(0), None),
    b(Main, &[Code(K::Esc)], A::Close, None),
    b(Main, &[Char('?'), Code(K::F(1))], A::ToggleHelp, Some(("?", "help"))),
    b(Main, &[Char('q')], A::Quit, Some(("q", "quit"))),
    b(Params, &[Code(K::Up)], A::FieldUp, None),
    b(Params, &[Code(K::Down)], A::FieldDown, Some(("↑↓", "field"))),
    b(Params, &[Code(K::Left)], A::ValueLess, None),
    b(Params, &[Code(K::Right)], A::ValueMore, Some(("←→", "value"))),
    b(Params, &[Code(K::Enter)], A::ParamsRun, Some(("Enter", "run"))),
    b(Params, &[Code(K::Esc)], A::ParamsClose, Some(("Esc", "close"))),
    b(Params, &[Code(K::Backspace)], A::ParamsErase, None),
    b(Params, &[Text], A::ParamsType(' '), None),
    b(Confirm, &[Char('y'), Char('Y'), Code(K::Enter)], A::ConfirmYes, Some(("y", "yes"))),
    b(Confirm, &[Char('n'), Char('N'), Code(K::Esc)], A::ConfirmNo, Some(("n", "no"))),
    b(Help, &[Code(K::Esc), Char('?'), Code(K::F(1))], A::ToggleHelp, Some(("Esc", "close"))),
    b(Help, &[Code(K::Up), Char('k')], A::ScrollUp, None),
    b(Help, &[Code(K::Down), Char('j')], A::ScrollDown, Some(("↑↓", "scroll"))),
    b(Help, &[Code(K::PageUp)], A::PageUp, None),
    b(Help, &[Code(K::PageDown), Char(' ')], A::PageDown, None),
    b(Help, &[Char('q')], A::Quit, Some(("q", "quit"))),
    b(Links, &[Code(K::Up), Char('k')], A::ListUp, None),
    b(Links, &[Code(K::Down), Char('j')], A::ListDown, Some(("↑↓", "select"))),
    b(Links, &[Code(K::Left), Char('h')], A::LinkScrollLeft, None),
    b(Links, &[Code(K::Right), Char('l')], A::LinkScrollRight, Some(("←→", "scroll URL"))),
    b(Links, &[Code(K::Enter)], A::LinkOpen, Some(("Enter", "open"))),
    b(Links, &[Char('y')], A::LinkCopy, Some(("y", "copy"))),
    b(Links, &[Code(K::Esc), Char('u')], A::ToggleLinks, Some(("Esc", "close"))),
    b(Links, &[Char('q')], A::Quit, Some(("q", "quit"))),
];
