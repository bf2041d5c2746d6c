//! [`Action`]: everything a key can ask for, each defined once, on one line, with the name and
//! the one-line description the help overlay shows (as helix's `static_commands!` does); and
//! which of them are the timeline's own; [`Motion`], where a move goes. A new action is one
//! line in `actions!` below, a line in `table.rs` and an arm in `app::dispatch::route`.

use crate::timeline::TimelineAction;

pub use super::motion::Motion;

/// Defines [`Action`] and its [`Action::name`] and [`Action::description`] from one table, so a
/// variant cannot lack either (an arm missing from a hand-written `match` is an easy slip, and
/// two `match`es for one fact are two places to keep in step).
macro_rules! actions {
    ($( $(#[$doc:meta])* $variant:ident $(($field:ty))? => $name:literal, $desc:literal; )*) => {
        /// Everything a key can ask for. Each variant's [`Action::name`] and
        /// [`Action::description`] say what it does (they are what the help overlay shows).
        #[allow(missing_docs)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Action {
            $( $(#[$doc])* $variant $(($field))?, )*
        }

        impl Action {
            /// The action's name, as the help overlay lists it.
            pub fn name(self) -> &'static str {
                match self {
                    $( actions!(@pat $variant $(($field))?) => $name, )*
                }
            }

            /// One line on what it does, for the help overlay.
            pub fn description(self) -> &'static str {
                match self {
                    $( actions!(@pat $variant $(($field))?) => $desc, )*
                }
            }
        }
    };
    (@pat $variant:ident) => { Action::$variant };
    (@pat $variant:ident ($field:ty)) => { Action::$variant(_) };
}

// One line per action: `Variant => "name", "what it does";`.
actions! {
    Quit => "quit", "save progress and leave";
    ToggleHelp => "help", "show or hide this list of keys";
    Close => "close", "close the list; else cancel a run; else messages";
    NextCard => "next card", "on, into the next lesson at the end";
    PrevCard => "previous card", "back, into the previous lesson";
    FocusNext => "next pane", "cards → quiz → experiment → lessons";
    FocusPrev => "previous pane", "the other way round";
    ToggleLessons => "lesson list", "lessons with completion and scores";
    /// Jump to lesson N (1-based; the digit pressed).
    JumpLesson(u8) => "jump to lesson N", "open lesson N where you left it";
    ScrollUp => "scroll up", "scroll the pane a line";
    ScrollDown => "scroll down", "scroll the pane a line";
    PageUp => "page up", "scroll the pane a page";
    PageDown => "page down", "scroll the pane a page";
    CodeLeft => "scroll code", "sideways: the rest of code cut at » (« back)";
    CodeRight => "scroll code", "sideways: the rest of code cut at » (« back)";
    Top => "top", "scroll to the start or end";
    Bottom => "bottom", "scroll to the start or end";
    OptionUp => "previous option", "move the › cursor";
    OptionDown => "next option", "move the › cursor";
    Answer => "answer", "answer (the first is scored); again: practice";
    NextQuestion => "next question", "move among the lesson's questions";
    PrevQuestion => "previous question", "move among the lesson's questions";
    /// Choose and answer the option at position N (0-based; the letter pressed).
    PickOption(u8) => "pick option", "answer with that option (practice once answered)";
    NextToReview => "next to review", "the next question missed or not answered yet";
    ListUp => "select previous", "move the selection";
    ListDown => "select next", "move the selection";
    OpenLesson => "open lesson", "open the selected lesson";
    ResetLesson => "reset lesson", "clear this lesson's progress (asks)";
    ResetAll => "reset everything", "clear all progress (asks first)";
    ConfirmYes => "yes", "do it";
    ConfirmNo => "no", "keep things as they are";
    RunExperiment => "run experiment", "run the lesson's experiment (on the worker)";
    ExportTrace => "export trace", "write the last run as Chrome trace JSON";
    SwitchExperiment => "switch experiment", "the lesson's other experiment";
    ToggleView => "panel view", "timeline → results → chart";
    LaneMode => "lane mode", "streams → copy engines → both";
    Compare => "compare with", "previous run / baseline / none";
    OpenParams => "parameters", "size, streams, chunks, memory, order";
    ZoomIn => "zoom in", "zoom the timeline";
    ZoomOut => "zoom out", "zoom the timeline";
    PanLeft => "pan left", "move the timeline window";
    PanRight => "pan right", "move the timeline window";
    SelectPrevOp => "previous op", "select an op, show its details";
    SelectNextOp => "next op", "select an op, show its details";
    FieldUp => "previous field", "choose a parameter";
    FieldDown => "next field", "choose a parameter";
    ValueLess => "smaller value", "change it (or type a value)";
    ValueMore => "larger value", "change it (or type a value)";
    ParamsRun => "run with these", "close the form and run";
    ParamsClose => "close form", "keep the values, don't run";
    /// Type the character pressed into the field.
    ParamsType(char) => "type a value", "letters, digits and . go into the field";
    ParamsErase => "erase", "the last character typed";
    OpenEditor => "exercises", "list the lesson's exercises, to open one";
    PickerUp => "select", "move the selection";
    PickerDown => "select", "move the selection";
    PickerOpen => "open exercise", "open the selected one in the editor";
    PickerReset => "reset exercise", "put its starter back (asks first)";
    PickerClose => "close list", "back to the lesson";
    EditorCheck => "check", "save, run and check the file";
    EditorHint => "hint", "show the next hint";
    EditorSolution => "solution", "show the solution (after a pass or 3 fails)";
    EditorLeave => "leave editor", "cancel a check; else save and leave";
    EditorExternal => "own editor", "open the file in $VISUAL / $EDITOR";
    EditorToggleTimeline => "timeline / verdict", "the timeline or the verdict (narrow)";
    EditorToggleZoom => "zoom verdict", "the verdict / timeline takes the rows (narrow); again: back";
    EditorReset => "reset exercise", "put the starter back (asks first)";
    VerdictUp => "scroll verdict", "verdict, hints, solution a line (or mouse wheel)";
    VerdictDown => "scroll verdict", "verdict, hints, solution a line (or mouse wheel)";
    VerdictPageUp => "page verdict", "verdict, hints, solution a page";
    VerdictPageDown => "page verdict", "verdict, hints, solution a page";
    EditorOpPrev => "timeline: op", "select the previous / next op, show its details";
    EditorOpNext => "timeline: op", "select the previous / next op, show its details";
    EditorZoomIn => "timeline: zoom", "zoom the timeline in / out";
    EditorZoomOut => "timeline: zoom", "zoom the timeline in / out";
    EditorPanLeft => "timeline: pan", "move the timeline window left / right";
    EditorPanRight => "timeline: pan", "move the timeline window left / right";
    /// Move the cursor (`Motion` names where to).
    Move(Motion) => "move", "the cursor";
    /// Move the cursor, extending the selection.
    Select(Motion) => "select", "Shift with a move selects";
    /// Type the character (the one pressed).
    EditType(char) => "type", "characters go into the code (and replace the selection)";
    EditNewline => "new line", "keeps the indent, one more after {";
    EditIndent => "indent", "4 spaces; } on a blank line: one less";
    EditDeleteBack => "delete", "the selection, else the character before / under";
    EditDeleteForward => "delete", "the selection, else the character before / under";
    EditDeleteWordBack => "delete word", "the word before / after";
    EditDeleteWordForward => "delete word", "the word before / after";
    EditUndo => "undo", "the last edit (typing undoes a word at a time)";
    EditRedo => "redo", "the edit undone";
    EditCut => "cut", "the selection, else the line (to the clipboard)";
    EditCopy => "copy", "the selection, else the line (to the clipboard)";
    EditPaste => "paste", "what was cut or copied";
    EditSelectAll => "select all", "the whole file";
    EditSave => "save", "write the file now (checks and leaving save too)";
    EditFind => "find", "search the code: type, Enter next, Esc close";
    EditComment => "comment", "// on the line or the selected lines; again: off";
    /// Add the character pressed to the search.
    FindType(char) => "search for", "what is typed is searched as you type";
    FindErase => "erase", "the last character of the search";
    FindNext => "next match", "the next / previous place it is found";
    FindPrev => "next match", "the next / previous place it is found";
    FindClose => "close find", "back to the code, the cursor on the match";
    ConflictKeep => "keep mine", "the file changed outside: keep the editor's text";
    ConflictLoad => "load theirs", "the file changed outside: load the file's text";
    ConflictCompare => "compare", "the file changed outside: show / hide the diff";
    DiffUp => "scroll diff", "a line";
    DiffDown => "scroll diff", "a line";
    DiffPageUp => "page diff", "a page";
    DiffPageDown => "page diff", "a page";
    DiffClose => "close diff", "back to the code (the prompt stays)";
    QuitYes => "quit anyway", "leave; the text is lost";
    QuitNo => "don't quit", "back to the editor";
    /// Add the character pressed to the number.
    PredictionType(char) => "type", "the predicted number (digits, . , e - +)";
    PredictionErase => "erase", "the last character";
    PredictionSubmit => "submit", "grade the prediction";
    PredictionCancel => "cancel", "close the field";
    Suspend => "suspend", "stop like any program; fg resumes (saved first)";
    ZoomPane => "zoom", "the focused pane fills the screen; z again: all panes";
    ToggleLinks => "links", "list the card's links [n]: open, copy, read whole";
    LinkOpen => "open link", "in your browser (xdg-open / open)";
    LinkCopy => "copy link", "to the clipboard (OSC 52, if the terminal allows)";
    LinkScrollLeft => "scroll URL", "see the rest of a long URL";
    LinkScrollRight => "scroll URL", "see the rest of a long URL";
    // The tutor pane (issue 31): its handlers are in src/app/tutor.rs.
    TutorOpen => "tutor", "ask your local model about this (README: The tutor)";
    TutorClose => "close tutor", "hide the tutor pane (the conversation stays)";
    /// Add the character pressed to the question.
    TutorType(char) => "type", "the question";
    TutorErase => "erase", "the last character";
    TutorSend => "ask", "send the question";
    TutorEscape => "cancel / close", "stop the answer; else close the pane";
    TutorMode => "direct answers", "switch: hints first, or direct answers";
    TutorScrollUp => "scroll up", "earlier in the conversation";
    TutorScrollDown => "scroll down", "later in the conversation";
}

impl Action {
    /// The name and description the help shows: a move's say where it goes.
    pub fn help_text(self) -> (&'static str, &'static str) {
        match self {
            Action::Move(m) => (m.name(), m.description()),
            Action::Select(m) => (m.select_name(), "Shift with a move selects"),
            _ => (self.name(), self.description()),
        }
    }

    /// The timeline's own action this one stands for, if it is one (zoom, pan, op selection).
    pub fn timeline(self) -> Option<TimelineAction> {
        Some(match self {
            Action::ZoomIn => TimelineAction::ZoomIn,
            Action::ZoomOut => TimelineAction::ZoomOut,
            Action::PanLeft => TimelineAction::PanLeft,
            Action::PanRight => TimelineAction::PanRight,
            Action::SelectPrevOp => TimelineAction::SelectPrev,
            Action::SelectNextOp => TimelineAction::SelectNext,
            _ => return None,
        })
    }
}
