//! Each question's place among the cards (`lesson::placement`) checked: `card` and
//! `answer_card` name cards of the lesson, `answer_card` is a predict question's and comes
//! after its `card`, and the questions come in the order of their cards (so the quiz can offer
//! a growing prefix of them).

use super::Diagnostic;
use super::lines::KeyLines;
use crate::lesson::{Card, Question, QuestionKind};

/// Diagnostics for the placement of `quiz` among `cards`, each at its question's line.
pub(super) fn check(
    source: &str,
    quiz: &[Question],
    cards: &[Card],
    lines: &KeyLines,
    out: &mut Vec<Diagnostic>,
) {
    let find = |title: &str| cards.iter().position(|c| c.title() == title.trim());
    let mut last = 0;
    for (i, q) in quiz.iter().enumerate() {
        let name = format!("quiz question {} ({:?})", i + 1, q.id);
        let mut say =
            |message: String| out.push(Diagnostic::new(source, lines.question(i), message));
        let unknown = |key: &str, title: &str| {
            format!(
                "{name}: `{key} = {title:?}` names no card of this lesson (give a card's heading, without `#`)"
            )
        };
        let card = match q.card.as_deref() {
            None => Some(0),
            Some(title) => find(title).or_else(|| {
                say(unknown("card", title));
                None
            }),
        };
        if let Some(card) = card {
            if card < last {
                say(format!(
                    "{name}: its card comes before the previous question's; order the questions as their cards"
                ));
            }
            last = last.max(card);
        }
        let Some(title) = q.answer_card.as_deref() else {
            continue;
        };
        if q.kind != QuestionKind::Predict {
            say(format!(
                "{name}: `answer_card` is for predict questions only"
            ));
            continue;
        }
        match (find(title), card) {
            (None, _) => say(unknown("answer_card", title)),
            (Some(answer), Some(card)) if answer <= card => say(format!(
                "{name}: `answer_card` must come after the question's `card`, or the answer is read before the question"
            )),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lesson::Lesson;

    fn errors(quiz: &str) -> Vec<String> {
        let text = format!(
            "+++\nid = \"l\"\ntitle = \"L\"\nexperiments = [\"pageable-vs-pinned\"]\n{quiz}+++\n# One\n---\n# Two\n"
        );
        match Lesson::parse("l.md", text.as_bytes()) {
            Ok(_) => Vec::new(),
            Err(d) => d.iter().map(ToString::to_string).collect(),
        }
    }

    fn choice(id: &str, extra: &str) -> String {
        format!(
            "[[quiz]]\nid = \"{id}\"\nprompt = \"?\"\nchoices = [\"a\", \"b\"]\nanswer = 0\nexplanation = \"e\"\n{extra}\n"
        )
    }

    #[test]
    fn an_unknown_card_and_questions_out_of_card_order_are_diagnosed() {
        let errs = errors(&choice("a", "card = \"Three\""));
        assert!(
            errs.len() == 1 && errs[0].contains("names no card"),
            "{errs:?}"
        );
        let errs = errors(&[choice("a", "card = \"Two\""), choice("b", "card = \"One\"")].concat());
        assert!(
            errs.len() == 1 && errs[0].contains("order the questions"),
            "{errs:?}"
        );
        assert!(
            errors(&[choice("a", "card = \"One\""), choice("b", "card = \"Two\"")].concat())
                .is_empty()
        );
    }

    #[test]
    fn answer_card_is_a_later_card_of_a_predict_question() {
        let errs = errors(&choice("a", "answer_card = \"Two\""));
        assert!(
            errs.len() == 1 && errs[0].contains("predict questions only"),
            "{errs:?}"
        );
        let predict = |extra: &str| {
            format!(
                "[[quiz]]\nid = \"p\"\nkind = \"predict\"\nprompt = \"?\"\nmetric = \"pinned_h2d_gbps\"\ntolerance_pct = 10.0\nexplanation = \"e\"\n{extra}\n"
            )
        };
        let errs = errors(&predict("card = \"Two\"\nanswer_card = \"One\""));
        assert!(
            errs.len() == 1 && errs[0].contains("must come after"),
            "{errs:?}"
        );
        assert!(errors(&predict("card = \"One\"\nanswer_card = \"Two\"")).is_empty());
    }
}
