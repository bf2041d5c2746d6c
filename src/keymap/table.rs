//! The key table, one line a binding (as helix's `static_commands!` has one line a command):
//! where, which keys, the action, what the footer says, and, on the first line of an action, its
//! name and description for the help and the route to the sub-state that carries it out. The
//! help's key labels are derived from the keys. Order matters: it is the order of the footer and
//! of the help overlay, and within a context the first line whose key matches wins (so a `Shift`
//! line comes before the plain line of the same key).
//!
//! The table is an x-macro, `bindings!`: it hands its lines to the macro it is given. Here
//! `define_actions!` (`action.rs`) makes [`Action`], its help text and [`BINDINGS`] of them
//! (the route is left out); in `app::dispatch::route` the app's macro makes `route` of them (the
//! keys are left out). The route's words are names of the app's sub-state actions, resolved only
//! where `app` expands them: this module names no `app` item and does not depend on it.
//!
//! A line: `Ctx [keys] Action(value)? footer("keys", "text")?: "name", "description"(, field:
//! Type)? => route;`. The part from `:` on is written once, on the action's first line;
//! a later line of the same action (another context, other keys) ends after the footer. An
//! action with a field (the digit, the letter, the character typed, the motion) names it and
//! its type, and the route uses the name; the line's value is a placeholder that `lookup`
//! fills in from the key pressed, or the motion itself.

use ratatui::crossterm::event::KeyCode as K;

use super::Key::{Alt, AltCode, Char, Code, Ctrl, CtrlCode, CtrlShift, Shift, Text};
use super::action::define_actions;
use super::{Binding, Ctx, Key, Motion, Motion as M};

const DIGITS: [Key; 9] = [
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
const NUMBER: [Key; 16] = [
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
    Panel, Params, Picker, Prediction, QuitPrompt, Quiz, Trace, Tutor,
};

/// Every binding of the app, handed to `$then!` (see the module's doc for a line's parts).
macro_rules! bindings {
    ($then:ident) => {
        $then! {
        // Ctrl-C arrives as a key in raw mode; it quits from anywhere but the editor (which copies).
        Always [Ctrl('c')] Quit: "quit", "save progress and leave" => App(Action::Quit);
        // Ctrl-Z too (raw mode takes the SIGTSTP): the event loop suspends; in the editor it undoes.
        Always [Ctrl('z')] Suspend: "suspend", "stop like any program; fg resumes (saved first)" => App(Action::Suspend);
        Cards [Code(K::Up), Char('k')] ScrollUp: "scroll up", "scroll the pane a line" => App(Action::ScrollUp);
        Cards [Code(K::Down), Char('j')] ScrollDown footer("↑↓", "scroll"): "scroll down", "scroll the pane a line" => App(Action::ScrollDown);
        Cards [Code(K::PageUp)] PageUp: "page up", "scroll the pane a page" => App(Action::PageUp);
        Cards [Code(K::PageDown), Char(' ')] PageDown: "page down", "scroll the pane a page" => App(Action::PageDown);
        // Before Main's ←→ (which take Shift-← too): code is cut at the pane's edge, never wrapped.
        Cards [Shift(K::Left)] CodeLeft: "scroll code", "sideways: the rest of code cut at » (« back)" => App(Action::CodeLeft);
        Cards [Shift(K::Right)] CodeRight footer("Shift-←→", "code"): "scroll code", "sideways: the rest of code cut at » (« back)" => App(Action::CodeRight);
        Cards [Char('g'), Code(K::Home)] Top: "top", "scroll to the start or end" => App(Action::Top);
        Cards [Char('G'), Code(K::End)] Bottom: "bottom", "scroll to the start or end" => App(Action::Bottom);
        Quiz [Code(K::Up), Char('k')] OptionUp: "previous option", "move the › cursor" => Quiz(QuizAction::MoveOption(-1));
        Quiz [Code(K::Down), Char('j')] OptionDown footer("↑↓", "option"): "next option", "move the › cursor" => Quiz(QuizAction::MoveOption(1));
        Quiz [Code(K::Enter)] Answer footer("Enter", "answer"): "answer", "answer (the first is scored); again: practice" => Quiz(QuizAction::Answer);
        Quiz [Char('n')] NextQuestion footer("n/p", "question"): "next question", "move among the lesson's questions" => Quiz(QuizAction::MoveQuestion(1));
        Quiz [Char('p')] PrevQuestion: "previous question", "move among the lesson's questions" => Quiz(QuizAction::MoveQuestion(-1));
        Quiz [Char('a'), Char('b'), Char('c'), Char('d')] PickOption(0) footer("a-d", "pick"): "pick option", "answer with that option (practice once answered)", n: u8 => Quiz(QuizAction::Pick(usize::from(n)));
        Quiz [Char('N')] NextToReview footer("N", "review"): "next to review", "the next question missed or not answered yet" => Quiz(QuizAction::NextToReview);
        Quiz [Code(K::PageUp)] PageUp;
        Quiz [Code(K::PageDown)] PageDown;
        // The prediction field takes the number; `r` still runs (it is not part of a number).
        Prediction NUMBER PredictionType('0') footer("0-9", "type"): "type", "the predicted number (digits, . , e - +)", c: char => Quiz(QuizAction::Input(PredictionKey::Type(c)));
        Prediction [Code(K::Backspace)] PredictionErase: "erase", "the last character" => Quiz(QuizAction::Input(PredictionKey::Erase));
        Prediction [Code(K::Enter)] PredictionSubmit footer("Enter", "submit"): "submit", "grade the prediction" => Quiz(QuizAction::Input(PredictionKey::Submit));
        Prediction [Code(K::Esc)] PredictionCancel footer("Esc", "cancel"): "cancel", "close the field" => Quiz(QuizAction::Input(PredictionKey::Cancel));
        Prediction [Char('r')] RunExperiment footer("r", "run"): "run experiment", "run the lesson's experiment (on the worker)" => App(Action::RunExperiment);
        Lessons [Code(K::Up), Char('k')] ListUp: "select previous", "move the selection" => Nav(NavAction::MoveSelection(-1));
        Lessons [Code(K::Down), Char('j')] ListDown footer("↑↓", "select"): "select next", "move the selection" => Nav(NavAction::MoveSelection(1));
        Lessons [Code(K::Enter)] OpenLesson footer("Enter", "open"): "open lesson", "open the selected lesson" => Nav(NavAction::OpenSelected);
        Lessons [Char('x')] ResetLesson footer("x/X", "reset"): "reset lesson", "clear this lesson's progress (asks)" => App(Action::ResetLesson);
        Lessons [Char('X')] ResetAll: "reset everything", "clear all progress (asks first)" => Overlay(OverlayAction::AskReset(Reset::All));
        Panel [Code(K::Up), Char('k')] ScrollUp;
        Panel [Code(K::Down), Char('j')] ScrollDown footer("↑↓", "scroll");
        Panel [Code(K::PageUp)] PageUp;
        Panel [Code(K::PageDown)] PageDown;
        // First the keys a learner needs on every card (the footer drops from the end what does
        // not fit, keeping `keymap::FOOTER_FIRST` longest): cards, panes, the lesson's exercises.
        Main [Code(K::Left), Char('h')] PrevCard: "previous card", "back, into the previous lesson" => Nav(NavAction::PrevCard);
        Main [Code(K::Right), Char('l')] NextCard footer("←→", "card"): "next card", "on, into the next lesson at the end" => Nav(NavAction::NextCard);
        Main [Code(K::Tab)] FocusNext footer("Tab", "pane"): "next pane", "cards → quiz → experiment → lessons" => Nav(NavAction::CycleFocus { forward: true });
        Main [Code(K::BackTab)] FocusPrev: "previous pane", "the other way round" => Nav(NavAction::CycleFocus { forward: false });
        Main [Char('w')] OpenEditor footer("w", "exercises"): "exercises", "list the lesson's exercises, to open one" => Editor(EditorAction::OpenList);
        // Before the experiment keys: links are the only way to a URL wider than the card.
        Main [Char('u')] ToggleLinks footer("u", "links"): "links", "list the card's links [n]: open, copy, read whole" => Overlay(OverlayAction::ToggleLinks);
        Main [Char('r')] RunExperiment footer("r", "run");
        Main [Char('o')] OpenParams footer("o", "params"): "parameters", "size, streams, chunks, memory, order" => App(Action::OpenParams);
        Main [Char('v')] ToggleView footer("v", "view"): "panel view", "timeline → results → chart" => Panel(PanelAction::ToggleView);
        Main [Char('s')] SwitchExperiment: "switch experiment", "the lesson's other experiment" => Panel(PanelAction::SwitchExperiment);
        Main [Char('e')] ExportTrace footer("e", "export"): "export trace", "write the last run as Chrome trace JSON" => App(Action::ExportTrace);
        Main [Char('c')] Compare: "compare with", "previous run / baseline / none" => Panel(PanelAction::Compare);
        Main [Char('m')] LaneMode: "lane mode", "streams → copy engines → both" => Panel(PanelAction::LaneMode);
        Main [Char('+'), Char('=')] ZoomIn footer("+-<>[]", "timeline"): "zoom in", "zoom the timeline" => Panel(PanelAction::Timeline(TimelineAction::ZoomIn));
        Main [Char('-')] ZoomOut: "zoom out", "zoom the timeline" => Panel(PanelAction::Timeline(TimelineAction::ZoomOut));
        Main [Char('<'), Char(',')] PanLeft: "pan left", "move the timeline window" => Panel(PanelAction::Timeline(TimelineAction::PanLeft));
        Main [Char('>'), Char('.')] PanRight: "pan right", "move the timeline window" => Panel(PanelAction::Timeline(TimelineAction::PanRight));
        Main [Char('[')] SelectPrevOp: "previous op", "select an op, show its details" => Panel(PanelAction::Timeline(TimelineAction::SelectPrev));
        Main [Char(']')] SelectNextOp: "next op", "select an op, show its details" => Panel(PanelAction::Timeline(TimelineAction::SelectNext));
        Picker [Code(K::Up), Char('k')] PickerUp: "select", "move the selection" => Editor(EditorAction::ListMove(-1));
        Picker [Code(K::Down), Char('j')] PickerDown footer("↑↓", "select"): "select", "move the selection" => Editor(EditorAction::ListMove(1));
        Picker [Code(K::Enter)] PickerOpen footer("Enter", "open"): "open exercise", "open the selected one in the editor" => Editor(EditorAction::ListOpen);
        Picker [Char('x')] PickerReset footer("x", "reset"): "reset exercise", "put its starter back (asks first)" => Editor(EditorAction::ListReset);
        Picker [Code(K::Esc)] PickerClose footer("Esc", "close"): "close list", "back to the lesson" => Editor(EditorAction::ListClose);
        // After the pane's own keys: the "… more rows" note names it where it is needed.
        Main [Char('z')] ZoomPane footer("z", "zoom"): "zoom", "the focused pane fills the screen; z again: all panes" => Nav(NavAction::ToggleZoom);
        Main [Char('L')] ToggleLessons footer("L", "lessons"): "lesson list", "lessons with completion and scores" => Nav(NavAction::ToggleLessons);
        // The tutor (issue 31): its footer entries show only once one is configured (ui/footer).
        Main [Char('t'), Code(K::F(2))] TutorOpen footer("t", "tutor"): "tutor", "ask your local model about this (README: The tutor)" => Tutor(TutorAction::Open);
        // The editor's own actions are F-keys (and Alt-letters, for a terminal that takes the
        // F-keys), so that the Ctrl-letters are the desktop editor's (issue 28). The footer at 80
        // columns: check, hint, solution, leaving, scrolling the verdict.
        Ed [Code(K::F(5)), Alt('r')] EditorCheck footer("F5", "check"): "check", "save, run and check the file" => Editor(EditorAction::Check);
        Ed [Code(K::F(6)), Alt('h')] EditorHint footer("F6", "hint"): "hint", "show the next hint" => Editor(EditorAction::Hint);
        Ed [Code(K::F(7)), Alt('s')] EditorSolution footer("F7", "solution"): "solution", "show the solution (after a pass or 3 fails)" => Editor(EditorAction::Solution);
        Ed [Code(K::Esc)] EditorLeave footer("Esc", "leave"): "leave editor", "cancel a check; else save and leave" => Editor(EditorAction::Leave);
        // Alt: plain arrows and PgUp/PgDn move in the code, and Alt with an arrow types nothing
        // (tmux and xterm send ESC [1;3A, which crossterm reports as Alt-Up).
        Ed [AltCode(K::Up)] VerdictUp: "scroll verdict", "verdict, hints, solution a line (or mouse wheel)" => Editor(verdict(-1, false));
        Ed [AltCode(K::Down)] VerdictDown footer("Alt-↑↓", "verdict"): "scroll verdict", "verdict, hints, solution a line (or mouse wheel)" => Editor(verdict(1, false));
        Ed [AltCode(K::PageUp)] VerdictPageUp: "page verdict", "verdict, hints, solution a page" => Editor(verdict(-1, true));
        Ed [AltCode(K::PageDown)] VerdictPageDown: "page verdict", "verdict, hints, solution a page" => Editor(verdict(1, true));
        Ed [Ctrl('f')] EditFind footer("^F", "find"): "find", "search the code: type, Enter next, Esc close" => edit(EditOp::Find(FindOp::Open));
        Ed [Code(K::F(8)), Alt('t')] EditorToggleTimeline footer("F8", "timeline"): "timeline / verdict", "the timeline or the verdict (narrow)" => Editor(EditorAction::ToggleTimeline);
        Ed [Code(K::F(9)), Alt('z')] EditorToggleZoom: "zoom verdict", "the verdict / timeline takes the rows (narrow); again: back" => Editor(EditorAction::ToggleZoom);
        Ed [Code(K::F(4)), Alt('e')] EditorExternal footer("F4", "$EDITOR"): "own editor", "open the file in $VISUAL / $EDITOR" => Editor(EditorAction::External);
        Ed [Alt('x')] EditorReset: "reset exercise", "put the starter back (asks first)" => Editor(EditorAction::Reset);
        Ed [Code(K::F(2)), Alt('a')] TutorOpen footer("F2", "tutor");
        // The editor's timeline: Alt with the panel's keys' neighbours (plain keys type; Alt-[
        // starts a terminal escape sequence, so op selection is on Alt-arrows).
        Ed [AltCode(K::Left)] EditorOpPrev: "timeline: op", "select the previous / next op, show its details" => Editor(EditorAction::Timeline(TimelineAction::SelectPrev));
        Ed [AltCode(K::Right)] EditorOpNext: "timeline: op", "select the previous / next op, show its details" => Editor(EditorAction::Timeline(TimelineAction::SelectNext));
        Ed [Alt('='), Alt('+')] EditorZoomIn: "timeline: zoom", "zoom the timeline in / out" => Editor(EditorAction::Timeline(TimelineAction::ZoomIn));
        Ed [Alt('-')] EditorZoomOut: "timeline: zoom", "zoom the timeline in / out" => Editor(EditorAction::Timeline(TimelineAction::ZoomOut));
        Ed [Alt(',')] EditorPanLeft: "timeline: pan", "move the timeline window left / right" => Editor(EditorAction::Timeline(TimelineAction::PanLeft));
        Ed [Alt('.')] EditorPanRight: "timeline: pan", "move the timeline window left / right" => Editor(EditorAction::Timeline(TimelineAction::PanRight));
        // The "file changed outside" prompt appears on its own, while the learner may be typing:
        // its answers are Alt keys, so no typed letter is taken as one (review 2026-12-01b ED5).
        Ed [Alt('k')] ConflictKeep: "keep mine", "the file changed outside: keep the editor's text" => prompt(PromptAction::Keep);
        Ed [Alt('l')] ConflictLoad: "load theirs", "the file changed outside: load the file's text" => prompt(PromptAction::Load);
        Ed [Alt('c')] ConflictCompare: "compare", "the file changed outside: show / hide the diff" => prompt(PromptAction::Compare);
        // The desktop editing keys, as micro and the code editors have them.
        Ed [Ctrl('z')] EditUndo: "undo", "the last edit (typing undoes a word at a time)" => edit(EditOp::Undo);
        Ed [Ctrl('y'), Ctrl('Z')] EditRedo: "redo", "the edit undone" => edit(EditOp::Redo);
        Ed [Ctrl('x')] EditCut: "cut", "the selection, else the line (to the clipboard)" => edit(EditOp::Cut);
        Ed [Ctrl('c')] EditCopy: "copy", "the selection, else the line (to the clipboard)" => edit(EditOp::Copy);
        Ed [Ctrl('v')] EditPaste: "paste", "what was cut or copied" => edit(EditOp::Paste);
        Ed [Ctrl('a')] EditSelectAll: "select all", "the whole file" => edit(EditOp::SelectAll);
        Ed [Ctrl('s')] EditSave: "save", "write the file now (checks and leaving save too)" => App(Action::EditSave);
        // Terminals send Ctrl-/ as 0x1F, which crossterm reads as Ctrl-7 (Ctrl-_ on some).
        Ed [Ctrl('/'), Ctrl('7'), Ctrl('_')] EditComment: "comment", "// on the line or the selected lines; again: off" => edit(EditOp::Comment);
        Ed [Shift(K::Left)] Select(M::Left): "select", "Shift with a move selects", m: Motion => edit(EditOp::Select(m));
        Ed [Shift(K::Right)] Select(M::Right);
        Ed [Shift(K::Up)] Select(M::Up);
        Ed [Shift(K::Down)] Select(M::Down);
        Ed [CtrlShift(K::Left)] Select(M::WordLeft);
        Ed [CtrlShift(K::Right)] Select(M::WordRight);
        Ed [Shift(K::Home)] Select(M::LineStart);
        Ed [Shift(K::End)] Select(M::LineEnd);
        Ed [CtrlShift(K::Up)] Select(M::ParagraphUp);
        Ed [CtrlShift(K::Down)] Select(M::ParagraphDown);
        Ed [Shift(K::PageUp)] Select(M::PageUp);
        Ed [Shift(K::PageDown)] Select(M::PageDown);
        Ed [CtrlShift(K::Home)] Select(M::FileStart);
        Ed [CtrlShift(K::End)] Select(M::FileEnd);
        Ed [Code(K::Left)] Move(M::Left): "move", "the cursor", m: Motion => edit(EditOp::Move(m));
        Ed [Code(K::Right)] Move(M::Right);
        Ed [Code(K::Up)] Move(M::Up);
        Ed [Code(K::Down)] Move(M::Down);
        Ed [CtrlCode(K::Left)] Move(M::WordLeft);
        Ed [CtrlCode(K::Right)] Move(M::WordRight);
        Ed [Code(K::Home)] Move(M::LineStart);
        Ed [Code(K::End)] Move(M::LineEnd);
        Ed [CtrlCode(K::Up)] Move(M::ParagraphUp);
        Ed [CtrlCode(K::Down)] Move(M::ParagraphDown);
        Ed [Code(K::PageUp)] Move(M::PageUp);
        Ed [Code(K::PageDown)] Move(M::PageDown);
        Ed [CtrlCode(K::Home)] Move(M::FileStart);
        Ed [CtrlCode(K::End)] Move(M::FileEnd);
        Ed [Code(K::Enter)] EditNewline: "new line", "keeps the indent, one more after {" => edit(EditOp::Newline);
        Ed [Code(K::Tab)] EditIndent: "indent", "4 spaces; } on a blank line: one less" => edit(EditOp::Indent);
        Ed [Code(K::Backspace)] EditDeleteBack: "delete", "the selection, else the character before / under" => edit(EditOp::DeleteBack);
        Ed [Code(K::Delete)] EditDeleteForward: "delete", "the selection, else the character before / under" => edit(EditOp::DeleteForward);
        // Ctrl-Backspace reaches a program as Ctrl-H in most terminals.
        Ed [CtrlCode(K::Backspace), AltCode(K::Backspace), Ctrl('h'), Ctrl('w')] EditDeleteWordBack: "delete word", "the word before / after" => edit(EditOp::DeleteWordBack);
        Ed [CtrlCode(K::Delete), AltCode(K::Delete)] EditDeleteWordForward: "delete word", "the word before / after" => edit(EditOp::DeleteWordForward);
        // In the editor `?` types: F1 lists the keys, the editor's first.
        Ed [Code(K::F(1))] ToggleHelp footer("F1", "keys"): "help", "show or hide this list of keys" => Overlay(OverlayAction::ToggleHelp);
        // Ctrl-Q quits as in micro (saved first); Ctrl-C copies.
        Ed [Ctrl('q')] Quit;
        // Last: every other character is text (`?` included).
        Ed [Text] EditType(' '): "type", "characters go into the code (and replace the selection)", c: char => edit(EditOp::Insert(c));
        EditorFind [Code(K::Enter), Code(K::Down), Code(K::F(3)), Ctrl('f')] FindNext footer("Enter", "next"): "next match", "the next / previous place it is found" => edit(EditOp::Find(FindOp::Next));
        EditorFind [Code(K::Up), Shift(K::F(3))] FindPrev: "next match", "the next / previous place it is found" => edit(EditOp::Find(FindOp::Prev));
        EditorFind [Code(K::Backspace)] FindErase: "erase", "the last character of the search" => edit(EditOp::Find(FindOp::Erase));
        EditorFind [Code(K::Esc)] FindClose footer("Esc", "close"): "close find", "back to the code, the cursor on the match" => edit(EditOp::Find(FindOp::Close));
        EditorFind [Text] FindType(' ') footer("text", "search"): "search for", "what is typed is searched as you type", c: char => edit(EditOp::Find(FindOp::Type(c)));
        EditorDiff [Alt('k')] ConflictKeep footer("Alt-K", "keep mine");
        EditorDiff [Alt('l')] ConflictLoad footer("Alt-L", "load theirs");
        EditorDiff [Alt('c')] ConflictCompare;
        EditorDiff [Code(K::Up)] DiffUp: "scroll diff", "a line" => prompt(PromptAction::DiffScroll(-1));
        EditorDiff [Code(K::Down)] DiffDown footer("↑↓", "scroll"): "scroll diff", "a line" => prompt(PromptAction::DiffScroll(1));
        EditorDiff [Code(K::PageUp)] DiffPageUp: "page diff", "a page" => prompt(PromptAction::DiffScroll(-DIFF_PAGE));
        EditorDiff [Code(K::PageDown)] DiffPageDown: "page diff", "a page" => prompt(PromptAction::DiffScroll(DIFF_PAGE));
        EditorDiff [Code(K::Esc)] DiffClose footer("Esc", "close diff"): "close diff", "back to the code (the prompt stays)" => prompt(PromptAction::DiffClose);
        QuitPrompt [Char('y'), Char('Y')] QuitYes footer("y", "quit anyway"): "quit anyway", "leave; the text is lost" => prompt(PromptAction::QuitYes);
        QuitPrompt [Char('n'), Char('N'), Code(K::Esc)] QuitNo footer("n", "back"): "don't quit", "back to the editor" => prompt(PromptAction::QuitNo);
        Main DIGITS JumpLesson(0): "jump to lesson N", "open lesson N where you left it", n: u8 => Nav(NavAction::JumpLesson(usize::from(n).saturating_sub(1)));
        Main [Code(K::Esc)] Close: "close", "close the list; else cancel a run; else messages" => Nav(NavAction::Close);
        Main [Char('?'), Code(K::F(1))] ToggleHelp footer("?", "help");
        Main [Char('q')] Quit footer("q", "quit");
        Params [Code(K::Up)] FieldUp: "previous field", "choose a parameter" => Form(FormAction::Field(-1));
        Params [Code(K::Down)] FieldDown footer("↑↓", "field"): "next field", "choose a parameter" => Form(FormAction::Field(1));
        Params [Code(K::Left)] ValueLess: "smaller value", "change it (or type a value)" => Form(FormAction::Value(-1));
        Params [Code(K::Right)] ValueMore footer("←→", "value"): "larger value", "change it (or type a value)" => Form(FormAction::Value(1));
        Params [Code(K::Enter)] ParamsRun footer("Enter", "run"): "run with these", "close the form and run" => App(Action::ParamsRun);
        Params [Code(K::Esc)] ParamsClose footer("Esc", "close"): "close form", "keep the values, don't run" => App(Action::ParamsClose);
        Params [Code(K::Backspace)] ParamsErase: "erase", "the last character typed" => Form(FormAction::Erase);
        Params [Text] ParamsType(' '): "type a value", "letters, digits and . go into the field", c: char => Form(FormAction::Type(c));
        Confirm [Char('y'), Char('Y'), Code(K::Enter)] ConfirmYes footer("y", "yes"): "yes", "do it" => Overlay(OverlayAction::ConfirmYes);
        Confirm [Char('n'), Char('N'), Code(K::Esc)] ConfirmNo footer("n", "no"): "no", "keep things as they are" => Overlay(OverlayAction::ConfirmNo);
        Help [Code(K::Esc), Char('?'), Code(K::F(1))] ToggleHelp footer("Esc", "close");
        Help [Code(K::Up), Char('k')] ScrollUp;
        Help [Code(K::Down), Char('j')] ScrollDown footer("↑↓", "scroll");
        Help [Code(K::PageUp)] PageUp;
        Help [Code(K::PageDown), Char(' ')] PageDown;
        Help [Char('q')] Quit footer("q", "quit");
        Links [Code(K::Up), Char('k')] LinkUp: "previous link", "move the selection among the links" => Overlay(OverlayAction::Link(LinkAction::Select(-1)));
        Links [Code(K::Down), Char('j')] LinkDown footer("↑↓", "select"): "next link", "move the selection among the links" => Overlay(OverlayAction::Link(LinkAction::Select(1)));
        Links [Code(K::Left), Char('h')] LinkScrollLeft: "scroll URL", "see the rest of a long URL" => Overlay(OverlayAction::Link(LinkAction::Scroll { right: false }));
        Links [Code(K::Right), Char('l')] LinkScrollRight footer("←→", "scroll URL"): "scroll URL", "see the rest of a long URL" => Overlay(OverlayAction::Link(LinkAction::Scroll { right: true }));
        Links [Code(K::Enter)] LinkOpen footer("Enter", "open"): "open link", "in your browser (xdg-open / open)" => Overlay(OverlayAction::Link(LinkAction::Open));
        Links [Char('y')] LinkCopy footer("y", "copy"): "copy link", "to the clipboard (OSC 52, if the terminal allows)" => Overlay(OverlayAction::Link(LinkAction::Copy));
        Links [Code(K::Esc), Char('u')] ToggleLinks footer("Esc", "close");
        Links [Char('q')] Quit footer("q", "quit");
        // `cuda-academy trace`'s view (its own screen): the experiment timeline's keys, ↑↓ the findings.
        Trace [Char('q'), Code(K::Esc), Ctrl('c')] Quit footer("q", "quit");
        Trace [Char('+'), Char('=')] ZoomIn footer("+-", "zoom");
        Trace [Char('-')] ZoomOut;
        Trace [Char('<'), Char(','), Code(K::Left), Char('h')] PanLeft footer("<>", "pan");
        Trace [Char('>'), Char('.'), Code(K::Right), Char('l')] PanRight;
        Trace [Char('[')] SelectPrevOp footer("[]", "op");
        Trace [Char(']')] SelectNextOp;
        Trace [Code(K::Up), Char('k')] ScrollUp;
        Trace [Code(K::Down), Char('j')] ScrollDown footer("↑↓", "finding");
        Trace [Char('m')] LaneMode footer("m", "lanes");
        Tutor [Code(K::Enter)] TutorSend footer("Enter", "ask"): "ask", "send the question" => Tutor(TutorAction::Send);
        Tutor [Code(K::Esc)] TutorEscape footer("Esc", "cancel/close"): "cancel / close", "stop the answer; else close the pane" => Tutor(TutorAction::Escape);
        Tutor [Code(K::F(2))] TutorClose: "close tutor", "hide the tutor pane (the conversation stays)" => Tutor(TutorAction::Close);
        Tutor [Ctrl('d')] TutorMode footer("^D", "direct"): "direct answers", "switch: hints first, or direct answers" => Tutor(TutorAction::ToggleMode);
        Tutor [Code(K::Up), Code(K::PageUp)] TutorScrollUp: "scroll up", "earlier in the conversation" => Tutor(TutorAction::Scroll(-3));
        Tutor [Code(K::Down), Code(K::PageDown)] TutorScrollDown footer("↑↓", "scroll"): "scroll down", "later in the conversation" => Tutor(TutorAction::Scroll(3));
        Tutor [Code(K::Backspace)] TutorErase: "erase", "the last character" => Tutor(TutorAction::Erase);
        Tutor [Ctrl('c')] Quit;
        Tutor [Text] TutorType(' ') footer("text", "question"): "type", "the question", c: char => Tutor(TutorAction::Type(c));
        }
    };
}
pub(crate) use bindings;

bindings!(define_actions);
