//! Keys that arrived together are typed together. Without bracketed paste (a terminal that
//! lacks it, a paste tool that types the keys) a paste is one key event per character, and each
//! edit of the text area costs a pass over the whole file (the widget rebuilds its screen map,
//! the editor re-pairs the checked lines): 300 KB took 126 s. A run of plain typing keys already
//! queued when the loop gets to them (no hand types two keys within one turn of the loop) goes
//! to the editor as one insertion, as a bracketed paste does: the whole-file work is paid once
//! per turn of the loop, not once per key, and the loop keeps up however long the paste is.
//!
//! Like a bracketed paste the run is inserted as it came: Enter is a newline without the
//! auto-indent of a typed Enter (the pasted text brings its own indentation, which auto-indent
//! would double), Tab a tab, and the run is one undo step. A key on its own is typed as before.

use std::iter::Peekable;

use ratatui::crossterm::event::KeyEvent;

use super::Event;
use crate::app::{App, Msg};

/// The event for `key` and the plain typing keys queued right behind it: the key itself when
/// it is not typing or nothing of the kind follows, else the run's text as one paste.
pub fn run(app: &App, key: KeyEvent, queued: &mut Peekable<impl Iterator<Item = Event>>) -> Event {
    let Some(first) = app.typed_char(&key) else {
        return Event::App(Msg::Key(key));
    };
    let mut text = String::from(first);
    while let Some(c) = queued.peek().and_then(|next| match next {
        Event::App(Msg::Key(k)) => app.typed_char(k),
        _ => None,
    }) {
        text.push(c);
        queued.next();
    }
    if text.chars().nth(1).is_none() {
        // Alone: typed as a key (auto-indent and all).
        Event::App(Msg::Key(key))
    } else {
        Event::App(Msg::Paste(text))
    }
}
