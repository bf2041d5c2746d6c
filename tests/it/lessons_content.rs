//! The shipped lessons: all valid, four of them in order, 8-16 cards each, at least four
//! multiple-choice quick-checks each, code in `cuda` fences, and the outline points issue 2 names.

use cuda_academy::lesson::validate::names_an_option_letter;
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
fn each_lesson_has_8_to_16_cards_and_4_choice_questions() {
    for lesson in lessons() {
        let n = lesson.cards.len();
        assert!((8..=16).contains(&n), "{}: {n} cards", lesson.id());
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
        .find(|q| q.id == "async-requires")
        .expect("lesson 3 must ask the non-blocking question");
    // Applied to a case (issue 27): the key names the pageable buffer as what stops the overlap.
    let answer = &q.choices[q.answer.expect("choice question has an answer")];
    assert!(
        answer.to_lowercase().contains("pageable"),
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

/// The multiple-choice questions of the whole course.
fn choice_questions() -> Vec<cuda_academy::lesson::Question> {
    lessons()
        .into_iter()
        .flat_map(|l| l.meta.quiz)
        .filter(|q| q.kind == QuestionKind::Choice)
        .collect()
}

#[test]
fn every_answer_position_is_the_key_for_at_least_15_percent_of_questions() {
    let questions = choice_questions();
    let mut keys = [0usize; 4];
    for q in &questions {
        let key = q.answer.expect("choice question has an answer");
        assert!(key < 4, "{}: key {key} is past option D", q.id);
        keys[key] += 1;
    }
    for (letter, &n) in ["A", "B", "C", "D"].iter().zip(&keys) {
        assert!(
            n * 100 >= questions.len() * 15,
            "option {letter} is the key for {n} of {} questions: {keys:?}",
            questions.len()
        );
    }
}

#[test]
fn the_key_is_not_usually_the_longest_option() {
    let questions = choice_questions();
    let longest = questions
        .iter()
        .filter(|q| {
            let key = q.answer.expect("choice question has an answer");
            let len = |c: &String| c.chars().count();
            q.choices.iter().map(len).max() == q.choices.get(key).map(len)
        })
        .count();
    // Four options: a key that is longest about a quarter of the time carries no hint.
    assert!(
        longest * 100 <= questions.len() * 35,
        "the key is the longest option in {longest} of {} questions",
        questions.len()
    );
}

#[test]
fn explanations_refer_to_options_by_content_not_letter() {
    for q in choice_questions() {
        assert!(
            !names_an_option_letter(&q.explanation),
            "{}: the explanation names an option by letter; options are shown shuffled",
            q.id
        );
    }
}

#[test]
fn each_predict_question_is_asked_before_a_card_quotes_its_metric() {
    for lesson in lessons() {
        let cards: Vec<&str> = lesson.cards.iter().map(|c| c.markdown.as_str()).collect();
        let asks = cards
            .iter()
            .position(|c| c.contains("predict question"))
            .unwrap_or_else(|| panic!("{}: no card asks for the prediction", lesson.id()));
        for q in lesson
            .meta
            .quiz
            .iter()
            .filter(|q| q.kind == QuestionKind::Predict)
        {
            let metric = q.metric.as_deref().expect("predict question has a metric");
            let placeholder = format!("{{{{metric:{metric}}}}}");
            let quoted = cards.iter().position(|c| c.contains(&placeholder));
            assert!(
                quoted.is_some_and(|i| i > asks),
                "{}: card {:?} quotes {metric}, the card asking for the prediction is {}",
                lesson.id(),
                quoted.map(|i| i + 1),
                asks + 1
            );
        }
    }
}

/// Every "N ms of kernel" / "b ≈ N ms" / "a N ms kernel" figure in `text`.
fn kernel_times(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |w: &str| {
        let w = w.trim_start_matches(['(', '`']);
        (w.parse::<f64>().is_ok()).then(|| w.to_string())
    };
    let mut found = Vec::new();
    for i in 0..words.len().saturating_sub(2) {
        let (a, b, c) = (words[i], words[i + 1], words[i + 2]);
        let ms = b.trim_end_matches([',', '`', ')']) == "ms";
        let kernel_after =
            c.starts_with("kernel") || c == "of" && words.get(i + 3) == Some(&"kernel,");
        if ms && kernel_after {
            found.extend(number(a));
        }
        if (a == "`b" || a == "b") && b == "≈" {
            found.extend(number(c));
        }
    }
    found
}

#[test]
fn lesson_4_quotes_one_kernel_time_for_its_worked_example() {
    let lesson = &lessons()[3];
    let mut text: String = lesson.cards.iter().map(|c| c.markdown.clone()).collect();
    for q in &lesson.meta.quiz {
        text.push_str(&q.prompt);
        text.push(' ');
    }
    let times = kernel_times(&text);
    assert!(times.len() >= 3, "kernel times found: {times:?}");
    assert!(
        times.iter().all(|t| t == &times[0]),
        "lesson 4 gives different kernel times for one measurement: {times:?}"
    );
}
