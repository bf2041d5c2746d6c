//! Where each question sits among the cards. A question's `card` names the card that teaches
//! it: the quiz offers it once the learner has reached that card, so no question is asked before
//! its card has been read. A predict question's `answer_card` names the card that gives the
//! measured figure: that card is withheld until the learner has predicted (or a run has already
//! shown the figure), so reading on does not give the answer away. `validate::placement` makes
//! an unknown title, or questions out of card order, a `cuda-academy check` diagnostic.

use super::{Lesson, Question, QuestionKind};

impl Lesson {
    /// The index of the card titled `title` (the first, if two share it).
    pub fn card_titled(&self, title: &str) -> Option<usize> {
        self.cards.iter().position(|c| c.title() == title.trim())
    }

    /// The card question `q` is taught by: `Some(0)` when it names none (offered from the start).
    pub fn teaching_card(&self, q: &Question) -> Option<usize> {
        match q.card.as_deref() {
            None => Some(0),
            Some(title) => self.card_titled(title),
        }
    }

    /// How many questions, from the first, are offered to a learner who has reached card
    /// `furthest` (the furthest card seen). Questions come in card order (checked), so the
    /// offered ones are a prefix and a question keeps its number as more are offered.
    pub fn offered_questions(&self, furthest: Option<usize>) -> usize {
        self.meta
            .quiz
            .iter()
            .take_while(|q| match (self.teaching_card(q), furthest) {
                (Some(0), _) => true,
                (Some(card), Some(reached)) => card <= reached,
                _ => false,
            })
            .count()
    }

    /// The predict questions whose answer card is card `card`.
    pub fn answered_on(&self, card: usize) -> impl Iterator<Item = &Question> {
        self.meta.quiz.iter().filter(move |q| {
            q.kind == QuestionKind::Predict
                && q.answer_card.as_deref().and_then(|t| self.card_titled(t)) == Some(card)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::lesson::Lesson;

    const BODY: &str = "# One\n---\n# Two\n---\n# Three\n";

    fn lesson(quiz: &str) -> Lesson {
        let text = format!(
            "+++\nid = \"l\"\ntitle = \"L\"\nexperiments = [\"pageable-vs-pinned\"]\n{quiz}+++\n{BODY}"
        );
        match Lesson::parse("l.md", text.as_bytes()) {
            Ok(l) => l,
            Err(d) => panic!("{d:?}"),
        }
    }

    fn choice(id: &str, card: &str) -> String {
        format!(
            "[[quiz]]\nid = \"{id}\"\nprompt = \"?\"\nchoices = [\"a\", \"b\"]\nanswer = 0\n\
             explanation = \"e\"\n{card}\n"
        )
    }

    #[test]
    fn questions_are_offered_as_their_cards_are_reached() {
        let quiz = [
            choice("a", ""),
            choice("b", "card = \"Two\""),
            choice("c", "card = \"Three\""),
        ]
        .concat();
        let l = lesson(&quiz);
        assert_eq!(
            l.offered_questions(None),
            1,
            "a question without a card is offered"
        );
        assert_eq!(l.offered_questions(Some(0)), 1);
        assert_eq!(l.offered_questions(Some(1)), 2);
        assert_eq!(l.offered_questions(Some(2)), 3);
    }

    #[test]
    fn a_predict_question_names_its_answer_card() {
        let quiz = "[[quiz]]\nid = \"p\"\nkind = \"predict\"\nprompt = \"?\"\nmetric = \"pinned_h2d_gbps\"\n\
                    tolerance_pct = 10.0\nexplanation = \"e\"\ncard = \"One\"\n\
                    answer_card = \"Two\"\n";
        let l = lesson(quiz);
        assert_eq!(l.answered_on(1).count(), 1);
        assert_eq!(l.answered_on(0).count() + l.answered_on(2).count(), 0);
    }
}
