//! Code highlighting warm-up. Loading syntect's syntaxes and compiling the first regexes takes
//! tens of milliseconds, so it runs off the UI thread and reports back with
//! [`Msg::HighlightReady`]; until then cards render with plain code, and the first frame never
//! waits for it.

use std::sync::mpsc::Sender;

use super::Event;
use crate::app::Msg;

/// Start the warm-up; [`Msg::HighlightReady`] arrives when it is done.
pub fn spawn_highlight_warmup(tx: Sender<Event>) {
    let spawned = std::thread::Builder::new()
        .name("highlight-warmup".into())
        .spawn({
            let tx = tx.clone();
            move || {
                crate::highlight::warm_up();
                let _ = tx.send(Event::App(Msg::HighlightReady));
            }
        });
    // Without a thread, code simply stays plain; say "ready" so nothing waits for it.
    if spawned.is_err() {
        let _ = tx.send(Event::App(Msg::HighlightReady));
    }
}
