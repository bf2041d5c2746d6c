//! The one key table: `(context, key) -> Action`, one line a binding, with each action's name,
//! description and route (`table.rs`).
//!
//! The same table dispatches keys ([`lookup`]), writes the footer ([`footer`]) and the `?` help
//! overlay ([`help_sections`]), so what the screen says is always what the keys do; `app` makes
//! its `route` from the same lines (`bindings!`), so an action cannot lack one.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

mod action;
mod motion;
pub use action::Motion;

/// Where a key is pressed: the focused pane, an open dialog, or a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ctx {
    /// Every context outside the editor, dialogs included (Ctrl-C and Ctrl-Z live here).
    Always,
    /// Every pane of the main screen (not dialogs).
    Main,
    /// The card pane has the focus.
    Cards,
    /// The quiz pane has the focus.
    Quiz,
    /// The quiz's prediction field is open (it takes the number typed).
    Prediction,
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
    /// The editor's find bar (Ctrl-F) is open: typing goes into the search.
    EditorFind,
    /// The diff of the "file changed outside" prompt covers the code.
    EditorDiff,
    /// The editor asks whether to quit although its text cannot be kept.
    QuitPrompt,
    /// The card's links are listed over the screen.
    Links,
    /// The exercise list (`w`) is open.
    Picker,
    /// `cuda-academy trace`'s full-screen view of a trace (its own screen, not the tutorial's).
    Trace,
    /// The tutor pane is open: typing goes into the question (issue 31).
    Tutor,
}

impl Ctx {
    /// Heading of this context's section in the help overlay.
    pub fn title(self) -> &'static str {
        match self {
            Ctx::Always | Ctx::Main => "Everywhere",
            Ctx::Cards => "Card pane",
            Ctx::Quiz => "Quiz pane",
            Ctx::Prediction => "Prediction field",
            Ctx::Lessons => "Lesson list",
            Ctx::Panel => "Experiment panel",
            Ctx::Params => "Parameter form",
            Ctx::Help => "Help",
            Ctx::Confirm => "Confirmation",
            Ctx::Editor => "Exercise editor",
            Ctx::EditorFind => "Find in the editor",
            Ctx::EditorDiff => "Changed outside: the diff",
            Ctx::QuitPrompt => "Quit without keeping the text",
            Ctx::Links => "Links of the card",
            Ctx::Picker => "Exercise list",
            Ctx::Trace => "Trace view",
            Ctx::Tutor => "Tutor pane",
        }
    }

    /// The parts of the table a key is looked up in, in order. Panes take the main screen's
    /// keys; dialogs only their own and Ctrl-C; the editor and its prompts only their own, so
    /// Ctrl-C copies there and never leaves the program, and Ctrl-Z undoes.
    fn layers(self) -> &'static [Ctx] {
        match self {
            Ctx::Cards => &[Ctx::Cards, Ctx::Main, Ctx::Always],
            Ctx::Quiz => &[Ctx::Quiz, Ctx::Main, Ctx::Always],
            Ctx::Lessons => &[Ctx::Lessons, Ctx::Main, Ctx::Always],
            Ctx::Panel => &[Ctx::Panel, Ctx::Main, Ctx::Always],
            Ctx::Prediction => &[Ctx::Prediction, Ctx::Always],
            Ctx::Params => &[Ctx::Params, Ctx::Always],
            Ctx::Help => &[Ctx::Help, Ctx::Always],
            Ctx::Confirm => &[Ctx::Confirm, Ctx::Always],
            Ctx::Links => &[Ctx::Links, Ctx::Always],
            Ctx::Picker => &[Ctx::Picker, Ctx::Always],
            Ctx::Tutor => &[Ctx::Tutor],
            Ctx::Editor => &[Ctx::Editor],
            Ctx::EditorFind => &[Ctx::EditorFind],
            Ctx::EditorDiff => &[Ctx::EditorDiff],
            Ctx::QuitPrompt => &[Ctx::QuitPrompt],
            Ctx::Trace => &[Ctx::Trace],
            Ctx::Main => &[Ctx::Main],
            Ctx::Always => &[Ctx::Always],
        }
    }

    /// Whether the footer shows the main screen's keys after this context's own.
    fn is_pane(self) -> bool {
        matches!(self, Ctx::Cards | Ctx::Quiz | Ctx::Lessons | Ctx::Panel)
    }
}

mod key;
pub use key::Key;

/// One binding of the table: one line of `table.rs`.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// Where it applies.
    pub ctx: Ctx,
    /// The keys that trigger it (how they are written on screen is derived from them:
    /// [`Binding::label`]).
    pub keys: &'static [Key],
    /// What it does.
    pub action: Action,
    /// `(keys, text)` for the footer, which names a group of rows in a few columns ("↑↓
    /// scroll"); `None` keeps it out of the footer.
    pub footer: Option<(&'static str, &'static str)>,
}

impl Binding {
    /// How the keys are written in the help: each key's label, a run of three or more letters
    /// or digits in a row as `a-d`.
    pub fn label(&self) -> String {
        key::label(self.keys)
    }
}

mod table;
pub(crate) use table::bindings;
pub use table::{Action, BINDINGS};

/// The action for `key` in `ctx`: the context's own bindings first, then those of the layers
/// below it (`Ctx::layers`).
pub fn lookup(ctx: Ctx, key: &KeyEvent) -> Option<Action> {
    ctx.layers().iter().find_map(|layer| {
        BINDINGS
            .iter()
            .filter(|b| b.ctx == *layer)
            .find(|b| b.keys.iter().any(|k| k.matches(key)))
            .map(|b| resolve(b.action, key))
    })
}

/// Fill in what the key itself says: the digit of a lesson jump, the letter of an option, the
/// character typed.
fn resolve(action: Action, key: &KeyEvent) -> Action {
    match (action, key.code) {
        (Action::PickOption(_), KeyCode::Char(c)) if c.is_ascii_lowercase() => {
            Action::PickOption(c as u8 - b'a')
        }
        (Action::EditType(_), KeyCode::Char(c)) => Action::EditType(c),
        (Action::FindType(_), KeyCode::Char(c)) => Action::FindType(c),
        (Action::PredictionType(_), KeyCode::Char(c)) => Action::PredictionType(c),
        (Action::ParamsType(_), KeyCode::Char(c)) => Action::ParamsType(c),
        (Action::TutorType(_), KeyCode::Char(c)) => Action::TutorType(c),
        (Action::JumpLesson(_), KeyCode::Char(c)) => c
            .to_digit(10)
            .and_then(|d| u8::try_from(d).ok())
            .map_or(action, Action::JumpLesson),
        _ => action,
    }
}

/// The first binding of `action` in `ctx`, for a hint that names its keys.
pub fn binding(ctx: Ctx, action: Action) -> Option<&'static Binding> {
    BINDINGS.iter().find(|b| b.ctx == ctx && b.action == action)
}

/// The first key of `action` in `ctx` (`F5`), for a hint on screen that names it: hints name
/// keys from the table, never typed beside it.
pub fn first_key(ctx: Ctx, action: Action) -> String {
    binding(ctx, action)
        .map(|b| key::short(b.keys))
        .unwrap_or_default()
}

/// The keys of `action` in `ctx` as the help writes them (empty when it is not bound there).
pub fn keys_of(ctx: Ctx, action: Action) -> String {
    binding(ctx, action).map(Binding::label).unwrap_or_default()
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
    let layers: &[Ctx] = if ctx.is_pane() {
        &[ctx, Ctx::Main]
    } else {
        &[ctx]
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
        (Action::EditorOpPrev, Action::EditorOpNext, "op"),
        (Action::EditorZoomIn, Action::EditorZoomOut, "zoom"),
        (Action::EditorPanLeft, Action::EditorPanRight, "pan"),
    ]
    .iter()
    .map(|(a, b, word)| {
        let first = key::short(binding(Ctx::Editor, *a).map_or(&[][..], |b| b.keys));
        let second = key::short(binding(Ctx::Editor, *b).map_or(&[][..], |b| b.keys));
        // `Alt-←/→`: the second without the modifier the two share.
        let shared = first.rfind('-').map_or("", |i| &first[..=i]);
        let second = second
            .strip_prefix(shared)
            .filter(|_| !shared.is_empty())
            .unwrap_or(&second);
        format!("{first}/{second} {word}")
    })
    .collect::<Vec<_>>()
    .join("  ")
}

/// One row of the help overlay: keys, action name, description.
pub type HelpRow = (String, &'static str, &'static str);

/// The help overlay's sections, in order: a title and its rows. Neighbouring lines of the
/// table with the same action name share a row (`← → ↑ ↓  move`). The overlay's own keys are
/// left out: its frame says them, and every one of its actions is listed under another section.
/// So are the links overlay's: its footer says them all, and `u` is listed with what it opens.
/// The digit keys' row says the digits of the `lessons` there are ([`lesson_digits`]).
pub fn help_sections(lessons: usize) -> Vec<(&'static str, Vec<HelpRow>)> {
    let order = [
        Ctx::Main,
        Ctx::Cards,
        Ctx::Panel,
        Ctx::Confirm,
        Ctx::Quiz,
        Ctx::Prediction,
        Ctx::Lessons,
        Ctx::Params,
        Ctx::Picker,
        Ctx::Editor,
        Ctx::EditorFind,
        Ctx::EditorDiff,
        Ctx::QuitPrompt,
    ];
    order
        .iter()
        .map(|&ctx| {
            // The main section also lists Ctrl-C and Ctrl-Z (of every context but the
            // editor's), last.
            let always = BINDINGS
                .iter()
                .filter(|b| ctx == Ctx::Main && b.ctx == Ctx::Always);
            let mut rows: Vec<HelpRow> = Vec::new();
            for b in BINDINGS.iter().filter(|b| b.ctx == ctx).chain(always) {
                let label = match b.action {
                    Action::JumpLesson(_) => lesson_digits(lessons).to_string(),
                    _ => b.label(),
                };
                let (name, description) = b.action.help_text();
                match rows.last_mut() {
                    Some(last) if last.1 == name => last.0 = format!("{} {label}", last.0),
                    _ => rows.push((label, name, description)),
                }
            }
            (ctx.title(), rows)
        })
        .collect()
}

#[cfg(test)]
mod tests;
