//! Exercises as data (issue 20): the course order is stated once, in the lessons' front matter,
//! and `build.rs` embeds every folder in that order; `exercise.toml` carries a `format_version`,
//! and its problems name the file and line, as lessons' do.

use cuda_academy::exercise::catalog;

#[test]
fn the_course_order_is_the_order_the_lessons_name_the_exercises_in() {
    // build.rs reads `exercises = [...]` without a TOML parser; the lesson parser reads it with
    // one: the two must agree, exercise by exercise.
    let lessons = cuda_academy::lesson::Catalog::embedded();
    let named: Vec<String> = lessons
        .entries
        .iter()
        .filter_map(|e| e.lesson())
        .flat_map(|l| l.meta.exercises.clone())
        .collect();
    let embedded: Vec<&str> = catalog::all().iter().map(|e| e.id.as_str()).collect();
    assert_eq!(embedded, named);
    assert_eq!(catalog::ids(), named);
}

const TOML: &str = r#"format_version = 1
id = "x"
lesson = "async-copy"
title = "X"
task = "Do it."
hints = ["one"]

[[criteria]]
kind = "no-hazards"
"#;

const PROGRAM: &str = "#include \"academy.cuh\"\nint main() { return 0; }\n";

#[test]
fn a_well_formed_file_loads_and_its_format_version_is_checked_at_its_line() {
    assert!(catalog::load("x", TOML, PROGRAM, PROGRAM).is_ok());
    let newer = TOML.replace("format_version = 1", "format_version = 2");
    let problems = catalog::load("x", &newer, PROGRAM, PROGRAM).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("exercises/x/exercise.toml:1:") && p.contains("upgrade")),
        "{problems:?}"
    );
    let missing = TOML.replace("format_version = 1\n", "");
    let problems = catalog::load("x", &missing, PROGRAM, PROGRAM).unwrap_err();
    assert!(
        problems.iter().any(|p| p.contains("format_version")),
        "{problems:?}"
    );
    // A type error points at its own line (the title, line 4 here).
    let wrong = TOML.replace("title = \"X\"", "title = 3");
    let problems = catalog::load("x", &wrong, PROGRAM, PROGRAM).unwrap_err();
    assert!(
        problems[0].starts_with("exercises/x/exercise.toml:4:"),
        "{problems:?}"
    );
}
