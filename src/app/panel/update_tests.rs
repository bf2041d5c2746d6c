//! The panel sub-state on its own: its actions and its derived views, with reports from real
//! runs on the simulator (the app-level key scripts are in `app/panel_tests.rs`).

use super::*;
use crate::app::panel_tests::sim_report;
use crate::timeline::ViewMode;

/// A run of `id` started and finished with a report, `shown` on screen.
fn accepted(panel: &mut PanelState, id: &str, shown: &str) {
    let run_id = panel.start_run(id, 0, &ExperimentOptions::default());
    let running = panel.finish(run_id).unwrap();
    panel.accept(&running, sim_report(id), Some(shown));
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn lane_mode_is_one_setting_for_every_timeline() {
    let experiments = ids(&["async-copy", "default-stream"]);
    let mut panel = PanelState::default();
    accepted(&mut panel, "async-copy", "async-copy");
    accepted(&mut panel, "default-stream", "async-copy");
    panel.update(&experiments, None, PanelAction::LaneMode);
    assert_eq!(panel.mode, ViewMode::Engines);
    // The other experiment's timeline follows too: switching to it shows the same lanes.
    panel.update(&experiments, None, PanelAction::SwitchExperiment);
    assert_eq!(panel.shown(&experiments), Some("default-stream"));
    for id in &experiments {
        assert_eq!(
            panel.timeline(id, None).unwrap().mode,
            ViewMode::Engines,
            "{id}"
        );
    }
    // A new report is drawn in the mode chosen.
    accepted(&mut panel, "async-copy", "default-stream");
    assert_eq!(
        panel.timeline("async-copy", None).unwrap().mode,
        ViewMode::Engines
    );
}

#[test]
fn views_come_from_the_outcomes_and_an_impossible_choice_draws_the_results() {
    let mut panel = PanelState::default();
    let id = "pageable-vs-pinned";
    assert_eq!(panel.views(Some(id)), vec![PanelView::Results]);
    assert_eq!(panel.view_drawn(Some(id)), PanelView::Results);
    accepted(&mut panel, id, id);
    let views = panel.views(Some(id));
    assert!(views.contains(&PanelView::Chart), "{views:?}");
    assert_eq!(panel.view_drawn(Some(id)), panel.view);
    panel.view = PanelView::Chart;
    // An experiment without a report has no chart to draw.
    assert_eq!(panel.view_drawn(Some("async-copy")), PanelView::Results);
    assert_eq!(panel.view_drawn(None), PanelView::Results);
}

#[test]
fn timeline_actions_without_a_timeline_say_what_they_would_do() {
    let experiments = ids(&["async-copy"]);
    let mut panel = PanelState::default();
    panel.update(
        &experiments,
        None,
        PanelAction::Timeline(TimelineAction::PanLeft),
    );
    let message = panel.message.as_ref().unwrap();
    assert!(
        message.text.contains("no timeline to pan"),
        "{}",
        message.text
    );
    accepted(&mut panel, "async-copy", "async-copy");
    panel.view = PanelView::Results;
    panel.update(
        &experiments,
        None,
        PanelAction::Timeline(TimelineAction::SelectNext),
    );
    assert_eq!(panel.view, PanelView::Timeline, "the view switches to it");
    let selected = panel.timeline("async-copy", None).unwrap().selected_index();
    assert!(selected.is_some());
}

#[test]
fn the_timeline_keeps_the_learners_window_and_selection_across_lane_modes_not_reports() {
    let experiments = ids(&["async-copy"]);
    let mut panel = PanelState::default();
    accepted(&mut panel, "async-copy", "async-copy");
    let zoom = PanelAction::Timeline(TimelineAction::ZoomIn);
    let select = PanelAction::Timeline(TimelineAction::SelectNext);
    panel.update(&experiments, None, zoom);
    panel.update(&experiments, None, select);
    let before = panel.timeline("async-copy", None).unwrap();
    assert!(before.selected_index().is_some());
    // The lane mode is read from the panel when the view is built: window and op stay.
    panel.update(&experiments, None, PanelAction::LaneMode);
    let after = panel.timeline("async-copy", None).unwrap();
    assert_eq!(after.mode, ViewMode::Engines);
    assert_eq!(
        (after.scale, after.selected_ref()),
        (before.scale, before.selected_ref())
    );
    // A new report starts afresh: everything shown, nothing selected.
    accepted(&mut panel, "async-copy", "async-copy");
    let fresh = panel.timeline("async-copy", None).unwrap();
    assert_eq!(fresh.cursor(), crate::timeline::TimelineCursor::default());
    assert_eq!(fresh.mode, ViewMode::Engines, "the mode is the panel's");
}
