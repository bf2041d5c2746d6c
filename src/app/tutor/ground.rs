//! What a tutor request carries, gathered from the app: the card on screen (as shown: a card
//! withheld until a prediction is withheld here too), the quiz so far (a question's key and
//! explanation only once it is answered), the open exercise (its task and the hints already
//! shown), the learner's code with line numbers, the last check's verdict and hazards, the
//! timeline in words, this machine's facts, and the attempt counts. Each is a
//! [`crate::tutor::Section`] with a priority, so the least important is cut first when the
//! window is small (`crate::tutor::grounding`).
//!
//! Every text here is outside text for the model's sake only; what reaches the terminal is the
//! model's answer, cleaned by the tutor's worker.

use crate::app::App;
use crate::exercise::catalog;
use crate::lesson::{Question, QuestionKind};
use crate::tutor::Grounding;

/// Priorities: higher stays longer.
const CODE: u8 = 9;
const VERDICT: u8 = 10;
const ATTEMPTS: u8 = 10;
const EXERCISE: u8 = 8;
const CARD: u8 = 8;
const TIMELINE: u8 = 7;
const QUIZ: u8 = 6;
const MACHINE: u8 = 4;

impl App {
    /// The conversation the tutor pane belongs to now: the open exercise's, else the card's.
    pub fn tutor_key(&self) -> String {
        if let Some(ed) = self.exercises.editor.as_ref() {
            return format!("exercise:{}", ed.id);
        }
        let lesson = self
            .entry()
            .and_then(|e| e.lesson())
            .map_or("none", |l| l.id());
        format!("card:{lesson}:{}", self.nav.card + 1)
    }

    /// Everything the tutor's request is grounded in.
    pub fn tutor_grounding(&self) -> Grounding {
        let mut g = Grounding::default();
        if self.exercises.editor.is_some() {
            self.ground_exercise(&mut g);
        } else {
            g.add("Card the learner is reading", CARD, self.ground_card());
            g.add("Quiz so far", QUIZ, self.ground_quiz());
        }
        g.add("This machine", MACHINE, self.ground_machine());
        g
    }

    fn ground_card(&self) -> String {
        let Some(lesson) = self.entry().and_then(|e| e.lesson()) else {
            return String::new();
        };
        let Some(card) = lesson.cards.get(self.nav.card) else {
            return String::new();
        };
        let text = self
            .withheld_card(self.nav.card)
            .unwrap_or_else(|| card.markdown.clone());
        format!(
            "Lesson \"{}\", card {} of {}:\n{text}",
            lesson.title(),
            self.nav.card + 1,
            lesson.cards.len()
        )
    }

    fn ground_quiz(&self) -> String {
        let ctx = self.quiz_context();
        let mut out = String::new();
        for (i, q) in ctx.questions().iter().enumerate() {
            let attempts = ctx.record(i).map(|r| r.attempts.as_slice()).unwrap_or(&[]);
            out.push_str(&question_words(i, q, attempts));
        }
        out
    }

    fn ground_exercise(&self, g: &mut Grounding) {
        let Some(ed) = self.exercises.editor.as_ref() else {
            return;
        };
        if let Some(ex) = catalog::find(&ed.id) {
            let mut text = format!(
                "\"{}\" (lesson {}):\n{}\n",
                ex.title,
                ex.lesson,
                ex.task.trim()
            );
            for (n, hint) in ex.hints.iter().take(ed.hints_shown).enumerate() {
                text.push_str(&format!(
                    "Hint {} (already shown to the learner): {hint}\n",
                    n + 1
                ));
            }
            g.add("Exercise", EXERCISE, text);
        }
        if let Some(code) = ed.text() {
            let numbered: String = code
                .lines()
                .enumerate()
                .map(|(i, l)| format!("{:>3} {l}\n", i + 1))
                .collect();
            g.add("Learner's code (line numbers first)", CODE, numbered);
        }
        if let Some(verdict) = ed.verdict.as_deref() {
            let mut text = String::new();
            if ed.checked_text.is_some() && ed.checked_text != ed.text() {
                text.push_str("(The code has changed since this check.)\n");
            }
            text.push_str(&verdict.summary(&ed.id));
            text.push('\n');
            for c in &verdict.checks {
                let mark = if c.passed { "pass" } else { "FAIL" };
                text.push_str(&format!("{mark} {}: {}\n", c.name, c.detail));
            }
            for d in &verdict.diagnostics {
                text.push_str(&format!("line {}:{}: {}\n", d.line, d.column, d.message));
            }
            for h in &verdict.hazards {
                let other = h
                    .other_line
                    .map_or(String::new(), |l| format!(" and line {l}"));
                text.push_str(&format!(
                    "hazard {} at line {}{other}: {}\n",
                    h.kind.name(),
                    h.line,
                    h.message
                ));
            }
            g.add("Last check's verdict", VERDICT, text);
            g.add(
                "Timeline of the last check",
                TIMELINE,
                crate::tutor::summary::timeline(&verdict.timeline),
            );
        }
        let attempt = self.exercises.attempt();
        let hints = catalog::find(&ed.id).map_or(0, |e| e.hints.len());
        g.add(
            "Attempts",
            ATTEMPTS,
            format!(
                "checks of a changed file: {}; checks failed this session: {}; hints shown: {} \
                 of {hints}; solution viewed: {}; passed: {}\n",
                attempt.changed_checks,
                ed.failed_checks,
                ed.hints_shown,
                if attempt.solution_viewed { "yes" } else { "no" },
                if self.exercises.open_passed() {
                    "yes"
                } else {
                    "no"
                },
            ),
        );
    }

    fn ground_machine(&self) -> String {
        use crate::app::BackendState;
        let BackendState::Ready(info) = &self.panel.backend else {
            return String::new();
        };
        let mut text = format!(
            "{:?} backend, device {} (compute capability {}.{}), {} copy engines\n",
            info.backend.kind,
            info.name,
            info.compute_capability.0,
            info.compute_capability.1,
            info.copy_engines
        );
        for note in crate::gpu::machine::notes(info.copy_engines, &info.machine) {
            text.push_str(&format!("{note}\n"));
        }
        text
    }
}

/// A question in words: its prompt and options always; what the learner answered, the key and
/// the explanation only once answered (never the key of a question not answered yet).
fn question_words(i: usize, q: &Question, attempts: &[crate::progress::Attempt]) -> String {
    let mut out = format!("Question {}: {}\n", i + 1, q.prompt.trim());
    for (n, choice) in q.choices.iter().enumerate() {
        out.push_str(&format!("  {}) {choice}\n", letter(n)));
    }
    let Some(last) = attempts.last() else {
        out.push_str("  Not answered yet: do not give its answer.\n");
        return out;
    };
    match q.kind {
        QuestionKind::Choice => {
            let chose = last.choice.and_then(|c| q.choices.get(c).map(|t| (c, t)));
            if let Some((c, text)) = chose {
                let right = if last.correct == Some(true) {
                    "right"
                } else {
                    "wrong"
                };
                out.push_str(&format!(
                    "  The learner answered {}) {text}: {right}.\n",
                    letter(c)
                ));
            }
            if let Some(key) = q.answer.and_then(|a| q.choices.get(a).map(|t| (a, t))) {
                out.push_str(&format!("  The answer is {}) {}.\n", letter(key.0), key.1));
            }
        }
        QuestionKind::Predict => {
            if let Some(p) = last.predicted {
                out.push_str(&format!("  The learner predicted {p}.\n"));
            }
            if let Some(g) = &last.grade {
                out.push_str(&format!("  Measured: {} {}.\n", g.measured, g.unit));
            }
        }
    }
    out.push_str(&format!("  Why: {}\n", q.explanation.trim()));
    out
}

fn letter(n: usize) -> char {
    char::from(b'A' + u8::try_from(n.min(25)).unwrap_or(25))
}
