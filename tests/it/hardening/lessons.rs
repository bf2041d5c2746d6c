//! Review C5 and minor 7, 8: parsing is linear (a 100,000-question lesson loads, and its last
//! question's line is right), and odd content is reported, never skipped or mislabelled.

use super::{assert_no_crash, run, text};

/// A lesson with `n` questions; the last one's answer does not exist.
fn huge_lesson(n: usize) -> String {
    let mut s = String::from("+++\nid = \"huge\"\ntitle = \"Huge\"\n");
    for i in 0..n {
        let answer = if i + 1 == n { 5 } else { 1 };
        s.push_str(&format!(
            "\n[[quiz]]\nid = \"q{i}\"\nprompt = \"p\"\nexplanation = \"e\"\nchoices = [\"a\", \"b\"]\nanswer = {answer}\n"
        ));
    }
    s + "+++\n# Card\n"
}

/// The `[[quiz]]` line of question `i` (0-based) in [`huge_lesson`]: 3 lines of front matter,
/// then 7 per question starting with a blank line.
fn quiz_line(i: usize) -> usize {
    5 + 7 * i
}

#[test]
fn the_line_arithmetic_of_the_huge_lesson_is_right() {
    let s = huge_lesson(3);
    for i in 0..3 {
        assert_eq!(s.lines().nth(quiz_line(i) - 1), Some("[[quiz]]"));
        assert_eq!(
            s.lines().nth(quiz_line(i)),
            Some(format!("id = \"q{i}\"").as_str())
        );
    }
}

/// With `find_nth_line` per question, 20,000 questions took 23 s and 150,000 about 20 minutes;
/// a linear parse does 100,000 in well under a second in release (BENCHMARKS.md has the
/// command). No time is asserted here: the test checks that the whole file is parsed and that
/// the diagnostic for the very last question points at its own `[[quiz]]` line.
#[test]
fn a_100000_question_lesson_is_checked_with_exact_lines() {
    let n = 100_000;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("huge.md"), huge_lesson(n)).unwrap();
    let out = run(&["check", dir.path().to_str().unwrap()]);
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout);
    let expected = format!(
        "huge.md:{}: quiz question {n} (\"q{}\"): answer 5",
        quiz_line(n - 1),
        n - 1
    );
    assert!(shown.contains(&expected), "want {expected}\n{shown}");
    assert_eq!(
        shown.lines().count(),
        1,
        "only the last question is wrong:\n{shown}"
    );
}

fn quiz_lesson(choices: &str, answer: usize) -> String {
    format!(
        "+++\nid = \"l\"\ntitle = \"L\"\n\n[[quiz]]\nid = \"q\"\nprompt = \"p\"\nexplanation = \"e\"\n\
         choices = {choices}\nanswer = {answer}\n+++\n# Card\n"
    )
}

#[test]
fn choice_counts_are_bounded_and_said_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let nine = format!(
        "[{}]",
        (0..9)
            .map(|i| format!("\"c{i}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    std::fs::write(dir.path().join("nine.md"), quiz_lesson(&nine, 8)).unwrap();
    std::fs::write(dir.path().join("none.md"), quiz_lesson("[]", 0)).unwrap();
    let eight = format!(
        "[{}]",
        (0..8)
            .map(|i| format!("\"c{i}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let ok = dir.path().join("ok");
    std::fs::create_dir(&ok).unwrap();
    std::fs::write(ok.join("eight.md"), quiz_lesson(&eight, 7)).unwrap();
    let out = run(&["check", dir.path().to_str().unwrap()]);
    let shown = text(&out.stdout);
    assert!(
        shown.contains("nine.md:5: quiz question 1 (\"q\"): has 9 choices; at most 8"),
        "{shown}"
    );
    assert!(
        shown.contains("none.md:5: quiz question 1 (\"q\"): needs at least 2 choices, has 0"),
        "{shown}"
    );
    assert!(!shown.contains("0 to 0"), "{shown}");
    let out = run(&["check", ok.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "8 choices are fine: {}",
        text(&out.stdout)
    );
}

/// A dangling or looping symlink, a folder and a FIFO named `*.md` are each reported (and the
/// FIFO is never opened, so there is no hang).
#[test]
fn odd_md_entries_are_reported_not_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(p.join("good.md"), quiz_lesson("[\"a\", \"b\"]", 1)).unwrap();
    std::os::unix::fs::symlink(p.join("nowhere"), p.join("dangling.md")).unwrap();
    std::os::unix::fs::symlink(p.join("loop.md"), p.join("loop.md")).unwrap();
    std::fs::create_dir(p.join("folder.md")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(p.join("fifo.md"))
        .status();
    let has_fifo = fifo.is_ok_and(|s| s.success());
    let out = run(&["check", p.to_str().unwrap()]);
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout);
    for (name, why) in [
        ("dangling.md", "broken or looping symlink"),
        ("loop.md", "broken or looping symlink"),
        ("folder.md", "is a folder"),
    ] {
        assert!(
            shown.lines().any(|l| l.contains(name) && l.contains(why)),
            "{name}: {why}\n{shown}"
        );
    }
    if has_fifo {
        assert!(
            shown
                .lines()
                .any(|l| l.contains("fifo.md") && l.contains("not a regular file")),
            "{shown}"
        );
    }
}

/// Two files with the same id: the same one is kept whatever order the folder lists them in,
/// and the diagnostic names both files.
#[test]
fn duplicate_lesson_ids_name_both_files_and_do_not_depend_on_readdir() {
    let lesson = |title: &str| format!("+++\nid = \"same\"\ntitle = \"{title}\"\n+++\n# Card\n");
    for (first, second) in [("x.md", "y.md"), ("y.md", "x.md")] {
        let dir = tempfile::tempdir().unwrap();
        // Written in a different order each time, so readdir order (often creation order)
        // differs between the two runs.
        std::fs::write(dir.path().join(first), lesson(first)).unwrap();
        std::fs::write(dir.path().join(second), lesson(second)).unwrap();
        let out = run(&["check", dir.path().to_str().unwrap()]);
        let shown = text(&out.stdout);
        let line = shown
            .lines()
            .find(|l| l.contains("duplicate lesson id"))
            .unwrap_or_default();
        assert!(
            line.contains("y.md:2:") && line.contains("x.md already uses it"),
            "{shown}"
        );
    }
}
