//! The prediction field: typing a number (digits never jump to lessons while it is open), the
//! unit it is in, and the refusals of values its metric cannot take.

use super::{QuizContext, QuizEffect, QuizState};
use crate::app::predict::domain_error;
use crate::progress::{Attempt, now_ms};

/// Longest prediction the input field takes.
const MAX_INPUT: usize = 24;

/// The prediction field's keys (the key table binds them: `Ctx::Prediction`; `r` there runs
/// the experiment, as on the main screen, since a prediction never blocks a run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PredictionKey {
    /// A character of the number.
    Type(char),
    /// Backspace.
    Erase,
    /// Enter.
    Submit,
    /// Esc: close the field.
    Cancel,
}

impl QuizState {
    /// A key while the prediction field is open: the number typed (digits do not jump to
    /// lessons); Enter submits, Esc leaves.
    pub(super) fn on_input(&mut self, key: PredictionKey, ctx: &QuizContext) -> QuizEffect {
        let Some(input) = self.input.as_mut() else {
            return QuizEffect::None;
        };
        match key {
            PredictionKey::Cancel => {
                self.input = None;
                self.input_error = None;
            }
            PredictionKey::Erase => {
                input.pop();
                self.input_error = None;
            }
            PredictionKey::Type(c) if is_number_char(c) && input.chars().count() < MAX_INPUT => {
                input.push(c);
                self.input_error = None;
            }
            PredictionKey::Type(_) => {}
            PredictionKey::Submit => return self.submit_prediction(ctx),
        }
        QuizEffect::None
    }

    fn submit_prediction(&mut self, ctx: &QuizContext) -> QuizEffect {
        let text = self.input.clone().unwrap_or_default();
        let refusal = match text.trim().replace(',', ".").parse::<f64>() {
            Ok(value) if value.is_finite() => {
                match ctx.unit(self.question).and_then(|u| domain_error(value, u)) {
                    None => {
                        self.input = None;
                        self.input_error = None;
                        // Honest about a value typed with the answer already on screen.
                        let attempt = Attempt {
                            after_seeing: ctx.metric_shown,
                            ..Attempt::prediction(value, now_ms())
                        };
                        return self.record(attempt, ctx);
                    }
                    Some(why) => why,
                }
            }
            _ => format!(
                "{:?} is not a number; type one such as 4.5, then Enter",
                text.trim()
            ),
        };
        self.input_error = Some(refusal);
        QuizEffect::None
    }
}

fn is_number_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+' | 'e' | 'E')
}
