//! The thread an exchange runs on, so the UI never waits on the network: as the experiment
//! worker (`crate::worker`), it reports by events through a callback the shell turns into
//! messages, and a cancel flag stops it at its next line.
//!
//! One thread per question rather than one long-lived thread: a stalled server holds its
//! thread in a read until the per-read time limit, and the learner's next question must not
//! queue behind it. [`TutorWorker::cancel`] sets the flag and forgets the question at once, so
//! the UI is free immediately; the stalled thread ends at its time limit, and whatever it sends
//! then carries an id the app no longer waits for.
//!
//! Everything that leaves here is clean for the terminal: pieces through
//! [`crate::sanitize::clean`] (newlines kept, a lone carriage return dropped), errors through
//! [`crate::sanitize::clean_line`] and cut to [`MAX_ERROR_CHARS`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::client::{self, Ending};
use super::config::TutorConfig;

/// The thread's name (in a crash log).
pub const THREAD_NAME: &str = "tutor";
/// The most of an error message shown.
pub const MAX_ERROR_CHARS: usize = 400;

/// What the tutor thread tells the UI about question `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TutorEvent {
    /// More of the answer, clean.
    Piece { id: u64, text: String },
    /// The answer ended.
    Done { id: u64, ending: Ending },
    /// The exchange failed: why, clean and bounded.
    Failed { id: u64, message: String },
}

/// Where events go (the shell sends them to the event loop).
pub type Emit = Arc<dyn Fn(TutorEvent) + Send + Sync>;

/// Starts exchanges and cancels them.
pub struct TutorWorker {
    emit: Emit,
    current: Option<(u64, Arc<AtomicBool>)>,
}

impl TutorWorker {
    /// A worker whose events go to `emit` (called on the exchange's thread).
    pub fn new(emit: impl Fn(TutorEvent) + Send + Sync + 'static) -> TutorWorker {
        TutorWorker {
            emit: Arc::new(emit),
            current: None,
        }
    }

    /// Ask question `id` with `body` on a new thread (an earlier question still running is
    /// cancelled first). A thread that cannot be started is reported as a failure event.
    pub fn ask(&mut self, id: u64, config: TutorConfig, body: serde_json::Value) {
        self.cancel();
        let cancel = Arc::new(AtomicBool::new(false));
        self.current = Some((id, Arc::clone(&cancel)));
        let emit = Arc::clone(&self.emit);
        let spawned = std::thread::Builder::new()
            .name(THREAD_NAME.to_string())
            .spawn(move || run(id, &config, &body, &cancel, &*emit));
        if let Err(err) = spawned {
            (self.emit)(failed(
                id,
                &format!("cannot start the tutor's thread: {err}"),
            ));
        }
    }

    /// Stop the running question, if any, at its next line.
    pub fn cancel(&mut self) {
        if let Some((_, flag)) = self.current.take() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// The question running, if any.
    pub fn running(&self) -> Option<u64> {
        self.current.as_ref().map(|(id, _)| *id)
    }
}

impl Drop for TutorWorker {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// One exchange, reported through `emit`.
fn run(
    id: u64,
    config: &TutorConfig,
    body: &serde_json::Value,
    cancel: &AtomicBool,
    emit: &dyn Fn(TutorEvent),
) {
    let mut piece = |text: &str| {
        let text = crate::sanitize::clean(&text.replace('\r', "")).into_owned();
        emit(TutorEvent::Piece { id, text });
    };
    let event = match client::ask(config, body, cancel, &mut piece) {
        Ok(ending) => TutorEvent::Done { id, ending },
        Err(fault) => failed(id, &fault.to_string()),
    };
    emit(event);
}

fn failed(id: u64, message: &str) -> TutorEvent {
    let clean = crate::sanitize::clean_line(message);
    TutorEvent::Failed {
        id,
        message: crate::text_fit::truncate(&clean, MAX_ERROR_CHARS),
    }
}
