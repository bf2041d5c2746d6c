//! The prediction field: typing a number (digits never jump to lessons while it is open), the
//! unit it is in, and the refusals of values its metric cannot take.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::app::predict::{domain_error, metric_unit};
use crate::app::{App, Cmd};
use crate::progress::{Attempt, now_ms};

/// Longest prediction the input field takes.
const MAX_INPUT: usize = 24;

impl App {
    /// The unit of the question's metric (`GB/s`, `x`, ...), for the field and its checks.
    pub fn prediction_unit(&self) -> Option<&'static str> {
        metric_unit(self.question()?.metric.as_deref()?)
    }

    /// A key while the prediction field is open: everything types into it (digits do not jump to
    /// lessons); Enter submits, Esc leaves.
    pub(in crate::app) fn on_input_key(&mut self, key: KeyEvent) -> Vec<Cmd> {
        let Some(input) = self.quiz.input.as_mut() else {
            return Vec::new();
        };
        match key.code {
            KeyCode::Esc => {
                self.quiz.input = None;
                self.quiz.input_error = None;
            }
            KeyCode::Backspace => {
                input.pop();
                self.quiz.input_error = None;
            }
            KeyCode::Char(c) if is_number_char(c) && input.chars().count() < MAX_INPUT => {
                input.push(c);
                self.quiz.input_error = None;
            }
            KeyCode::Enter => return self.submit_prediction(),
            // A prediction never blocks a run (`r` is not part of a number).
            KeyCode::Char('r') => return self.run_experiment(),
            _ => {}
        }
        Vec::new()
    }

    fn submit_prediction(&mut self) -> Vec<Cmd> {
        let text = self.quiz.input.clone().unwrap_or_default();
        let refusal = match text.trim().replace(',', ".").parse::<f64>() {
            Ok(value) if value.is_finite() => {
                match self.prediction_unit().and_then(|u| domain_error(value, u)) {
                    None => {
                        self.quiz.input = None;
                        self.quiz.input_error = None;
                        // Honest about a value typed with the answer already on screen.
                        let metric = self.question().and_then(|q| q.metric.clone());
                        let after_seeing = metric.is_some_and(|m| self.metric_text(&m).is_some());
                        self.store_attempt(Attempt {
                            after_seeing,
                            ..Attempt::prediction(value, now_ms())
                        });
                        return Vec::from([Cmd::SaveProgress]);
                    }
                    Some(why) => why,
                }
            }
            _ => format!(
                "{:?} is not a number; type one such as 4.5, then Enter",
                text.trim()
            ),
        };
        self.quiz.input_error = Some(refusal);
        Vec::new()
    }
}

fn is_number_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+' | 'e' | 'E')
}
