//! The tutorial's state and the one place it changes: [`App::update`] takes a [`Msg`] and returns
//! the side effects it wants as [`Cmd`]s. No drawing and no I/O here, so every behaviour can be
//! tested with a key sequence and no terminal (the view in `crate::ui` only reads an `&App`).

mod cache;
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
pub mod panel;
pub mod params;
mod predict;
mod quiz;
mod run;
mod stats;

use std::cell::RefCell;

use ratatui::crossterm::event::{KeyEvent, KeyEventKind};
use ratatui::layout::Size;

use crate::keymap::{self, Action, Ctx};
use crate::lesson::{Catalog, LessonEntry};
use crate::progress::Progress;
use crate::theme::Theme;

pub use cache::CardView;
pub use editor::{EditorState, ExerciseCmd, ExerciseMsg, Exercises};
pub use msg::{Cmd, Msg};
pub use panel::{BackendState, Compare, Outcome, PanelState, PanelView};
pub use params::ParamsForm;
pub use predict::{RunLedger, within_tolerance};
/// Prediction wording shared by the quiz pane and the results view.
pub mod predict_view {
    pub use super::predict::{
        closeness, describe_options, domain_error, format_value_in, metric_unit,
    };
}
pub use quiz::QuizState;
pub use stats::LessonStats;

/// How a save failure banner starts (a later success or failure replaces it).
const SAVE_FAILED: &str = "progress not saved";

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

/// A dialog drawn over the screen; it takes the keys while open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    /// The `?` list of keys.
    Help,
    /// "Reset ...?" y/n.
    Confirm(Reset),
    /// The experiment's parameter form.
    Params,
    /// The open card's links (`u`).
    Links,
}

/// What a confirmed reset clears.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reset {
    /// One lesson, by catalog index.
    Lesson(usize),
    /// Every lesson.
    All,
    /// The open exercise, back to its starter.
    Exercise,
}

/// A one-line message under the header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    /// How serious it is (shown with a glyph).
    pub kind: BannerKind,
    /// The message.
    pub text: String,
}

/// How serious a banner is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BannerKind {
    /// For information (`i`).
    Info,
    /// Something is off but the app works (`!`).
    Warning,
    /// Something failed (`✗`).
    Error,
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
                // One save banner at a time: the latest reason replaces the last one.
                self.banners.retain(|b| !b.text.starts_with(SAVE_FAILED));
                self.banners.push(Banner {
                    kind: BannerKind::Error,
                    text: format!("{SAVE_FAILED}: {why}"),
                });
                Vec::new()
            }
            Msg::Saved => {
                self.banners.retain(|b| !b.text.starts_with(SAVE_FAILED));
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

    fn on_key(&mut self, key: KeyEvent) -> Vec<Cmd> {
        if key.kind != KeyEventKind::Press {
            return Vec::new();
        }
        if self.quiz.input.is_some() && keymap::lookup(Ctx::Always, &key) != Some(Action::Quit) {
            return self.on_input_key(key);
        }
        match keymap::lookup(self.key_context(), &key) {
            Some(action) => self.perform(action),
            None if self.key_context() == Ctx::Editor => {
                self.editor_type(key);
                Vec::new()
            }
            None if self.overlay == Some(Overlay::Params) => {
                self.params_type(key);
                Vec::new()
            }
            None => Vec::new(),
        }
    }

    /// Which part of the key table applies now.
    pub fn key_context(&self) -> Ctx {
        match self.overlay {
            Some(Overlay::Help) => Ctx::Help,
            Some(Overlay::Confirm(_)) => Ctx::Confirm,
            Some(Overlay::Params) => Ctx::Params,
            Some(Overlay::Links) => Ctx::Links,
            None if self.picker_open() => Ctx::Picker,
            None if self.editor_open() => Ctx::Editor,
            None => match self.focus {
                Focus::Cards => Ctx::Cards,
                Focus::Panel => Ctx::Panel,
                Focus::Quiz => Ctx::Quiz,
                Focus::Lessons => Ctx::Lessons,
            },
        }
    }

    /// Carry out a named action (what a key is bound to).
    pub fn perform(&mut self, action: Action) -> Vec<Cmd> {
        if let Some(cmds) = self.perform_links(action) {
            return cmds;
        }
        match action {
            Action::Quit => {
                return self
                    .editor_save_cmd()
                    .into_iter()
                    .chain([Cmd::Quit])
                    .collect();
            }
            Action::ToggleHelp => self.toggle_help(),
            Action::Close => return self.close(),
            Action::NextCard => self.next_card(),
            Action::PrevCard => self.prev_card(),
            Action::FocusNext => self.cycle_focus(true),
            Action::FocusPrev => self.cycle_focus(false),
            Action::ToggleLessons => self.toggle_lessons(),
            Action::JumpLesson(n) => self.jump_to_lesson(usize::from(n).saturating_sub(1)),
            Action::ScrollUp => self.scroll(-1),
            Action::ScrollDown => self.scroll(1),
            Action::PageUp => self.scroll(-self.page()),
            Action::PageDown => self.scroll(self.page()),
            Action::Top => self.scroll(-i32::from(u16::MAX)),
            Action::Bottom => self.scroll(i32::from(u16::MAX)),
            Action::OptionUp => self.move_option(-1),
            Action::OptionDown => self.move_option(1),
            Action::Answer => return self.answer(),
            Action::NextQuestion => self.move_question(1),
            Action::PrevQuestion => self.move_question(-1),
            Action::PickOption(n) => return self.pick_option(usize::from(n)),
            Action::NextToReview => self.next_to_review(),
            Action::ListUp => self.move_selection(-1),
            Action::ListDown => self.move_selection(1),
            Action::OpenLesson => self.open_selected(),
            Action::ResetLesson => self.ask_reset(Reset::Lesson(self.list_selected)),
            Action::ResetAll => self.ask_reset(Reset::All),
            Action::ConfirmYes => return self.confirm(),
            Action::ConfirmNo => self.overlay = None,
            _ => return self.perform_panel(action),
        }
        Vec::new()
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

    /// The experiment panel's actions.
    fn perform_panel(&mut self, action: Action) -> Vec<Cmd> {
        let key = match action {
            Action::RunExperiment => return self.run_experiment(),
            Action::OpenEditor => return self.open_picker(),
            Action::PickerMove(step) => return self.after(|a| a.picker_move(step.into())),
            Action::PickerOpen => return self.picker_open_selected(),
            Action::PickerReset => return self.after(Self::picker_ask_reset),
            Action::PickerClose => return self.after(Self::picker_close),
            Action::EditorTimeline => return self.after(Self::editor_toggle_timeline),
            Action::EditorCheck => return self.editor_check(),
            Action::EditorLeave => return self.editor_escape(),
            Action::EditorExternal => return self.editor_external(),
            Action::EditorHint => return self.after(Self::editor_hint),
            Action::EditorSolution => return self.after(Self::editor_solution),
            Action::EditorReset => return self.after(Self::editor_ask_reset),
            Action::ExportTrace => return self.export_trace(),
            Action::ParamsRun => return self.close_params(true),
            Action::ParamsClose => return self.close_params(false),
            Action::SwitchExperiment => return self.after(Self::switch_experiment),
            Action::ToggleView => return self.after(Self::toggle_view),
            Action::LaneMode => return self.after(Self::cycle_lane_mode),
            Action::Compare => return self.after(Self::cycle_compare),
            Action::OpenParams => return self.after(Self::open_params),
            Action::FieldUp => return self.after(|a| a.params_field(-1)),
            Action::FieldDown => return self.after(|a| a.params_field(1)),
            Action::ValueLess => return self.after(|a| a.params_value(-1)),
            Action::ValueMore => return self.after(|a| a.params_value(1)),
            Action::ZoomIn => '+',
            Action::ZoomOut => '-',
            Action::PanLeft => '<',
            Action::PanRight => '>',
            Action::SelectPrevOp => '[',
            Action::SelectNextOp => ']',
            _ => return Vec::new(),
        };
        self.timeline_key(key);
        Vec::new()
    }

    fn after(&mut self, f: impl FnOnce(&mut Self)) -> Vec<Cmd> {
        f(self);
        Vec::new()
    }

    fn toggle_help(&mut self) {
        self.help_scroll = 0;
        self.overlay = match self.overlay {
            Some(Overlay::Help) => None,
            _ => Some(Overlay::Help),
        };
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
