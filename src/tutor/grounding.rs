//! What the course knows, as sections of the system message, and fitting them with the
//! conversation into the model's window.
//!
//! A server that gets more than its window does not refuse: Ollama silently drops the start of
//! the prompt (its default window is 2048 tokens), which would drop the rules of the system
//! prompt first. So the request is fitted here, by an estimate of
//! [`CHARS_PER_TOKEN`] characters a token (code and English run nearer 4; 3 leaves room), with
//! room kept for the answer: the oldest turns of the conversation go first (the last question
//! and answer stay), then the sections from the least important up (a long one is shortened,
//! from its end, before it is dropped), and every cut is recorded in [`Fitted::cut`] so the
//! pane can say so.

use super::conversation::Turn;

/// Characters counted as one token in the estimate.
pub const CHARS_PER_TOKEN: usize = 3;

/// One part of what the course knows, with how much it matters (higher stays longer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub title: &'static str,
    pub text: String,
    pub priority: u8,
}

/// Everything the course knows for one request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grounding {
    pub sections: Vec<Section>,
}

impl Grounding {
    /// Add a section (an empty text adds nothing).
    pub fn add(&mut self, title: &'static str, priority: u8, text: String) {
        if !text.trim().is_empty() {
            self.sections.push(Section {
                title,
                text,
                priority,
            });
        }
    }
}

/// The model's window and the room kept for its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub context_tokens: u32,
}

impl Budget {
    /// Tokens kept for the answer: a quarter of the window, at most 1024.
    pub fn answer_tokens(self) -> usize {
        (self.context_tokens as usize / 4).min(1024)
    }

    /// Characters the prompt may take.
    pub fn prompt_chars(self) -> usize {
        (self.context_tokens as usize).saturating_sub(self.answer_tokens()) * CHARS_PER_TOKEN
    }
}

/// A request fitted to its budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted {
    /// The system prompt and the sections that fit.
    pub system: String,
    /// The earlier turns that fit, oldest first.
    pub history: Vec<Turn>,
    /// The question.
    pub question: String,
    /// What was cut to fit, in the order it was cut ("older turns (4)", "Machine", "Learner's
    /// code (shortened)"); empty when all of it fit.
    pub cut: Vec<String>,
    /// The estimated size of the prompt in tokens.
    pub estimated_tokens: usize,
}

/// The note a shortened section ends with.
pub const SHORTENED: &str = "\n[… cut here to fit the model's context window]";

/// Fit `prompt`, `grounding`, `history` and `question` into `budget`.
pub fn fit(
    prompt: &str,
    grounding: &Grounding,
    history: &[Turn],
    question: &str,
    budget: Budget,
) -> Fitted {
    let limit = budget.prompt_chars();
    let mut sections = grounding.sections.clone();
    let mut history = history.to_vec();
    let mut cut = Vec::new();
    let size = |sections: &[Section], history: &[Turn]| {
        prompt.chars().count()
            + question.chars().count()
            + sections
                .iter()
                .map(|s| s.title.len() + 8 + s.text.chars().count())
                .sum::<usize>()
            + history
                .iter()
                .map(|t| t.text.chars().count() + 8)
                .sum::<usize>()
    };
    // The oldest turns first, keeping the last question and answer.
    let mut dropped = 0;
    while size(&sections, &history) > limit && history.len() > 2 {
        history.remove(0);
        dropped += 1;
    }
    // Then the sections, least important first (the later one first among equals).
    while size(&sections, &history) > limit {
        let Some(i) = least_important(&sections) else {
            break;
        };
        let over = size(&sections, &history) - limit;
        let len = sections[i].text.chars().count();
        if len > over + SHORTENED.len() + 200 {
            let keep = len - over - SHORTENED.len();
            let text: String = sections[i].text.chars().take(keep).collect();
            sections[i].text = format!("{text}{SHORTENED}");
            cut.push(format!("{} (shortened)", sections[i].title));
            // A shortened section is now the most important, so it is not cut again first.
            sections[i].priority = u8::MAX;
        } else {
            cut.push(sections.remove(i).title.to_string());
        }
    }
    while size(&sections, &history) > limit && !history.is_empty() {
        history.remove(0);
        dropped += 1;
    }
    if dropped > 0 {
        cut.insert(0, format!("older turns ({dropped})"));
    }
    let estimated = size(&sections, &history).div_ceil(CHARS_PER_TOKEN);
    Fitted {
        system: system_text(prompt, &sections),
        history,
        question: question.to_string(),
        cut,
        estimated_tokens: estimated,
    }
}

/// The section to cut next: the lowest priority, the last of equals.
fn least_important(sections: &[Section]) -> Option<usize> {
    (0..sections.len())
        .rev()
        .min_by_key(|&i| sections[i].priority)
}

/// The system message: the prompt, then each section under its title, in the order given.
fn system_text(prompt: &str, sections: &[Section]) -> String {
    let mut out = prompt.to_string();
    for s in sections {
        out.push_str(&format!("\n\n## {}\n{}", s.title, s.text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::conversation::Role;

    fn grounding() -> Grounding {
        let mut g = Grounding::default();
        g.add("Card", 8, "c".repeat(1000));
        g.add("Machine", 3, "m".repeat(1000));
        g.add("Learner's code", 9, "k".repeat(1000));
        g.add("Empty", 1, "  ".into());
        g
    }

    fn turns(n: usize) -> Vec<Turn> {
        (0..n)
            .map(|i| Turn {
                role: if i % 2 == 0 {
                    Role::User
                } else {
                    Role::Assistant
                },
                text: format!("turn {i} {}", "t".repeat(300)),
            })
            .collect()
    }

    #[test]
    fn all_of_it_fits_a_large_window_and_nothing_is_cut() {
        let f = fit(
            "P",
            &grounding(),
            &turns(4),
            "why?",
            Budget {
                context_tokens: 8192,
            },
        );
        assert!(f.cut.is_empty(), "{:?}", f.cut);
        assert_eq!(f.history.len(), 4);
        for title in ["## Card", "## Machine", "## Learner's code"] {
            assert!(f.system.contains(title), "{title}");
        }
        assert!(
            !f.system.contains("## Empty"),
            "an empty section is left out"
        );
    }

    #[test]
    fn old_turns_go_first_then_the_least_important_section() {
        // 1400 tokens less 350 for the answer: 3150 characters for the prompt.
        let f = fit(
            "P",
            &grounding(),
            &turns(6),
            "why?",
            Budget {
                context_tokens: 1400,
            },
        );
        assert_eq!(f.cut.first().map(String::as_str), Some("older turns (4)"));
        assert_eq!(f.history.len(), 2, "the last exchange stays");
        assert!(
            f.cut.iter().any(|c| c.starts_with("Machine")),
            "{:?}",
            f.cut
        );
        assert!(f.system.contains(&"k".repeat(1000)), "the code stays whole");
        assert!(
            f.estimated_tokens * CHARS_PER_TOKEN
                <= Budget {
                    context_tokens: 1400
                }
                .prompt_chars()
                    + CHARS_PER_TOKEN
        );
    }

    #[test]
    fn a_long_section_is_shortened_before_it_is_dropped() {
        let mut g = Grounding::default();
        g.add("Card", 8, "c".repeat(900));
        g.add("Timeline", 5, "t".repeat(3000));
        let f = fit(
            "P",
            &g,
            &[],
            "q",
            Budget {
                context_tokens: 1000,
            },
        );
        assert_eq!(f.cut, vec!["Timeline (shortened)".to_string()]);
        assert!(f.system.contains(SHORTENED.trim()));
        assert!(f.system.contains(&"c".repeat(900)));
    }
}
