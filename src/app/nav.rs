//! Moving around: cards (across lesson boundaries), lessons, focus, scrolling and the mouse wheel.

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::{App, Cmd, Focus, Overlay};
use crate::ui::layout::{self, Panes};

/// Lines one wheel notch scrolls.
const WHEEL_LINES: i32 = 3;

impl App {
    /// Open the lesson and card saved in progress; lesson 1, card 1 when there is none.
    pub(super) fn resume(&mut self) {
        let saved = self.progress.current_lesson.clone();
        let idx = saved
            .and_then(|id| self.catalog.entries.iter().position(|e| e.key() == id))
            .unwrap_or(0);
        self.open_lesson_at(idx, self.saved_card(idx));
    }

    /// The card lesson `idx` was left at, clamped to the lesson.
    fn saved_card(&self, idx: usize) -> usize {
        let key = self.catalog.entries.get(idx).map(|e| e.key());
        let card = key
            .and_then(|k| self.progress.lessons.get(k))
            .map_or(0, |p| p.card);
        card.min(self.card_count(idx).saturating_sub(1))
    }

    /// Open `card` of lesson `idx`, and record it as seen.
    pub(super) fn open_lesson_at(&mut self, idx: usize, card: usize) {
        if idx >= self.catalog.len() {
            return;
        }
        let changed = idx != self.lesson || self.quiz.lesson != Some(idx);
        self.lesson = idx;
        self.card = card.min(self.card_count(idx).saturating_sub(1));
        self.card_scroll = 0;
        if changed {
            self.list_selected = idx;
            self.reset_quiz_state();
            self.panel.choice = 0;
            self.panel.scroll = 0;
        }
        self.visit();
    }

    /// Record the open card as seen and as the place to resume.
    pub(super) fn visit(&mut self) {
        let Some(lesson) = self.entry().and_then(|e| e.lesson()) else {
            return;
        };
        let id = lesson.id().to_string();
        self.progress.visit(&id, self.card);
    }

    pub(super) fn next_card(&mut self) {
        if self.card + 1 < self.card_count(self.lesson) {
            self.open_lesson_at(self.lesson, self.card + 1);
        } else if self.lesson + 1 < self.catalog.len() {
            self.open_lesson_at(self.lesson + 1, 0);
        }
    }

    pub(super) fn prev_card(&mut self) {
        if self.card > 0 {
            self.open_lesson_at(self.lesson, self.card - 1);
        } else if self.lesson > 0 {
            let last = self.card_count(self.lesson - 1).saturating_sub(1);
            self.open_lesson_at(self.lesson - 1, last);
        }
    }

    /// Open lesson `idx` (0-based) where the learner left it; closes the list overlay.
    pub(super) fn jump_to_lesson(&mut self, idx: usize) {
        if idx >= self.catalog.len() {
            return;
        }
        self.open_lesson_at(idx, self.saved_card(idx));
        if self.focus == Focus::Lessons && !self.has_sidebar() {
            self.focus = Focus::Cards;
        }
    }

    pub(super) fn cycle_focus(&mut self, forward: bool) {
        self.focus = match (self.focus, forward) {
            (Focus::Cards, true) | (Focus::Panel, false) => Focus::Quiz,
            (Focus::Quiz, true) | (Focus::Lessons, false) => Focus::Panel,
            (Focus::Panel, true) | (Focus::Cards, false) => Focus::Lessons,
            (Focus::Lessons, true) | (Focus::Quiz, false) => Focus::Cards,
        };
        if self.focus == Focus::Lessons {
            self.list_selected = self.lesson;
        }
        self.clamp_scrolls();
    }

    pub(super) fn toggle_lessons(&mut self) {
        if self.focus == Focus::Lessons {
            self.focus = Focus::Cards;
        } else {
            self.focus = Focus::Lessons;
            self.list_selected = self.lesson;
        }
    }

    /// Esc on the main screen (dialogs took theirs already): leave the lesson list, else cancel
    /// a running experiment, else dismiss the messages.
    pub(super) fn close(&mut self) -> Vec<Cmd> {
        if self.focus == Focus::Lessons {
            self.focus = Focus::Cards;
        } else if let Some(cmd) = self.cancel_run() {
            return vec![cmd];
        } else {
            self.banners.clear();
            self.panel.message = None;
        }
        Vec::new()
    }

    /// Whether the lesson list is a sidebar (rather than an overlay) at this size.
    pub fn has_sidebar(&self) -> bool {
        self.panes().sidebar.is_some()
    }

    /// The current layout.
    pub fn panes(&self) -> Panes {
        let area = Rect::new(0, 0, self.size.width, self.size.height);
        let banners = crate::ui::banner::lines(self, area.width).len();
        layout::panes(area, banners, self.focus)
    }

    /// A page: the height of the scrolled pane's text, less one line of context.
    pub(super) fn page(&self) -> i32 {
        let pane = match (self.overlay, self.focus) {
            (Some(Overlay::Help), _) => return i32::from(self.size.height.saturating_sub(6)),
            (_, Focus::Quiz) => self.panes().quiz,
            (_, Focus::Panel) => self.panes().panel,
            _ => self.panes().card,
        };
        i32::from(layout::text_area(pane).height.saturating_sub(1).max(1))
    }

    /// Scroll whatever the keys scroll now by `lines`.
    pub(super) fn scroll(&mut self, lines: i32) {
        match (self.overlay, self.focus) {
            (Some(Overlay::Help), _) => {
                self.help_scroll = add(self.help_scroll, lines, self.help_max_scroll());
            }
            (_, Focus::Quiz) => {
                self.quiz.scroll = add(self.quiz.scroll, lines, self.quiz_max_scroll());
            }
            (_, Focus::Panel) => {
                self.panel.scroll = add(self.panel.scroll, lines, self.panel_max_scroll());
            }
            _ => self.card_scroll = add(self.card_scroll, lines, self.card_max_scroll()),
        }
    }

    /// Keep scroll offsets inside their content (after a resize or a focus change).
    pub(super) fn clamp_scrolls(&mut self) {
        self.card_scroll = self.card_scroll.min(self.card_max_scroll());
        self.quiz.scroll = self.quiz.scroll.min(self.quiz_max_scroll());
        self.help_scroll = self.help_scroll.min(self.help_max_scroll());
        self.panel.scroll = self.panel.scroll.min(self.panel_max_scroll());
    }

    fn panel_max_scroll(&self) -> u16 {
        let text = layout::text_area(self.panes().panel);
        let lines = crate::ui::experiment::scroll_lines(self, text.width);
        max_scroll(lines, text.height)
    }

    fn card_max_scroll(&self) -> u16 {
        let text = layout::text_area(self.panes().card);
        let lines = self.card_lines(text.width).len();
        max_scroll(lines, text.height)
    }

    fn quiz_max_scroll(&self) -> u16 {
        let text = layout::text_area(self.panes().quiz);
        let lines = crate::ui::quiz::lines(self, text.width).len();
        max_scroll(lines, text.height)
    }

    fn help_max_scroll(&self) -> u16 {
        let area = Rect::new(0, 0, self.size.width, self.size.height);
        crate::ui::help::max_scroll(area)
    }

    pub(super) fn on_mouse(&mut self, mouse: MouseEvent) {
        let at = Position::new(mouse.column, mouse.row);
        let panes = self.panes();
        let target = if panes.card.contains(at) {
            Some(Focus::Cards)
        } else if panes.quiz.contains(at) {
            Some(Focus::Quiz)
        } else if panes.panel.contains(at) {
            Some(Focus::Panel)
        } else if panes.sidebar.is_some_and(|s| s.contains(at)) {
            Some(Focus::Lessons)
        } else {
            None
        };
        let lines = match mouse.kind {
            MouseEventKind::ScrollUp => -WHEEL_LINES,
            MouseEventKind::ScrollDown => WHEEL_LINES,
            MouseEventKind::Down(MouseButton::Left) if self.overlay.is_none() => {
                if let Some(focus) = target {
                    self.focus = focus;
                }
                return;
            }
            _ => return,
        };
        let list_overlay = self.focus == Focus::Lessons && panes.sidebar.is_none();
        match (self.overlay, target) {
            (Some(Overlay::Help), _) => self.scroll(lines),
            (None, _) if list_overlay => self.move_selection(lines.signum()),
            (None, Some(Focus::Cards)) => {
                self.card_scroll = add(self.card_scroll, lines, self.card_max_scroll());
            }
            (None, Some(Focus::Quiz)) => {
                self.quiz.scroll = add(self.quiz.scroll, lines, self.quiz_max_scroll());
            }
            (None, Some(Focus::Panel)) => {
                self.panel.scroll = add(self.panel.scroll, lines, self.panel_max_scroll());
            }
            (None, Some(Focus::Lessons)) => self.move_selection(lines.signum()),
            _ => {}
        }
    }
}

fn max_scroll(lines: usize, height: u16) -> u16 {
    u16::try_from(lines.saturating_sub(usize::from(height))).unwrap_or(u16::MAX)
}

fn add(value: u16, delta: i32, max: u16) -> u16 {
    let v = (i32::from(value) + delta).clamp(0, i32::from(max));
    u16::try_from(v).unwrap_or(max)
}
