//! [`Action`]: everything a key can ask for, made with [`BINDINGS`](super::BINDINGS) from the
//! lines of the key table (`table.rs`, where an action's first line names and describes it) by
//! `define_actions!`; its help text; which of them are the timeline's own; [`Motion`], where a
//! move goes.

use super::Action;
use crate::timeline::TimelineAction;

pub use super::motion::Motion;

/// Makes, from the lines of `super::table::bindings!`, [`Action`] (a variant for each line that
/// names and describes one, with its field), its [`Action::name`] and [`Action::description`],
/// and [`BINDINGS`](super::BINDINGS), every line in table order. The route is `app`'s part (its
/// names resolve there): left out here.
macro_rules! define_actions {
    ($(
        $ctx:ident $keys:tt $variant:ident $(($value:expr))?
        $(footer($footer_keys:literal, $footer_text:literal))?
        $(: $name:literal, $desc:literal $(, $field_name:ident: $field:ty)? => $route:expr)?;
    )*) => {
        /// Everything a key can ask for. Each variant's [`Action::name`] and
        /// [`Action::description`] say what it does (they are what the help overlay shows).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Action {
            $($(
                #[doc = concat!("`", $name, "`: `", $desc, "`")]
                $variant $(($field))?,
            )?)*
        }

        impl Action {
            /// The action's name, as the help overlay lists it.
            pub fn name(self) -> &'static str {
                match self {
                    $($(Action::$variant { .. } => $name,)?)*
                }
            }

            /// One line on what it does, for the help overlay.
            pub fn description(self) -> &'static str {
                match self {
                    $($(Action::$variant { .. } => $desc,)?)*
                }
            }
        }

        /// Every binding of the app, in table order.
        pub const BINDINGS: &[Binding] = &[$(
            Binding {
                ctx: $ctx,
                keys: &$keys,
                action: Action::$variant $(($value))?,
                footer: $crate::keymap::action::footer_entry!($($footer_keys, $footer_text)?),
            },
        )*];
    };
}
pub(super) use define_actions;

/// A line's footer entry, if it has one.
macro_rules! footer_entry {
    () => {
        None
    };
    ($keys:literal, $text:literal) => {
        Some(($keys, $text))
    };
}
pub(super) use footer_entry;

impl Action {
    /// The name and description the help shows: a move's say where it goes.
    pub fn help_text(self) -> (&'static str, &'static str) {
        match self {
            Action::Move(m) => (m.name(), m.description()),
            Action::Select(m) => (m.select_name(), "Shift with a move selects"),
            _ => (self.name(), self.description()),
        }
    }

    /// The timeline's own action this one stands for, if it is one (zoom, pan, op selection).
    pub fn timeline(self) -> Option<TimelineAction> {
        Some(match self {
            Action::ZoomIn => TimelineAction::ZoomIn,
            Action::ZoomOut => TimelineAction::ZoomOut,
            Action::PanLeft => TimelineAction::PanLeft,
            Action::PanRight => TimelineAction::PanRight,
            Action::SelectPrevOp => TimelineAction::SelectPrev,
            Action::SelectNextOp => TimelineAction::SelectNext,
            _ => return None,
        })
    }
}
