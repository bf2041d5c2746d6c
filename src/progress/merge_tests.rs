//! Tests of the version-2 record: migration from version 1 without losing answers, two stores
//! on one folder that never lose each other's work, stale records that do not score, the
//! shuffled options that make a fixed letter score chance, and the file kept behind a link.

use std::fs;

use super::score::{LessonStats, Mark, mark};
use super::*;
use crate::lesson::{Catalog, Lesson, QuestionKind};

fn fixture_lesson(id: &str) -> Lesson {
    let catalog = crate::app::fixture::sample_catalog();
    catalog
        .entries
        .iter()
        .filter_map(|e| e.lesson())
        .find(|l| l.id() == id)
        .cloned()
        .unwrap()
}

const V1: &str = r#"{"version": 1, "current_lesson": "pageable",
  "lessons": {"pageable": {"card": 2, "seen": [2, 0, 2],
    "answers": {
      "staging": {"choice": 1, "predicted": null, "correct": true, "attempts": 1},
      "sync": {"choice": 1, "predicted": null, "correct": true, "attempts": 3}}},
   "async": {"answers": {
      "done": {"choice": null, "predicted": 812.0, "correct": false, "attempts": 2}}}}}"#;

#[test]
fn a_version_1_file_is_migrated_without_losing_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(path(dir.path()), V1).unwrap();
    let loaded = load(dir.path());
    assert_eq!(loaded.banner, None);
    let p = loaded.progress;
    assert!(p.seed.is_some(), "a migrated learner gets a seed");
    let pageable = &p.lessons["pageable"];
    assert_eq!((pageable.card, pageable.seen.clone()), (2, vec![0, 2]));
    let lesson = fixture_lesson("pageable");
    // One attempt: it was the first, and it scores.
    assert_eq!(mark(&lesson.meta.quiz[0], Some(pageable)), Mark::Right);
    // Three attempts: the right one kept was a retry, so the first try is unknown: not right.
    let sync = &pageable.answers["sync"];
    assert_eq!((sync.count(), sync.first_unrecorded), (3, true));
    assert_eq!(
        sync.latest().unwrap().choice,
        Some(1),
        "the answer itself is kept"
    );
    assert_eq!(mark(&lesson.meta.quiz[1], Some(pageable)), Mark::Wrong);
    // A version-1 grade did not say which run gave it: the prediction waits for a new one.
    let done = &p.lessons["async"].answers["done"];
    assert_eq!(
        (done.pending_prediction(), done.graded()),
        (Some(812.0), None)
    );
    // Saving writes version 2 and keeps all of it.
    save(dir.path(), &p).unwrap();
    let again = load(dir.path()).progress;
    assert_eq!(again.version, PROGRESS_VERSION);
    assert_eq!(again, p);
}

#[test]
fn two_stores_on_one_folder_keep_each_others_answers_and_positions() {
    let dir = tempfile::tempdir().unwrap();
    save(dir.path(), &Progress::new_learner()).unwrap();
    let mut a = load(dir.path()).progress;
    let mut b = load(dir.path()).progress;
    a.visit("pageable", 1);
    a.lessons
        .get_mut("pageable")
        .unwrap()
        .answers
        .entry("staging".into())
        .or_default()
        .push(Attempt::choice(1, true, now_ms()));
    save(dir.path(), &a).unwrap();
    b.visit("pinned", 2);
    b.lessons
        .get_mut("pinned")
        .unwrap()
        .answers
        .entry("alloc".into())
        .or_default()
        .push(Attempt::choice(0, false, now_ms()));
    save(dir.path(), &b).unwrap();
    // A saves again (e.g. on quit) without having seen B's answer: nothing of B's is lost.
    a.visit("pageable", 2);
    save(dir.path(), &a).unwrap();
    let merged = load(dir.path()).progress;
    assert_eq!(merged.lessons["pageable"].answers["staging"].count(), 1);
    assert_eq!(merged.lessons["pinned"].answers["alloc"].count(), 1);
    assert_eq!(merged.lessons["pinned"].card, 2);
    assert_eq!(merged.lessons["pageable"].seen, [1, 2]);
    assert_eq!(
        merged.current_lesson.as_deref(),
        Some("pageable"),
        "the newest visit wins"
    );
    assert_eq!(merged.seed, a.seed, "the first seed written stays");
}

#[test]
fn attempts_from_both_instances_are_unioned_and_the_first_is_scored() {
    let lesson = fixture_lesson("pageable");
    let mut a = Progress::fresh();
    let mut b = Progress::fresh();
    let answer = |p: &mut Progress, choice, at| {
        p.lessons
            .entry("pageable".into())
            .or_default()
            .answers
            .entry("staging".into())
            .or_default()
            .push(Attempt::choice(choice, choice == 1, at));
    };
    answer(&mut a, 0, 100); // wrong, first
    answer(&mut b, 1, 200); // right, later: practice
    answer(&mut a, 1, 300);
    let m = merge(&a, &b);
    let record = &m.lessons["pageable"].answers["staging"];
    let times: Vec<u64> = record.attempts.iter().map(|x| x.at).collect();
    assert_eq!(times, [100, 200, 300]);
    assert_eq!(
        mark(&lesson.meta.quiz[0], m.lessons.get("pageable")),
        Mark::Wrong
    );
    assert_eq!(merge(&m, &m), m, "merging is idempotent");
    assert_eq!(
        merge(&b, &a).lessons,
        m.lessons,
        "and symmetric in its records"
    );
}

#[test]
fn a_reset_in_one_instance_is_not_undone_by_the_others_older_records() {
    let dir = tempfile::tempdir().unwrap();
    let mut old = Progress::new_learner();
    old.visit("pageable", 2);
    old.lessons
        .get_mut("pageable")
        .unwrap()
        .answers
        .entry("staging".into())
        .or_default()
        .push(Attempt::choice(1, true, now_ms()));
    save(dir.path(), &old).unwrap();
    let mut resetter = load(dir.path()).progress;
    resetter.reset_lesson("pageable");
    save(dir.path(), &resetter).unwrap();
    // The other instance still holds the old records and saves them.
    save(dir.path(), &old).unwrap();
    let p = load(dir.path()).progress;
    assert!(
        p.lessons["pageable"].answers.is_empty(),
        "{:?}",
        p.lessons["pageable"]
    );
    assert!(p.lessons["pageable"].seen.is_empty());
    // Work done after the reset counts.
    let mut after = p.clone();
    after.visit("pageable", 1);
    save(dir.path(), &after).unwrap();
    assert_eq!(load(dir.path()).progress.lessons["pageable"].seen, [1]);
}

#[test]
fn stale_records_do_not_score_and_counters_saturate() {
    let lesson = fixture_lesson("pageable");
    let mut lp = LessonProgress::default();
    // An unknown question id, and a choice beyond the question's options.
    lp.answers
        .entry("gone".into())
        .or_default()
        .push(Attempt::choice(0, true, 1));
    lp.answers
        .entry("staging".into())
        .or_default()
        .push(Attempt::choice(99, true, 2));
    let stats = LessonStats::of(&lesson, Some(&lp));
    assert_eq!((stats.quiz_right, stats.quiz_answered), (0, 0));
    assert_eq!(mark(&lesson.meta.quiz[0], Some(&lp)), Mark::Open);
    let mut record = AnswerRecord {
        unrecorded: u32::MAX,
        ..AnswerRecord::default()
    };
    record.push(Attempt::choice(1, true, 3));
    assert_eq!(record.count(), u32::MAX);
    for i in 0..(MAX_ATTEMPTS as u64 + 5) {
        record.push(Attempt::choice(0, false, 10 + i));
    }
    assert_eq!(record.attempts.len(), MAX_ATTEMPTS);
    assert_eq!(
        record.attempts[0].at, 3,
        "the first attempt is never dropped"
    );
}

#[test]
fn the_same_letter_every_time_scores_about_chance() {
    // Over the real course and many learners: pressing one letter for every question.
    let catalog = Catalog::embedded();
    let questions: Vec<(&str, &crate::lesson::Question)> = catalog
        .entries
        .iter()
        .filter_map(|e| e.lesson())
        .flat_map(|l| l.meta.quiz.iter().map(move |q| (l.id(), q)))
        .filter(|(_, q)| q.kind == QuestionKind::Choice)
        .collect();
    assert!(questions.len() >= 10);
    let chance: f64 = questions
        .iter()
        .map(|(_, q)| 1.0 / q.choices.len() as f64)
        .sum::<f64>()
        / questions.len() as f64;
    let seeds = 2000u64;
    for letter in 0..4 {
        let mut right = 0u64;
        for seed in 0..seeds {
            let seed = seed.wrapping_mul(0x2545_f491_4f6c_dd1d);
            for (lesson, q) in &questions {
                let order = shuffle::order(seed, lesson, &q.id, q.choices.len());
                let pressed = order.get(letter.min(order.len() - 1)).copied();
                right += u64::from(pressed == q.answer);
            }
        }
        let score = right as f64 / (seeds as f64 * questions.len() as f64);
        assert!(
            (score - chance).abs() < 0.02,
            "always {} scores {score:.3}, chance is {chance:.3}",
            char::from(b'A' + letter as u8)
        );
    }
}

#[test]
fn the_option_order_is_the_same_after_a_reload() {
    let dir = tempfile::tempdir().unwrap();
    let first = load(dir.path()).progress;
    save(dir.path(), &first).unwrap();
    let again = load(dir.path()).progress;
    assert_eq!(again.seed, first.seed);
    let order = |p: &Progress| shuffle::order(p.seed(), "pageable", "staging", 4);
    assert_eq!(order(&first), order(&again));
}

#[cfg(unix)]
#[test]
fn a_linked_progress_file_is_written_through_the_link_and_temp_files_are_cleaned() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.json");
    save(dir.path(), &Progress::new_learner()).unwrap();
    fs::rename(path(dir.path()), &real).unwrap();
    std::os::unix::fs::symlink(&real, path(dir.path())).unwrap();
    let mut p = load(dir.path()).progress;
    p.visit("pageable", 1);
    save(dir.path(), &p).unwrap();
    assert!(
        fs::symlink_metadata(path(dir.path()))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(fs::read_to_string(&real).unwrap().contains("pageable"));
    // A temp file left by a killed save goes at the next load.
    let left = dir.path().join(".progress.json.tmpABC123");
    fs::write(&left, "{").unwrap();
    load(dir.path());
    assert!(!left.exists());
}
