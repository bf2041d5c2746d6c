//! Unit tests for the progress store: fresh start, round trips, every corrupt-file case, the
//! refusal to overwrite, and atomic save.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

use proptest::prelude::*;

use super::aside::{free_name, utc_stamp};
use super::store::{load_with, parse, save_with};
use super::*;

const STAMP: &str = "20261129T173740Z";

fn sample() -> Progress {
    let mut answers = BTreeMap::new();
    let mut retried = AnswerRecord::default();
    retried.push(Attempt::choice(0, false, 10));
    retried.push(Attempt::choice(2, true, 11));
    answers.insert("pinned-needed".to_string(), retried);
    let mut predicted = AnswerRecord::default();
    predicted.push(Attempt::prediction(12.5, 12));
    answers.insert("guess-bw".to_string(), predicted);
    let mut lessons = BTreeMap::new();
    lessons.insert(
        "async-copy".to_string(),
        LessonProgress {
            card: 4,
            card_at: 13,
            seen: vec![0, 1, 2, 3, 4],
            answers,
            reset_at: 0,
            ..LessonProgress::default()
        },
    );
    Progress {
        version: PROGRESS_VERSION,
        seed: Some(7),
        current_lesson: Some("async-copy".to_string()),
        current_at: 13,
        reset_at: 0,
        lessons,
        results: BTreeMap::new(),
    }
}

fn real_rename(from: &Path, to: &Path) -> io::Result<()> {
    fs::rename(from, to)
}

fn corrupt_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".corrupt-"))
        .collect();
    names.sort();
    names
}

#[test]
fn missing_file_is_a_fresh_start_without_banner() {
    let dir = tempfile::tempdir().unwrap();
    let loaded = load(&dir.path().join("not-yet-created"));
    assert!(loaded.progress.seed.is_some(), "a new learner gets a seed");
    assert_eq!(
        Progress {
            seed: None,
            ..loaded.progress.clone()
        },
        Progress::fresh()
    );
    assert_eq!(loaded.progress.version, PROGRESS_VERSION);
    assert_eq!(loaded.banner, None);
}

#[test]
fn save_then_load_round_trips_and_creates_the_dir() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("a/b");
    save(&state, &sample()).unwrap();
    let loaded = load(&state);
    assert_eq!(loaded.banner, None);
    assert_eq!(loaded.progress, sample());
    let text = fs::read_to_string(path(&state)).unwrap();
    assert!(
        text.contains("\n  \"version\": 2"),
        "not pretty JSON: {text}"
    );
    // No temp files left next to it.
    assert_eq!(fs::read_dir(&state).unwrap().count(), 1);
}

#[test]
fn save_writes_the_current_version_whatever_the_record_says() {
    let dir = tempfile::tempdir().unwrap();
    save(dir.path(), &Progress::default()).unwrap();
    assert_eq!(load(dir.path()).progress.version, PROGRESS_VERSION);
}

#[test]
fn save_replaces_an_older_good_file() {
    let dir = tempfile::tempdir().unwrap();
    save(dir.path(), &Progress::fresh()).unwrap();
    save(dir.path(), &sample()).unwrap();
    assert_eq!(load(dir.path()).progress, sample());
}

fn assert_moved_aside(contents: &[u8], reason_word: &str) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(path(dir.path()), contents).unwrap();
    let loaded = load_with(dir.path(), STAMP, &real_rename);
    assert_eq!(loaded.progress.lessons.len(), 0);
    let banner = loaded.banner.expect("a banner");
    let aside = dir.path().join(format!("progress.json.corrupt-{STAMP}"));
    assert!(
        banner.contains(&aside.display().to_string()),
        "banner does not name {}: {banner}",
        aside.display()
    );
    assert!(
        banner.contains(reason_word),
        "banner lacks {reason_word:?}: {banner}"
    );
    assert_eq!(fs::read(&aside).unwrap(), contents, "old contents not kept");
    assert!(!path(dir.path()).exists());
    // The fresh start can be saved.
    save(dir.path(), &sample()).unwrap();
    assert_eq!(load(dir.path()).progress, sample());
}

#[test]
fn invalid_json_is_moved_aside() {
    assert_moved_aside(b"{\"version\": 1, \"lessons\": ", "not valid progress JSON");
}

#[test]
fn truncated_file_is_moved_aside() {
    let full = serde_json::to_vec_pretty(&sample()).unwrap();
    assert_moved_aside(&full[..full.len() / 2], "not valid progress JSON");
}

#[test]
fn wrong_types_are_moved_aside() {
    assert_moved_aside(
        br#"{"version": 1, "lessons": {"x": {"card": "three"}}}"#,
        "not valid progress JSON",
    );
    assert_moved_aside(br#"{"version": "one"}"#, "not valid progress JSON");
    assert_moved_aside(b"[1, 2, 3]", "not valid progress JSON");
}

#[test]
fn binary_junk_is_moved_aside() {
    assert_moved_aside(
        &[0xff, 0x00, 0x13, 0x37, 0xfe, 0x80],
        "not valid progress JSON",
    );
}

#[test]
fn empty_file_is_moved_aside() {
    assert_moved_aside(b"", "empty");
    assert_moved_aside(b" \n\t", "empty");
}

/// Review 2026-12-01 P2: a file a newer release wrote is not corrupt. It stays where it is,
/// byte for byte, so that release still finds it; this session starts fresh, says why, and
/// cannot save over it; `peek_or_why` (for `list`) says why too.
#[test]
fn newer_version_is_left_alone_and_not_overwritten() {
    let contents = br#"{"version": 99, "something": "new"}"#;
    let dir = tempfile::tempdir().unwrap();
    fs::write(path(dir.path()), contents).unwrap();
    let loaded = load_with(dir.path(), STAMP, &real_rename);
    assert_eq!(loaded.progress.lessons.len(), 0);
    let banner = loaded.banner.expect("a banner");
    assert!(
        banner.contains("newer"),
        "banner lacks the reason: {banner}"
    );
    assert!(banner.contains("will not be saved"), "{banner}");
    assert!(corrupt_files(dir.path()).is_empty(), "moved aside");
    assert!(save(dir.path(), &sample()).is_err(), "saved over it");
    assert_eq!(fs::read(path(dir.path())).unwrap(), contents);
    let why = peek_or_why(dir.path()).unwrap_err();
    assert!(why.contains("format version 99"), "{why}");
}

#[test]
fn an_existing_corrupt_file_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    for (i, junk) in [b"one".as_slice(), b"two", b"three"].iter().enumerate() {
        fs::write(path(dir.path()), junk).unwrap();
        let loaded = load_with(dir.path(), STAMP, &real_rename);
        assert!(loaded.banner.is_some(), "round {i}");
    }
    assert_eq!(
        corrupt_files(dir.path()),
        [
            format!("progress.json.corrupt-{STAMP}"),
            format!("progress.json.corrupt-{STAMP}-2"),
            format!("progress.json.corrupt-{STAMP}-3"),
        ]
    );
    let base = dir.path().join(format!("progress.json.corrupt-{STAMP}"));
    assert_eq!(fs::read(&base).unwrap(), b"one");
    assert_eq!(
        free_name(&path(dir.path()), STAMP).unwrap(),
        dir.path().join(format!("progress.json.corrupt-{STAMP}-4"))
    );
}

#[test]
fn failed_rename_is_reported_and_save_then_refuses() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(path(dir.path()), b"{garbage").unwrap();
    let failing = |_: &Path, _: &Path| -> io::Result<()> {
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "read-only folder",
        ))
    };
    let loaded = load_with(dir.path(), STAMP, &failing);
    assert_eq!(loaded.progress, Progress::fresh());
    let banner = loaded.banner.unwrap();
    assert!(banner.contains("could not be moved aside"), "{banner}");
    assert!(banner.contains("read-only folder"), "{banner}");
    assert!(banner.contains("will not be saved"), "{banner}");
    let err = save(dir.path(), &sample()).unwrap_err();
    assert!(format!("{err:#}").contains("will not overwrite"), "{err:#}");
    assert_eq!(fs::read(path(dir.path())).unwrap(), b"{garbage");
    assert!(corrupt_files(dir.path()).is_empty());
}

#[test]
fn save_refuses_to_replace_a_newer_file() {
    let dir = tempfile::tempdir().unwrap();
    let newer = br#"{"version": 99}"#;
    fs::write(path(dir.path()), newer).unwrap();
    assert!(save(dir.path(), &sample()).is_err());
    assert_eq!(fs::read(path(dir.path())).unwrap(), newer);
}

#[test]
fn unreadable_file_is_left_alone_and_not_overwritten() {
    // A folder where the file should be: reading fails with something other than NotFound.
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(path(dir.path())).unwrap();
    let loaded = load(dir.path());
    assert!(loaded.banner.unwrap().contains("could not be read"));
    assert!(path(dir.path()).is_dir());
    assert!(corrupt_files(dir.path()).is_empty());
    assert!(save(dir.path(), &sample()).is_err());
}

#[test]
fn failed_save_leaves_the_old_file_intact_and_no_temp_files() {
    let dir = tempfile::tempdir().unwrap();
    save(dir.path(), &Progress::fresh()).unwrap();
    let before = fs::read(path(dir.path())).unwrap();
    let err = save_with(dir.path(), &sample(), |_| {
        Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
    })
    .unwrap_err();
    assert!(format!("{err:#}").contains("disk full"), "{err:#}");
    assert_eq!(fs::read(path(dir.path())).unwrap(), before);
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "temp file left behind"
    );
    assert!(load(dir.path()).progress.lessons.is_empty());
}

#[test]
fn peek_never_touches_a_corrupt_file() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(peek(dir.path()), None);
    fs::write(path(dir.path()), b"junk").unwrap();
    assert_eq!(peek(dir.path()), None);
    assert_eq!(fs::read(path(dir.path())).unwrap(), b"junk");
    assert!(corrupt_files(dir.path()).is_empty());
    fs::remove_file(path(dir.path())).unwrap();
    save(dir.path(), &sample()).unwrap();
    assert_eq!(peek(dir.path()), Some(sample()));
}

#[test]
fn missing_optional_fields_default() {
    let p = parse(br#"{"version": 2}"#).unwrap();
    assert_eq!(p, Progress::fresh());
    let p = parse(br#"{"version": 2, "lessons": {"a": {"card": 2}}}"#).unwrap();
    assert_eq!(p.lessons["a"].card, 2);
    let p = parse(br#"{"version": 1}"#).unwrap();
    assert_eq!(p, Progress::fresh(), "an empty version-1 file");
    assert!(parse(br#"{"lessons": {}}"#).is_err(), "version is required");
}

#[test]
fn reset_lesson_and_reset_all() {
    let mut p = sample();
    assert!(!p.reset_lesson("nope"));
    assert!(p.reset_lesson("async-copy"));
    assert!(p.lessons["async-copy"].answers.is_empty());
    assert!(
        p.lessons["async-copy"].reset_at > 0,
        "the reset is remembered for merging"
    );
    assert_eq!(p.current_lesson, None);
    let mut p = sample();
    p.reset_all();
    assert!(p.lessons.is_empty() && p.current_lesson.is_none());
    assert_eq!(p.seed, Some(7), "the learner's option order stays");
}

#[test]
fn counts_ignore_duplicates_and_stale_cards() {
    let mut lp = sample().lessons["async-copy"].clone();
    lp.seen = vec![0, 0, 1, 7, 99];
    assert_eq!(lp.seen_count(8), 3);
}

#[test]
fn utc_stamp_formats_known_instants() {
    assert_eq!(utc_stamp(UNIX_EPOCH), "19700101T000000Z");
    let at = |s| utc_stamp(UNIX_EPOCH + Duration::from_secs(s));
    assert_eq!(at(1_700_000_000), "20231114T221320Z");
    assert_eq!(at(951_782_400), "20000229T000000Z");
    assert_eq!(at(951_868_799), "20000229T235959Z");
    assert_eq!(at(951_868_800), "20000301T000000Z");
}

#[test]
fn state_dir_honours_the_override() {
    // set_var is unsafe in edition 2024 (other test threads read the environment), so this
    // checks against whatever the environment says; tests/cli.rs sets it for a child process.
    let dir = state_dir().unwrap();
    match std::env::var_os(STATE_DIR_ENV).filter(|d| !d.is_empty()) {
        Some(v) => assert_eq!(dir, Path::new(&v)),
        None => assert!(dir.ends_with("cuda-academy"), "{}", dir.display()),
    }
}

fn attempt() -> impl Strategy<Value = Attempt> {
    (
        any::<u64>(),
        proptest::option::of(0usize..10),
        proptest::option::of(any::<bool>()),
        proptest::option::of(-1e12f64..1e12),
    )
        .prop_map(|(at, choice, correct, predicted)| Attempt {
            at,
            choice,
            correct,
            predicted,
            grade: None,
            after_seeing: false,
        })
}

fn answer() -> impl Strategy<Value = AnswerRecord> {
    (
        proptest::collection::vec(attempt(), 0..4),
        any::<u32>(),
        any::<bool>(),
    )
        .prop_map(|(attempts, unrecorded, first_unrecorded)| AnswerRecord {
            attempts,
            unrecorded,
            first_unrecorded,
        })
}

fn progress() -> impl Strategy<Value = Progress> {
    let lesson = (
        any::<usize>(),
        any::<u64>(),
        proptest::collection::vec(0usize..50, 0..20),
        proptest::collection::btree_map("[a-z0-9-]{1,12}", answer(), 0..6),
    )
        .prop_map(|(card, card_at, seen, answers)| LessonProgress {
            card,
            card_at,
            seen,
            answers,
            reset_at: 0,
            ..LessonProgress::default()
        });
    (
        any::<u64>().prop_map(Some),
        proptest::option::of("\\PC{0,20}"),
        proptest::collection::btree_map("\\PC{1,16}", lesson, 0..5),
    )
        .prop_map(|(seed, current_lesson, lessons)| Progress {
            version: PROGRESS_VERSION,
            seed,
            current_lesson,
            lessons,
            ..Progress::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_progress_round_trips_through_the_file(p in progress()) {
        let dir = tempfile::tempdir().unwrap();
        save(dir.path(), &p).unwrap();
        let loaded = load(dir.path());
        prop_assert_eq!(loaded.banner, None);
        prop_assert_eq!(loaded.progress, p);
    }

    #[test]
    fn parse_never_panics_on_junk(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = parse(&bytes);
    }
}

/// Issue 18: a reset lesson's retake is practice. The first tries from before the reset keep
/// scoring, the options come in a new order, and the reset is counted.
#[test]
fn a_retake_after_a_reset_never_changes_the_first_try_score() {
    let mut p = Progress::fresh();
    let mut wrong = AnswerRecord::default();
    wrong.push(Attempt::choice(1, false, 10));
    let mut right = AnswerRecord::default();
    right.push(Attempt::choice(0, true, 11));
    let lesson = p.lessons.entry("l".into()).or_default();
    lesson.answers.insert("q-wrong".into(), wrong);
    lesson.answers.insert("q-right".into(), right);
    p.reset_lesson("l");
    let l = &p.lessons["l"];
    assert_eq!(l.resets, 1);
    assert!(l.answers.is_empty());
    assert_eq!(l.first_tries.get("q-wrong"), Some(&false));
    assert_eq!(l.first_tries.get("q-right"), Some(&true));
    assert!(l.is_retake("q-wrong") && !l.is_retake("q-new"));
    let seed_after_first = l.option_seed(p.seed());
    assert_ne!(seed_after_first, p.seed(), "a reset reshuffles");
    // The retake answers the wrong one right; a second reset keeps the first try, not this.
    let mut retake = AnswerRecord::default();
    retake.push(Attempt::choice(0, true, now_ms() + 1));
    p.lessons
        .get_mut("l")
        .unwrap()
        .answers
        .insert("q-wrong".into(), retake);
    p.reset_lesson("l");
    let l = &p.lessons["l"];
    assert_eq!(l.resets, 2);
    assert_eq!(l.first_tries.get("q-wrong"), Some(&false));
    assert_ne!(
        l.option_seed(p.seed()),
        seed_after_first,
        "a new seed per reset"
    );
    // Merged with an older copy of the file, the reset and its first tries stay.
    let merged = merge(&p, &Progress::fresh());
    assert_eq!(merged.lessons["l"].resets, 2);
    assert_eq!(merged.lessons["l"].first_tries, l.first_tries);
}
