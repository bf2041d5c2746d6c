//! The quick-check: one question at a time, its options in the learner's own order, answering
//! (the first try is scored, later tries are practice), picking by letter, jumping to the next
//! question to review, and typing a prediction.

mod input;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{App, Cmd};
use crate::keymap::{self, Ctx};
use crate::lesson::{Question, QuestionKind};
use crate::progress::score::{self, Mark};
use crate::progress::{AnswerRecord, Attempt, now_ms, shuffle};

/// The quiz pane's own state (answers themselves live in progress).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QuizState {
    /// The lesson this state belongs to.
    pub lesson: Option<usize>,
    /// Question shown (0-based).
    pub question: usize,
    /// Option under the `›` cursor: a position on screen, not an index into the file.
    pub cursor: usize,
    /// The learner chose to try an answered question again: hide the verdict until they answer.
    pub retrying: bool,
    /// First visible line of the quiz pane.
    pub scroll: u16,
    /// The prediction being typed, while the input field is open.
    pub input: Option<String>,
    /// Why the last typed prediction was refused (cleared when the input changes).
    pub input_error: Option<String>,
    /// A one-line answer to the last quiz key (e.g. "nothing left to review").
    pub notice: Option<String>,
}

impl App {
    pub(super) fn reset_quiz_state(&mut self) {
        self.quiz = QuizState {
            lesson: Some(self.lesson),
            ..QuizState::default()
        };
        self.quiz.cursor = self.saved_position().unwrap_or(0);
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

    /// Every answer to the question shown.
    pub fn record(&self) -> Option<&AnswerRecord> {
        let id = self.entry()?.lesson()?.id();
        let q = self.question()?;
        self.progress.lessons.get(id)?.answers.get(&q.id)
    }

    /// Where the question shown stands (its first try, or its graded prediction).
    pub fn mark(&self) -> Mark {
        let Some(q) = self.question() else {
            return Mark::Open;
        };
        let lesson = self.entry().and_then(|e| e.lesson()).map(|l| l.id());
        score::mark(q, lesson.and_then(|id| self.progress.lessons.get(id)))
    }

    /// The order the question shown presents its options in: `order[position]` is the index
    /// into the lesson file's choices.
    pub fn option_order(&self) -> Vec<usize> {
        let (Some(q), Some(lesson)) = (self.question(), self.entry().and_then(|e| e.lesson()))
        else {
            return Vec::new();
        };
        shuffle::order(self.progress.seed(), lesson.id(), &q.id, q.choices.len())
    }

    /// Whether the question shown has its verdict on screen.
    pub fn revealed(&self) -> bool {
        let answered = match self.question().map(|q| q.kind) {
            Some(QuestionKind::Choice) => self.latest_choice().is_some(),
            _ => self.record().is_some_and(|r| !r.attempts.is_empty()),
        };
        !self.quiz.retrying && answered
    }

    /// The latest option chosen (file index), when it is one of the question's options.
    pub fn latest_choice(&self) -> Option<usize> {
        let n = self.question()?.choices.len();
        self.record()?
            .attempts
            .iter()
            .rev()
            .find_map(|a| a.choice.filter(|&c| c < n))
    }

    /// Where the latest choice is shown.
    fn saved_position(&self) -> Option<usize> {
        shuffle::position_of(&self.option_order(), self.latest_choice()?)
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
        self.show_question(usize::try_from(next.clamp(0, max)).unwrap_or(0));
    }

    fn show_question(&mut self, index: usize) {
        self.quiz.question = index;
        self.quiz.retrying = false;
        self.quiz.scroll = 0;
        self.quiz.input_error = None;
        self.quiz.notice = None;
        self.quiz.cursor = self.saved_position().unwrap_or(0);
    }

    /// `N`: the next question after this one (wrapping) that was missed or is still open.
    pub(super) fn next_to_review(&mut self) {
        let marks = self.question_marks(self.lesson);
        let n = marks.len();
        let here = self.quiz.question;
        let found = (1..=n)
            .map(|step| (here + step) % n.max(1))
            .find(|&i| marks.get(i).is_some_and(|m| m.needs_review()));
        match found {
            Some(i) => self.show_question(i),
            None => {
                self.quiz.notice = Some(if n == 0 {
                    "this lesson has no questions".to_string()
                } else {
                    "nothing to review: every question is answered, and none was missed".to_string()
                });
            }
        }
    }

    /// `a`-`d`: choose the option at that letter and answer (as practice once answered). On a
    /// question without that option the letter does what it does elsewhere (`c` compares).
    pub(super) fn pick_option(&mut self, position: usize) -> Vec<Cmd> {
        let Some(q) = self.question() else {
            return Vec::new();
        };
        if q.kind != QuestionKind::Choice || position >= q.choices.len() {
            let letter = char::from(b'a' + u8::try_from(position.min(25)).unwrap_or(25));
            let key = KeyEvent::new(KeyCode::Char(letter), KeyModifiers::NONE);
            return match keymap::lookup(Ctx::Main, &key) {
                Some(action) => self.perform(action),
                None => Vec::new(),
            };
        }
        self.quiz.cursor = position;
        self.quiz.retrying = true;
        self.answer()
    }

    /// Enter in the quiz pane: answer, or start a retry of an answered question, or open the
    /// prediction field.
    pub(super) fn answer(&mut self) -> Vec<Cmd> {
        self.quiz.notice = None;
        let Some(q) = self.question() else {
            return Vec::new();
        };
        if q.kind == QuestionKind::Predict {
            if self.record().is_some_and(|r| r.graded().is_some()) {
                self.quiz.notice =
                    Some("this prediction is graded, and a grade is final".to_string());
                return Vec::new();
            }
            let typed = self
                .record()
                .and_then(AnswerRecord::pending_prediction)
                .map(|p| p.to_string());
            self.quiz.input = Some(typed.unwrap_or_default());
            self.quiz.input_error = None;
            return Vec::new();
        }
        if self.revealed() {
            self.quiz.retrying = true;
            return Vec::new();
        }
        let Some(&choice) = self.option_order().get(self.quiz.cursor) else {
            return Vec::new();
        };
        let right = q.answer == Some(choice);
        self.store_attempt(Attempt::choice(choice, right, now_ms()));
        Vec::from([Cmd::SaveProgress])
    }

    fn store_attempt(&mut self, attempt: Attempt) {
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
        answers.entry(qid).or_default().push(attempt);
        self.quiz.retrying = false;
        self.quiz.scroll = 0;
    }
}
