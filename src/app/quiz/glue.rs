//! The quiz as part of the app: its context built from the open lesson and progress, the
//! read-only queries the view draws with, and the effects carried out (an attempt stored and
//! saved, a run started, a letter handed back to the key table).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{QuizAction, QuizContext, QuizEffect, QuizState};
use crate::app::{App, Cmd};
use crate::keymap::{self, Ctx};
use crate::lesson::Question;
use crate::progress::AnswerRecord;
use crate::progress::score::Mark;

impl App {
    /// The quiz's context: the open lesson, its progress, the seed, and whether the shown
    /// question's metric has a measured value on screen.
    pub fn quiz_context(&self) -> QuizContext<'_> {
        let lesson = self.entry().and_then(|e| e.lesson());
        let metric = lesson
            .and_then(|l| l.meta.quiz.get(self.quiz.question))
            .and_then(|q| q.metric.as_deref());
        QuizContext {
            lesson,
            progress: lesson.and_then(|l| self.progress.lessons.get(l.id())),
            seed: self.progress.seed(),
            metric_shown: metric.is_some_and(|m| self.metric_text(m).is_some()),
        }
    }

    /// One quiz action and its effect on the rest of the app.
    pub(in crate::app) fn quiz_update(&mut self, action: QuizAction) -> Vec<Cmd> {
        // The context borrows the whole app; the quiz is updated on a copy and put back.
        let mut quiz = self.quiz.clone();
        let effect = quiz.update(action, &self.quiz_context());
        self.quiz = quiz;
        match effect {
            QuizEffect::None => Vec::new(),
            QuizEffect::Record { question, attempt } => {
                let Some(id) = self
                    .entry()
                    .and_then(|e| e.lesson())
                    .map(|l| l.id().to_string())
                else {
                    return Vec::new();
                };
                let answers = &mut self.progress.lessons.entry(id).or_default().answers;
                answers.entry(question).or_default().push(*attempt);
                Vec::from([Cmd::SaveProgress])
            }
            QuizEffect::Run => self.run_experiment(),
            QuizEffect::NotAnOption(letter) => {
                let key = KeyEvent::new(KeyCode::Char(letter), KeyModifiers::NONE);
                match keymap::lookup(Ctx::Main, &key) {
                    Some(action) => self.perform(action),
                    None => Vec::new(),
                }
            }
        }
    }

    /// A fresh quiz for the open lesson.
    pub(in crate::app) fn reset_quiz_state(&mut self) {
        self.quiz = QuizState::for_lesson(self.nav.lesson, &self.quiz_context());
    }

    /// Why the quiz pane shows no question yet: the first question comes with a later card.
    pub fn quiz_waiting(&self) -> Option<String> {
        let ctx = self.quiz_context();
        if !ctx.questions().is_empty() {
            return None;
        }
        let (_, card) = ctx.next_locked()?;
        Some(format!(
            "No question yet: the first comes with the card \"{card}\". Read on."
        ))
    }

    /// The open lesson's questions offered so far (their cards reached).
    pub fn questions(&self) -> &[Question] {
        self.quiz_context().questions()
    }

    /// The question shown.
    pub fn question(&self) -> Option<&Question> {
        self.quiz_context().question(self.quiz.question)
    }

    /// Every answer to the question shown.
    pub fn record(&self) -> Option<&AnswerRecord> {
        self.quiz_context().record(self.quiz.question)
    }

    /// The question shown is a retake after a lesson reset (not scored).
    pub fn is_retake(&self) -> bool {
        self.quiz_context().is_retake(self.quiz.question)
    }

    /// Where the question shown stands (its first try, or its graded prediction).
    pub fn mark(&self) -> Mark {
        self.quiz_context().mark(self.quiz.question)
    }

    /// The order the question shown presents its options in: `order[position]` is the index
    /// into the lesson file's choices.
    pub fn option_order(&self) -> Vec<usize> {
        self.quiz_context().option_order(self.quiz.question)
    }

    /// Whether the question shown has its verdict on screen.
    pub fn revealed(&self) -> bool {
        self.quiz.revealed(&self.quiz_context())
    }

    /// The latest option chosen (file index), when it is one of the question's options.
    pub fn latest_choice(&self) -> Option<usize> {
        self.quiz_context().latest_choice(self.quiz.question)
    }

    /// The unit of the question's metric (`GB/s`, `x`, ...), for the field and its checks.
    pub fn prediction_unit(&self) -> Option<&'static str> {
        self.quiz_context().unit(self.quiz.question)
    }

    /// The tolerance of the predict question shown (log scale: see
    /// [`crate::app::within_tolerance`]), shown before the learner predicts.
    pub fn prediction_tolerance_pct(&self) -> Option<f64> {
        let q = self.quiz_context().question(self.quiz.question)?;
        (q.kind == crate::lesson::QuestionKind::Predict).then(|| {
            q.tolerance_pct
                .unwrap_or(crate::app::predict::DEFAULT_TOLERANCE_PCT)
        })
    }
}
