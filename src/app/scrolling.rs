//! What the scroll keys and the mouse reach: the layout at this size, a page of the scrolled
//! pane, and which sub-state a scroll or a click goes to (help, quiz, panel, card, lesson list).
//! The furthest each text can scroll depends on how it is drawn, so it is measured here, through
//! the view's [`Measure`](super::Measure) the app was made with, and passed to the sub-state as
//! a bound; the panes come from [`crate::panes`], which the view draws into too.

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

use super::editor::{EditOp, EditorAction};
use ratatui::layout::{Position, Rect};

use super::nav::{Focus, NavAction};
use super::overlay::{Overlay, OverlayAction};
use super::scroll::{add, max_scroll};
use super::{App, Cmd};
use crate::panes::{self as layout, Panes};

/// Lines one wheel notch scrolls.
const WHEEL_LINES: i32 = 3;
/// Columns one Shift-← / Shift-→ scrolls the card's code.
const CODE_STEP: i32 = 8;

impl App {
    /// Whether the lesson list is a sidebar (rather than an overlay) at this size.
    pub fn has_sidebar(&self) -> bool {
        self.panes().sidebar.is_some()
    }

    /// The current layout.
    pub fn panes(&self) -> Panes {
        let area = Rect::new(0, 0, self.size.width, self.size.height);
        let banners = self.measure.banner_lines(self, area.width);
        self.panes_in(area, banners)
    }

    /// The layout of `area` with `banners` lines of banners: a short card gives its spare rows
    /// to the panel (the view draws into exactly these panes).
    pub fn panes_in(&self, area: Rect, banners: usize) -> Panes {
        let card_lines = |width: u16| match self.entry() {
            Some(crate::lesson::LessonEntry::Ok(_)) => self.card_lines(width).len(),
            // A broken lesson's problems are drawn in place of the card: keep the whole share.
            _ => usize::MAX,
        };
        // No question to offer yet: the quiz keeps the rows its note needs.
        let idle_quiz = |width: u16| self.measure.quiz_lines(self, width);
        let idle_quiz: Option<&dyn Fn(u16) -> usize> = match self.question() {
            None => Some(&idle_quiz),
            Some(_) => None,
        };
        layout::panes_fitting(
            area,
            banners,
            self.nav.focus,
            self.nav.zoomed,
            &card_lines,
            idle_quiz,
        )
    }

    fn help_open(&self) -> bool {
        self.overlays.dialog == Some(Overlay::Help)
    }

    /// A page: the height of the scrolled pane's text, less one line of context.
    pub(super) fn page(&self) -> i32 {
        if self.help_open() {
            return i32::from(self.size.height.saturating_sub(6));
        }
        let pane = match self.nav.focus {
            Focus::Quiz => self.panes().quiz,
            Focus::Panel => self.panes().panel,
            _ => self.panes().card,
        };
        i32::from(layout::text_area(pane).height.saturating_sub(1).max(1))
    }

    /// Scroll whatever the keys scroll now by `lines`.
    pub(super) fn scroll(&mut self, lines: i32) -> Vec<Cmd> {
        if self.help_open() {
            let max = self.help_max_scroll();
            self.overlay_update(OverlayAction::ScrollHelp { lines, max });
            return Vec::new();
        }
        // The lesson list's keys move its selection; other scroll keys there scroll the card.
        match self.nav.focus {
            Focus::Lessons => self.scroll_pane(Focus::Cards, lines),
            focus => self.scroll_pane(focus, lines),
        }
    }

    /// Scroll pane `pane` by `lines` (the lesson list moves its selection instead).
    fn scroll_pane(&mut self, pane: Focus, lines: i32) -> Vec<Cmd> {
        match pane {
            Focus::Quiz => self.quiz.scroll = add(self.quiz.scroll, lines, self.quiz_max_scroll()),
            Focus::Panel => {
                self.panel.scroll = add(self.panel.scroll, lines, self.panel_max_scroll());
            }
            Focus::Cards => {
                let max = self.card_max_scroll();
                return self.nav_update(NavAction::ScrollCard { lines, max });
            }
            Focus::Lessons => return self.nav_update(NavAction::MoveSelection(lines.signum())),
        }
        Vec::new()
    }

    /// Keep scroll offsets inside their content (after a resize or a focus change).
    pub(super) fn clamp_scrolls(&mut self) {
        self.nav.card_scroll = self.nav.card_scroll.min(self.card_max_scroll());
        self.nav.code_scroll = self.nav.code_scroll.min(self.code_max_scroll());
        self.quiz.scroll = self.quiz.scroll.min(self.quiz_max_scroll());
        self.overlays.help_scroll = self.overlays.help_scroll.min(self.help_max_scroll());
        self.panel.scroll = self.panel.scroll.min(self.panel_max_scroll());
    }

    /// Shift-← / Shift-→: scroll the card's code sideways `steps` of [`CODE_STEP`] columns, at
    /// most to the end of its widest line (code is cut at the pane's edge, never wrapped).
    pub(super) fn scroll_code(&mut self, steps: i32) {
        let max = self.code_max_scroll();
        let now = self.nav.code_scroll.min(max);
        self.nav.code_scroll = add(now, steps.saturating_mul(CODE_STEP), max);
    }

    fn code_max_scroll(&self) -> u16 {
        let text = layout::text_area(self.panes().card);
        let overflow = self.card_view(text.width).code_overflow;
        u16::try_from(overflow).unwrap_or(u16::MAX)
    }

    fn panel_max_scroll(&self) -> u16 {
        let text = layout::text_area(self.panes().panel);
        let lines = self.measure.panel_lines(self, text.width);
        max_scroll(lines, text.height)
    }

    fn card_max_scroll(&self) -> u16 {
        let text = layout::text_area(self.panes().card);
        let lines = self.card_lines(text.width).len();
        max_scroll(lines, text.height)
    }

    fn quiz_max_scroll(&self) -> u16 {
        let text = layout::text_area(self.panes().quiz);
        let lines = self.measure.quiz_lines(self, text.width);
        max_scroll(lines, text.height)
    }

    fn help_max_scroll(&self) -> u16 {
        let area = Rect::new(0, 0, self.size.width, self.size.height);
        self.measure
            .help_max_scroll(area, self.exercises.editor.is_some())
    }

    /// The wheel scrolls the pane under the pointer (the help while it is open, the lesson
    /// list's selection while it is an overlay, the verdict pane in the editor); a click
    /// focuses the pane under it.
    pub(super) fn on_mouse(&mut self, mouse: MouseEvent) {
        let at = Position::new(mouse.column, mouse.row);
        if let Some(ed) = &self.exercises.editor
            && self.overlays.dialog.is_none()
            && !self.picker_open()
        {
            // The panes are under the editor: the wheel reaches only the verdict; a click in
            // the code places the cursor, a drag selects.
            let (column, row) = (mouse.column, mouse.row);
            let lines = match mouse.kind {
                MouseEventKind::ScrollUp => -WHEEL_LINES,
                MouseEventKind::ScrollDown => WHEEL_LINES,
                MouseEventKind::Down(MouseButton::Left) if ed.editing.in_code(at) => {
                    self.editor_update(EditorAction::Edit(EditOp::Click { column, row }));
                    return;
                }
                MouseEventKind::Drag(MouseButton::Left) => {
                    self.editor_update(EditorAction::Edit(EditOp::Drag { column, row }));
                    return;
                }
                _ => return,
            };
            if ed.verdict_scroll.area().contains(at) {
                ed.verdict_scroll.scroll(lines);
            }
            return;
        }
        let panes = self.panes();
        let target = [
            (panes.card, Focus::Cards),
            (panes.quiz, Focus::Quiz),
            (panes.panel, Focus::Panel),
        ]
        .into_iter()
        .find(|(pane, _)| pane.contains(at))
        .map(|(_, focus)| focus)
        .or_else(|| {
            panes
                .sidebar
                .filter(|s| s.contains(at))
                .map(|_| Focus::Lessons)
        });
        let lines = match mouse.kind {
            MouseEventKind::ScrollUp => -WHEEL_LINES,
            MouseEventKind::ScrollDown => WHEEL_LINES,
            MouseEventKind::Down(MouseButton::Left) if self.overlays.dialog.is_none() => {
                if let Some(focus) = target {
                    self.nav_update(NavAction::Focus(focus));
                }
                return;
            }
            _ => return,
        };
        let list_overlay = self.nav.focus == Focus::Lessons && panes.sidebar.is_none();
        if self.help_open() {
            self.scroll(lines);
        } else if self.overlays.dialog.is_none() {
            if list_overlay {
                self.scroll_pane(Focus::Lessons, lines);
            } else if let Some(pane) = target {
                self.scroll_pane(pane, lines);
            }
        }
    }
}
