//! The quick-check: one question at a time, answering, retrying, and typing a prediction.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{App, Cmd};
use crate::lesson::{Question, QuestionKind};
use crate::progress::AnswerRecord;

/// Longest prediction the input field takes.
const MAX_INPUT: usize = 24;

/// The quiz pane's own state (answers themselves live in progress).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QuizState {
    /// The lesson this state belongs to.
    pub lesson: Option<usize>,
    /// Question shown (0-based).
    pub question: usize,
    /// Option under the `›` cursor.
    pub cursor: usize,
    /// The learner chose to try an answered question again: hide the verdict until they answer.
    pub retrying: bool,
    /// First visible line of the quiz pane.
    pub scroll: u16,
    /// The prediction being typed, while the input field is open.
    pub input: Option<String>,
    /// Why the last typed prediction was refused.
    pub input_error: Option<String>,
}

impl App {
    pub(super) fn reset_quiz_state(&mut self) {
        self.quiz = QuizState {
            lesson: Some(self.lesson),
            ..QuizState::default()
        };
        self.quiz.cursor = self.saved_choice().unwrap_or(0);
    }

    /// The open lesson's questions.
    pub fn questions(&self) -> &[Question] {
        self.entry()
            .and_then(|e| e.lesson())
            .map_or(&[], |l| l.meta.quiz.as_slice())
    }

    /// The question shown.
    pub fn question(&self) -> Option<&Question> {
        self.questions().get(self.quiz.question)
    }

    /// The learner's latest answer to the question shown.
    pub fn record(&self) -> Option<&AnswerRecord> {
        let id = self.entry()?.lesson()?.id();
        let q = self.question()?;
        self.progress.lessons.get(id)?.answers.get(&q.id)
    }

    /// Whether the question shown has its verdict on screen.
    pub fn revealed(&self) -> bool {
        !self.quiz.retrying && self.record().is_some()
    }

    fn saved_choice(&self) -> Option<usize> {
        self.record().and_then(|r| r.choice)
    }

    pub(super) fn move_option(&mut self, delta: i32) {
        let n = self.question().map_or(0, |q| q.choices.len());
        if n == 0 {
            return;
        }
        let next = i64::try_from(self.quiz.cursor).unwrap_or(0) + i64::from(delta);
        self.quiz.cursor =
            usize::try_from(next.clamp(0, i64::try_from(n - 1).unwrap_or(0))).unwrap_or(0);
    }

    pub(super) fn move_question(&mut self, delta: i32) {
        let n = self.questions().len();
        let next = i64::try_from(self.quiz.question).unwrap_or(0) + i64::from(delta);
        let max = i64::try_from(n.saturating_sub(1)).unwrap_or(0);
        self.quiz.question = usize::try_from(next.clamp(0, max)).unwrap_or(0);
        self.quiz.retrying = false;
        self.quiz.scroll = 0;
        self.quiz.input_error = None;
        self.quiz.cursor = self.saved_choice().unwrap_or(0);
    }

    /// Enter in the quiz pane: answer, or start a retry of an answered question, or open the
    /// prediction field.
    pub(super) fn answer(&mut self) -> Vec<Cmd> {
        let Some(q) = self.question() else {
            return Vec::new();
        };
        if q.kind == QuestionKind::Predict {
            let typed = self
                .record()
                .and_then(|r| r.predicted)
                .map(|p| p.to_string());
            self.quiz.input = Some(typed.unwrap_or_default());
            self.quiz.input_error = None;
            return Vec::new();
        }
        if self.revealed() {
            self.quiz.retrying = true;
            return Vec::new();
        }
        let right = q.answer == Some(self.quiz.cursor);
        let choice = self.quiz.cursor;
        self.store_answer(Some(choice), None, Some(right));
        Vec::from([Cmd::SaveProgress])
    }

    fn store_answer(
        &mut self,
        choice: Option<usize>,
        predicted: Option<f64>,
        correct: Option<bool>,
    ) {
        let Some(id) = self
            .entry()
            .and_then(|e| e.lesson())
            .map(|l| l.id().to_string())
        else {
            return;
        };
        let Some(qid) = self.question().map(|q| q.id.clone()) else {
            return;
        };
        let answers = &mut self.progress.lessons.entry(id).or_default().answers;
        let attempts = answers.get(&qid).map_or(0, |r| r.attempts) + 1;
        answers.insert(
            qid,
            AnswerRecord {
                choice,
                predicted,
                correct,
                attempts,
            },
        );
        self.quiz.retrying = false;
        self.quiz.scroll = 0;
    }

    /// A key while the prediction field is open: everything types into it (digits do not jump to
    /// lessons); Enter submits, Esc leaves.
    pub(super) fn on_input_key(&mut self, key: KeyEvent) -> Vec<Cmd> {
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
            }
            KeyCode::Char(c) if is_number_char(c) && input.chars().count() < MAX_INPUT => {
                input.push(c);
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
        match text.trim().replace(',', ".").parse::<f64>() {
            Ok(value) if value.is_finite() => {
                self.quiz.input = None;
                self.quiz.input_error = None;
                self.store_answer(None, Some(value), None);
                Vec::from([Cmd::SaveProgress])
            }
            _ => {
                self.quiz.input_error = Some(format!(
                    "{:?} is not a number; type one such as 4.5, then Enter",
                    text.trim()
                ));
                Vec::new()
            }
        }
    }
}

fn is_number_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+' | 'e' | 'E')
}
