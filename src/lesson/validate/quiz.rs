//! Checks on the quick-check questions: ids, prompts, choices and answers, predict fields.

use std::collections::HashSet;

use super::Diagnostic;
use super::lines::KeyLines;
use crate::lesson::{Question, QuestionKind};

/// Most choices a question may have: they are labelled A to H, and more would not fit the quiz
/// panel at 80x24.
pub const MAX_CHOICES: usize = 8;

/// One diagnostic per problem in `quiz`, each at its question's `[[quiz]]` line.
pub(super) fn check_quiz(
    source: &str,
    quiz: &[Question],
    lines: &KeyLines,
    out: &mut Vec<Diagnostic>,
) {
    let mut seen = HashSet::new();
    for (i, q) in quiz.iter().enumerate() {
        let line = lines.question(i);
        let name = format!("quiz question {} ({:?})", i + 1, q.id);
        let mut say = |message: String| out.push(Diagnostic::new(source, line, message));
        if !super::is_valid_id(&q.id) {
            say(format!(
                "{name}: id must be lowercase letters, digits and `-`"
            ));
        } else if !seen.insert(q.id.as_str()) {
            say(format!("{name}: duplicate question id"));
        }
        if q.prompt.trim().is_empty() {
            say(format!("{name}: prompt is empty"));
        }
        match q.kind {
            QuestionKind::Choice => check_choices(&name, q, &mut say),
            QuestionKind::Predict => check_predict(&name, q, &mut say),
        }
    }
}

fn check_choices(name: &str, q: &Question, say: &mut impl FnMut(String)) {
    if names_an_option_letter(&q.explanation) {
        say(format!(
            "{name}: the explanation names an option by its letter; options are shown in a \
             shuffled order per learner, so refer to them by content (\"the staging-buffer answer\")"
        ));
    }
    let n = q.choices.len();
    if n < 2 {
        say(format!("{name}: needs at least 2 choices, has {n}"));
    }
    if n > MAX_CHOICES {
        say(format!(
            "{name}: has {n} choices; at most {MAX_CHOICES} (A to H) fit the quiz panel"
        ));
    }
    match q.answer {
        None => say(format!(
            "{name}: `answer` is missing (index of the right choice, from 0)"
        )),
        // With no choices there is nothing to number; "needs at least 2" already says so.
        Some(a) if a >= n && n > 0 => say(format!(
            "{name}: answer {a} does not exist (choices are numbered 0 to {})",
            n - 1
        )),
        Some(_) => {}
    }
}

fn check_predict(name: &str, q: &Question, say: &mut impl FnMut(String)) {
    if q.metric.as_deref().is_none_or(str::is_empty) {
        say(format!("{name}: a predict question needs `metric`"));
    }
    if q.tolerance_pct.is_none_or(|t| !(t > 0.0 && t <= 100.0)) {
        say(format!(
            "{name}: a predict question needs `tolerance_pct` between 0 and 100"
        ));
    }
}

/// Whether `text` names an option by its letter ("option B", "the answer is C", "(A)", "D)",
/// "not D."), which means nothing once options are shuffled per learner. A capital letter that
/// starts a sentence ("A pageable copy ...") is not a name.
pub fn names_an_option_letter(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let letter = |w: &str| {
        let w = w.trim_matches(|c: char| "()*_,;:\"'`".contains(c));
        matches!(
            w.trim_end_matches('.'),
            "A" | "B" | "C" | "D" | "E" | "F" | "G" | "H"
        ) && (w.len() == 1 || w.ends_with('.'))
    };
    words.iter().enumerate().any(|(i, w)| {
        let after_word = i > 0
            && ["option", "answer", "choice", "is", "not"].contains(
                &words[i - 1]
                    .to_lowercase()
                    .trim_matches(|c: char| !c.is_alphanumeric()),
            );
        let bracketed = w.starts_with('(') && w.ends_with(')') || w.ends_with(')') && w.len() == 2;
        letter(w) && (after_word || bracketed || w.ends_with('.'))
    })
}

#[cfg(test)]
mod letter_tests {
    use super::names_an_option_letter;

    #[test]
    fn option_letters_are_found_and_sentence_starts_are_not() {
        assert!(names_an_option_letter("so the answer is B here"));
        assert!(names_an_option_letter("Option (C) is tempting"));
        assert!(names_an_option_letter("not D."));
        assert!(names_an_option_letter("Pick B) if unsure"));
        assert!(!names_an_option_letter("A pageable copy adds a D2H step"));
        assert!(!names_an_option_letter(
            "Both engines: H2D and D2H at once."
        ));
    }
}
