//! Merging two progress records (this instance's and the file another instance wrote), record
//! by record: the newer position wins, seen cards and attempts are unioned, a reset drops every
//! older record on both sides, and a grade once given stays (the earliest wins).

use std::collections::BTreeMap;

use super::{AnswerRecord, Attempt, LessonProgress, MAX_ATTEMPTS, PROGRESS_VERSION, Progress};

/// `mine` and `theirs` merged; neither loses a record the other does not supersede.
pub fn merge(mine: &Progress, theirs: &Progress) -> Progress {
    let reset_at = mine.reset_at.max(theirs.reset_at);
    let (current_lesson, current_at) = if theirs.current_at > mine.current_at {
        (theirs.current_lesson.clone(), theirs.current_at)
    } else {
        (mine.current_lesson.clone(), mine.current_at)
    };
    let mut lessons = BTreeMap::new();
    for id in mine.lessons.keys().chain(theirs.lessons.keys()) {
        if !lessons.contains_key(id) {
            let merged = lesson(mine.lessons.get(id), theirs.lessons.get(id), reset_at);
            lessons.insert(id.clone(), merged);
        }
    }
    let mut results = theirs.results.clone();
    for (id, run) in &mine.results {
        if results.get(id).is_none_or(|r| r.at <= run.at) {
            results.insert(id.clone(), run.clone());
        }
    }
    Progress {
        version: PROGRESS_VERSION,
        // The first seed written stays: the file's, if it has one.
        seed: theirs.seed.or(mine.seed),
        current_lesson,
        current_at,
        reset_at,
        lessons,
        results,
    }
}

fn lesson(
    a: Option<&LessonProgress>,
    b: Option<&LessonProgress>,
    global_reset: u64,
) -> LessonProgress {
    let sides: Vec<&LessonProgress> = a.into_iter().chain(b).collect();
    let own_reset = sides.iter().map(|l| l.reset_at).max().unwrap_or(0);
    let reset = own_reset.max(global_reset);
    // A side whose last visit is older than the reset contributes no position or seen cards.
    let live: Vec<&&LessonProgress> = sides
        .iter()
        .filter(|l| reset == 0 || l.card_at >= reset)
        .collect();
    let newest = live.iter().max_by_key(|l| l.card_at);
    let mut seen: Vec<usize> = live.iter().flat_map(|l| l.seen.iter().copied()).collect();
    seen.sort_unstable();
    seen.dedup();
    let mut answers = BTreeMap::new();
    for side in &sides {
        for qid in side.answers.keys() {
            if !answers.contains_key(qid) {
                let (x, y) = (
                    a.and_then(|l| l.answers.get(qid)),
                    b.and_then(|l| l.answers.get(qid)),
                );
                answers.insert(qid.clone(), answer(x, y, reset));
            }
        }
    }
    answers.retain(|_, r: &mut AnswerRecord| !r.attempts.is_empty() || r.unrecorded > 0);
    // The side reset last decides the option order; first tries from either side are kept
    // (the one reset first holds the oldest, so it wins).
    let last_reset = sides.iter().max_by_key(|l| l.reset_at);
    let mut first_tries = BTreeMap::new();
    let mut by_age = sides.clone();
    by_age.sort_by_key(|l| l.reset_at);
    for side in by_age.iter().filter(|l| l.resets > 0) {
        for (q, right) in &side.first_tries {
            first_tries.entry(q.clone()).or_insert(*right);
        }
    }
    LessonProgress {
        resets: sides.iter().map(|l| l.resets).max().unwrap_or(0),
        reset_seed: last_reset.and_then(|l| l.reset_seed),
        first_tries,
        card: newest.map_or(0, |l| l.card),
        card_at: newest.map_or(0, |l| l.card_at),
        seen,
        answers,
        reset_at: own_reset,
    }
}

fn answer(a: Option<&AnswerRecord>, b: Option<&AnswerRecord>, reset: u64) -> AnswerRecord {
    let mut sides: Vec<AnswerRecord> = a.into_iter().chain(b).cloned().collect();
    for side in &mut sides {
        side.forget_before(reset);
    }
    let mut attempts: Vec<Attempt> = Vec::new();
    for attempt in sides.iter().flat_map(|s| s.attempts.iter()) {
        match attempts.iter_mut().find(|kept| same_attempt(kept, attempt)) {
            // The same attempt seen by both: keep the earliest grade given to it.
            Some(kept) => {
                if let Some(g) = &attempt.grade
                    && kept.grade.as_ref().is_none_or(|k| g.at < k.at)
                {
                    kept.grade = Some(g.clone());
                }
            }
            None => attempts.push(attempt.clone()),
        }
    }
    attempts.sort_by_key(|a| a.at);
    let mut out = AnswerRecord {
        attempts: Vec::new(),
        unrecorded: sides.iter().map(|s| s.unrecorded).max().unwrap_or(0),
        first_unrecorded: sides.iter().any(|s| s.first_unrecorded),
    };
    for attempt in attempts {
        out.push(attempt);
    }
    debug_assert!(out.attempts.len() <= MAX_ATTEMPTS);
    out
}

/// Two records of one answer (the grade aside).
fn same_attempt(x: &Attempt, y: &Attempt) -> bool {
    x.at == y.at
        && x.choice == y.choice
        && x.correct == y.correct
        && x.predicted.map(f64::to_bits) == y.predicted.map(f64::to_bits)
}
