//! What update needs to know of how the view draws, without importing the view (issue 20: `ui`
//! reads `app`, never the reverse). How many lines the banners, the quiz pane and the panel's
//! results take at a width, and how far the help overlay scrolls, depend on how the view lays out
//! their text; update needs them to clamp scrolling and to size a page. The view answers through
//! this trait (`crate::ui::measure`), and the [`App`] holds the answerer it was made with, so a
//! scroll is clamped by exactly the lines that will be drawn. The pane geometry needs no view: it
//! is [`crate::panes`], below both.

use std::fmt::Debug;

use ratatui::layout::Rect;

use super::App;

/// Line counts of drawn text, as the view draws it.
pub trait Measure: Debug + Sync {
    /// Lines the banners take at `width` columns (the layout gives them that many rows).
    fn banner_lines(&self, app: &App, width: u16) -> usize;
    /// Lines of the quiz pane's text at `width` columns.
    fn quiz_lines(&self, app: &App, width: u16) -> usize;
    /// Lines of the experiment panel's scrolled part at `width` columns.
    fn panel_lines(&self, app: &App, width: u16) -> usize;
    /// How far the help overlay can scroll on a screen of `area` (opened from the exercise
    /// editor when `in_editor`: it then lists the CUDA calls too).
    fn help_max_scroll(&self, area: Rect, in_editor: bool) -> u16;
}
