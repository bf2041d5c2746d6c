//! Navigation as a sub-state ([`NavState`], [`NavAction`]): the open lesson and card, the card's
//! scroll, which pane has the focus, and the lesson list's selection. Its update is pure: what it
//! needs to know (card counts, where each lesson was left, whether the list is a sidebar) comes in
//! a [`NavContext`], and what the rest of the app must do comes back as a [`NavEffect`] (a card
//! was opened: record it as seen; a new lesson: reset the quiz and the panel).

use crate::lesson::{Catalog, LessonEntry};
use crate::progress::Progress;

pub use crate::panes::Focus;

/// Where the learner is. See the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavState {
    /// Open lesson (index into `catalog.entries`).
    pub lesson: usize,
    /// Open card within the lesson (0-based).
    pub card: usize,
    /// First visible line of the card.
    pub card_scroll: u16,
    /// Columns the card's code is scrolled sideways (code is cut at the edge, never wrapped).
    pub code_scroll: u16,
    /// The pane that takes the keys.
    pub focus: Focus,
    /// Selected row of the lesson list.
    pub list_selected: usize,
    /// `z`: the focused pane fills the body (the others come back with `z` again). At 80x24
    /// lesson 4's compared timelines need more rows than the panel's share.
    pub zoomed: bool,
}

impl Default for NavState {
    fn default() -> Self {
        NavState {
            lesson: 0,
            card: 0,
            card_scroll: 0,
            code_scroll: 0,
            focus: Focus::Cards,
            list_selected: 0,
            zoomed: false,
        }
    }
}

/// What the learner can ask of navigation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NavAction {
    /// Open `card` of lesson `lesson` (clamped to the lesson).
    Open { lesson: usize, card: usize },
    /// The next card, into the next lesson after the last.
    NextCard,
    /// The previous card, into the previous lesson's last before the first.
    PrevCard,
    /// Lesson `n` (0-based), where the learner left it; closes the list overlay.
    JumpLesson(usize),
    /// Tab / Shift-Tab: the next or previous pane.
    CycleFocus { forward: bool },
    /// A click: focus this pane.
    Focus(Focus),
    /// `l`: open or leave the lesson list.
    ToggleLessons,
    /// Up/Down in the lesson list.
    MoveSelection(i32),
    /// Enter in the lesson list.
    OpenSelected,
    /// Scroll the card by `lines`, at most to `max`.
    ScrollCard { lines: i32, max: u16 },
    /// Esc on the main screen: leave the lesson list (else the rest of the app has it).
    Close,
    /// `z`: the focused pane fills the body, or the layout comes back.
    ToggleZoom,
}

/// What navigation needs to know of the rest of the app.
#[derive(Debug, Clone, Copy)]
pub struct NavContext<'a> {
    /// The lessons (card counts).
    pub catalog: &'a Catalog,
    /// Where each lesson was left.
    pub progress: &'a Progress,
    /// Whether the lesson list is a sidebar at this size (else an overlay that a jump closes).
    pub sidebar: bool,
}

impl NavContext<'_> {
    /// Cards in lesson `idx` (a broken lesson shows one page: its diagnostics).
    pub fn card_count(&self, idx: usize) -> usize {
        match self.catalog.entries.get(idx) {
            Some(LessonEntry::Ok(lesson)) => lesson.cards.len().max(1),
            Some(LessonEntry::Broken { .. }) => 1,
            None => 0,
        }
    }

    /// The card lesson `idx` was left at, clamped to the lesson.
    pub fn saved_card(&self, idx: usize) -> usize {
        let key = self.catalog.entries.get(idx).map(|e| e.key());
        let card = key
            .and_then(|k| self.progress.lessons.get(k))
            .map_or(0, |p| p.card);
        card.min(self.card_count(idx).saturating_sub(1))
    }
}

/// What the rest of the app does after a navigation action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NavEffect {
    /// Nothing more.
    None,
    /// A card was opened: record it as seen; `new_lesson` when the lesson changed.
    Opened { new_lesson: bool },
    /// Esc with no lesson list to leave: the next thing Esc closes is the app's.
    Unhandled,
}

impl NavState {
    /// Carry out `action`.
    pub fn update(&mut self, action: NavAction, ctx: &NavContext) -> NavEffect {
        match action {
            NavAction::Open { lesson, card } => return self.open(lesson, card, ctx),
            NavAction::NextCard => return self.next_card(ctx),
            NavAction::PrevCard => return self.prev_card(ctx),
            NavAction::JumpLesson(idx) => return self.jump(idx, ctx),
            NavAction::CycleFocus { forward } => self.cycle_focus(forward, ctx.sidebar),
            NavAction::Focus(focus) => self.focus = focus,
            NavAction::ToggleZoom => self.zoomed = !self.zoomed,
            NavAction::ToggleLessons if self.focus == Focus::Lessons => self.focus = Focus::Cards,
            NavAction::ToggleLessons => {
                self.focus = Focus::Lessons;
                self.list_selected = self.lesson;
            }
            NavAction::MoveSelection(delta) => {
                let last = ctx.catalog.len().saturating_sub(1);
                self.list_selected = self.list_selected.saturating_add_signed(delta as isize);
                self.list_selected = self.list_selected.min(last);
            }
            NavAction::OpenSelected => {
                let effect = self.jump(self.list_selected, ctx);
                self.focus = Focus::Cards;
                return effect;
            }
            NavAction::ScrollCard { lines, max } => {
                self.card_scroll = super::scroll::add(self.card_scroll, lines, max);
            }
            NavAction::Close if self.focus == Focus::Lessons => self.focus = Focus::Cards,
            NavAction::Close => return NavEffect::Unhandled,
        }
        NavEffect::None
    }

    fn open(&mut self, idx: usize, card: usize, ctx: &NavContext) -> NavEffect {
        if idx >= ctx.catalog.len() {
            return NavEffect::None;
        }
        let new_lesson = idx != self.lesson;
        self.lesson = idx;
        self.card = card.min(ctx.card_count(idx).saturating_sub(1));
        self.card_scroll = 0;
        self.code_scroll = 0;
        if new_lesson {
            self.list_selected = idx;
        }
        NavEffect::Opened { new_lesson }
    }

    fn next_card(&mut self, ctx: &NavContext) -> NavEffect {
        if self.card + 1 < ctx.card_count(self.lesson) {
            self.open(self.lesson, self.card + 1, ctx)
        } else {
            self.open(self.lesson + 1, 0, ctx)
        }
    }

    fn prev_card(&mut self, ctx: &NavContext) -> NavEffect {
        if self.card > 0 {
            self.open(self.lesson, self.card - 1, ctx)
        } else if self.lesson > 0 {
            let last = ctx.card_count(self.lesson - 1).saturating_sub(1);
            self.open(self.lesson - 1, last, ctx)
        } else {
            NavEffect::None
        }
    }

    fn jump(&mut self, idx: usize, ctx: &NavContext) -> NavEffect {
        if idx >= ctx.catalog.len() {
            return NavEffect::None;
        }
        let effect = self.open(idx, ctx.saved_card(idx), ctx);
        if self.focus == Focus::Lessons && !ctx.sidebar {
            self.focus = Focus::Cards;
        }
        effect
    }

    /// The next pane on screen: the lesson list only where it is a sidebar (below 200 columns
    /// it is an overlay that `l` opens, and Tab landing on it left `z` zooming a pane the
    /// learner did not mean: review 2026-12-01b).
    fn cycle_focus(&mut self, forward: bool, sidebar: bool) {
        let step = |focus| match (focus, forward) {
            (Focus::Cards, true) | (Focus::Panel, false) => Focus::Quiz,
            (Focus::Quiz, true) | (Focus::Lessons, false) => Focus::Panel,
            (Focus::Panel, true) | (Focus::Cards, false) => Focus::Lessons,
            (Focus::Lessons, true) | (Focus::Quiz, false) => Focus::Cards,
        };
        self.focus = step(self.focus);
        if self.focus == Focus::Lessons && !sidebar {
            self.focus = step(self.focus);
        }
        if self.focus == Focus::Lessons {
            self.list_selected = self.lesson;
        }
    }
}

#[cfg(test)]
#[path = "nav_tests.rs"]
mod tests;
