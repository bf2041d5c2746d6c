//! From a key to the sub-state it is for. The key table (`crate::keymap`) gives an [`Action`] for
//! the context (dialog, editor, focused pane); `route`, made from the same table's lines,
//! gives the sub-state's own action for it; what needs several sub-states at once (quitting,
//! scrolling by a measured page, running) stays an [`Action`] for [`App::perform_app`].
//!
//! To add a key: one line in `keymap/table.rs` (the action's name, description and route on
//! its first line) and its handler: the sub-state's action and its arm in that sub-state's
//! `update`, or an arm in [`App::perform_app`] for a line routed to `App`.

use ratatui::crossterm::event::{KeyEvent, KeyEventKind};

use super::overlay::{Overlay, OverlayAction, OverlayEffect};
use super::{App, Cmd, Focus};
use crate::keymap::{self, Action, Ctx};

mod route;
use route::{Route, route};

impl App {
    /// A key: the table gives the action for where it is pressed ([`App::key_context`]), and
    /// [`App::perform`] carries it out; a key without a line in the table does nothing.
    pub(super) fn on_key(&mut self, key: KeyEvent) -> Vec<Cmd> {
        if key.kind != KeyEventKind::Press {
            return Vec::new();
        }
        let action = keymap::lookup(self.key_context(), &key);
        if crate::panes::too_small(self.size) {
            // Only "terminal too small" is on screen: a key would act unseen (review 2026-12-01
            // S6: letters typed then went into the exercise file). Only quitting still works:
            // `q`, as the message says, or Ctrl-C outside the editor (its unsaved text is saved
            // first).
            let q = keymap::lookup(Ctx::Main, &key) == Some(Action::Quit);
            return if q || action == Some(Action::Quit) {
                self.perform(Action::Quit)
            } else {
                Vec::new()
            };
        }
        match action {
            Some(action) => self.perform(action),
            None => Vec::new(),
        }
    }

    /// The character `key` types into the editor's text when it goes there as plain typing,
    /// with no prompt, dialog or other binding to take it first: a printable character, Enter
    /// (a newline) or Tab (a tab). `None` for any other key, or when typing goes elsewhere. The
    /// event loop types a run of such keys that arrived together in one insertion.
    pub fn typed_char(&self, key: &KeyEvent) -> Option<char> {
        if key.kind != KeyEventKind::Press || crate::panes::too_small(self.size) {
            return None;
        }
        let c = match keymap::lookup(self.key_context(), key)? {
            Action::EditType(c) => c,
            Action::EditNewline => '\n',
            Action::EditIndent => '\t',
            _ => return None,
        };
        // Over a selection the key replaces it, as one key (the paste path would not); while a
        // prompt is up a paste is refused, so the keys go one by one.
        let typing = self.exercises.editor.as_ref().is_some_and(|ed| {
            ed.conflict.is_none()
                && ed.quit_prompt.is_none()
                && ed.area.as_ref().is_some_and(|area| !area.is_selecting())
        });
        typing.then_some(c)
    }

    /// Which part of the key table applies now.
    pub fn key_context(&self) -> Ctx {
        if self.quiz.input.is_some() {
            return Ctx::Prediction;
        }
        if self.tutor.open && self.overlays.dialog.is_none() {
            return Ctx::Tutor;
        }
        match self.overlays.dialog {
            Some(Overlay::Help) => Ctx::Help,
            Some(Overlay::Confirm(_)) => Ctx::Confirm,
            Some(Overlay::Params(_)) => Ctx::Params,
            Some(Overlay::Links) => Ctx::Links,
            None if self.picker_open() => Ctx::Picker,
            None if self.editor_open() => self.editor_context(),
            None => match self.nav.focus {
                Focus::Cards => Ctx::Cards,
                Focus::Panel => Ctx::Panel,
                Focus::Quiz => Ctx::Quiz,
                Focus::Lessons => Ctx::Lessons,
            },
        }
    }

    /// The editor's part of the table: its prompt's, its find bar's, or its own.
    fn editor_context(&self) -> Ctx {
        let Some(ed) = self.exercises.editor.as_ref() else {
            return Ctx::Editor;
        };
        if ed.quit_prompt.is_some() {
            Ctx::QuitPrompt
        } else if ed.conflict.as_ref().is_some_and(|c| c.diff.is_some()) {
            Ctx::EditorDiff
        } else if ed.editing.find.is_some() {
            Ctx::EditorFind
        } else {
            Ctx::Editor
        }
    }

    /// Carry out a named action (what a key is bound to), in the sub-state that `route`
    /// names (the key table's line for it).
    pub fn perform(&mut self, action: Action) -> Vec<Cmd> {
        match route(action) {
            Route::Nav(nav) => self.nav_update(nav),
            Route::Quiz(quiz) => self.quiz_update(quiz),
            Route::Overlay(overlay) => self.overlay_update(overlay),
            Route::Panel(panel) => self.after(|app| app.panel_update(panel)),
            Route::Form(form) => self.after(|app| app.params_update(form)),
            Route::Editor(editor) => self.editor_update(editor),
            Route::Tutor(tutor) => self.tutor_update(tutor),
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
            Action::CodeLeft => self.after(|app| app.scroll_code(-1)),
            Action::CodeRight => self.after(|app| app.scroll_code(1)),
            Action::Top => self.scroll(-i32::from(u16::MAX)),
            Action::Bottom => self.scroll(i32::from(u16::MAX)),
            // Ctrl-S: the save the editor's `Saved` reply confirms (nothing when it is saved).
            Action::EditSave => self.editor_save_cmd().into_iter().collect(),
            // The event loop suspends before `update` sees the key (it needs the terminal).
            Action::Suspend => Vec::new(),
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
    use crate::app::PanelAction;
    use crate::app::links::LinkAction;
    use crate::app::nav::NavAction;
    use crate::keymap::BINDINGS;
    use ratatui::crossterm::event::{KeyCode, KeyModifiers};

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
            if let Route::App(action) = route(binding.action) {
                // A line routed to `App` names its own action (a copied line would not).
                assert_eq!(action, binding.action, "a line routes another action");
                let handled = app.perform_app(action).is_some();
                assert!(handled, "{action:?} is bound but reaches nothing");
            }
        }
        assert_eq!(
            route(Action::LinkDown),
            Route::Overlay(OverlayAction::Link(LinkAction::Select(1))),
            "in the links dialog Down moves among links"
        );
        let list = route(Action::ListDown);
        assert_eq!(list, Route::Nav(NavAction::MoveSelection(1)));
    }

    #[test]
    fn the_timeline_keys_reach_the_panel_timeline_the_trace_view_reads() {
        // `Action::timeline` is what the trace view applies; the app's route must agree.
        let mut timeline_keys = 0;
        for binding in BINDINGS {
            if let Some(t) = binding.action.timeline() {
                assert_eq!(
                    route(binding.action),
                    Route::Panel(PanelAction::Timeline(t)),
                    "{:?}",
                    binding.action
                );
                timeline_keys += 1;
            }
        }
        assert!(timeline_keys >= 6, "only {timeline_keys} timeline keys");
    }
}
