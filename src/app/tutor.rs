//! The tutor pane's state (issue 31) and its one `update`: open and close it, type a question,
//! send it (a [`TutorCmd::Ask`] the shell hands to [`crate::tutor::TutorWorker`]), take the
//! answer's pieces as they stream in ([`TutorMsg`]), cancel with `Esc`, switch between hints
//! first and direct answers. What a request carries is gathered in `tutor/ground`; the view is
//! `crate::ui::tutor`.
//!
//! Nothing is sent unless the tutor is [`Setup::Ready`]: with nothing configured the pane
//! only says how to set one up, and no [`TutorCmd::Ask`] is ever returned.

mod ground;

use crate::tutor::client::Ending;
use crate::tutor::grounding::{self, Budget};
use crate::tutor::prompt::{self, Mode};
use crate::tutor::{
    Conversation, MAX_ANSWER_CHARS, MAX_QUESTION_CHARS, Role, Setup, TutorEvent, request,
};

use super::{App, Banner, BannerKind, Cmd, OverlayAction};

/// What the tutor pane holds.
#[derive(Debug, Default)]
pub struct TutorState {
    /// What the settings amount to (read once at start by the shell).
    pub setup: Setup,
    /// The pane is on screen.
    pub open: bool,
    /// The question being typed.
    pub input: String,
    /// Which conversation is on screen ("card:LESSON:N", "exercise:ID").
    pub key: Option<String>,
    /// Its turns so far.
    pub conversation: Conversation,
    /// The answer streaming in, if one is.
    pub answering: Option<Answering>,
    /// Hints first, or direct answers.
    pub mode: Mode,
    /// What was cut to fit the last request into the window ("older turns (2)", "Machine").
    pub last_cut: Vec<String>,
    /// The last failure, shown until the next question.
    pub error: Option<String>,
    /// Lines scrolled up from the bottom of the conversation.
    pub scroll: u16,
    /// The id of the last question sent.
    last_id: u64,
}

/// The answer streaming in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answering {
    pub id: u64,
    pub text: String,
}

/// What the pane's keys ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TutorAction {
    Open,
    Close,
    Type(char),
    Erase,
    Send,
    /// Esc: cancel the answer streaming in, else close the pane.
    Escape,
    ToggleMode,
    Scroll(i16),
}

/// What the app asks the shell for the tutor.
#[derive(Debug, Clone, PartialEq)]
pub enum TutorCmd {
    /// Send question `id` (the body as built) to the configured server.
    Ask {
        id: u64,
        config: Box<crate::tutor::TutorConfig>,
        body: serde_json::Value,
    },
    /// Stop the question running.
    Cancel,
    /// Read conversation `key` from the state folder; reply [`TutorMsg::Loaded`].
    Load { key: String },
    /// Write conversation `key` to the state folder.
    Save {
        key: String,
        conversation: Conversation,
    },
}

/// What comes back to the app for the tutor.
#[derive(Debug, Clone, PartialEq)]
pub enum TutorMsg {
    /// From the exchange's thread.
    Event(TutorEvent),
    /// A conversation read from the state folder, and why it could not be, if so.
    Loaded {
        key: String,
        conversation: Conversation,
        warning: Option<String>,
    },
}

/// What the pane says when the tutor key is pressed with nothing configured, naming the config
/// file where this machine would read it (`$XDG_CONFIG_HOME` moves it).
pub fn how_to_set_up() -> String {
    let file = crate::tutor::config::config_file()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "~/.config/cuda-academy/config.toml".to_string());
    format!(
        "No tutor is set up. The tutor asks a model that runs on your own machine, and only it. \
With Ollama: run `ollama serve` and `ollama pull qwen2.5-coder:7b`, then start cuda-academy \
with CUDA_ACADEMY_TUTOR_URL=http://127.0.0.1:11434 and CUDA_ACADEMY_TUTOR_MODEL=qwen2.5-coder:7b, \
or put url and model under [tutor] in {file}. \
The README's \"The tutor\" says more (llama.cpp's server too)."
    )
}

impl TutorState {
    /// A tutor is configured and usable (its key shows in the footer).
    pub fn ready(&self) -> bool {
        self.setup.ready().is_some()
    }
}

impl App {
    /// The tutor's settings, as read at start: the mode starts as they say.
    pub fn tutor_configure(&mut self, setup: Setup) {
        if let Some(config) = setup.ready() {
            self.tutor.mode = if config.direct {
                Mode::Direct
            } else {
                Mode::Socratic
            };
        }
        self.tutor.setup = setup;
    }

    /// One tutor action and its effects.
    pub(super) fn tutor_update(&mut self, action: TutorAction) -> Vec<Cmd> {
        match action {
            TutorAction::Open => self.tutor_open(),
            TutorAction::Close => self.tutor_close(),
            TutorAction::Type(c) => {
                let t = &mut self.tutor;
                if t.setup.ready().is_some() && t.input.chars().count() < MAX_QUESTION_CHARS {
                    t.input.push(c);
                }
                Vec::new()
            }
            TutorAction::Erase => {
                self.tutor.input.pop();
                Vec::new()
            }
            TutorAction::Send => self.tutor_send(),
            TutorAction::Escape => match self.tutor.answering.take() {
                Some(answer) => {
                    self.tutor_finish(answer.text, Some("[cancelled]"));
                    let key = self.tutor.key.clone();
                    let save = key.map(|key| self.tutor_save(key));
                    [Cmd::Tutor(TutorCmd::Cancel)]
                        .into_iter()
                        .chain(save)
                        .collect()
                }
                None => self.tutor_close(),
            },
            TutorAction::ToggleMode => {
                self.tutor.mode = self.tutor.mode.toggled();
                Vec::new()
            }
            TutorAction::Scroll(n) => {
                let up = i32::from(self.tutor.scroll) - i32::from(n);
                self.tutor.scroll = u16::try_from(up.max(0)).unwrap_or(u16::MAX);
                Vec::new()
            }
        }
    }

    fn tutor_open(&mut self) -> Vec<Cmd> {
        self.tutor.open = true;
        if !self.tutor.ready() {
            return Vec::new();
        }
        let key = self.tutor_key();
        if self.tutor.key.as_deref() == Some(key.as_str()) {
            return Vec::new();
        }
        // Another card or exercise: its own conversation (an answer still coming is stopped).
        let cancel = self
            .tutor
            .answering
            .take()
            .map(|_| Cmd::Tutor(TutorCmd::Cancel));
        self.tutor.key = Some(key.clone());
        self.tutor.conversation = Conversation::default();
        self.tutor.last_cut.clear();
        self.tutor.error = None;
        self.tutor.scroll = 0;
        cancel
            .into_iter()
            .chain([Cmd::Tutor(TutorCmd::Load { key })])
            .collect()
    }

    fn tutor_close(&mut self) -> Vec<Cmd> {
        self.tutor.open = false;
        Vec::new()
    }

    /// Send the typed question, grounded in what the app knows now.
    fn tutor_send(&mut self) -> Vec<Cmd> {
        let question = self.tutor.input.trim().to_string();
        let Some(config) = self.tutor.setup.ready().cloned() else {
            return Vec::new();
        };
        if question.is_empty() || self.tutor.answering.is_some() {
            return Vec::new();
        }
        let grounding = self.tutor_grounding();
        let budget = Budget {
            context_tokens: config.context_tokens,
        };
        let system = prompt::system(self.tutor.mode);
        let history = &self.tutor.conversation.turns;
        let fitted = grounding::fit(&system, &grounding, history, &question, budget);
        let body = request::body(
            config.protocol,
            &config.model,
            &fitted,
            config.context_tokens,
        );
        let t = &mut self.tutor;
        t.last_id += 1;
        t.last_cut = fitted.cut;
        t.error = None;
        t.scroll = 0;
        t.input.clear();
        t.conversation.push(Role::User, &question);
        t.answering = Some(Answering {
            id: t.last_id,
            text: String::new(),
        });
        vec![Cmd::Tutor(TutorCmd::Ask {
            id: t.last_id,
            config: Box::new(config),
            body,
        })]
    }

    /// A reply for the tutor.
    pub(super) fn on_tutor(&mut self, msg: TutorMsg) -> Vec<Cmd> {
        match msg {
            TutorMsg::Loaded {
                key,
                conversation,
                warning,
            } => {
                if self.tutor.key.as_deref() == Some(key.as_str()) && self.tutor.answering.is_none()
                {
                    self.tutor.conversation = conversation;
                }
                match warning {
                    Some(text) => self.overlay_update(OverlayAction::Banner(Banner {
                        kind: BannerKind::Warning,
                        text: format!("tutor: {text}"),
                    })),
                    None => Vec::new(),
                }
            }
            TutorMsg::Event(event) => self.on_tutor_event(event),
        }
    }

    fn on_tutor_event(&mut self, event: TutorEvent) -> Vec<Cmd> {
        let id = match &event {
            TutorEvent::Piece { id, .. }
            | TutorEvent::Done { id, .. }
            | TutorEvent::Failed { id, .. } => *id,
        };
        // A cancelled or superseded question's late events change nothing.
        let Some(answer) = self.tutor.answering.as_mut().filter(|a| a.id == id) else {
            return Vec::new();
        };
        match event {
            TutorEvent::Piece { text, .. } => {
                let room = MAX_ANSWER_CHARS.saturating_sub(answer.text.chars().count());
                answer.text.extend(text.chars().take(room));
                Vec::new()
            }
            TutorEvent::Done { ending, .. } => {
                let text = self
                    .tutor
                    .answering
                    .take()
                    .map(|a| a.text)
                    .unwrap_or_default();
                let note = match ending {
                    Ending::Done | Ending::Closed => None,
                    Ending::Cancelled => Some("[cancelled]"),
                    Ending::TooLong => Some("[cut: the answer was too long]"),
                };
                self.tutor_finish(text, note);
                self.tutor
                    .key
                    .clone()
                    .map(|key| self.tutor_save(key))
                    .into_iter()
                    .collect()
            }
            TutorEvent::Failed { message, .. } => {
                let partial = self
                    .tutor
                    .answering
                    .take()
                    .map(|a| a.text)
                    .unwrap_or_default();
                if partial.is_empty() {
                    // Nothing came: the question goes back into the field, to send again.
                    if let Some(turn) = self.tutor.conversation.turns.pop() {
                        self.tutor.input = turn.text;
                    }
                } else {
                    self.tutor_finish(partial, Some("[interrupted]"));
                }
                self.tutor.error = Some(message);
                Vec::new()
            }
        }
    }

    /// The answer (with a note on how it ended) becomes the conversation's next turn.
    fn tutor_finish(&mut self, text: String, note: Option<&str>) {
        let text = match note {
            Some(note) if text.is_empty() => note.to_string(),
            Some(note) => format!("{text} {note}"),
            None => text,
        };
        self.tutor.conversation.push(Role::Assistant, &text);
    }

    fn tutor_save(&self, key: String) -> Cmd {
        Cmd::Tutor(TutorCmd::Save {
            key,
            conversation: self.tutor.conversation.clone(),
        })
    }
}

#[cfg(test)]
mod tests;
