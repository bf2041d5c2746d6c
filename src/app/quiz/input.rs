//! The prediction field: typing a number (digits never jump to lessons while it is open), the
//! unit it is in, and the refusals of values its metric cannot take.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{QuizContext, QuizEffect, QuizState};
use crate::app::predict::domain_error;
use crate::progress::{Attempt, now_ms};

/// Longest prediction the input field takes.
const MAX_INPUT: usize = 24;

impl QuizState {
    /// A key while the prediction field is open: everything types into it (digits do not jump to
    /// lessons); Enter submits, Esc leaves.
    pub(super) fn on_input(&mut self, key: KeyEvent, ctx: &QuizContext) -> QuizEffect {
        let Some(input) = self.input.as_mut() else {
            return QuizEffect::None;
        };
        match key.code {
            KeyCode::Esc => {
                self.input = None;
                self.input_error = None;
            }
            KeyCode::Backspace => {
                input.pop();
                self.input_error = None;
            }
            KeyCode::Char(c) if is_number_char(c) && input.chars().count() < MAX_INPUT => {
                input.push(c);
                self.input_error = None;
            }
            KeyCode::Enter => return self.submit_prediction(ctx),
            // A prediction never blocks a run (`r` is not part of a number).
            KeyCode::Char('r') => return QuizEffect::Run,
            _ => {}
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
