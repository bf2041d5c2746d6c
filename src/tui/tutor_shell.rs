//! The tutor's side effects ([`TutorCmd`]): questions handed to the [`TutorWorker`] (its
//! events come back as [`Msg::Tutor`]), conversations read from and written to the state
//! folder (`crate::tutor::store`). A save that fails costs only the conversation, never the
//! tutorial: it shows as a banner.

use std::path::PathBuf;
use std::sync::mpsc::Sender;

use super::Event;
use crate::app::tutor::{TutorCmd, TutorMsg};
use crate::app::{App, Banner, BannerKind, Cmd, Msg};
use crate::tutor::{TutorWorker, store};

/// Carries out the tutor's commands.
pub struct TutorShell {
    worker: TutorWorker,
    state_dir: Option<PathBuf>,
}

impl TutorShell {
    /// A shell whose exchanges report on `tx`; conversations live under `state_dir`.
    pub fn start(state_dir: Option<PathBuf>, tx: &Sender<Event>) -> TutorShell {
        let tx = tx.clone();
        let worker = TutorWorker::new(move |event| {
            let _ = tx.send(Event::App(Msg::Tutor(TutorMsg::Event(event))));
        });
        TutorShell { worker, state_dir }
    }

    /// Carry out `cmd`; what the app answers.
    pub fn carry_out(&mut self, app: &mut App, cmd: TutorCmd) -> Vec<Cmd> {
        match cmd {
            TutorCmd::Ask { id, config, body } => {
                self.worker.ask(id, *config, body);
                Vec::new()
            }
            TutorCmd::Cancel => {
                self.worker.cancel();
                Vec::new()
            }
            TutorCmd::Load { key } => {
                let Some(dir) = &self.state_dir else {
                    return Vec::new();
                };
                let (conversation, warning) = store::load(dir, &key);
                app.update(Msg::Tutor(TutorMsg::Loaded {
                    key,
                    conversation,
                    warning,
                }))
            }
            TutorCmd::Save { key, conversation } => {
                let Some(dir) = &self.state_dir else {
                    return Vec::new();
                };
                match store::save(dir, &key, &conversation) {
                    Ok(()) => Vec::new(),
                    Err(err) => app.update(Msg::Banner(Banner {
                        kind: BannerKind::Warning,
                        text: format!(
                            "the tutor's conversation was not saved ({}): it stays on screen",
                            crate::sanitize::clean_line(&err.to_string())
                        ),
                    })),
                }
            }
        }
    }
}
