//! [`Motion`]: where a cursor move in the editor goes (the same motion moves, or with Shift
//! extends the selection).

/// Where the editor's cursor goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Motion {
    Left,
    Right,
    Up,
    Down,
    WordLeft,
    WordRight,
    LineStart,
    LineEnd,
    ParagraphUp,
    ParagraphDown,
    PageUp,
    PageDown,
    FileStart,
    FileEnd,
}

impl Motion {
    /// Its name in the help (neighbouring rows of one name share a line).
    pub fn name(self) -> &'static str {
        match self {
            Motion::Left | Motion::Right | Motion::Up | Motion::Down => "move",
            Motion::WordLeft | Motion::WordRight => "word",
            Motion::LineStart | Motion::LineEnd => "line start / end",
            Motion::ParagraphUp | Motion::ParagraphDown => "paragraph",
            Motion::PageUp | Motion::PageDown => "page",
            Motion::FileStart | Motion::FileEnd => "top / bottom",
        }
    }

    /// Its name with Shift held.
    pub fn select_name(self) -> &'static str {
        match self {
            Motion::Left | Motion::Right | Motion::Up | Motion::Down => "select",
            Motion::WordLeft | Motion::WordRight => "select word",
            Motion::LineStart | Motion::LineEnd => "select to start / end",
            Motion::ParagraphUp | Motion::ParagraphDown => "select paragraph",
            Motion::PageUp | Motion::PageDown => "select page",
            Motion::FileStart | Motion::FileEnd => "select to top / bottom",
        }
    }

    /// What the help says of it.
    pub fn description(self) -> &'static str {
        match self {
            Motion::Left | Motion::Right | Motion::Up | Motion::Down => {
                "the cursor; Shift selects, typing replaces it"
            }
            Motion::WordLeft | Motion::WordRight => "a word left / right",
            Motion::LineStart | Motion::LineEnd => "of the line",
            Motion::ParagraphUp | Motion::ParagraphDown => "to a blank line up / down",
            Motion::PageUp | Motion::PageDown => "scroll a page, the cursor with it",
            Motion::FileStart | Motion::FileEnd => "of the file",
        }
    }
}
