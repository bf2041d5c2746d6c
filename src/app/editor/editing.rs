//! The desktop editing keys as one sub-state's actions: [`EditOp`] is what `dispatch::route`
//! sends for the editor's text (moves, selection, undo, the clipboard, find, comments, the
//! mouse), and [`edit`] carries one out on the text area, answering with what the shell must do
//! ([`EditEffect`]: the system clipboard through OSC 52, a save). The state it keeps beside the
//! text is [`Editing`]: the undo steps, the internal clipboard, the find bar and where the view
//! drew the code.

use std::cell::Cell;

use ratatui_textarea::{CursorMove, TextArea};

use super::find::{Find, FindOp};
use super::undo::{EditKind, Snapshot, Undo};
use super::{comment, indent, put_cursor, text_area};
use crate::keymap::Motion;

/// Where the view drew the code: its first column and row on screen, its size, the first line
/// and column shown and the gutter's width (the view records it each frame, as `scroll`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CodeView {
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
    pub top: usize,
    pub left: usize,
    pub gutter: u16,
}

/// What the editing model keeps beside the text.
#[derive(Debug, Default)]
pub struct Editing {
    /// Undo and redo steps.
    pub undo: Undo,
    /// What Ctrl-X and Ctrl-C took, for Ctrl-V (the system clipboard gets it too, where the
    /// terminal allows OSC 52; a paste from it arrives as a bracketed paste).
    pub clipboard: String,
    /// The find bar (Ctrl-F), while open.
    pub find: Option<Find>,
    /// Where the code was drawn last.
    pub view: Cell<CodeView>,
}

impl Editing {
    /// Whether screen cell `at` is in the code the view drew.
    pub fn in_code(&self, at: ratatui::layout::Position) -> bool {
        let v = self.view.get();
        ratatui::layout::Rect::new(v.x, v.y, v.width, v.height).contains(at)
    }
}

/// One editing action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditOp {
    Move(Motion),
    Select(Motion),
    Insert(char),
    Newline,
    Indent,
    DeleteBack,
    DeleteForward,
    DeleteWordBack,
    DeleteWordForward,
    Undo,
    Redo,
    Cut,
    Copy,
    Paste,
    SelectAll,
    Comment,
    Find(FindOp),
    /// A left click at a screen cell: the cursor goes there.
    Click {
        column: u16,
        row: u16,
    },
    /// The mouse dragged with the button down: the selection reaches there.
    Drag {
        column: u16,
        row: u16,
    },
}

/// What an edit asks of the rest of the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditEffect {
    None,
    /// The text changed (the verdict's line marks follow it).
    Changed,
    /// Put this on the system clipboard (OSC 52).
    Clipboard(String),
}

/// Carry out `op` on `area` with `state`.
pub fn edit(area: &mut TextArea<'static>, state: &mut Editing, op: EditOp) -> EditEffect {
    let changed = match op {
        EditOp::Move(m) => cursor(area, false, |a| motion(a, state, m)),
        EditOp::Select(m) => cursor(area, true, |a| motion(a, state, m)),
        EditOp::Click { column, row } => cursor(area, false, |a| place(a, state, column, row)),
        EditOp::Drag { column, row } => cursor(area, true, |a| place(a, state, column, row)),
        EditOp::Insert(c) => changed(area, state, EditKind::Insert(c), |a| {
            indent::type_char(a, c);
        }),
        EditOp::Newline => changed(area, state, EditKind::Other, indent::newline),
        EditOp::Indent => changed(area, state, EditKind::Insert(' '), |a| {
            a.insert_tab();
        }),
        EditOp::DeleteBack => changed(area, state, EditKind::Delete, |a| {
            a.delete_char();
        }),
        EditOp::DeleteForward => changed(area, state, EditKind::Delete, |a| {
            a.delete_next_char();
        }),
        EditOp::DeleteWordBack => changed(area, state, EditKind::Other, |a| delete_word(a, true)),
        EditOp::DeleteWordForward => {
            changed(area, state, EditKind::Other, |a| delete_word(a, false))
        }
        EditOp::Undo => restore(area, state, true),
        EditOp::Redo => restore(area, state, false),
        EditOp::Cut => return cut(area, state),
        EditOp::Copy => return copy(area, state),
        EditOp::Paste => paste(area, state),
        EditOp::SelectAll => {
            area.select_all();
            false
        }
        EditOp::Comment => {
            state.undo.before(area, EditKind::Other);
            comment::toggle(area)
        }
        EditOp::Find(op) => {
            super::find::apply(area, &mut state.find, op);
            false
        }
    };
    if changed {
        EditEffect::Changed
    } else {
        if !matches!(op, EditOp::Insert(_) | EditOp::Indent) {
            state.undo.pause();
        }
        EditEffect::None
    }
}

/// A move of the cursor by `f`: extending the selection when `selecting`, else dropping it.
/// The text does not change.
fn cursor(
    area: &mut TextArea<'static>,
    selecting: bool,
    f: impl FnOnce(&mut TextArea<'static>),
) -> bool {
    if !selecting {
        area.cancel_selection();
    } else if !area.is_selecting() {
        area.start_selection();
    }
    f(area);
    false
}

/// Deletes the word before the cursor (`back`) or after it; a selection goes as with
/// Backspace.
fn delete_word(area: &mut TextArea<'static>, back: bool) {
    if area.is_selecting() {
        area.delete_char();
    } else if back {
        area.delete_word();
    } else {
        area.delete_next_word();
    }
}

/// Copies the selection (or the line) to the editor's clipboard and the system's.
fn copy(area: &TextArea<'static>, state: &mut Editing) -> EditEffect {
    let text = selected_or_line(area);
    state.clipboard.clone_from(&text);
    EditEffect::Clipboard(text)
}

/// Pastes the editor's clipboard (nothing when it is empty).
fn paste(area: &mut TextArea<'static>, state: &mut Editing) -> bool {
    if state.clipboard.is_empty() {
        return false;
    }
    let text = state.clipboard.clone();
    changed(area, state, EditKind::Other, |a| {
        a.insert_str(text);
    })
}

/// An edit of `kind` as one undo step (or part of the open one).
fn changed(
    area: &mut TextArea<'static>,
    state: &mut Editing,
    kind: EditKind,
    f: impl FnOnce(&mut TextArea<'static>),
) -> bool {
    state.undo.before(area, kind);
    f(area);
    true
}

/// Undo (`back`) or redo: put the text and cursor of the step back.
fn restore(area: &mut TextArea<'static>, state: &mut Editing, back: bool) -> bool {
    let now = Snapshot::of(area);
    let step = if back {
        state.undo.undo(now)
    } else {
        state.undo.redo(now)
    };
    let Some(step) = step else {
        return false;
    };
    *area = text_area(&(step.lines.join("\n") + "\n"));
    put_cursor(area, step.cursor);
    true
}

/// Ctrl-X: the selection, else the cursor's line, to the clipboard and out of the text.
fn cut(area: &mut TextArea<'static>, state: &mut Editing) -> EditEffect {
    let text = selected_or_line(area);
    state.clipboard.clone_from(&text);
    state.undo.before(area, EditKind::Other);
    if area.is_selecting() {
        area.cut();
    } else {
        let row = area.cursor().0;
        let mut lines = area.lines().to_vec();
        if row < lines.len() {
            lines.remove(row);
        }
        *area = text_area(&(lines.join("\n") + "\n"));
        put_cursor(area, (row, 0));
    }
    EditEffect::Clipboard(text)
}

/// The selected text, or the cursor's whole line with its newline when nothing is selected (as
/// VS Code copies and cuts).
pub fn selected_or_line(area: &TextArea<'static>) -> String {
    let lines = area.lines();
    let Some(((r0, c0), (r1, c1))) = area.selection_range() else {
        let row = area.cursor().0;
        return lines.get(row).map_or(String::new(), |l| format!("{l}\n"));
    };
    let mut out = String::new();
    for (row, line) in lines.iter().enumerate().take(r1 + 1).skip(r0) {
        let from = if row == r0 { c0 } else { 0 };
        let to = if row == r1 { c1 } else { line.chars().count() };
        out.extend(line.chars().skip(from).take(to.saturating_sub(from)));
        if row != r1 {
            out.push('\n');
        }
    }
    out
}

/// Move the cursor by `m` (a page is the height the view drew, and scrolls with the cursor).
fn motion(area: &mut TextArea<'static>, state: &Editing, m: Motion) {
    let page = usize::from(state.view.get().height.max(2)) - 1;
    let (row, col) = (area.cursor().0, area.cursor().1);
    let to_row = |r: usize| u16::try_from(r).unwrap_or(u16::MAX);
    let col16 = u16::try_from(col).unwrap_or(u16::MAX);
    let moved = match m {
        Motion::Left => CursorMove::Back,
        Motion::Right => CursorMove::Forward,
        Motion::Up => CursorMove::Up,
        Motion::Down => CursorMove::Down,
        Motion::WordLeft => CursorMove::WordBack,
        Motion::WordRight => CursorMove::WordForward,
        Motion::LineStart => CursorMove::Head,
        Motion::LineEnd => CursorMove::End,
        Motion::ParagraphUp => CursorMove::ParagraphBack,
        Motion::ParagraphDown => CursorMove::ParagraphForward,
        Motion::FileStart => CursorMove::Top,
        Motion::FileEnd => CursorMove::Bottom,
        Motion::PageUp | Motion::PageDown => {
            let target = if m == Motion::PageUp {
                row.saturating_sub(page)
            } else {
                (row + page).min(area.lines().len().saturating_sub(1))
            };
            // The view scrolls by the same page, so the cursor keeps its place on screen.
            let mut view = state.view.get();
            view.top = if m == Motion::PageUp {
                view.top.saturating_sub(page)
            } else {
                view.top + (target - row)
            };
            state.view.set(view);
            CursorMove::Jump(to_row(target), col16)
        }
    };
    area.move_cursor(moved);
    if matches!(m, Motion::FileEnd) {
        area.move_cursor(CursorMove::End);
    }
    if matches!(m, Motion::FileStart) {
        area.move_cursor(CursorMove::Head);
    }
}

/// The cursor to the text under screen cell (`column`, `row`), as near as the text allows.
fn place(area: &mut TextArea<'static>, state: &Editing, column: u16, row: u16) {
    let v = state.view.get();
    let line = v.top + usize::from(row.saturating_sub(v.y));
    let col = v.left + usize::from(column.saturating_sub(v.x + v.gutter));
    put_cursor(area, (line, col));
}
