//! The exercises: one registry, read from `exercises/<id>/` (an `exercise.toml` with its
//! `format_version`, title, lesson, task, hints and pass criteria, a `starter.cu` and a
//! `solution.cu`), embedded at build time by `build.rs` in course order (the lessons' order). Lessons name their exercises in front matter; [`validate`] is how `check` sees them.

use std::sync::OnceLock;

use serde::Deserialize;

use super::verdict::Criterion;

// `EMBEDDED_EXERCISES`: every `exercises/<id>/` folder, in course order (the order the lessons'
// front matter names them), written by `build.rs`: a new exercise is a folder, and its id in a
// lesson's `exercises = [...]`.
include!(concat!(env!("OUT_DIR"), "/embedded_exercises.rs"));

/// The `format_version` of `exercise.toml` this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// `exercise.toml`, field by field.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExerciseFile {
    /// The file format's version ([`FORMAT_VERSION`]); a newer one needs a newer cuda-academy.
    format_version: toml::Spanned<u32>,
    /// Same as the folder name.
    id: String,
    /// The id of the lesson it belongs to.
    lesson: String,
    title: String,
    /// What to do, in markdown.
    task: String,
    /// An exercise about overlap: work on the legacy default stream is a `default-stream` hazard.
    #[serde(default)]
    overlap: bool,
    /// Revealed one at a time.
    hints: Vec<String>,
    /// All must pass.
    criteria: Vec<Criterion>,
}

// `Exercise` lives in `exercise.rs`, above both this file and `verdict` (which grades one), so
// that neither imports the other for it (issue 20).
pub use super::Exercise;

struct Registry {
    exercises: Vec<Exercise>,
    /// `(exercise id, problem)` for every exercise that is broken.
    problems: Vec<(String, String)>,
}

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut reg = Registry {
            exercises: Vec::new(),
            problems: Vec::new(),
        };
        for (id, toml_text, starter, solution) in EMBEDDED_EXERCISES {
            match load(id, toml_text, starter, solution) {
                Ok(ex) => reg.exercises.push(ex),
                Err(problems) => reg
                    .problems
                    .extend(problems.into_iter().map(|p| (id.to_string(), p))),
            }
        }
        reg
    })
}

/// Read one exercise from its three files' text (what [`EMBEDDED_EXERCISES`] holds): every
/// problem, each with its `exercises/<id>/<file>:<line>`, or the exercise.
pub fn load(
    id: &str,
    toml_text: &str,
    starter: &'static str,
    solution: &'static str,
) -> Result<Exercise, Vec<String>> {
    let at = |offset: usize| {
        let line = toml_text[..offset.min(toml_text.len())]
            .matches('\n')
            .count()
            + 1;
        format!("exercises/{id}/exercise.toml:{line}")
    };
    let file: ExerciseFile = toml::from_str(toml_text).map_err(|e| {
        let place = e
            .span()
            .map_or(format!("exercises/{id}/exercise.toml"), |s| at(s.start));
        vec![format!("{place}: {}", e.message().trim())]
    })?;
    let mut problems = header_problems(id, &file, &at);
    let mut reference_solutions = Vec::new();
    for c in &file.criteria {
        if let Err(e) = c.validate() {
            problems.push(format!("exercises/{id}/exercise.toml: {e}"));
        }
        if let Some(Some(other)) = c.reference() {
            match EMBEDDED_EXERCISES.iter().find(|e| e.0 == other) {
                Some(e) => reference_solutions.push((other.to_string(), e.3)),
                None => problems.push(format!(
                    "exercises/{id}/exercise.toml: the reference exercise {other:?} is not in this build"
                )),
            }
        }
    }
    for (name, text) in [("starter.cu", starter), ("solution.cu", solution)] {
        if let Err(diags) = super::parse::parse(text) {
            problems.extend(diags.iter().map(|d| format!("exercises/{id}/{name}:{d}")));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Exercise {
        id: file.id,
        lesson: file.lesson,
        title: file.title,
        task: file.task,
        overlap: file.overlap,
        hints: file.hints,
        criteria: file.criteria,
        starter,
        solution,
        reference_solutions,
    })
}

/// What is wrong with an exercise file's fields other than its criteria: its format version,
/// its id against its folder, its hints and that it has criteria at all. `at` turns a byte
/// offset of the file into its `file:line`.
fn header_problems(id: &str, file: &ExerciseFile, at: &dyn Fn(usize) -> String) -> Vec<String> {
    let mut problems = Vec::new();
    let version = *file.format_version.get_ref();
    if version != FORMAT_VERSION {
        problems.push(format!(
            "{}: format_version {version} is not the one this cuda-academy reads \
             ({FORMAT_VERSION}); {}",
            at(file.format_version.span().start),
            if version > FORMAT_VERSION {
                "upgrade cuda-academy"
            } else {
                "write the file in the current format"
            }
        ));
    }
    if file.id != id {
        problems.push(format!(
            "exercises/{id}/exercise.toml: id {:?} differs from the folder name",
            file.id
        ));
    }
    if file.hints.is_empty() || file.hints.iter().any(|h| h.trim().is_empty()) {
        problems.push(format!(
            "exercises/{id}/exercise.toml: needs at least one hint, none empty"
        ));
    }
    if file.criteria.is_empty() {
        problems.push(format!(
            "exercises/{id}/exercise.toml: needs at least one criterion"
        ));
    }
    problems
}

/// Every exercise that loaded, in course order.
pub fn all() -> &'static [Exercise] {
    &registry().exercises
}

/// The exercise with this id.
pub fn find(id: &str) -> Option<&'static Exercise> {
    all().iter().find(|e| e.id == id)
}

/// Every id in the registry, loaded or broken.
pub fn ids() -> Vec<&'static str> {
    EMBEDDED_EXERCISES.iter().map(|s| s.0).collect()
}

/// Problems with the exercises a lesson names (`ids_named`, its front matter's `exercises`):
/// unknown ids, another lesson's exercises, broken exercise files. Empty when all is well.
/// (Exercises that name a lesson missing from its list are not a problem here: a folder given
/// with `--lessons` may reuse an id; the tests check the built-in lessons list every exercise.)
pub fn validate(lesson_id: &str, ids_named: &[String]) -> Vec<String> {
    let reg = registry();
    let mut out = Vec::new();
    for (i, id) in ids_named.iter().enumerate() {
        // Review L6: a repeated id was accepted, and the exercise list showed it twice.
        if ids_named[..i].contains(id) {
            out.push(format!("exercise {id:?} is listed more than once"));
            continue;
        }
        if let Some(ex) = find(id) {
            if ex.lesson != lesson_id {
                out.push(format!(
                    "exercise {id:?} belongs to lesson {:?}, not this one",
                    ex.lesson
                ));
            }
        } else if !ids().contains(&id.as_str()) {
            out.push(format!(
                "unknown exercise {id:?}; known: {}",
                ids().join(", ")
            ));
        }
        out.extend(
            reg.problems
                .iter()
                .filter(|(p, _)| p == id)
                .map(|(_, m)| m.clone()),
        );
    }
    out
}
