//! Lessons: the front matter schema, cards, and the parser that turns a lesson file into a
//! [`Lesson`] or a list of `file:line: message` [`Diagnostic`]s. Never panics, whatever the bytes.
//!
//! A lesson file is TOML front matter between two `+++` lines, then markdown cards separated by
//! lines that are exactly `---` (outside code fences). The schema is documented field by field on
//! [`FrontMatter`] and [`Question`] and in the README ("Writing lessons").

pub mod catalog;
pub mod cue;
mod hazard_links;
pub mod placement;
pub mod validate;

use serde::Deserialize;

pub use catalog::{Catalog, LessonEntry};
pub use cue::PanelCue;
pub use validate::Diagnostic;

/// The newest front matter format this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// The TOML between the `+++` lines.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    /// Format of this front matter; defaults to 1, the only version so far.
    #[serde(default = "default_format_version")]
    pub format_version: u32,
    /// Stable identifier: lowercase letters, digits and `-`. Progress is keyed by it.
    pub id: String,
    /// Title shown in the lesson list and the header.
    pub title: String,
    /// Position in the course (1, 2, ...); lessons sort by it, then by id.
    #[serde(default)]
    pub order: u32,
    /// One sentence for the lesson list.
    #[serde(default)]
    pub summary: String,
    /// Experiment ids this lesson runs (see `cuda-academy run --help`); the first is the default.
    #[serde(default)]
    pub experiments: Vec<String>,
    /// Hands-on exercise ids (folders under `exercises/`; see `cuda-academy exercise list`).
    #[serde(default)]
    pub exercises: Vec<String>,
    /// The quick-check questions.
    #[serde(default)]
    pub quiz: Vec<Question>,
}

impl FrontMatter {
    /// Replace control characters in every text a view shows (title, summary, prompts, choices,
    /// explanations), so a lesson file cannot drive the terminal through any of them. Ids are
    /// validated instead (they are keys).
    pub fn sanitize(&mut self) {
        let clean = |text: &mut String| {
            let unified = text.replace("\r\n", "\n");
            *text = crate::sanitize::clean(&unified).into_owned();
        };
        clean(&mut self.title);
        clean(&mut self.summary);
        for q in &mut self.quiz {
            clean(&mut q.prompt);
            clean(&mut q.explanation);
            q.choices.iter_mut().for_each(clean);
        }
    }
}

fn default_format_version() -> u32 {
    1
}

/// A quick-check question.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// Stable identifier within the lesson (answers are saved under it).
    pub id: String,
    /// `choice` (default): pick one of `choices`. `predict`: type a number before running the
    /// experiment; graded against `metric` of the run within `tolerance_pct`.
    #[serde(default)]
    pub kind: QuestionKind,
    /// The question, in markdown.
    pub prompt: String,
    /// `choice` only: the options, shown as A, B, C, ...
    #[serde(default)]
    pub choices: Vec<String>,
    /// `choice` only: index of the right option in `choices`, counting from 0.
    #[serde(default)]
    pub answer: Option<usize>,
    /// `predict` only: the experiment metric the prediction is graded against.
    #[serde(default)]
    pub metric: Option<String>,
    /// `predict` only: how far (percent of the measured value) a prediction may be and still count.
    #[serde(default)]
    pub tolerance_pct: Option<f64>,
    /// The title of the card that teaches what the question asks: the quiz pane offers the
    /// question once the learner has reached that card (`lesson::placement`). Without it the
    /// question is offered from the start.
    #[serde(default)]
    pub card: Option<String>,
    /// `predict` only: the title of the card that gives the measured answer. That card is
    /// withheld (a note in its place) until the learner has predicted or a run has measured
    /// the metric.
    #[serde(default)]
    pub answer_card: Option<String>,
    /// Shown after answering, right or wrong: why the answer is what it is.
    pub explanation: String,
}

/// See [`Question::kind`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuestionKind {
    #[default]
    Choice,
    Predict,
}

/// One screenful of teaching: markdown, with the line it starts on in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub markdown: String,
    /// 1-based line in the lesson file where the card's text starts.
    pub line: usize,
}

impl Card {
    /// The card's first heading, without `#`s, or "" when it has none.
    pub fn title(&self) -> &str {
        self.markdown
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with('#'))
            .map(|l| l.trim_start_matches('#').trim())
            .unwrap_or("")
    }
}

/// A parsed, valid lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub meta: FrontMatter,
    pub cards: Vec<Card>,
    /// Where it came from (a path, or `lessons/NAME.md` for embedded ones).
    pub source: String,
    /// 1-based line of the `id = ...` key, for diagnostics about the id (e.g. duplicates).
    pub id_line: usize,
}

impl Lesson {
    /// Parse a lesson file. `source` names it in diagnostics.
    pub fn parse(source: &str, bytes: &[u8]) -> Result<Lesson, Vec<Diagnostic>> {
        validate::parse_lesson(source, bytes)
    }

    pub fn id(&self) -> &str {
        &self.meta.id
    }

    pub fn title(&self) -> &str {
        &self.meta.title
    }

    /// The experiment shown by default in this lesson's panel.
    pub fn primary_experiment(&self) -> Option<&str> {
        self.meta.experiments.first().map(String::as_str)
    }
}
