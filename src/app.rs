//! The tutorial's state and the one place it changes: [`App::update`] takes a [`Msg`] and returns
//! the side effects it wants as [`Cmd`]s. No drawing and no I/O here, so every behaviour can be
//! tested with a key sequence and no terminal (the view in `crate::ui` only reads an `&App`).
//!
//! Where things live:
//! - keys become [`crate::keymap::Action`]s and go to the part they are for (`dispatch`);
//! - navigation: the open lesson and card, focus, scrolling, the mouse (`nav`, `list`);
//! - the quiz pane ([`QuizState`], `quiz`) and predictions graded by runs (`predict`);
//! - the experiment panel, a sub-state with its own update and derived views ([`PanelState`],
//!   [`PanelAction`]), joined to the rest of the app by `run`;
//! - the parameter form, a sub-state with its own update ([`ParamsForm`], [`FormAction`]);
//! - dialogs and banners ([`Overlay`], [`Banner`], `overlay`);
//! - the exercise editor ([`Exercises`], `editor*`); the rendered card cache (`cache`).

mod cache;
mod dispatch;
pub mod editor;
mod editor_check;
mod editor_msg;
mod editor_replies;
pub mod editor_shell;
pub mod editor_store;
pub mod editor_timeline;
mod exercise_picker;
pub mod fixture;
pub mod links;
mod list;
mod msg;
mod nav;
mod overlay;
pub mod panel;
pub mod params;
mod predict;
mod quiz;
mod run;
mod stats;

use std::cell::RefCell;

use ratatui::layout::Size;

use crate::lesson::{Catalog, LessonEntry};
use crate::progress::Progress;
use crate::theme::Theme;

pub use cache::CardView;
pub use editor::{EditorState, ExerciseCmd, ExerciseMsg, Exercises};
pub use msg::{Cmd, Msg};
pub use overlay::{Banner, BannerKind, Overlay, Reset};
pub use panel::{BackendState, Compare, Outcome, PanelAction, PanelState, PanelView};
pub use params::{FormAction, ParamsForm};
pub use predict::{RunLedger, within_tolerance};
/// Prediction wording shared by the quiz pane and the results view.
pub mod predict_view {
    pub use super::predict::{
        closeness, describe_options, domain_error, format_value_in, metric_unit,
    };
}
pub use quiz::QuizState;
pub use stats::LessonStats;

/// Which pane takes the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// The card pane (Up/Down scroll).
    Cards,
    /// The experiment panel (Up/Down scroll its results).
    Panel,
    /// The quiz pane (Up/Down move among options).
    Quiz,
    /// The lesson list (a sidebar, or an overlay on narrow terminals).
    Lessons,
}

/// The whole state of the tutorial.
#[derive(Debug)]
pub struct App {
    /// The lessons, broken ones included.
    pub catalog: Catalog,
    /// Colours on or off.
    pub theme: Theme,
    /// What the learner has seen and answered; saved by the shell on [`Cmd::SaveProgress`].
    pub progress: Progress,
    /// Open lesson (index into `catalog.entries`).
    pub lesson: usize,
    /// Open card within the lesson (0-based).
    pub card: usize,
    /// First visible line of the card.
    pub card_scroll: u16,
    /// The pane that takes the keys.
    pub focus: Focus,
    /// The dialog on top, if any.
    pub overlay: Option<Overlay>,
    /// The quiz pane's cursor, question and input field.
    pub quiz: QuizState,
    /// Selected row of the lesson list.
    pub list_selected: usize,
    /// First visible line of the help overlay.
    pub help_scroll: u16,
    /// Messages under the header, oldest first.
    pub banners: Vec<Banner>,
    /// Terminal size, from the last resize.
    pub size: Size,
    /// Whether code highlighting is ready (cards render plain until then).
    pub highlight_ready: bool,
    /// The experiment panel.
    pub panel: PanelState,
    /// The parameter form, while open.
    pub params: Option<ParamsForm>,
    /// This session's runs, for grading predictions and quoting results.
    pub runs: RunLedger,
    /// The exercise editor and the exercises passed.
    pub exercises: Exercises,
    /// The links overlay, and whether links are hyperlinks.
    pub links: links::LinksState,
    /// Rendered card lines. Interior mutability so the read-only view can fill it; it is a pure
    /// function of (lesson, card, width, highlight), so filling it changes nothing observable.
    cache: RefCell<cache::CardCache>,
}

impl App {
    /// A new session on `catalog`, resuming where `progress` says the learner left (a first
    /// launch opens lesson 1 at card 1).
    pub fn new(catalog: Catalog, theme: Theme, progress: Progress, size: Size) -> App {
        let mut app = App {
            catalog,
            theme,
            progress,
            lesson: 0,
            card: 0,
            card_scroll: 0,
            focus: Focus::Cards,
            overlay: None,
            quiz: QuizState::default(),
            list_selected: 0,
            help_scroll: 0,
            banners: Vec::new(),
            size,
            highlight_ready: false,
            panel: PanelState::default(),
            params: None,
            runs: RunLedger::default(),
            exercises: Exercises::default(),
            links: links::LinksState::default(),
            cache: RefCell::new(cache::CardCache::default()),
        };
        app.resume();
        app
    }

    /// Apply one message; returns the side effects to carry out, in order.
    pub fn update(&mut self, msg: Msg) -> Vec<Cmd> {
        match msg {
            Msg::Key(key) => self.on_key(key),
            Msg::Mouse(mouse) => {
                self.on_mouse(mouse);
                Vec::new()
            }
            Msg::Resize(w, h) => {
                self.size = Size::new(w, h);
                self.clamp_scrolls();
                Vec::new()
            }
            Msg::HighlightReady => {
                self.highlight_ready = true;
                Vec::new()
            }
            Msg::SaveFailed(why) => {
                self.save_failed(&why);
                Vec::new()
            }
            Msg::Saved => {
                self.saved();
                Vec::new()
            }
            Msg::Banner(banner) => {
                self.banners.push(banner);
                Vec::new()
            }
            Msg::Worker(event) => self.on_worker(event),
            Msg::Tick => {
                self.tick();
                self.editor_poll()
            }
            Msg::Exercise(reply) => self.on_exercise(reply),
            Msg::Exported(result) => {
                self.on_exported(result);
                Vec::new()
            }
            Msg::LinkReport(text) => {
                self.links.message = Some(text);
                Vec::new()
            }
        }
    }

    /// The open lesson's entry.
    pub fn entry(&self) -> Option<&LessonEntry> {
        self.catalog.entries.get(self.lesson)
    }

    /// Cards in lesson `idx` (a broken lesson shows one page: its diagnostics).
    pub fn card_count(&self, idx: usize) -> usize {
        match self.catalog.entries.get(idx) {
            Some(LessonEntry::Ok(lesson)) => lesson.cards.len().max(1),
            Some(LessonEntry::Broken { .. }) => 1,
            None => 0,
        }
    }
}

#[cfg(test)]
mod panel_tests;
#[cfg(test)]
mod predict_tests;
#[cfg(test)]
mod quiz_tests;
#[cfg(test)]
mod tests;
