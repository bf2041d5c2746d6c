//! `cuda-academy check` on good and broken lesson folders: exit status, and one
//! `file:line: message` naming the file and the problem, never a panic.

use super::support::*;

/// Check a folder holding a good lesson plus `name` = `bytes`, and expect exactly one problem
/// line, about `name`, at `line`, containing `needle`.
fn expect_problem(name: &str, bytes: Vec<u8>, line: usize, needle: &str) {
    let dir = folder(&[
        ("good.md", lesson("good", "Good", 1).into_bytes()),
        (name, bytes),
    ]);
    let out = run(&["check", dir.path().to_str().unwrap()]);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
    let text = stdout(&out);
    let prefix = format!("{}:{line}: ", dir.path().join(name).display());
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&prefix) && l.contains(needle)),
        "{name}: expected `{prefix}...{needle}...`, got:\n{text}"
    );
    assert!(
        lines.iter().all(|l| !l.contains("good.md")),
        "the good lesson was blamed:\n{text}"
    );
    // Not `contains("OK")`: a temporary folder's random name can hold those letters.
    assert!(!text.lines().any(|l| l.ends_with(" OK")), "{text}");
    assert!(stderr(&out).contains("problem"), "{}", stderr(&out));
}

fn good_with(edit: impl Fn(String) -> String) -> Vec<u8> {
    edit(lesson("bad", "Bad", 2)).into_bytes()
}

#[test]
fn good_folder_passes() {
    let dir = good_folder();
    let out = run(&["check", dir.path().to_str().unwrap()]);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "3 lessons OK\n");
}

#[test]
fn default_folder_is_lessons_in_the_current_directory() {
    let root = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    let missing = bin(state.path())
        .arg("check")
        .current_dir(root.path())
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    let err = stderr(&missing);
    assert!(
        err.contains("no `lessons` folder") && err.contains("check DIR"),
        "{err}"
    );
    std::fs::create_dir(root.path().join("lessons")).unwrap();
    std::fs::write(root.path().join("lessons/x.md"), lesson("x", "X", 1)).unwrap();
    let found = bin(state.path())
        .arg("check")
        .current_dir(root.path())
        .output()
        .unwrap();
    assert_eq!(found.status.code(), Some(0), "{}", stderr(&found));
    assert_eq!(stdout(&found), "1 lesson OK\n");
}

#[test]
fn unreadable_folder_is_exit_1_with_a_message() {
    let root = tempfile::tempdir().unwrap();
    let missing = root.path().join("nope");
    let file = root.path().join("file.md");
    std::fs::write(&file, "x").unwrap();
    for path in [&missing, &file] {
        let out = run(&["check", path.to_str().unwrap()]);
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(
            err.starts_with("cuda-academy: cannot read lesson folder"),
            "{err}"
        );
        assert!(err.contains(&path.display().to_string()), "{err}");
    }
}

#[test]
fn folder_without_lessons_is_exit_1() {
    let dir = folder(&[("notes.txt", b"not a lesson".to_vec())]);
    let out = run(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no lesson files"), "{}", stderr(&out));
}

#[test]
fn empty_file() {
    expect_problem("empty.md", Vec::new(), 1, "empty");
}

#[test]
fn binary_junk() {
    let mut elf = b"\x7fELF\x02\x01\x01\x00".to_vec();
    elf.extend((0..=255u8).rev().cycle().take(4000));
    expect_problem("junk.md", elf, 1, "not valid UTF-8");
}

#[test]
fn invalid_utf8() {
    let mut bytes = lesson("bad", "Bad", 2).into_bytes();
    // Line 16 is "Hello."; put a lone continuation byte into it.
    let at = String::from_utf8_lossy(&bytes).find("Hello").unwrap();
    bytes.insert(at, 0x80);
    expect_problem("latin1.md", bytes, 16, "not valid UTF-8");
}

#[test]
fn nul_bytes() {
    expect_problem(
        "nul.md",
        good_with(|t| t.replace("Hello.", "Hel\0lo.")),
        16,
        "NUL byte",
    );
}

#[test]
fn unterminated_front_matter() {
    let text = "+++\nid = \"open\"\ntitle = \"Open\"\n# A card\n";
    expect_problem("open.md", text.into(), 1, "unterminated front matter");
}

#[test]
fn missing_front_matter() {
    expect_problem(
        "plain.md",
        b"# Just markdown\n\nNo front matter.\n".to_vec(),
        1,
        "front matter",
    );
}

#[test]
fn invalid_front_matter() {
    let bytes = good_with(|t| t.replace("order = 2", "order = = 2"));
    expect_problem("toml.md", bytes, 4, "front matter");
}

#[test]
fn missing_required_key() {
    let bytes = good_with(|t| t.replace("title = \"Bad\"\n", ""));
    expect_problem("notitle.md", bytes, 2, "title");
}

#[test]
fn unknown_keys() {
    let bytes = good_with(|t| t.replace("order = 2", "order = 2\ncolour = \"red\""));
    expect_problem("unknown.md", bytes, 5, "unknown field `colour`");
}

#[test]
fn duplicate_ids() {
    let dir = folder(&[
        ("first.md", lesson("same", "First", 1).into_bytes()),
        ("second.md", lesson("same", "Second", 2).into_bytes()),
    ]);
    let out = run(&["check", dir.path().to_str().unwrap()]);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let second = dir.path().join("second.md").display().to_string();
    assert!(
        text.lines().any(|l| l.starts_with(&format!("{second}:2: "))
            && l.contains("duplicate lesson id \"same\"")),
        "{text}"
    );
    assert!(
        text.contains("first.md"),
        "the message should name the first holder: {text}"
    );
}

#[test]
fn quiz_answer_that_does_not_exist() {
    let bytes = good_with(|t| t.replace("answer = 1", "answer = 7"));
    expect_problem("answer.md", bytes, 7, "answer 7 does not exist");
}

#[test]
fn unterminated_code_fence() {
    let bytes = good_with(|t| t.trim_end().trim_end_matches("```").to_string() + "\n");
    expect_problem("fence.md", bytes, 22, "unterminated code fence");
}

#[test]
fn very_deep_nesting() {
    let quotes = good_with(|t| t + "\n" + &"> ".repeat(500) + "deep\n");
    expect_problem("quotes.md", quotes, 26, "nested more than");
    let lists: String = (0..300)
        .map(|i| format!("{}- item\n", "  ".repeat(i)))
        .collect();
    let lists = good_with(|t| t + "\n" + &lists);
    expect_problem("lists.md", lists, 26 + 12, "nested more than");
}

#[test]
fn multi_megabyte_line() {
    let bytes = good_with(|t| t + "\n" + &"a".repeat(4 << 20) + "\n");
    expect_problem("long.md", bytes, 26, "bytes long");
}

#[test]
fn many_problems_all_reported_exit_1() {
    let dir = folder(&[
        ("a.md", Vec::new()),
        ("b.md", b"\xff\xfe".to_vec()),
        ("c.md", lesson("c", "C", 3).into_bytes()),
    ]);
    let out = run(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out).lines().count(), 2, "{}", stdout(&out));
    assert!(
        stderr(&out).contains("2 problems in 2 of 3 lesson files"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn oversized_file() {
    expect_problem("huge.md", vec![b'a'; 17 << 20], 1, "larger than 16 MiB");
}

#[cfg(target_os = "linux")]
#[test]
fn unreadable_file_is_that_lessons_problem() {
    // Reading /proc/self/mem from offset 0 fails with EIO, even as root (chmod would not stop root).
    let dir = folder(&[("good.md", lesson("good", "Good", 1).into_bytes())]);
    std::os::unix::fs::symlink("/proc/self/mem", dir.path().join("mem.md")).unwrap();
    let out = run(&["check", dir.path().to_str().unwrap()]);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    let prefix = format!(
        "{}:1: cannot read the file",
        dir.path().join("mem.md").display()
    );
    assert!(stdout(&out).starts_with(&prefix), "{}", stdout(&out));
}

#[test]
fn an_explanation_that_names_an_option_letter() {
    // Options are shown shuffled per learner: "the answer is B" means nothing to them.
    let bytes = good_with(|t| {
        t.replace(
            "Only page-locked memory can be DMA'd directly.",
            "The answer is B: only page-locked memory can be DMA'd directly.",
        )
    });
    expect_problem("letter.md", bytes, 7, "names an option by its letter");
}

/// Issue 26: a hazard message links to a card by its title; a lesson folder whose
/// `async-copy` lesson renamed that card fails the check, naming the file and the card.
#[test]
fn a_renamed_card_a_hazard_links_to_is_a_problem() {
    let shipped = include_str!("../../../lessons/03-async-copy.md");
    let title = "Returning is not finishing";
    assert!(shipped.contains(title), "the card moved: update this test");
    let renamed = shipped.replace(title, "Returning early");
    let dir = folder(&[("03-async-copy.md", renamed.into_bytes())]);
    let out = run(&["check", dir.path().to_str().unwrap()]);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let prefix = format!("{}:1: ", dir.path().join("03-async-copy.md").display());
    assert!(
        text.lines()
            .any(|l| l.starts_with(&prefix) && l.contains(&format!("{title:?}"))),
        "{text}"
    );
    assert!(
        stderr(&out).contains("1 problem in 1 of 1 lesson files"),
        "{}",
        stderr(&out)
    );
    // The shipped file itself passes: the problem is the rename, not the folder.
    let dir = folder(&[("03-async-copy.md", shipped.as_bytes().to_vec())]);
    let out = run(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}
