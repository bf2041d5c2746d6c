//! Navigation as part of the app: [`App::nav_update`] builds navigation's context, hands it the
//! action, and carries out what it reports back (a card opened is recorded as seen; a new lesson
//! resets the quiz and the panel's experiment and scroll).

use super::nav::{NavAction, NavContext, NavEffect};
use super::overlay::OverlayAction;
use super::{App, Cmd};

impl App {
    /// Navigation's context now.
    fn nav_context(&self) -> NavContext<'_> {
        NavContext {
            catalog: &self.catalog,
            progress: &self.progress,
            sidebar: self.has_sidebar(),
        }
    }

    /// One navigation action and its effect on the rest of the app.
    pub(super) fn nav_update(&mut self, action: NavAction) -> Vec<Cmd> {
        let sidebar = self.has_sidebar();
        let ctx = NavContext {
            catalog: &self.catalog,
            progress: &self.progress,
            sidebar,
        };
        let focus = self.nav.focus;
        let effect = self.nav.update(action, &ctx);
        if self.nav.focus != focus {
            // Another pane, another text: keep every scroll inside its content.
            self.clamp_scrolls();
        }
        match effect {
            NavEffect::None => {}
            NavEffect::Opened { new_lesson } => self.opened(new_lesson),
            // Esc with no list to leave: cancel a run, else dismiss the messages.
            NavEffect::Unhandled => return self.close_main(),
        }
        Vec::new()
    }

    /// Open the lesson and card saved in progress; lesson 1, card 1 when there is none.
    pub(super) fn resume(&mut self) {
        let saved = self.progress.current_lesson.clone();
        let idx = saved
            .and_then(|id| self.catalog.entries.iter().position(|e| e.key() == id))
            .unwrap_or(0);
        let card = self.nav_context().saved_card(idx);
        self.nav_update(NavAction::Open { lesson: idx, card });
    }

    /// Cards in lesson `idx` (a broken lesson shows one page: its diagnostics).
    pub fn card_count(&self, idx: usize) -> usize {
        self.nav_context().card_count(idx)
    }

    /// A card was opened (`new_lesson`: of another lesson): the quiz and the panel follow the
    /// lesson, and the card counts as seen.
    fn opened(&mut self, new_lesson: bool) {
        if new_lesson || self.quiz.lesson != Some(self.nav.lesson) {
            self.nav.list_selected = self.nav.lesson;
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
        self.progress.visit(&id, self.nav.card);
    }
}

impl App {
    /// Esc with no lesson list to leave: cancel a running experiment, else dismiss the messages.
    fn close_main(&mut self) -> Vec<Cmd> {
        if let Some(cmd) = self.cancel_run() {
            return vec![cmd];
        }
        self.panel.message = None;
        self.overlay_update(OverlayAction::DismissBanners)
    }
}
