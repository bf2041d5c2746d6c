//! From a key to the sub-state it is for: the key table gives an [`Action`] for the context
//! (dialog, editor, focused pane), and [`App::perform`] hands it to navigation, the quiz, the
//! lesson list, the exercise editor, the parameter form or the experiment panel.

use ratatui::crossterm::event::{KeyEvent, KeyEventKind};

use super::{App, Cmd, Focus, FormAction, Overlay, PanelAction, Reset};
use crate::keymap::{self, Action, Ctx};

impl App {
    /// A key: the dialog, the editor or the focused pane gets it.
    pub(super) fn on_key(&mut self, key: KeyEvent) -> Vec<Cmd> {
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
                self.params_update(FormAction::Type(key));
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

    /// The actions of the experiment panel, the parameter form and the exercise editor.
    fn perform_panel(&mut self, action: Action) -> Vec<Cmd> {
        if let Some(panel) = panel_action(action) {
            self.panel_update(panel);
            return Vec::new();
        }
        if let Some(form) = form_action(action) {
            self.params_update(form);
            return Vec::new();
        }
        match action {
            Action::RunExperiment => self.run_experiment(),
            Action::ExportTrace => self.export_trace(),
            Action::OpenParams => self.after(Self::open_params),
            Action::ParamsRun => self.close_params(true),
            Action::ParamsClose => self.close_params(false),
            Action::OpenEditor => self.open_picker(),
            Action::PickerMove(step) => self.after(|a| a.picker_move(step.into())),
            Action::PickerOpen => self.picker_open_selected(),
            Action::PickerReset => self.after(Self::picker_ask_reset),
            Action::PickerClose => self.after(Self::picker_close),
            Action::EditorTimeline => self.after(Self::editor_toggle_timeline),
            Action::EditorCheck => self.editor_check(),
            Action::EditorLeave => self.editor_escape(),
            Action::EditorExternal => self.editor_external(),
            Action::EditorHint => self.after(Self::editor_hint),
            Action::EditorSolution => self.after(Self::editor_solution),
            Action::EditorReset => self.after(Self::editor_ask_reset),
            _ => Vec::new(),
        }
    }

    fn after(&mut self, f: impl FnOnce(&mut Self)) -> Vec<Cmd> {
        f(self);
        Vec::new()
    }
}

/// The panel's own action a key action stands for, if it is one.
fn panel_action(action: Action) -> Option<PanelAction> {
    Some(match action {
        Action::SwitchExperiment => PanelAction::SwitchExperiment,
        Action::ToggleView => PanelAction::ToggleView,
        Action::LaneMode => PanelAction::LaneMode,
        Action::Compare => PanelAction::Compare,
        _ => PanelAction::Timeline(action.timeline()?),
    })
}

/// The parameter form's own action a key action stands for, if it is one.
fn form_action(action: Action) -> Option<FormAction> {
    Some(match action {
        Action::FieldUp => FormAction::Field(-1),
        Action::FieldDown => FormAction::Field(1),
        Action::ValueLess => FormAction::Value(-1),
        Action::ValueMore => FormAction::Value(1),
        _ => return None,
    })
}
