//! [`Action`]: everything a key can ask for, each defined once, on one line, with the name and
//! the one-line description the help overlay shows (as helix's `static_commands!` does); and
//! which of them are the timeline's own. A new action is one line in `actions!` below, a
//! binding in `table.rs` and an arm in `app::dispatch::route`.

use crate::timeline::TimelineAction;

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
    OpenEditor => "exercises", "list the lesson's exercises, to open one";
    /// Move the exercise list's selection by N (-1: the key was ↑ or k).
    PickerMove(i8) => "select", "move the selection";
    PickerOpen => "open exercise", "open the selected one in the editor";
    PickerReset => "reset exercise", "put its starter back (asks first)";
    PickerClose => "close list", "back to the lesson";
    EditorTimeline => "timeline / verdict", "the timeline or the verdict (narrow)";
    EditorZoomPane => "zoom verdict", "the verdict / timeline takes the rows (narrow); again: back";
    EditorCheck => "check", "save, run and check the file";
    EditorLeave => "leave editor", "cancel a check; else save and leave";
    EditorExternal => "own editor", "open the file in $VISUAL / $EDITOR";
    EditorHint => "hint", "show the next hint";
    EditorSolution => "solution", "show the solution (after a pass or 3 fails)";
    EditorReset => "reset exercise", "put the starter back (asks first)";
    /// Scroll the verdict pane by N lines (-1: the key was Alt-↑).
    VerdictScroll(i8) => "scroll verdict", "verdict, hints, solution a line (or mouse wheel)";
    /// Scroll the verdict pane by N pages (-1: the key was Alt-PgUp).
    VerdictPage(i8) => "page verdict", "verdict, hints, solution a page";
    /// Select the timeline's previous (-1) or next (1) op.
    EditorOp(i8) => "timeline: op", "select the previous / next op, show its details";
    /// Zoom the timeline in (1) or out (-1).
    EditorZoom(i8) => "timeline: zoom", "zoom the timeline in / out";
    /// Pan the timeline left (-1) or right (1).
    EditorPan(i8) => "timeline: pan", "move the timeline window left / right";
    EditMove => "move", "the cursor; Ctrl-B/F/P/N; Shift selects";
    EditWord => "word", "a word left / right; Alt-B/F";
    EditLine => "line start / end", "Ctrl-A (Ctrl-E is the own editor)";
    EditParagraph => "paragraph", "to a blank line up / down; Alt-P/N";
    EditFile => "top / bottom", "of the file";
    EditPage => "page", "a page up / down";
    EditNewline => "new line", "keeps the indent, one more after {";
    EditIndent => "indent", "4 spaces; } on a blank line: one less";
    EditDelete => "delete", "the character before / under; Ctrl-H/D";
    EditDeleteWord => "delete word", "the word before; Alt-D: after";
    EditKill => "kill", "cut to the end / start of the line";
    EditYank => "yank", "paste the last kill, deleted word or copy";
    EditCopy => "copy", "the selection (Shift+arrows select)";
    EditUndo => "undo", "the last edit";
    EditRedo => "redo", "the edit undone";
    EditorConflict => "file changed outside", "Alt-K keep mine · Alt-L load theirs · Alt-C compare";
    ZoomPane => "zoom", "the focused pane fills the screen; z again: all panes";
    ToggleLinks => "links", "list the card's links [n]: open, copy, read whole";
    LinkOpen => "open link", "in your browser (xdg-open / open)";
    LinkCopy => "copy link", "to the clipboard (OSC 52, if the terminal allows)";
    LinkScrollLeft => "scroll URL", "see the rest of a long URL";
    LinkScrollRight => "scroll URL", "see the rest of a long URL";
}

impl Action {
    /// Whether the editor carries this action out itself, from the key pressed: its text area,
    /// or the "file changed outside" prompt (the table binds and documents the key;
    /// `app::editor` hands it on).
    pub fn edits_text(self) -> bool {
        matches!(
            self,
            Action::EditMove
                | Action::EditWord
                | Action::EditLine
                | Action::EditParagraph
                | Action::EditFile
                | Action::EditPage
                | Action::EditNewline
                | Action::EditIndent
                | Action::EditDelete
                | Action::EditDeleteWord
                | Action::EditKill
                | Action::EditYank
                | Action::EditUndo
                // The "file changed outside" prompt's answers: the editor reads the key.
                | Action::EditorConflict
        )
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
