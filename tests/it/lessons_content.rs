//! The shipped lessons: all valid, four of them in order, 8-14 cards each, at least four
//! multiple-choice quick-checks each, code in `cuda` fences, and the outline points issue 2 names.

use cuda_academy::lesson::{Catalog, LessonEntry, QuestionKind};

fn lessons() -> Vec<cuda_academy::lesson::Lesson> {
    let catalog = Catalog::embedded();
    let problems: Vec<String> = catalog.problems().iter().map(ToString::to_string).collect();
    assert!(
        problems.is_empty(),
        "embedded lessons have problems:\n{}",
        problems.join("\n")
    );
    catalog
        .entries
        .into_iter()
        .filter_map(|e| match e {
            LessonEntry::Ok(l) => Some(l),
            LessonEntry::Broken { .. } => None,
        })
        .collect()
}

#[test]
fn four_lessons_in_course_order() {
    let titles: Vec<String> = lessons().iter().map(|l| l.title().to_string()).collect();
    assert_eq!(
        titles,
        [
            "Why Pageable Memory Is Slow",
            "Pinned Memory with cudaMallocHost",
            "cudaMemcpyAsync in a Stream",
            "The Double-Buffering Pipeline",
        ]
    );
}

#[test]
fn each_lesson_has_8_to_14_cards_and_4_choice_questions() {
    for lesson in lessons() {
        let n = lesson.cards.len();
        assert!((8..=14).contains(&n), "{}: {n} cards", lesson.id());
        let choice = lesson
            .meta
            .quiz
            .iter()
            .filter(|q| q.kind == QuestionKind::Choice)
            .count();
        assert!(
            choice >= 4,
            "{}: {choice} multiple-choice questions",
            lesson.id()
        );
        assert!(
            lesson.primary_experiment().is_some(),
            "{}: no experiment",
            lesson.id()
        );
    }
}

#[test]
fn lesson_3_asks_what_makes_async_copies_non_blocking() {
    let lesson = &lessons()[2];
    let q = lesson
        .meta
        .quiz
        .iter()
        .find(|q| {
            q.prompt
                .contains("What does cudaMemcpyAsync require to be genuinely non-blocking?")
        })
        .expect("lesson 3 must ask the non-blocking question");
    let answer = &q.choices[q.answer.expect("choice question has an answer")];
    assert!(
        answer.to_lowercase().contains("pinned"),
        "answer is {answer:?}"
    );
}

#[test]
fn code_is_fenced_as_cuda() {
    for lesson in lessons() {
        let text: String = lesson.cards.iter().map(|c| c.markdown.as_str()).collect();
        assert!(
            text.contains("```cuda"),
            "{} has no ```cuda fence",
            lesson.id()
        );
    }
}
