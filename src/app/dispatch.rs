//! From a key to the sub-state it is for. The key table (`crate::keymap`) gives an [`Action`] for
//! the context (dialog, editor, focused pane); [`route`] is the one table from that action to the
//! sub-state's own action ([`NavAction`], [`QuizAction`], [`OverlayAction`], [`PanelAction`],
//! [`FormAction`], [`EditorAction`]); what needs several sub-states at once (quitting, scrolling
//! by a measured page, running) stays an [`Action`] for [`App::perform_app`].
//!
//! To add a key: define it in `actions!` (`keymap/action.rs`) and bind it in `keymap/table.rs`;
//! if one sub-state carries it out, give that sub-state an action and a line in [`route`]; else
//! handle it in [`App::perform_app`].

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::links::LinkAction;
use super::nav::NavAction;
use super::overlay::{Overlay, OverlayAction, OverlayEffect};
use super::{App, Cmd, EditorAction, Focus, FormAction, PanelAction, QuizAction, Reset};
use crate::keymap::{self, Action, Ctx};
use crate::timeline::TimelineAction;

/// Which sub-state an action goes to, as that sub-state's own action.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Route {
    Nav(NavAction),
    Quiz(QuizAction),
    Overlay(OverlayAction),
    Panel(PanelAction),
    Form(FormAction),
    Editor(EditorAction),
    /// Needs more than one sub-state: [`App::perform_app`].
    App(Action),
}

/// The one table from a key's action to a sub-state's action. `links_open`: the links dialog is
/// on screen (its Up/Down move among links, not the lesson list).
pub(super) fn route(action: Action, links_open: bool) -> Route {
    use Route::{Editor as E, Form, Nav, Overlay as O, Panel, Quiz};
    match action {
        Action::NextCard => Nav(NavAction::NextCard),
        Action::PrevCard => Nav(NavAction::PrevCard),
        Action::FocusNext => Nav(NavAction::CycleFocus { forward: true }),
        Action::FocusPrev => Nav(NavAction::CycleFocus { forward: false }),
        Action::ZoomPane => Nav(NavAction::ToggleZoom),
        Action::ToggleLessons => Nav(NavAction::ToggleLessons),
        Action::JumpLesson(n) => Nav(NavAction::JumpLesson(usize::from(n).saturating_sub(1))),
        Action::ListUp if links_open => O(OverlayAction::Link(LinkAction::Select(-1))),
        Action::ListDown if links_open => O(OverlayAction::Link(LinkAction::Select(1))),
        Action::ListUp => Nav(NavAction::MoveSelection(-1)),
        Action::ListDown => Nav(NavAction::MoveSelection(1)),
        Action::OpenLesson => Nav(NavAction::OpenSelected),
        Action::Close => Nav(NavAction::Close),
        Action::OptionUp => Quiz(QuizAction::MoveOption(-1)),
        Action::OptionDown => Quiz(QuizAction::MoveOption(1)),
        Action::Answer => Quiz(QuizAction::Answer),
        Action::NextQuestion => Quiz(QuizAction::MoveQuestion(1)),
        Action::PrevQuestion => Quiz(QuizAction::MoveQuestion(-1)),
        Action::PickOption(n) => Quiz(QuizAction::Pick(usize::from(n))),
        Action::NextToReview => Quiz(QuizAction::NextToReview),
        Action::ToggleHelp => O(OverlayAction::ToggleHelp),
        Action::ConfirmNo => O(OverlayAction::ConfirmNo),
        Action::ConfirmYes => O(OverlayAction::ConfirmYes),
        Action::ResetAll => O(OverlayAction::AskReset(Reset::All)),
        Action::ToggleLinks => O(OverlayAction::ToggleLinks),
        Action::LinkScrollLeft => O(OverlayAction::Link(LinkAction::Scroll { right: false })),
        Action::LinkScrollRight => O(OverlayAction::Link(LinkAction::Scroll { right: true })),
        Action::LinkOpen => O(OverlayAction::Link(LinkAction::Open)),
        Action::LinkCopy => O(OverlayAction::Link(LinkAction::Copy)),
        Action::SwitchExperiment => Panel(PanelAction::SwitchExperiment),
        Action::ToggleView => Panel(PanelAction::ToggleView),
        Action::LaneMode => Panel(PanelAction::LaneMode),
        Action::Compare => Panel(PanelAction::Compare),
        Action::FieldUp => Form(FormAction::Field(-1)),
        Action::FieldDown => Form(FormAction::Field(1)),
        Action::ValueLess => Form(FormAction::Value(-1)),
        Action::ValueMore => Form(FormAction::Value(1)),
        Action::OpenEditor => E(EditorAction::OpenList),
        Action::PickerMove(step) => E(EditorAction::ListMove(step.into())),
        Action::PickerOpen => E(EditorAction::ListOpen),
        Action::PickerReset => E(EditorAction::ListReset),
        Action::PickerClose => E(EditorAction::ListClose),
        Action::EditorTimeline => E(EditorAction::ToggleTimeline),
        Action::EditorZoomPane => E(EditorAction::ToggleZoom),
        Action::EditorCheck => E(EditorAction::Check),
        Action::EditorLeave => E(EditorAction::Leave),
        Action::EditorExternal => E(EditorAction::External),
        Action::EditorHint => E(EditorAction::Hint),
        Action::EditorSolution => E(EditorAction::Solution),
        Action::EditorReset => E(EditorAction::Reset),
        Action::VerdictScroll(n) => E(EditorAction::ScrollVerdict {
            steps: n.into(),
            page: false,
        }),
        Action::VerdictPage(n) => E(EditorAction::ScrollVerdict {
            steps: n.into(),
            page: true,
        }),
        Action::EditorOp(step) => E(EditorAction::Timeline(if step < 0 {
            TimelineAction::SelectPrev
        } else {
            TimelineAction::SelectNext
        })),
        Action::EditorZoom(step) => E(EditorAction::Timeline(if step < 0 {
            TimelineAction::ZoomOut
        } else {
            TimelineAction::ZoomIn
        })),
        Action::EditorPan(step) => E(EditorAction::Timeline(if step < 0 {
            TimelineAction::PanLeft
        } else {
            TimelineAction::PanRight
        })),
        Action::EditCopy => E(EditorAction::Copy),
        Action::EditRedo => E(EditorAction::Redo),
        other => match other.timeline() {
            Some(timeline) => Panel(PanelAction::Timeline(timeline)),
            None => Route::App(other),
        },
    }
}

/// Whether `key` was pressed with Ctrl or Alt.
fn has_ctrl_or_alt(key: &KeyEvent) -> bool {
    use ratatui::crossterm::event::KeyModifiers;
    key.modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

impl App {
    /// A key: the prediction field, the dialog, the editor or the focused pane gets it.
    pub(super) fn on_key(&mut self, key: KeyEvent) -> Vec<Cmd> {
        if key.kind != KeyEventKind::Press {
            return Vec::new();
        }
        if crate::panes::too_small(self.size) {
            // Only "terminal too small" is on screen: a key would act unseen (review 2026-12-01
            // S6: letters typed then went into the exercise file). Only quitting still works:
            // `q`, as the message says, or Ctrl-C (the editor's unsaved text is saved first).
            let q = key.code == KeyCode::Char('q') && key.modifiers == KeyModifiers::NONE;
            return if q || keymap::lookup(Ctx::Always, &key) == Some(Action::Quit) {
                self.perform(Action::Quit)
            } else {
                Vec::new()
            };
        }
        if self.quiz.input.is_some() && keymap::lookup(Ctx::Always, &key) != Some(Action::Quit) {
            return self.quiz_update(QuizAction::Input(key));
        }
        match keymap::lookup(self.key_context(), &key) {
            // The text area carries out its keys itself; the table lists them.
            Some(action) if action.edits_text() => self.editor_update(EditorAction::Type(key)),
            Some(action) => self.perform(action),
            // Typing; a Ctrl or Alt key the table does not bind does nothing (`?` lists all).
            None if self.key_context() == Ctx::Editor && !has_ctrl_or_alt(&key) => {
                self.editor_update(EditorAction::Type(key))
            }
            None if self.overlays.params().is_some() => {
                self.params_update(FormAction::Type(key));
                Vec::new()
            }
            None => Vec::new(),
        }
    }

    /// The character `key` types into the editor's text when it goes there as plain typing,
    /// with no prompt, dialog or binding to take it first: a printable character, Enter (a
    /// newline) or Tab (a tab). `None` for any other key, or when typing goes elsewhere. The
    /// event loop types a run of such keys that arrived together in one insertion.
    pub fn typed_char(&self, key: &KeyEvent) -> Option<char> {
        let c = match key.code {
            KeyCode::Char(c) if !c.is_control() && !has_ctrl_or_alt(key) => c,
            KeyCode::Enter if key.modifiers.is_empty() => '\n',
            KeyCode::Tab if key.modifiers.is_empty() => '\t',
            _ => return None,
        };
        let typing = key.kind == KeyEventKind::Press
            && !crate::panes::too_small(self.size)
            && self.quiz.input.is_none()
            && self.key_context() == Ctx::Editor
            && keymap::lookup(Ctx::Editor, key).is_none_or(Action::edits_text)
            && self.exercises.editor.as_ref().is_some_and(|ed| {
                ed.area.is_some() && ed.conflict.is_none() && ed.quit_prompt.is_none()
            });
        typing.then_some(c)
    }

    /// Which part of the key table applies now.
    pub fn key_context(&self) -> Ctx {
        match self.overlays.dialog {
            Some(Overlay::Help) => Ctx::Help,
            Some(Overlay::Confirm(_)) => Ctx::Confirm,
            Some(Overlay::Params(_)) => Ctx::Params,
            Some(Overlay::Links) => Ctx::Links,
            None if self.picker_open() => Ctx::Picker,
            None if self.editor_open() => Ctx::Editor,
            None => match self.nav.focus {
                Focus::Cards => Ctx::Cards,
                Focus::Panel => Ctx::Panel,
                Focus::Quiz => Ctx::Quiz,
                Focus::Lessons => Ctx::Lessons,
            },
        }
    }

    /// Carry out a named action (what a key is bound to), in the sub-state that
    /// `dispatch::route` names.
    pub fn perform(&mut self, action: Action) -> Vec<Cmd> {
        match route(action, self.overlays.dialog == Some(Overlay::Links)) {
            Route::Nav(nav) => self.nav_update(nav),
            Route::Quiz(quiz) => self.quiz_update(quiz),
            Route::Overlay(overlay) => self.overlay_update(overlay),
            Route::Panel(panel) => self.after(|app| app.panel_update(panel)),
            Route::Form(form) => self.after(|app| app.params_update(form)),
            Route::Editor(editor) => self.editor_update(editor),
            Route::App(action) => self.perform_app(action).unwrap_or_default(),
        }
    }

    /// One action of the dialogs and banners, and its effect on the rest of the app.
    pub(super) fn overlay_update(&mut self, action: OverlayAction) -> Vec<Cmd> {
        let links = match action {
            OverlayAction::Link(_) => self.card_links(),
            _ => Vec::new(),
        };
        match self.overlays.update(action, &links, self.size.width) {
            OverlayEffect::None => Vec::new(),
            OverlayEffect::Confirmed(what) => self.reset(what),
            OverlayEffect::Cmd(cmd) => vec![cmd],
        }
    }

    /// The actions that take more than one sub-state; `None` for one that is not among them
    /// (no sub-state and no line here: it does nothing, which a test catches).
    fn perform_app(&mut self, action: Action) -> Option<Vec<Cmd>> {
        Some(match action {
            Action::Quit => self
                .editor_save_cmd()
                .into_iter()
                .chain([Cmd::Quit])
                .collect(),
            Action::ScrollUp => self.scroll(-1),
            Action::ScrollDown => self.scroll(1),
            Action::PageUp => self.scroll(-self.page()),
            Action::PageDown => self.scroll(self.page()),
            Action::Top => self.scroll(-i32::from(u16::MAX)),
            Action::Bottom => self.scroll(i32::from(u16::MAX)),
            Action::ResetLesson => self.after(|app| app.ask_reset(app.nav.list_selected)),
            Action::RunExperiment => self.run_experiment(),
            Action::ExportTrace => self.export_trace(),
            Action::OpenParams => self.after(Self::open_params),
            Action::ParamsRun => self.close_params(true),
            Action::ParamsClose => self.close_params(false),
            _ => return None,
        })
    }

    fn after(&mut self, f: impl FnOnce(&mut Self)) -> Vec<Cmd> {
        f(self);
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keymap::BINDINGS;

    #[test]
    fn keys_do_nothing_while_the_terminal_is_too_small_but_quitting() {
        use ratatui::layout::Size;
        let mut app = crate::app::tests::app();
        let before = app.nav;
        app.size = Size::new(20, 5);
        for c in ['j', 'l', '2', 'w', '?'] {
            let cmds = app.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
            assert!(cmds.is_empty(), "{c}: {cmds:?}");
        }
        assert_eq!(app.nav, before, "no key moved anything");
        assert!(app.overlays.dialog.is_none(), "no dialog opened");
        for (code, mods) in [
            (KeyCode::Char('c'), KeyModifiers::CONTROL),
            (KeyCode::Char('q'), KeyModifiers::NONE),
        ] {
            let quit = app.on_key(KeyEvent::new(code, mods));
            assert!(quit.contains(&Cmd::Quit), "{code:?}: {quit:?}");
        }
    }

    #[test]
    fn every_bound_action_reaches_a_sub_state_or_the_app_on_purpose() {
        // An action routed to no sub-state must have its line in `perform_app`; one that falls
        // through would do nothing when its key is pressed.
        let mut app = crate::app::tests::app();
        for binding in BINDINGS {
            // The text area's own keys go to the editor with the key itself (`on_key`).
            if binding.action.edits_text() {
                continue;
            }
            if let Route::App(action) = route(binding.action, false) {
                let handled = app.perform_app(action).is_some();
                assert!(handled, "{action:?} is bound but reaches nothing");
            }
        }
        assert_eq!(
            route(Action::ListDown, true),
            Route::Overlay(OverlayAction::Link(LinkAction::Select(1))),
            "in the links dialog Down moves among links"
        );
        let list = route(Action::ListDown, false);
        assert_eq!(list, Route::Nav(NavAction::MoveSelection(1)));
        let zoom = route(Action::ZoomIn, false);
        assert!(
            matches!(zoom, Route::Panel(PanelAction::Timeline(_))),
            "{zoom:?}"
        );
    }
}
