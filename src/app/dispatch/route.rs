//! [`route`]: from a key's [`Action`] to the sub-state that carries it out, as that sub-state's
//! own action ([`NavAction`], [`QuizAction`], [`OverlayAction`], [`PanelAction`], [`FormAction`],
//! [`EditorAction`], [`TutorAction`]); what needs several sub-states at once (quitting, scrolling
//! by a measured page, running) stays an [`Action`] for `App::perform_app`. The routes are the
//! key table's own: each action's first line in `keymap/table.rs` ends in its route, and
//! [`route_from_table!`] makes [`route`] of them here, where their names resolve (`keymap` sits
//! below `app` and names none of them). The match is exhaustive: an action cannot lack a route.

use super::super::editor::{EditOp, FindOp, PromptAction};
use super::super::links::LinkAction;
use super::super::nav::NavAction;
use super::super::overlay::OverlayAction;
use super::super::quiz::PredictionKey;
use super::super::tutor::TutorAction;
use super::super::{EditorAction, FormAction, PanelAction, QuizAction, Reset};
use crate::keymap::Action;
use crate::timeline::TimelineAction;
use Route::{App, Editor, Form, Nav, Overlay, Panel, Quiz, Tutor};

/// Which sub-state an action goes to, as that sub-state's own action.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Route {
    Nav(NavAction),
    Quiz(QuizAction),
    Overlay(OverlayAction),
    Panel(PanelAction),
    Form(FormAction),
    Editor(EditorAction),
    Tutor(TutorAction),
    /// Needs more than one sub-state: `App::perform_app`.
    App(Action),
}

/// Makes [`route`] from the key table's lines: an arm for each line that defines an action (its
/// field bound by the name the line gives it), the line's route its value. The keys, context
/// and footer are `keymap`'s part: left out here.
macro_rules! route_from_table {
    ($(
        $ctx:ident $keys:tt $variant:ident $(($value:expr))?
        $(footer($footer_keys:literal, $footer_text:literal))?
        $(: $name:literal, $desc:literal $(, $field_name:ident: $field:ty)? => $route:expr)?;
    )*) => {
        /// The sub-state `action` goes to, as the key table's line for it says.
        pub(super) fn route(action: Action) -> Route {
            match action {
                $($(Action::$variant $(($field_name))? => $route,)?)*
            }
        }
    };
}

crate::keymap::bindings!(route_from_table);

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
