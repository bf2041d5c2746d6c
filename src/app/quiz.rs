//! The quick-check as a sub-state ([`QuizState`], [`QuizAction`]): one question at a time, its
//! options in the learner's own order, answering (the first try is scored, later tries are
//! practice), picking by letter, jumping to the next question to review, and typing a
//! prediction (`input`).
//!
//! The update is pure: the open lesson's questions and answers come in a [`QuizContext`]
//! (`context`), and what the rest of the app must do comes back as a [`QuizEffect`] (store an
//! attempt and save, start a run, hand a letter back to the key table). `glue` joins it to the
//! app: the context from the catalog and progress, the read-only queries the view draws with.

mod context;
mod glue;
mod input;

pub use context::QuizContext;
pub use input::PredictionKey;

use crate::lesson::QuestionKind;
use crate::progress::{AnswerRecord, Attempt, now_ms};

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

/// What the learner can ask of the quiz.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuizAction {
    /// Up/Down: the option `delta` away.
    MoveOption(i32),
    /// `]` / `[`: the question `delta` away.
    MoveQuestion(i32),
    /// Enter: answer, retry an answered question, or open the prediction field.
    Answer,
    /// `a`-`d`: choose the option at that position and answer.
    Pick(usize),
    /// `N`: the next question to review.
    NextToReview,
    /// A key of the prediction field, while it is open.
    Input(PredictionKey),
}

/// What the rest of the app does after a quiz action.
#[derive(Debug, Clone, PartialEq)]
pub enum QuizEffect {
    /// Nothing more.
    None,
    /// Store this attempt at question `question` of the open lesson, and save progress.
    Record {
        /// The question's id.
        question: String,
        /// The answer given (boxed: it is large beside the other effects).
        attempt: Box<Attempt>,
    },
    /// `r` in the prediction field: start the experiment (a prediction never blocks a run).
    Run,
    /// A letter that is not one of this question's options: the key table's main meaning.
    NotAnOption(char),
}

impl QuizState {
    /// A fresh state for lesson `lesson`, the cursor on the first question's latest choice.
    pub fn for_lesson(lesson: usize, ctx: &QuizContext) -> QuizState {
        QuizState {
            lesson: Some(lesson),
            cursor: ctx.saved_position(0).unwrap_or(0),
            ..QuizState::default()
        }
    }

    /// Carry out `action` on the open lesson's quiz.
    pub fn update(&mut self, action: QuizAction, ctx: &QuizContext) -> QuizEffect {
        match action {
            QuizAction::MoveOption(delta) => self.move_option(delta, ctx),
            QuizAction::MoveQuestion(delta) => {
                let last = ctx.questions().len().saturating_sub(1);
                let next = self
                    .question
                    .saturating_add_signed(isize::try_from(delta).unwrap_or(0));
                self.show_question(next.min(last), ctx);
            }
            QuizAction::Answer => return self.answer(ctx),
            QuizAction::Pick(position) => return self.pick(position, ctx),
            QuizAction::NextToReview => self.next_to_review(ctx),
            QuizAction::Input(key) => return self.on_input(key, ctx),
        }
        QuizEffect::None
    }

    /// Whether the question shown has its verdict on screen.
    pub fn revealed(&self, ctx: &QuizContext) -> bool {
        let answered = match ctx.question(self.question).map(|q| q.kind) {
            Some(QuestionKind::Choice) => ctx.latest_choice(self.question).is_some(),
            _ => ctx
                .record(self.question)
                .is_some_and(|r| !r.attempts.is_empty()),
        };
        !self.retrying && answered
    }

    fn move_option(&mut self, delta: i32, ctx: &QuizContext) {
        let n = ctx.question(self.question).map_or(0, |q| q.choices.len());
        if n > 0 {
            let next = self
                .cursor
                .saturating_add_signed(isize::try_from(delta).unwrap_or(0));
            self.cursor = next.min(n - 1);
        }
    }

    fn show_question(&mut self, index: usize, ctx: &QuizContext) {
        self.question = index;
        self.retrying = false;
        self.scroll = 0;
        self.input_error = None;
        self.notice = None;
        self.cursor = ctx.saved_position(index).unwrap_or(0);
    }

    /// The next question after this one (wrapping) that was missed or is still open.
    fn next_to_review(&mut self, ctx: &QuizContext) {
        let marks = ctx.marks();
        let n = marks.len();
        let found = (1..=n)
            .map(|step| (self.question + step) % n.max(1))
            .find(|&i| marks.get(i).is_some_and(|m| m.needs_review()));
        match found {
            Some(i) => self.show_question(i, ctx),
            None if n == 0 => self.notice = Some("this lesson has no questions".to_string()),
            None => {
                self.notice = Some(
                    "nothing to review: every question is answered, and none was missed".into(),
                );
            }
        }
    }

    /// Choose the option at `position` and answer (as practice once answered). On a question
    /// without that option the letter does what it does elsewhere (`c` compares).
    fn pick(&mut self, position: usize, ctx: &QuizContext) -> QuizEffect {
        let Some(q) = ctx.question(self.question) else {
            return QuizEffect::None;
        };
        if q.kind != QuestionKind::Choice || position >= q.choices.len() {
            let letter = u8::try_from(position.min(25)).unwrap_or(25);
            return QuizEffect::NotAnOption(char::from(b'a' + letter));
        }
        self.cursor = position;
        self.retrying = true;
        self.answer(ctx)
    }

    /// Answer, or start a retry of an answered question, or open the prediction field.
    fn answer(&mut self, ctx: &QuizContext) -> QuizEffect {
        self.notice = None;
        let Some(q) = ctx.question(self.question) else {
            return QuizEffect::None;
        };
        let record = ctx.record(self.question);
        if q.kind == QuestionKind::Predict {
            if record.is_some_and(|r| r.graded().is_some()) {
                self.notice = Some("this prediction is graded, and a grade is final".to_string());
                return QuizEffect::None;
            }
            let typed = record.and_then(AnswerRecord::pending_prediction);
            self.input = Some(typed.map(|p| p.to_string()).unwrap_or_default());
            self.input_error = None;
            return QuizEffect::None;
        }
        if self.revealed(ctx) {
            self.retrying = true;
            return QuizEffect::None;
        }
        let Some(&choice) = ctx.option_order(self.question).get(self.cursor) else {
            return QuizEffect::None;
        };
        let right = q.answer == Some(choice);
        self.record(Attempt::choice(choice, right, now_ms()), ctx)
    }

    /// The effect that stores `attempt` at the question shown; the verdict shows again.
    fn record(&mut self, attempt: Attempt, ctx: &QuizContext) -> QuizEffect {
        let (Some(_), Some(q)) = (ctx.lesson, ctx.question(self.question)) else {
            return QuizEffect::None;
        };
        self.retrying = false;
        self.scroll = 0;
        QuizEffect::Record {
            question: q.id.clone(),
            attempt: Box::new(attempt),
        }
    }
}

#[cfg(test)]
#[path = "quiz/update_tests.rs"]
mod update_tests;

#[cfg(test)]
#[path = "quiz/placement_tests.rs"]
mod placement_tests;
