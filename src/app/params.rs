//! The parameter form (`o`): the fields that apply to the experiment shown, stepped with
//! Left/Right or typed (`64M`, `4`), kept per experiment; Enter runs with them, Esc keeps them.
//!
//! [`ParamsForm`] is a sub-state with its own [`ParamsForm::update`]; it lives in the dialog
//! ([`super::Overlay::Params`]), so it is open exactly while it is on screen. The app opens it
//! and, on close, keeps its values in the panel (and runs with them on Enter).

use crate::experiment::{ExperimentOptions, registry};

mod dialog;
mod field;

/// One field of the form: an option the experiment's registry entry says applies.
pub use crate::experiment::registry::Param as Field;

/// The form's state while it is open.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamsForm {
    /// The experiment the values are for.
    pub experiment: String,
    /// The field under the cursor (index into [`fields`]).
    pub field: usize,
    /// The values so far.
    pub options: ExperimentOptions,
    /// What is being typed into the field under the cursor.
    pub typed: String,
    /// Why the last typed value or the whole set was refused.
    pub error: Option<String>,
}

/// The fields that apply to `experiment` (none for an id the registry does not know).
pub fn fields(experiment: &str) -> &'static [Field] {
    registry::find(experiment).map_or(&[], |spec| spec.params)
}

/// The size `auto` stands for in `experiment`'s form.
fn default_size(experiment: &str) -> Option<u64> {
    registry::find(experiment).map(|spec| spec.default_size)
}

/// What the form's keys ask of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormAction {
    /// Up/Down: the field `delta` away (wrapping).
    Field(i32),
    /// Left/Right: step the value.
    Value(i32),
    /// A character typed into the field.
    Type(char),
    /// Backspace: the last character typed goes.
    Erase,
}

impl ParamsForm {
    /// The form for `experiment`, starting from `options`.
    pub fn new(experiment: String, options: ExperimentOptions) -> ParamsForm {
        ParamsForm {
            experiment,
            field: 0,
            options,
            typed: String::new(),
            error: None,
        }
    }

    /// Carry out one of the form's own actions.
    pub fn update(&mut self, action: FormAction) {
        match action {
            FormAction::Field(delta) => {
                self.commit_typed();
                let n = fields(&self.experiment).len();
                let at = i64::try_from(self.field).unwrap_or(0) + i64::from(delta);
                self.field =
                    usize::try_from(at.rem_euclid(i64::try_from(n).unwrap_or(1))).unwrap_or(0);
            }
            FormAction::Value(delta) => {
                self.typed.clear();
                self.error = None;
                if let Some(field) = fields(&self.experiment).get(self.field) {
                    field.step(&mut self.options, delta, default_size(&self.experiment));
                }
            }
            FormAction::Erase => {
                self.typed.pop();
            }
            FormAction::Type(c) => {
                if (c.is_ascii_alphanumeric() || c == '.') && self.typed.len() < 12 {
                    self.typed.push(c);
                }
            }
        }
    }

    /// Take what was typed into the field; false (with the reason in `error`) when it is refused.
    fn commit_typed(&mut self) -> bool {
        if self.typed.is_empty() {
            return true;
        }
        let field = fields(&self.experiment).get(self.field).copied();
        match field.map_or(Ok(()), |f| f.set(&mut self.options, &self.typed)) {
            Ok(()) => {
                self.typed.clear();
                self.error = None;
                true
            }
            Err(why) => {
                self.error = Some(why);
                false
            }
        }
    }
}
