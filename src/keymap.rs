//! The one key table: `(context, key) -> Action`, with each action's name and description.
//!
//! The same table dispatches keys ([`lookup`]), writes the footer ([`footer`]) and the `?` help
//! overlay ([`help_sections`]), so what the screen says is always what the keys do.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Where a key is pressed. The focused pane, or an open dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ctx {
    /// Every context, dialogs included (only Ctrl-C lives here).
    Always,
    /// Every pane of the main screen (not dialogs).
    Main,
    /// The card pane has the focus.
    Cards,
    /// The quiz pane has the focus.
    Quiz,
    /// The lesson list has the focus.
    Lessons,
    /// The experiment panel has the focus.
    Panel,
    /// The experiment's parameter form is open.
    Params,
    /// The help overlay is open.
    Help,
    /// A y/n confirmation is open.
    Confirm,
    /// The exercise editor is open (other keys edit the text).
    Editor,
    /// The card's links are listed over the screen.
    Links,
    /// The exercise list (`w`) is open.
    Picker,
}

impl Ctx {
    /// Heading of this context's section in the help overlay.
    pub fn title(self) -> &'static str {
        match self {
            Ctx::Always | Ctx::Main => "Everywhere",
            Ctx::Cards => "Card pane",
            Ctx::Quiz => "Quiz pane",
            Ctx::Lessons => "Lesson list",
            Ctx::Panel => "Experiment panel",
            Ctx::Params => "Parameter form",
            Ctx::Help => "Help",
            Ctx::Confirm => "Confirmation",
            Ctx::Editor => "Exercise editor",
            Ctx::Links => "Links of the card",
            Ctx::Picker => "Exercise list",
        }
    }

    /// Dialogs take only their own keys (and Ctrl-C), not the main screen's; `Always` alone is
    /// just Ctrl-C.
    fn is_modal(self) -> bool {
        matches!(
            self,
            Ctx::Help
                | Ctx::Confirm
                | Ctx::Params
                | Ctx::Always
                | Ctx::Editor
                | Ctx::Links
                | Ctx::Picker
        )
    }
}

/// Everything a key can ask for. Each variant's [`Action::name`] and [`Action::description`]
/// say what it does (they are what the help overlay shows).
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    ToggleHelp,
    Close,
    NextCard,
    PrevCard,
    FocusNext,
    FocusPrev,
    ToggleLessons,
    /// Jump to lesson N (1-based; the digit pressed).
    JumpLesson(u8),
    ScrollUp,
    ScrollDown,
    PageUp,
    PageDown,
    Top,
    Bottom,
    OptionUp,
    OptionDown,
    Answer,
    NextQuestion,
    PrevQuestion,
    /// Choose and answer the option at position N (0-based; the letter pressed).
    PickOption(u8),
    NextToReview,
    ListUp,
    ListDown,
    OpenLesson,
    ResetLesson,
    ResetAll,
    ConfirmYes,
    ConfirmNo,
    RunExperiment,
    ExportTrace,
    SwitchExperiment,
    ToggleView,
    LaneMode,
    Compare,
    OpenParams,
    ZoomIn,
    ZoomOut,
    PanLeft,
    PanRight,
    SelectPrevOp,
    SelectNextOp,
    FieldUp,
    FieldDown,
    ValueLess,
    ValueMore,
    ParamsRun,
    ParamsClose,
    OpenEditor,
    /// Move the exercise list's selection by N (-1: the key was ↑ or k).
    PickerMove(i8),
    PickerOpen,
    PickerReset,
    PickerClose,
    EditorTimeline,
    EditorCheck,
    EditorLeave,
    EditorExternal,
    EditorHint,
    EditorSolution,
    EditorReset,
    ToggleLinks,
    LinkOpen,
    LinkCopy,
    LinkScrollLeft,
    LinkScrollRight,
}

impl Action {
    /// The action's name, as the help overlay lists it.
    pub fn name(self) -> &'static str {
        match self {
            Action::Quit => "quit",
            Action::ToggleHelp => "help",
            Action::Close => "close",
            Action::NextCard => "next card",
            Action::PrevCard => "previous card",
            Action::FocusNext => "next pane",
            Action::FocusPrev => "previous pane",
            Action::ToggleLessons => "lesson list",
            Action::JumpLesson(_) => "jump to lesson N",
            Action::ScrollUp => "scroll up",
            Action::ScrollDown => "scroll down",
            Action::PageUp => "page up",
            Action::PageDown => "page down",
            Action::Top => "top",
            Action::Bottom => "bottom",
            Action::OptionUp => "previous option",
            Action::OptionDown => "next option",
            Action::Answer => "answer",
            Action::NextQuestion => "next question",
            Action::PrevQuestion => "previous question",
            Action::PickOption(_) => "pick option",
            Action::NextToReview => "next to review",
            Action::ListUp => "select previous",
            Action::ListDown => "select next",
            Action::OpenLesson => "open lesson",
            Action::ResetLesson => "reset lesson",
            Action::ResetAll => "reset everything",
            Action::ConfirmYes => "yes",
            Action::ConfirmNo => "no",
            Action::RunExperiment => "run experiment",
            Action::ExportTrace => "export trace",
            Action::SwitchExperiment => "switch experiment",
            Action::ToggleView => "panel view",
            Action::LaneMode => "lane mode",
            Action::Compare => "compare with",
            Action::OpenParams => "parameters",
            Action::ZoomIn => "zoom in",
            Action::ZoomOut => "zoom out",
            Action::PanLeft => "pan left",
            Action::PanRight => "pan right",
            Action::SelectPrevOp => "previous op",
            Action::SelectNextOp => "next op",
            Action::FieldUp => "previous field",
            Action::FieldDown => "next field",
            Action::ValueLess => "smaller value",
            Action::ValueMore => "larger value",
            Action::ParamsRun => "run with these",
            Action::ParamsClose => "close form",
            Action::OpenEditor => "exercises",
            Action::PickerMove(_) => "select",
            Action::PickerOpen => "open exercise",
            Action::PickerReset => "reset exercise",
            Action::PickerClose => "close list",
            Action::EditorTimeline => "timeline / verdict",
            Action::EditorCheck => "check",
            Action::EditorLeave => "leave editor",
            Action::EditorExternal => "own editor",
            Action::EditorHint => "hint",
            Action::EditorSolution => "solution",
            Action::EditorReset => "reset exercise",
            Action::ToggleLinks => "links",
            Action::LinkOpen => "open link",
            Action::LinkCopy => "copy link",
            Action::LinkScrollLeft | Action::LinkScrollRight => "scroll URL",
        }
    }

    /// One line on what it does, for the help overlay.
    pub fn description(self) -> &'static str {
        match self {
            Action::Quit => "save progress and leave",
            Action::ToggleHelp => "show or hide this list of keys",
            Action::Close => "close the list; else cancel a run; else messages",
            Action::NextCard => "on, into the next lesson at the end",
            Action::PrevCard => "back, into the previous lesson",
            Action::FocusNext => "cards → quiz → experiment → lessons",
            Action::FocusPrev => "the other way round",
            Action::ToggleLessons => "lessons with completion and scores",
            Action::JumpLesson(_) => "open lesson N where you left it",
            Action::ScrollUp | Action::ScrollDown => "scroll the pane a line",
            Action::PageUp | Action::PageDown => "scroll the pane a page",
            Action::Top | Action::Bottom => "scroll to the start or end",
            Action::OptionUp | Action::OptionDown => "move the › cursor",
            Action::Answer => "answer (the first is scored); again: practice",
            Action::NextQuestion | Action::PrevQuestion => "move among the lesson's questions",
            Action::PickOption(_) => "answer with that option (practice once answered)",
            Action::NextToReview => "the next question missed or not answered yet",
            Action::ListUp | Action::ListDown => "move the selection",
            Action::OpenLesson => "open the selected lesson",
            Action::ResetLesson => "clear this lesson's progress (asks)",
            Action::ResetAll => "clear all progress (asks first)",
            Action::ConfirmYes => "do it",
            Action::ConfirmNo => "keep things as they are",
            Action::RunExperiment => "run the lesson's experiment (on the worker)",
            Action::ExportTrace => "write the last run as Chrome trace JSON",
            Action::SwitchExperiment => "the lesson's other experiment",
            Action::ToggleView => "timeline → results → chart",
            Action::LaneMode => "streams → copy engines → both",
            Action::Compare => "previous run / baseline / none",
            Action::OpenParams => "size, streams, chunks, memory, order",
            Action::ZoomIn | Action::ZoomOut => "zoom the timeline",
            Action::PanLeft | Action::PanRight => "move the timeline window",
            Action::SelectPrevOp | Action::SelectNextOp => "select an op, show its details",
            Action::FieldUp | Action::FieldDown => "choose a parameter",
            Action::ValueLess | Action::ValueMore => "change it (or type a value)",
            Action::ParamsRun => "close the form and run",
            Action::ParamsClose => "keep the values, don't run",
            Action::OpenEditor => "list the lesson's exercises, to open one",
            Action::PickerMove(_) => "move the selection",
            Action::PickerOpen => "open the selected one in the editor",
            Action::PickerReset => "put its starter back (asks first)",
            Action::PickerClose => "back to the lesson",
            Action::EditorTimeline => "the timeline or the verdict (narrow)",
            Action::EditorCheck => "save, run and check the file",
            Action::EditorLeave => "cancel a check; else save and leave",
            Action::EditorExternal => "open the file in $VISUAL / $EDITOR",
            Action::EditorHint => "show the next hint",
            Action::EditorSolution => "show the solution (after a pass or 3 fails)",
            Action::EditorReset => "put the starter back (asks first)",
            Action::ToggleLinks => "list the card's links [n]: open, copy, read whole",
            Action::LinkOpen => "in your browser (xdg-open / open)",
            Action::LinkCopy => "to the clipboard (OSC 52, if the terminal allows)",
            Action::LinkScrollLeft | Action::LinkScrollRight => "see the rest of a long URL",
        }
    }
}

/// A key as written in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A character, with or without Shift.
    Char(char),
    /// Ctrl plus a character.
    Ctrl(char),
    /// A named key without Ctrl or Alt.
    Code(KeyCode),
}

impl Key {
    fn matches(self, ev: &KeyEvent) -> bool {
        let ctrl_alt = ev.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
        match self {
            Key::Char(c) => ev.code == KeyCode::Char(c) && ctrl_alt.is_empty(),
            Key::Ctrl(c) => {
                ev.code == KeyCode::Char(c) && ev.modifiers.contains(KeyModifiers::CONTROL)
            }
            Key::Code(code) => ev.code == code && ctrl_alt.is_empty(),
        }
    }
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// Where it applies.
    pub ctx: Ctx,
    /// The keys that trigger it.
    pub keys: &'static [Key],
    /// How the keys are written on screen.
    pub label: &'static str,
    /// What it does.
    pub action: Action,
    /// `(keys, text)` for the footer; `None` keeps it out of the footer (a pair of actions such
    /// as previous/next card shows once, on one of them).
    pub footer: Option<(&'static str, &'static str)>,
}

mod table;
pub use table::BINDINGS;

/// The action for `key` in `ctx`: the context's own bindings first, then the main screen's (for
/// panes), then Ctrl-C.
pub fn lookup(ctx: Ctx, key: &KeyEvent) -> Option<Action> {
    let layers: &[Ctx] = if ctx.is_modal() {
        &[ctx, Ctx::Always]
    } else {
        &[ctx, Ctx::Main, Ctx::Always]
    };
    layers.iter().find_map(|layer| {
        BINDINGS
            .iter()
            .filter(|b| b.ctx == *layer)
            .find(|b| b.keys.iter().any(|k| k.matches(key)))
            .map(|b| resolve(b.action, key))
    })
}

/// Fill in the digit of a lesson jump, the letter of an option.
fn resolve(action: Action, key: &KeyEvent) -> Action {
    match (action, key.code) {
        (Action::PickOption(_), KeyCode::Char(c)) if c.is_ascii_lowercase() => {
            Action::PickOption(c as u8 - b'a')
        }
        (Action::PickerMove(_), KeyCode::Up | KeyCode::Char('k')) => Action::PickerMove(-1),
        (Action::JumpLesson(_), KeyCode::Char(c)) => c
            .to_digit(10)
            .and_then(|d| u8::try_from(d).ok())
            .map_or(action, Action::JumpLesson),
        _ => action,
    }
}

/// `(keys, text)` pairs for the footer in `ctx`: the context's own first, then the main ones.
pub fn footer(ctx: Ctx) -> Vec<(&'static str, &'static str)> {
    let layers: &[Ctx] = if ctx.is_modal() {
        &[ctx]
    } else {
        &[ctx, Ctx::Main]
    };
    layers
        .iter()
        .flat_map(|layer| BINDINGS.iter().filter(move |b| b.ctx == *layer))
        .filter_map(|b| b.footer)
        .collect()
}

/// One row of the help overlay: keys, action name, description.
pub type HelpRow = (&'static str, &'static str, &'static str);

/// The help overlay's sections, in order: a title and its rows. The overlay's own keys are left
/// out: its frame says them, and every one of its actions is listed under another section. So
/// are the links overlay's: its footer says them all, and `u` is listed with what it opens (at
/// 160x48 the two columns are full).
pub fn help_sections() -> Vec<(&'static str, Vec<HelpRow>)> {
    let order = [
        Ctx::Main,
        Ctx::Cards,
        Ctx::Panel,
        Ctx::Confirm,
        Ctx::Quiz,
        Ctx::Lessons,
        Ctx::Params,
        Ctx::Picker,
        Ctx::Editor,
    ];
    order
        .iter()
        .map(|&ctx| {
            // The main section also lists Ctrl-C (the one binding of every context), last.
            let always = BINDINGS
                .iter()
                .filter(|b| ctx == Ctx::Main && b.ctx == Ctx::Always);
            let rows = BINDINGS
                .iter()
                .filter(|b| b.ctx == ctx)
                .chain(always)
                .map(|b| (b.label, b.action.name(), b.action.description()))
                .collect();
            (ctx.title(), rows)
        })
        .collect()
}

#[cfg(test)]
mod tests;
