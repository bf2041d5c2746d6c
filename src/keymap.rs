//! The one key table: `(context, key) -> Action`, with each action's name and description.
//!
//! The same table dispatches keys ([`lookup`]), writes the footer ([`footer`]) and the `?` help
//! overlay ([`help_sections`]), so what the screen says is always what the keys do.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

mod action;
pub use action::Action;

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

/// A key as written in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A character, with or without Shift.
    Char(char),
    /// Ctrl plus a character.
    Ctrl(char),
    /// Alt plus a character (terminals send Esc then the character).
    Alt(char),
    /// A named key without Ctrl or Alt.
    Code(KeyCode),
    /// Ctrl plus a named key (an arrow).
    CtrlCode(KeyCode),
    /// Alt plus a named key (an arrow, Backspace).
    AltCode(KeyCode),
}

impl Key {
    fn matches(self, ev: &KeyEvent) -> bool {
        let ctrl_alt = ev.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
        match self {
            Key::Char(c) => ev.code == KeyCode::Char(c) && ctrl_alt.is_empty(),
            Key::Ctrl(c) => {
                ev.code == KeyCode::Char(c) && ev.modifiers.contains(KeyModifiers::CONTROL)
            }
            Key::Alt(c) => ev.code == KeyCode::Char(c) && ctrl_alt == KeyModifiers::ALT,
            Key::Code(code) => ev.code == code && ctrl_alt.is_empty(),
            Key::CtrlCode(code) => ev.code == code && ctrl_alt == KeyModifiers::CONTROL,
            Key::AltCode(code) => ev.code == code && ctrl_alt == KeyModifiers::ALT,
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
        (Action::VerdictScroll(_), KeyCode::Up) => Action::VerdictScroll(-1),
        (Action::VerdictPage(_), KeyCode::PageUp) => Action::VerdictPage(-1),
        (Action::EditorOp(_), KeyCode::Left) => Action::EditorOp(-1),
        (Action::EditorZoom(_), KeyCode::Char('-')) => Action::EditorZoom(-1),
        (Action::EditorPan(_), KeyCode::Char(',')) => Action::EditorPan(-1),
        (Action::JumpLesson(_), KeyCode::Char(c)) => c
            .to_digit(10)
            .and_then(|d| u8::try_from(d).ok())
            .map_or(action, Action::JumpLesson),
        _ => action,
    }
}

/// One entry of the footer: the keys, what they do, and the action (the view leaves out what
/// does not apply, such as `w` in a lesson without exercises).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FooterKey {
    /// The action of the binding.
    pub action: Action,
    /// How the keys are written.
    pub keys: &'static str,
    /// What they do, in a word or two.
    pub text: &'static str,
}

/// The footer's entries in `ctx`: the context's own first, then the main ones, in table order.
pub fn footer(ctx: Ctx) -> Vec<FooterKey> {
    let layers: &[Ctx] = if ctx.is_modal() {
        &[ctx]
    } else {
        &[ctx, Ctx::Main]
    };
    layers
        .iter()
        .flat_map(|layer| BINDINGS.iter().filter(move |b| b.ctx == *layer))
        .filter_map(|b| {
            b.footer.map(|(keys, text)| FooterKey {
                action: b.action,
                keys,
                text,
            })
        })
        .collect()
}

/// What the footer keeps longest, after help and quit: moving between cards and panes and
/// the lesson's exercises, keys a learner cannot guess (review 2026-12-01: at 80 columns they
/// were the first dropped, and `w` was never shown).
pub const FOOTER_FIRST: &[Action] = &[Action::NextCard, Action::FocusNext, Action::OpenEditor];

/// How the digit keys are written when there are `lessons` lessons: only the digits that
/// jump somewhere ("1-4"), not every digit bound.
pub fn lesson_digits(lessons: usize) -> &'static str {
    const LABELS: [&str; 9] = ["1", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7", "1-8", "1-9"];
    LABELS[lessons.clamp(1, LABELS.len()) - 1]
}

/// The editor timeline's keys in one short line, from the table: `Alt-←/→ op  Alt-=/- zoom
/// Alt-,/. pan` (the timeline's hint when no op is selected; plain keys type into the code).
pub fn editor_timeline_hint() -> String {
    [
        (Action::EditorOp(1), "op"),
        (Action::EditorZoom(1), "zoom"),
        (Action::EditorPan(1), "pan"),
    ]
    .iter()
    .filter_map(|(action, word)| {
        let b = BINDINGS
            .iter()
            .find(|b| b.ctx == Ctx::Editor && b.action == *action)?;
        Some(format!("{} {word}", b.label))
    })
    .collect::<Vec<_>>()
    .join("  ")
}

/// One row of the help overlay: keys, action name, description.
pub type HelpRow = (&'static str, &'static str, &'static str);

/// The help overlay's sections, in order: a title and its rows. The overlay's own keys are left
/// out: its frame says them, and every one of its actions is listed under another section. So
/// are the links overlay's: its footer says them all, and `u` is listed with what it opens (at
/// 160x48 the two columns are full).
/// The digit keys' row says the digits of the `lessons` there are ([`lesson_digits`]).
pub fn help_sections(lessons: usize) -> Vec<(&'static str, Vec<HelpRow>)> {
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
                .map(|b| {
                    let label = match b.action {
                        Action::JumpLesson(_) => lesson_digits(lessons),
                        _ => b.label,
                    };
                    (label, b.action.name(), b.action.description())
                })
                .collect();
            (ctx.title(), rows)
        })
        .collect()
}

#[cfg(test)]
mod tests;
