//! Undo and redo as a code editor groups them: a word typed, a run of deletions, a paste or a
//! cut is one step, and a pause (the editor's tick) or a move of the cursor ends a step. A step
//! keeps the text and the cursor as they were before it ([`Snapshot`]); the widget's own
//! history, one keystroke a step, is not used.

use ratatui_textarea::TextArea;

/// The most steps kept, and the most bytes of text they may hold together (the oldest go
/// first): a 1 MB file must not keep hundreds of copies.
const MAX_STEPS: usize = 500;
const MAX_BYTES: usize = 16 << 20;

/// The text and cursor before a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub lines: Vec<String>,
    pub cursor: (usize, usize),
}

impl Snapshot {
    /// What `area` holds now.
    pub fn of(area: &TextArea<'static>) -> Snapshot {
        let c = area.cursor();
        Snapshot {
            lines: area.lines().to_vec(),
            cursor: (c.0, c.1),
        }
    }

    fn bytes(&self) -> usize {
        self.lines.iter().map(|l| l.len() + 1).sum()
    }
}

/// What kind of edit is about to happen; a step holds edits of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditKind {
    /// A character typed (the character).
    Insert(char),
    /// Backspace or Delete.
    Delete,
    /// Anything else (paste, cut, comment, a new line): a step of its own.
    Other,
}

/// The editor's undo and redo stacks.
#[derive(Debug, Default)]
pub struct Undo {
    done: Vec<Snapshot>,
    undone: Vec<Snapshot>,
    /// The kind of the step being added to; `None`: the next edit starts a step.
    open: Option<EditKind>,
    /// Ticks since the last edit.
    idle: u32,
}

/// Ticks (the event loop's, 120 ms apart when no key comes) of no typing that end a step.
const PAUSE_TICKS: u32 = 8;

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl Undo {
    /// Before an edit of `kind` to `area`: start a step unless it goes on the open one.
    pub fn before(&mut self, area: &TextArea<'static>, kind: EditKind) {
        let goes_on = match (self.open, kind) {
            // A word goes on while letters follow letters, and spaces follow spaces.
            (Some(EditKind::Insert(prev)), EditKind::Insert(c)) => is_word(prev) == is_word(c),
            (Some(EditKind::Delete), EditKind::Delete) => true,
            _ => false,
        };
        if !goes_on {
            self.push(Snapshot::of(area));
        }
        self.open = (kind != EditKind::Other).then_some(kind);
        self.idle = 0;
        self.undone.clear();
    }

    /// A tick of the clock with no key: a long enough pause ends the step in progress.
    pub fn tick(&mut self) {
        self.idle = self.idle.saturating_add(1);
        if self.idle >= PAUSE_TICKS {
            self.open = None;
        }
    }

    /// The step in progress ends (a move of the cursor, any key that is not typing).
    pub fn pause(&mut self) {
        self.open = None;
    }

    fn push(&mut self, snap: Snapshot) {
        self.done.push(snap);
        let mut bytes: usize = self.done.iter().map(Snapshot::bytes).sum();
        while self.done.len() > 1 && (self.done.len() > MAX_STEPS || bytes > MAX_BYTES) {
            bytes -= self.done.remove(0).bytes();
        }
    }

    /// Undo: the text before the last step (`now` goes on the redo stack); `None` when there
    /// is nothing to undo.
    pub fn undo(&mut self, now: Snapshot) -> Option<Snapshot> {
        let before = self.done.pop()?;
        self.undone.push(now);
        self.open = None;
        Some(before)
    }

    /// Redo: the text the last undo took back.
    pub fn redo(&mut self, now: Snapshot) -> Option<Snapshot> {
        let after = self.undone.pop()?;
        self.done.push(now);
        self.open = None;
        Some(after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(text: &str) -> TextArea<'static> {
        TextArea::new(text.lines().map(str::to_string).collect())
    }

    fn typed(undo: &mut Undo, a: &mut TextArea<'static>, text: &str) {
        for c in text.chars() {
            undo.before(a, EditKind::Insert(c));
            a.insert_char(c);
        }
    }

    fn restore(a: &mut TextArea<'static>, s: Snapshot) {
        *a = TextArea::new(s.lines);
    }

    #[test]
    fn typing_undoes_a_word_at_a_time_and_redo_puts_it_back() {
        let mut undo = Undo::default();
        let mut a = area("");
        typed(&mut undo, &mut a, "int x");
        assert_eq!(a.lines(), ["int x"]);
        let back = undo.undo(Snapshot::of(&a)).expect("a step");
        restore(&mut a, back);
        assert_eq!(a.lines(), ["int "], "the last word goes");
        let back = undo.undo(Snapshot::of(&a)).expect("a step");
        restore(&mut a, back);
        assert_eq!(a.lines(), ["int"], "then the space");
        let again = undo.redo(Snapshot::of(&a)).expect("a redo");
        restore(&mut a, again);
        assert_eq!(a.lines(), ["int "]);
    }

    #[test]
    fn a_pause_ends_a_step_and_a_new_edit_clears_redo() {
        let mut undo = Undo::default();
        let mut a = area("");
        typed(&mut undo, &mut a, "ab");
        undo.tick();
        typed(&mut undo, &mut a, "x");
        assert_eq!(undo.done.len(), 1, "one tick is not a pause");
        for _ in 0..PAUSE_TICKS {
            undo.tick();
        }
        a = area("ab");
        typed(&mut undo, &mut a, "cd");
        let back = undo.undo(Snapshot::of(&a)).expect("a step");
        restore(&mut a, back);
        assert_eq!(a.lines(), ["ab"]);
        typed(&mut undo, &mut a, "x");
        assert!(
            undo.redo(Snapshot::of(&a)).is_none(),
            "typing drops the redo"
        );
        for _ in 0..3 {
            if let Some(s) = undo.undo(Snapshot::of(&a)) {
                restore(&mut a, s);
            }
        }
        assert_eq!(a.lines(), [""]);
        assert!(undo.undo(Snapshot::of(&a)).is_none());
    }
}
