//! From a key to the sub-state it is for. The key table (`crate::keymap`) gives an [`Action`] for
//! the context (dialog, editor, focused pane); [`route`] is the one table from that action to the
//! sub-state's own action ([`NavAction`], [`QuizAction`], [`OverlayAction`], [`PanelAction`],
//! [`FormAction`], [`EditorAction`]); what needs several sub-states at once (quitting, scrolling
//! by a measured page, running) stays an [`Action`] for [`App::perform_app`].
//!
//! To add a key: define it in `actions!` (`keymap/action.rs`) and bind it in `keymap/table.rs`;
//! if one sub-state carries it out, give that sub-state an action and a line in [`route`]; else
//! handle it in [`App::perform_app`].

use ratatui::crossterm::event::{KeyEvent, KeyEventKind};

use super::editor::{EditOp, FindOp, PromptAction};
use super::links::LinkAction;
use super::nav::NavAction;
use super::overlay::{Overlay, OverlayAction, OverlayEffect};
use super::quiz::PredictionKey;
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
    Tutor(super::tutor::TutorAction),
    /// Needs more than one sub-state: [`App::perform_app`].
    App(Action),
}

/// The one table from a key's action to a sub-state's action, one arm an action, in four parts
/// by where the key is pressed. `links_open`: the links dialog is on screen (its Up/Down move
/// among links, not the lesson list).
pub(super) fn route(action: Action, links_open: bool) -> Route {
    lesson(action, links_open)
        .or_else(|| dialogs(action))
        .or_else(|| editor(action))
        .or_else(|| typing(action))
        .or_else(|| super::tutor::route(action).map(Route::Tutor))
        .unwrap_or_else(|| match action.timeline() {
            Some(timeline) => Route::Panel(PanelAction::Timeline(timeline)),
            None => Route::App(action),
        })
}

/// The lesson list, the cards and the quiz.
fn lesson(action: Action, links_open: bool) -> Option<Route> {
    use Route::{Nav, Overlay as O, Quiz};
    Some(match action {
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
        _ => return None,
    })
}

/// The overlays (help, confirmations, links), the experiment panel and the parameter form.
fn dialogs(action: Action) -> Option<Route> {
    use Route::{Form, Overlay as O, Panel};
    Some(match action {
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
        _ => return None,
    })
}

/// The exercise list and the editor's own keys (checks, panes, the verdict, its timeline).
fn editor(action: Action) -> Option<Route> {
    use Route::Editor as E;
    Some(match action {
        Action::OpenEditor => E(EditorAction::OpenList),
        Action::PickerUp => E(EditorAction::ListMove(-1)),
        Action::PickerDown => E(EditorAction::ListMove(1)),
        Action::PickerOpen => E(EditorAction::ListOpen),
        Action::PickerReset => E(EditorAction::ListReset),
        Action::PickerClose => E(EditorAction::ListClose),
        Action::EditorToggleTimeline => E(EditorAction::ToggleTimeline),
        Action::EditorToggleZoom => E(EditorAction::ToggleZoom),
        Action::EditorCheck => E(EditorAction::Check),
        Action::EditorLeave => E(EditorAction::Leave),
        Action::EditorExternal => E(EditorAction::External),
        Action::EditorHint => E(EditorAction::Hint),
        Action::EditorSolution => E(EditorAction::Solution),
        Action::EditorReset => E(EditorAction::Reset),
        Action::VerdictUp => E(verdict(-1, false)),
        Action::VerdictDown => E(verdict(1, false)),
        Action::VerdictPageUp => E(verdict(-1, true)),
        Action::VerdictPageDown => E(verdict(1, true)),
        Action::EditorOpPrev => E(EditorAction::Timeline(TimelineAction::SelectPrev)),
        Action::EditorOpNext => E(EditorAction::Timeline(TimelineAction::SelectNext)),
        Action::EditorZoomIn => E(EditorAction::Timeline(TimelineAction::ZoomIn)),
        Action::EditorZoomOut => E(EditorAction::Timeline(TimelineAction::ZoomOut)),
        Action::EditorPanLeft => E(EditorAction::Timeline(TimelineAction::PanLeft)),
        Action::EditorPanRight => E(EditorAction::Timeline(TimelineAction::PanRight)),
        _ => return None,
    })
}

/// Text: the editor's edits and find bar, its prompts' answers, the prediction field and the
/// form's typed values.
fn typing(action: Action) -> Option<Route> {
    use Route::{Form, Quiz};
    Some(match action {
        Action::Move(m) => edit(EditOp::Move(m)),
        Action::Select(m) => edit(EditOp::Select(m)),
        Action::EditType(c) => edit(EditOp::Insert(c)),
        Action::EditNewline => edit(EditOp::Newline),
        Action::EditIndent => edit(EditOp::Indent),
        Action::EditDeleteBack => edit(EditOp::DeleteBack),
        Action::EditDeleteForward => edit(EditOp::DeleteForward),
        Action::EditDeleteWordBack => edit(EditOp::DeleteWordBack),
        Action::EditDeleteWordForward => edit(EditOp::DeleteWordForward),
        Action::EditUndo => edit(EditOp::Undo),
        Action::EditRedo => edit(EditOp::Redo),
        Action::EditCut => edit(EditOp::Cut),
        Action::EditCopy => edit(EditOp::Copy),
        Action::EditPaste => edit(EditOp::Paste),
        Action::EditSelectAll => edit(EditOp::SelectAll),
        Action::EditComment => edit(EditOp::Comment),
        Action::EditFind => edit(EditOp::Find(FindOp::Open)),
        Action::FindType(c) => edit(EditOp::Find(FindOp::Type(c))),
        Action::FindErase => edit(EditOp::Find(FindOp::Erase)),
        Action::FindNext => edit(EditOp::Find(FindOp::Next)),
        Action::FindPrev => edit(EditOp::Find(FindOp::Prev)),
        Action::FindClose => edit(EditOp::Find(FindOp::Close)),
        Action::ConflictKeep => prompt(PromptAction::Keep),
        Action::ConflictLoad => prompt(PromptAction::Load),
        Action::ConflictCompare => prompt(PromptAction::Compare),
        Action::DiffUp => prompt(PromptAction::DiffScroll(-1)),
        Action::DiffDown => prompt(PromptAction::DiffScroll(1)),
        Action::DiffPageUp => prompt(PromptAction::DiffScroll(-DIFF_PAGE)),
        Action::DiffPageDown => prompt(PromptAction::DiffScroll(DIFF_PAGE)),
        Action::DiffClose => prompt(PromptAction::DiffClose),
        Action::QuitYes => prompt(PromptAction::QuitYes),
        Action::QuitNo => prompt(PromptAction::QuitNo),
        Action::PredictionType(c) => Quiz(QuizAction::Input(PredictionKey::Type(c))),
        Action::PredictionErase => Quiz(QuizAction::Input(PredictionKey::Erase)),
        Action::PredictionSubmit => Quiz(QuizAction::Input(PredictionKey::Submit)),
        Action::PredictionCancel => Quiz(QuizAction::Input(PredictionKey::Cancel)),
        Action::ParamsType(c) => Form(FormAction::Type(c)),
        Action::ParamsErase => Form(FormAction::Erase),
        _ => return None,
    })
}

/// Lines of a page of the "changed outside" diff.
const DIFF_PAGE: isize = 10;

fn edit(op: EditOp) -> Route {
    Route::Editor(EditorAction::Edit(op))
}

fn prompt(answer: PromptAction) -> Route {
    Route::Editor(EditorAction::Prompt(answer))
}

fn verdict(steps: i32, page: bool) -> EditorAction {
    EditorAction::ScrollVerdict { steps, page }
}

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
