//! What the quiz reads from the rest of the app ([`QuizContext`]): the open lesson's questions,
//! its answers in progress, the learner's shuffle seed, and whether a measured value of the
//! question's metric is already on screen. Questions are asked by index, so the same queries
//! serve the quiz's update and the view. Only the questions whose card the learner has reached
//! are offered (`lesson::placement`): they are a prefix of the lesson's, so each keeps its index
//! as more are offered.

use crate::app::predict::metric_unit;
use crate::lesson::{Lesson, Question};
use crate::progress::score::{self, Mark};
use crate::progress::{AnswerRecord, LessonProgress, shuffle};

/// See the module docs.
#[derive(Debug, Clone, Copy)]
pub struct QuizContext<'a> {
    /// The open lesson (`None` for a broken one).
    pub lesson: Option<&'a Lesson>,
    /// Its progress, once it has any.
    pub progress: Option<&'a LessonProgress>,
    /// The learner's shuffle seed (each learner sees the options in an order of their own).
    pub seed: u64,
    /// A run has put a value of the shown question's metric on screen (a prediction typed now
    /// says so).
    pub metric_shown: bool,
}

impl<'a> QuizContext<'a> {
    /// The lesson's questions offered so far: those whose card has been reached.
    pub fn questions(&self) -> &'a [Question] {
        let Some(lesson) = self.lesson else {
            return &[];
        };
        let quiz = lesson.meta.quiz.as_slice();
        &quiz[..lesson
            .offered_questions(self.furthest_card())
            .min(quiz.len())]
    }

    /// The furthest card of the lesson the learner has seen (stale indices of an edited lesson
    /// left out).
    pub fn furthest_card(&self) -> Option<usize> {
        let cards = self.lesson?.cards.len();
        self.progress?
            .seen
            .iter()
            .copied()
            .filter(|&c| c < cards)
            .max()
    }

    /// The next question not offered yet, and the title of the card that offers it.
    pub fn next_locked(&self) -> Option<(&'a Question, &'a str)> {
        let lesson = self.lesson?;
        let q = lesson.meta.quiz.get(self.questions().len())?;
        let card = lesson.cards.get(lesson.teaching_card(q)?)?;
        Some((q, card.title()))
    }

    /// Question `index`.
    pub fn question(&self, index: usize) -> Option<&'a Question> {
        self.questions().get(index)
    }

    /// Every answer to question `index`.
    pub fn record(&self, index: usize) -> Option<&'a AnswerRecord> {
        let q = self.question(index)?;
        self.progress?.answers.get(&q.id)
    }

    /// The lesson was reset and question `index`'s first try is kept from before: what is
    /// answered now is a retake.
    pub fn is_retake(&self, index: usize) -> bool {
        match (self.question(index), self.progress) {
            (Some(q), Some(p)) => p.is_retake(&q.id),
            _ => false,
        }
    }

    /// Where question `index` stands (its first try, or its graded prediction).
    pub fn mark(&self, index: usize) -> Mark {
        self.question(index)
            .map_or(Mark::Open, |q| score::mark(q, self.progress))
    }

    /// Every question's mark, in order.
    pub fn marks(&self) -> Vec<Mark> {
        let questions = self.questions().iter();
        questions.map(|q| score::mark(q, self.progress)).collect()
    }

    /// The order question `index` presents its options in: `order[position]` is the index into
    /// the lesson file's choices.
    pub fn option_order(&self, index: usize) -> Vec<usize> {
        let (Some(q), Some(lesson)) = (self.question(index), self.lesson) else {
            return Vec::new();
        };
        let seed = self
            .progress
            .map_or(self.seed, |p| p.option_seed(self.seed));
        shuffle::order(seed, lesson.id(), &q.id, q.choices.len())
    }

    /// The latest option chosen at question `index` (file index), when it is one of its options.
    pub fn latest_choice(&self, index: usize) -> Option<usize> {
        let n = self.question(index)?.choices.len();
        self.record(index)?
            .attempts
            .iter()
            .rev()
            .find_map(|a| a.choice.filter(|&c| c < n))
    }

    /// Where the latest choice at question `index` is shown.
    pub fn saved_position(&self, index: usize) -> Option<usize> {
        shuffle::position_of(&self.option_order(index), self.latest_choice(index)?)
    }

    /// The unit of question `index`'s metric (`GB/s`, `x`, ...), for the field and its checks.
    pub fn unit(&self, index: usize) -> Option<&'static str> {
        metric_unit(self.question(index)?.metric.as_deref()?)
    }
}
