//! The view's answer to [`Measure`]: the app clamps scrolling by the lines this view draws. And
//! [`App::new`], the app measured by this view: it is defined here, above both, so that every
//! caller (the shell, tests, benchmarks) gets an app that agrees with what is drawn while `app`
//! itself never imports `ui` (issue 20: layers point down).

use ratatui::layout::{Rect, Size};

use crate::app::{App, Measure};
use crate::lesson::Catalog;
use crate::progress::Progress;
use crate::theme::Theme;

/// Measures with the view's own line functions.
#[derive(Debug)]
pub struct ViewMeasure;

impl Measure for ViewMeasure {
    fn banner_lines(&self, app: &App, width: u16) -> usize {
        super::banner::lines(app, width).len()
    }

    fn quiz_lines(&self, app: &App, width: u16) -> usize {
        super::quiz::lines(app, width).len()
    }

    fn panel_lines(&self, app: &App, width: u16) -> usize {
        super::experiment::scroll_lines(app, width)
    }

    fn help_max_scroll(&self, area: Rect, in_editor: bool) -> u16 {
        super::help::max_scroll(area, in_editor)
    }
}

impl App {
    /// A new session on `catalog`, resuming where `progress` says the learner left (a first
    /// launch opens lesson 1 at card 1), measured by this view ([`ViewMeasure`]).
    pub fn new(catalog: Catalog, theme: Theme, progress: Progress, size: Size) -> App {
        App::measured_by(catalog, theme, progress, size, &ViewMeasure)
    }
}
