//! Code highlighting warm-up. Loading syntect's syntaxes takes tens of milliseconds, so it runs
//! off the UI thread and reports back with [`Msg::HighlightReady`]; until then cards render with
//! plain code, and the first frame never waits for it.
//!
//! The warm-up itself is `crate::highlight::warm_up`, called here on a worker thread once the
//! highlighting module provides it; this build has only the message.

use std::sync::mpsc::Sender;

use super::Event;
use crate::app::Msg;

/// Start the warm-up; [`Msg::HighlightReady`] arrives when it is done.
pub fn spawn_highlight_warmup(tx: Sender<Event>) {
    let _ = tx.send(Event::App(Msg::HighlightReady));
}
