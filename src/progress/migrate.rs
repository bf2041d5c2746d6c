//! Reading a version-1 `progress.json` (one latest answer per question) into the current format
//! without losing any answer: the answer becomes the only stored attempt; when it was not the
//! first (`attempts > 1`), the first try is marked unknown, so it does not score as right.
//! Version-1 predictions keep their value but not their grade: version 1 did not record which
//! run graded them, so the next run with default parameters grades them.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{AnswerRecord, Attempt, LessonProgress, PROGRESS_VERSION, Progress};

#[derive(Deserialize)]
struct V1 {
    #[serde(default)]
    current_lesson: Option<String>,
    #[serde(default)]
    lessons: BTreeMap<String, V1Lesson>,
}

#[derive(Deserialize)]
struct V1Lesson {
    #[serde(default)]
    card: usize,
    #[serde(default)]
    seen: Vec<usize>,
    #[serde(default)]
    answers: BTreeMap<String, V1Answer>,
}

#[derive(Deserialize)]
struct V1Answer {
    choice: Option<usize>,
    predicted: Option<f64>,
    correct: Option<bool>,
    attempts: u32,
}

/// Parse a version-1 file into the current format.
pub(super) fn from_v1(bytes: &[u8]) -> Result<Progress, serde_json::Error> {
    let v1: V1 = serde_json::from_slice(bytes)?;
    let lessons = v1
        .lessons
        .into_iter()
        .map(|(id, l)| (id, lesson(l)))
        .collect();
    Ok(Progress {
        version: PROGRESS_VERSION,
        current_lesson: v1.current_lesson,
        lessons,
        ..Progress::default()
    })
}

fn lesson(l: V1Lesson) -> LessonProgress {
    let mut seen = l.seen;
    seen.sort_unstable();
    seen.dedup();
    LessonProgress {
        card: l.card,
        seen,
        answers: l.answers.into_iter().map(|(q, a)| (q, answer(a))).collect(),
        ..LessonProgress::default()
    }
}

fn answer(a: V1Answer) -> AnswerRecord {
    let attempt = Attempt {
        at: 0,
        choice: a.choice,
        correct: a.choice.and(a.correct),
        predicted: a.predicted,
        grade: None,
        after_seeing: false,
    };
    let earlier = a.attempts.saturating_sub(1);
    AnswerRecord {
        attempts: vec![attempt],
        unrecorded: earlier,
        // A retried choice question: its first try is unknown. A prediction's latest value is
        // the one in force, so it is not "a later attempt".
        first_unrecorded: earlier > 0 && a.choice.is_some(),
    }
}
