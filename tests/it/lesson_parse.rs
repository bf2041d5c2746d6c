//! The lesson parser and validator: good files parse into cards and questions; every kind of bad
//! file becomes a `file:line: message` diagnostic on the right line, never a panic.

use cuda_academy::lesson::{Catalog, Lesson, LessonEntry, QuestionKind};

const GOOD: &str = r#"+++
id = "demo"
title = "Demo"
order = 2
experiments = ["pipeline"]

[[quiz]]
id = "q1"
prompt = "Which?"
choices = ["a", "b"]
answer = 1
explanation = "Because."

[[quiz]]
id = "p1"
kind = "predict"
prompt = "How fast?"
metric = "speedup"
tolerance_pct = 20
explanation = "Measured."
+++
# First

Hello.
---
## Second

```cuda
// --- not a separator inside a fence
---
```
---

---
Third card.
"#;

fn problems(text: &[u8]) -> Vec<String> {
    match Lesson::parse("t.md", text) {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(ToString::to_string).collect(),
    }
}

fn one_problem(text: &str) -> String {
    let p = problems(text.as_bytes());
    assert_eq!(p.len(), 1, "expected one problem, got {p:?}");
    p[0].clone()
}

#[test]
fn good_lesson_parses_into_cards_and_questions() {
    let lesson = Lesson::parse("t.md", GOOD.as_bytes()).unwrap();
    assert_eq!(lesson.id(), "demo");
    assert_eq!(lesson.cards.len(), 3, "{:#?}", lesson.cards);
    assert_eq!(lesson.cards[0].title(), "First");
    assert_eq!(lesson.cards[0].line, 22);
    assert_eq!(lesson.cards[1].title(), "Second");
    assert!(
        lesson.cards[1].markdown.contains("---\n```"),
        "fenced --- stays in the card"
    );
    assert_eq!(lesson.cards[2].markdown.trim(), "Third card.");
    assert_eq!(lesson.meta.quiz[1].kind, QuestionKind::Predict);
    assert_eq!(lesson.primary_experiment(), Some("pipeline"));
}

#[test]
fn empty_and_binary_files_are_diagnosed() {
    assert!(one_problem("").contains("t.md:1: the file is empty"));
    assert!(one_problem("  \n\n").contains("empty"));
    let p = problems(&[0xff, 0xfe, 0x00, 0x81]);
    assert!(p[0].contains("not valid UTF-8"), "{p:?}");
    let p = problems(b"+++\nid = \"a\"\0\n+++\nx\n");
    assert!(p[0].starts_with("t.md:2:") && p[0].contains("NUL"), "{p:?}");
}

#[test]
fn front_matter_problems_name_the_line() {
    assert!(one_problem("# no front matter\n").contains("missing front matter"));
    assert!(one_problem("+++\nid = \"a\"\ntitle = \"A\"\n").contains("unterminated front matter"));
    let p = one_problem("+++\nid = \"a\"\ntitle = \"A\"\ncolour = \"red\"\n+++\ncard\n");
    assert!(p.starts_with("t.md:4:") && p.contains("colour"), "{p}");
    let p = one_problem("+++\nid = \"a\"\ntitle = = \"A\"\n+++\ncard\n");
    assert!(p.starts_with("t.md:3:"), "{p}");
    let p = one_problem("+++\ntitle = \"A\"\n+++\ncard\n");
    assert!(p.contains("id"), "{p}");
    let p = one_problem("+++\nid = \"Bad Id\"\ntitle = \"A\"\n+++\ncard\n");
    assert!(p.starts_with("t.md:2:") && p.contains("lowercase"), "{p}");
    let p =
        one_problem("+++\nid = \"a\"\ntitle = \"A\"\nexperiments = [\"warp-drive\"]\n+++\ncard\n");
    assert!(
        p.starts_with("t.md:4:") && p.contains("unknown experiment"),
        "{p}"
    );
}

#[test]
fn quiz_answer_that_does_not_exist() {
    let text = "+++\nid = \"a\"\ntitle = \"A\"\n\n[[quiz]]\nid = \"q\"\nprompt = \"?\"\nchoices = [\"x\", \"y\"]\nanswer = 2\nexplanation = \"e\"\n+++\ncard\n";
    let p = one_problem(text);
    assert!(
        p.starts_with("t.md:5:") && p.contains("answer 2 does not exist"),
        "{p}"
    );
}

#[test]
fn cards_unterminated_fences_nesting_and_long_lines() {
    let p = one_problem("+++\nid = \"a\"\ntitle = \"A\"\n+++\n");
    assert!(p.contains("at least one card"), "{p}");
    let p = one_problem("+++\nid = \"a\"\ntitle = \"A\"\n+++\ntext\n\n```cuda\nint x;\n");
    assert!(
        p.starts_with("t.md:7:") && p.contains("unterminated code fence"),
        "{p}"
    );
    let deep = format!(
        "+++\nid = \"a\"\ntitle = \"A\"\n+++\n{}deep\n",
        "> ".repeat(500)
    );
    assert!(one_problem(&deep).contains("nested more than"));
    let long = format!(
        "+++\nid = \"a\"\ntitle = \"A\"\n+++\n{}\n",
        "x".repeat(3_000_000)
    );
    let p = one_problem(&long);
    assert!(
        p.starts_with("t.md:5:") && p.contains("3000000 bytes long"),
        "{p}"
    );
}

#[test]
fn duplicate_ids_break_the_later_file_only() {
    let a = "+++\nid = \"same\"\ntitle = \"A\"\norder = 1\n+++\ncard\n";
    let b = "+++\ntitle = \"B\"\norder = 2\nid = \"same\"\n+++\ncard\n";
    let catalog = Catalog::from_files([
        ("a.md".to_string(), a.into()),
        ("b.md".to_string(), b.into()),
    ]);
    assert!(matches!(&catalog.entries[0], LessonEntry::Ok(l) if l.title() == "A"));
    let problems: Vec<String> = catalog.problems().iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].starts_with("b.md:4:") && problems[0].contains("duplicate lesson id"),
        "{problems:?}"
    );
}

proptest::proptest! {
    #[test]
    fn parser_never_panics(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..2000)) {
        let _ = Lesson::parse("fuzz.md", &bytes);
    }

    #[test]
    fn parser_never_panics_on_front_matter_like_text(body in "(\\+\\+\\+\n|---\n|```\n|> |- |id = \"x\"\n|title = \"t\"\n|\\[\\[quiz\\]\\]\n|[a-z =\"\\[\\]]{0,12}\n){0,40}") {
        let _ = Lesson::parse("fuzz.md", body.as_bytes());
    }
}
