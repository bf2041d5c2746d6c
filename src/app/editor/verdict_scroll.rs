//! How far the verdict pane (verdict, hints, solution) is scrolled. At 80x24 the pane is 6
//! lines, so what Ctrl-T and Ctrl-G add would be out of sight without it (review 2026-12-01).
//!
//! The update asks; the view, which alone knows how the text wraps, answers: keys and the wheel
//! move the offset within the bound the last drawing left ([`VerdictScroll::drawn`]), and a
//! [`Reveal`] asked by Ctrl-T, Ctrl-G or a new verdict is resolved by the next drawing into an
//! offset. Cells, as the code's own `scroll`: what the view fills in is a pure function
//! of the text, the width and the request, so drawing twice changes nothing.

use std::cell::Cell;

use ratatui::layout::Rect;

use super::EditorState;

/// What a change of the verdict pane's text asks to be in view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reveal {
    /// The start: a new verdict, a check started, the solution shown or hidden.
    Top,
    /// The hint just added (Ctrl-T): its heading at the top, as much of it as fits below.
    LastHint,
}

/// The verdict pane's scroll position, and what the view last drew of it.
#[derive(Debug, Default)]
pub struct VerdictScroll {
    offset: Cell<u16>,
    max: Cell<u16>,
    area: Cell<Rect>,
    reveal: Cell<Option<Reveal>>,
}

impl VerdictScroll {
    /// The first line shown.
    pub fn offset(&self) -> u16 {
        self.offset.get()
    }

    /// Ask the next drawing to bring `what` into view.
    pub fn reveal(&self, what: Reveal) {
        self.reveal.set(Some(what));
    }

    /// Scroll by `lines` (negative: up), within what the last drawing showed.
    pub fn scroll(&self, lines: i32) {
        let max = i32::from(self.max.get());
        let to = (i32::from(self.offset.get()) + lines).clamp(0, max);
        self.offset.set(u16::try_from(to).unwrap_or(0));
    }

    /// A page: the lines the pane showed, less one of context.
    pub fn page(&self) -> i32 {
        let rows = self.area.get().height.saturating_sub(2);
        i32::from(rows.saturating_sub(1).max(1))
    }

    /// Where the pane was last drawn (empty when it is not on screen, as when the timeline is
    /// in its place): the mouse wheel scrolls it over there.
    pub fn area(&self) -> Rect {
        self.area.get()
    }

    /// For the view: the request not yet resolved, taken.
    pub fn take_reveal(&self) -> Option<Reveal> {
        self.reveal.take()
    }

    /// For the view: the pane is drawn in `area` with `lines` lines of text in `rows` rows;
    /// the offset is kept within them (or set to `to`, a resolved [`Reveal`]) and returned.
    pub fn drawn(&self, area: Rect, lines: usize, rows: u16, to: Option<usize>) -> u16 {
        let max = u16::try_from(lines.saturating_sub(usize::from(rows))).unwrap_or(u16::MAX);
        let wanted = to.map_or(self.offset.get(), |l| u16::try_from(l).unwrap_or(u16::MAX));
        self.max.set(max);
        self.area.set(area);
        self.offset.set(wanted.min(max));
        self.offset.get()
    }

    /// For the view: the pane is not on screen.
    pub fn hidden(&self) {
        self.area.set(Rect::default());
    }
}

/// Ctrl-G, allowed: the solution in the pane, from its first line.
pub(super) fn show_solution(ed: &mut EditorState) {
    ed.show_solution = true;
    ed.verdict_scroll.reveal(Reveal::Top);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrolling_stays_within_what_was_drawn() {
        let s = VerdictScroll::default();
        s.scroll(5);
        assert_eq!(s.offset(), 0, "nothing drawn yet: nothing to scroll");
        assert_eq!(s.drawn(Rect::new(0, 0, 40, 8), 20, 6, None), 0);
        s.scroll(100);
        assert_eq!(s.offset(), 14, "20 lines in 6 rows");
        s.scroll(-3);
        assert_eq!(s.offset(), 11);
        assert_eq!(s.page(), 5);
        // A wider pane after a resize: fewer lines, the offset follows.
        assert_eq!(s.drawn(Rect::new(0, 0, 80, 8), 9, 6, None), 3);
    }

    #[test]
    fn a_reveal_is_resolved_once_by_the_view() {
        let s = VerdictScroll::default();
        s.reveal(Reveal::LastHint);
        assert_eq!(s.take_reveal(), Some(Reveal::LastHint));
        assert_eq!(s.take_reveal(), None);
        // The hint's heading on line 12 of 15, in 6 rows: as far as the text goes.
        assert_eq!(s.drawn(Rect::new(0, 0, 40, 8), 15, 6, Some(12)), 9);
        s.hidden();
        assert_eq!(s.area(), Rect::default());
    }
}
