//! The tutorial's state and the one place it changes: [`App::update`] takes a [`Msg`] and returns
//! the side effects it wants as [`Cmd`]s. No drawing and no I/O here, so every behaviour can be
//! tested with a key sequence and no terminal (the view in `crate::ui` only reads an `&App`).
//!
//! `App` is a handful of sub-states, each with its own `update(action) -> effect` that gets what
//! it needs of the rest as arguments, never `&mut App`:
//!
//! | sub-state | actions | file | joined to the app by |
//! |---|---|---|---|
//! | [`NavState`]: lesson, card, focus, card scroll, list selection | [`NavAction`] | `nav` | `open`, `scrolling` |
//! | [`QuizState`]: question, cursor, prediction field | [`QuizAction`] | `quiz` | `quiz/glue` |
//! | [`Overlays`]: help, confirm, parameter form, links, banners | [`OverlayAction`] | `overlay`, `links` | `dispatch`, `list` |
//! | [`PanelState`]: experiments, runs, results, timelines | [`PanelAction`] | `panel` | `run`, `predict` |
//! | [`ParamsForm`] (inside [`Overlay::Params`]) | [`FormAction`] | `params` | `params` |
//! | [`Exercises`]: the exercise list and editor | [`EditorAction`] | `editor` (and its children) | `editor/update` |
//!
//! Keys become [`crate::keymap::Action`]s, and `dispatch::route`, made from the key table's lines
//! (each action's first line ends in its route), gives the sub-state action it stands for. Views
//! that follow from state are derived where they are read (the timeline from a report, the lane
//! mode and a cursor; a card's lines in the `cache`), never stored beside their source.

mod cache;
mod dispatch;
pub mod editor;
pub mod fixture;
pub mod links;
mod list;
pub mod measure;
mod msg;
pub mod nav;
mod open;
pub mod overlay;
pub mod panel;
pub mod params;
mod predict;
pub mod quiz;
mod run;
mod scroll;
mod scrolling;
mod stats;
pub mod tutor;

use std::cell::RefCell;

use ratatui::layout::Size;

use crate::lesson::{Catalog, LessonEntry};
use crate::progress::Progress;
use crate::theme::Theme;

pub use cache::CardView;
pub use editor::{EditorAction, EditorState, ExerciseCmd, ExerciseMsg, Exercises};
pub use measure::Measure;
pub use msg::{Cmd, Msg};
pub use nav::{Focus, NavAction, NavState};
pub use overlay::{Banner, BannerKind, Overlay, OverlayAction, Overlays, Reset};
pub use panel::{BackendState, Compare, Outcome, PanelAction, PanelState, PanelView, Saved};
pub use params::{FormAction, ParamsForm};
pub use predict::{RunLedger, off_factor, within_tolerance};
/// Prediction wording shared by the quiz pane and the results view.
pub mod predict_view {
    pub use super::predict::{
        backend_words, closeness, describe_options, domain_error, format_value_in, metric_unit,
    };
}
pub use quiz::{QuizAction, QuizState};
pub use stats::LessonStats;

/// The whole state of the tutorial.
#[derive(Debug)]
pub struct App {
    /// The lessons, broken ones included.
    pub catalog: Catalog,
    /// Colours on or off.
    pub theme: Theme,
    /// What the learner has seen and answered; saved by the shell on [`Cmd::SaveProgress`].
    pub progress: Progress,
    /// Where the learner is: lesson, card, focus.
    pub nav: NavState,
    /// The quiz pane's cursor, question and input field.
    pub quiz: QuizState,
    /// Dialogs and banners.
    pub overlays: Overlays,
    /// Terminal size, from the last resize.
    pub size: Size,
    /// Whether code highlighting is ready (cards render plain until then).
    pub highlight_ready: bool,
    /// The experiment panel.
    pub panel: PanelState,
    /// This session's runs, for grading predictions and quoting results.
    pub runs: RunLedger,
    /// The exercise editor and the exercises passed.
    pub exercises: Exercises,
    /// The tutor pane (issue 31).
    pub tutor: tutor::TutorState,
    /// Draw links as OSC 8 hyperlinks (decided once, by `crate::tui::hyperlinks`).
    pub hyperlinks: bool,
    /// How the view measures its text (for scroll bounds and pages); see [`measure`].
    measure: &'static dyn Measure,
    /// Rendered card lines. Interior mutability so the read-only view can fill it; it is a pure
    /// function of (lesson, card, width, highlight), so filling it changes nothing observable.
    cache: RefCell<cache::CardCache>,
}

impl App {
    /// A new session on `catalog`, resuming where `progress` says the learner left (a first
    /// launch opens lesson 1 at card 1), its text measured by `measure` (the view's: `App::new`
    /// in `crate::ui::measure` passes it).
    pub fn measured_by(
        catalog: Catalog,
        theme: Theme,
        progress: Progress,
        size: Size,
        measure: &'static dyn Measure,
    ) -> App {
        // The last saved run of each experiment shows until the learner runs it again.
        let panel = PanelState::restored(&progress.results);
        let mut app = App {
            catalog,
            theme,
            progress,
            nav: NavState::default(),
            quiz: QuizState::default(),
            overlays: Overlays::default(),
            size,
            highlight_ready: false,
            panel,
            runs: RunLedger::default(),
            exercises: Exercises::default(),
            tutor: tutor::TutorState::default(),
            hyperlinks: false,
            measure,
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
            Msg::SaveFailed(why) => self.overlay_update(OverlayAction::SaveFailed(why)),
            Msg::Saved => self.overlay_update(OverlayAction::Saved),
            Msg::Banner(banner) => self.overlay_update(OverlayAction::Banner(banner)),
            Msg::Worker(event) => self.on_worker(event),
            Msg::Tick => {
                self.tick();
                // A pause in typing ends an undo step.
                if let Some(ed) = self.exercises.editor.as_mut() {
                    ed.editing.undo.tick();
                }
                self.exercises.poll()
            }
            Msg::Exercise(reply) => self.on_exercise(reply),
            Msg::Paste(text) => self.editor_update(EditorAction::Paste(text)),
            Msg::Exported(result) => {
                self.on_exported(result);
                Vec::new()
            }
            Msg::LinkReport(text) => self.overlay_update(OverlayAction::LinkReport(text)),
            Msg::Tutor(msg) => self.on_tutor(msg),
        }
    }

    /// The open lesson's entry.
    pub fn entry(&self) -> Option<&LessonEntry> {
        self.catalog.entries.get(self.nav.lesson)
    }
}

#[cfg(test)]
mod every_key_tests;
#[cfg(test)]
mod panel_tests;
#[cfg(test)]
mod predict_tests;
#[cfg(test)]
mod quiz_tests;
#[cfg(test)]
mod tests;
