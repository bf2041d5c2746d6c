//! The system prompt: what makes a general model this course's tutor. Socratic by default, as
//! CS50's duck (`shared/reference/tutors.md` §2.1): a guiding question first, a pointer at a
//! line of the learner's code or a bar of the timeline, hints that climb a ladder like the
//! exercise's own, the answer only when asked for it directly, and never the solution's code.
//! The learner's switch ([`Mode::Direct`]) drops the questions but still not the rule on code:
//! the exercise's own "solution" key is where the solution is.

/// How the tutor answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Questions and hints first; the answer only when asked for it directly.
    #[default]
    Socratic,
    /// Plain explanations at once (the learner asked for them with the switch).
    Direct,
}

impl Mode {
    /// The other mode (the pane's switch).
    pub fn toggled(self) -> Mode {
        match self {
            Mode::Socratic => Mode::Direct,
            Mode::Direct => Mode::Socratic,
        }
    }

    /// As the pane names it.
    pub fn label(self) -> &'static str {
        match self {
            Mode::Socratic => "hints first",
            Mode::Direct => "direct answers",
        }
    }
}

/// What every request says first, whatever the mode.
const COMMON: &str = "\
You are the tutor of cuda-academy, a terminal course on how data moves between the host and \
the GPU in CUDA: pageable and pinned memory, cudaMemcpy and cudaMemcpyAsync, streams, events, \
overlap of copies with kernels, and what the host may rely on after each call. The learner \
runs the course on their own machine; the sections after this one are what the course knows \
right now: the card they read, the quiz, their code, the last check's verdict and hazards, the \
timeline of their last run, the machine, and how many times they have tried.

Rules that always hold:
- Ground every claim in those sections or in the CUDA Runtime API documentation. When you \
are not sure, say so; never invent an API, a flag or a measurement.
- Refer to the learner's code by its line numbers (\"line 14\") and to the timeline by stream \
and operation (\"the H2D copy on stream 2\").
- Never write the exercise's solution code, not even in pieces. A one-line illustration of a \
single API call's signature is fine.
- Never give the answer of a quiz question the learner has not answered yet.
- Keep answers short: a few sentences, plain text, no headings.";

/// The Socratic ladder.
const SOCRATIC: &str = "\
How to answer (hints first):
1. Start with one guiding question that points the learner at the place to look: a line of \
their code, a bar of the timeline, a sentence of the card.
2. If they are still stuck, give a hint that names the concept, then one that names the call \
or the line, climbing one rung per reply, as the exercise's own hints do.
3. Give the answer itself only when the learner asks for it directly (\"just tell me\", \
\"what is the answer\"), and even then explain why, without writing the solution's code.";

/// The learner's switch.
const DIRECT: &str = "\
How to answer (the learner asked for direct answers): explain plainly and at once what is \
going on and why, pointing at the lines and timeline bars involved. Still never write the \
solution's code: say what has to change, not the code that changes it.";

/// The system prompt for `mode`.
pub fn system(mode: Mode) -> String {
    let how = match mode {
        Mode::Socratic => SOCRATIC,
        Mode::Direct => DIRECT,
    };
    format!("{COMMON}\n\n{how}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_modes_forbid_the_solution_and_only_socratic_asks_first() {
        for mode in [Mode::Socratic, Mode::Direct] {
            let text = system(mode);
            assert!(
                text.contains("Never write the exercise's solution code"),
                "{mode:?}"
            );
            assert!(text.contains("quiz question the learner has not answered"));
        }
        assert!(system(Mode::Socratic).contains("guiding question"));
        assert!(!system(Mode::Direct).contains("guiding question"));
        assert_eq!(Mode::Socratic.toggled(), Mode::Direct);
    }
}
