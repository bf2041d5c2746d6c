//! `cuda-academy list [--json]`: the lessons in course order, from the binary or `--lessons DIR`.
//!
//! Both read, never write, the progress file, and count the way every screen of the TUI counts
//! ([`LessonStats`]). The table (for people) fits 80 columns; the JSON (for scripts) is
//! `{"schema_version", "lessons": [{"id", "title", "order", "cards", "questions",
//! "quiz_questions", "predict_questions", "experiments", "broken", "source", "progress"}]}` where
//! `broken` is `null` or the reason the file is unusable and `progress` is `null` when the
//! progress file cannot be read (see README, "Scoring"). A broken lesson is listed, not an
//! error: `cuda-academy check` explains it.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;

use crate::cli::{GlobalArgs, ListArgs};
use crate::lesson::{Catalog, LessonEntry};
use crate::progress::score::LessonStats;
use crate::progress::{self, Progress};

/// Version of the `list --json` shape; bumped when a field changes meaning or disappears.
pub const LIST_SCHEMA_VERSION: u32 = 1;

/// Width the table is laid out for.
const TABLE_WIDTH: usize = 80;

/// One lesson as `list` reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The lesson id; for a broken file, its file name without `.md`.
    pub id: String,
    pub title: String,
    /// Position in the course; `null` for a broken file.
    pub order: Option<u32>,
    pub cards: usize,
    /// Quick-check questions (all kinds).
    pub questions: usize,
    /// Of those, multiple-choice questions (the quiz score counts these).
    pub quiz_questions: usize,
    /// Of those, predict questions (the predictions score counts these).
    pub predict_questions: usize,
    pub experiments: Vec<String>,
    /// `null`, or why the file cannot be used (its first problem, `file:line: message`).
    pub broken: Option<String>,
    /// Where the lesson came from.
    pub source: String,
    /// How far the learner got; `null` for a broken lesson or an unreadable progress file.
    pub progress: Option<LessonStats>,
    /// The lesson's exercises: passed, and whether the solution was viewed before the pass.
    #[serde(default)]
    pub exercises: Vec<ExerciseRow>,
    /// How many exercises the lesson names (the table's EXERCISES column counts passes of
    /// these; `exercises` stays empty when the state folder cannot be read).
    #[serde(skip)]
    pub exercise_count: usize,
}

/// One exercise of a lesson, as `list` reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExerciseRow {
    pub id: String,
    pub passed: bool,
    /// The solution was shown before the exercise passed ("passed after viewing the solution"
    /// once it passes).
    pub solution_viewed: bool,
}

#[derive(Serialize)]
struct ListJson<'a> {
    schema_version: u32,
    lessons: &'a [Row],
}

/// Carry out `cuda-academy list`.
pub fn list(args: &ListArgs, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let catalog = load_catalog(global.lessons.as_deref())?;
    // Read-only: `list` must never move or rewrite the progress file.
    // No file yet means nothing done (0/N); an unreadable one means unknown (-, null).
    let progress = progress::state_dir()
        .ok()
        .and_then(|d| match progress::peek_or_why(&d) {
            Ok(found) => Some(found.unwrap_or_else(Progress::fresh)),
            // Review P2: the columns showed `-` with no word why (a newer release's file).
            Err(why) => {
                let line = format!(
                    "cuda-academy: progress unknown: {}: {why}",
                    progress::path(&d).display()
                );
                // A write error (stderr gone) must not end `list`.
                let _ = writeln!(io::stderr(), "{}", crate::sanitize::clean_line(&line));
                None
            }
        });
    let mut rows = rows(&catalog, progress.as_ref());
    if let Ok(dir) = progress::state_dir() {
        add_exercises(&mut rows, &catalog, &dir);
    }
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        let json = serde_json::to_string_pretty(&ListJson {
            schema_version: LIST_SCHEMA_VERSION,
            lessons: &rows,
        })?;
        writeln!(out, "{}", crate::sanitize::json(json))?;
    } else if rows.is_empty() {
        let place = global.lessons.as_ref().map_or_else(
            || "built into this binary".to_string(),
            |d| format!("in {}", d.display()),
        );
        let line = format!("No lessons {place}: lessons are `*.md` files.");
        writeln!(out, "{}", crate::sanitize::clean_line(&line))?;
    } else {
        out.write_all(table(&rows).as_bytes())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Each lesson's exercises with their passes and solution views from the state folder `dir`
/// (left empty where those files cannot be read, and the file named on stderr: review
/// 2026-12-01b ST5, an unreadable `attempts.json` was ignored in silence).
fn add_exercises(rows: &mut [Row], catalog: &Catalog, dir: &Path) {
    let said = |what: &str, e: &anyhow::Error| {
        let line = format!("cuda-academy: {what} unknown: {e:#}");
        // A write error (stderr gone) must not end `list`.
        let _ = writeln!(io::stderr(), "{}", crate::sanitize::clean_line(&line));
    };
    let passed = crate::exercise::state::load_passed(dir);
    let tries = crate::exercise::attempts::load(dir);
    if let Err(e) = &passed {
        said("passed exercises", e);
    }
    if let Err(e) = &tries {
        said("exercise attempts (solution views)", e);
    }
    let (Ok(passed), Ok(tries)) = (passed, tries) else {
        return;
    };
    for (row, entry) in rows.iter_mut().zip(&catalog.entries) {
        let Some(lesson) = entry.lesson() else {
            continue;
        };
        row.exercises = lesson
            .meta
            .exercises
            .iter()
            .map(|id| ExerciseRow {
                id: id.clone(),
                passed: passed.contains(id),
                solution_viewed: tries.get(id).is_some_and(|a| a.solution_viewed),
            })
            .collect();
    }
}

/// The built-in lessons, or every lesson file in `dir`.
pub fn load_catalog(dir: Option<&Path>) -> anyhow::Result<Catalog> {
    match dir {
        None => Ok(Catalog::embedded()),
        // The error's own text already ends with its io cause; `{:#}` would print that twice.
        Some(dir) => Catalog::load_dir(dir)
            .map_err(|e| anyhow::anyhow!("{e} (--lessons must name a folder of lesson .md files)")),
    }
}

/// The catalog as rows, in course order, with the learner's progress (`None`: unknown).
pub fn rows(catalog: &Catalog, progress: Option<&Progress>) -> Vec<Row> {
    catalog.entries.iter().map(|e| row(e, progress)).collect()
}

fn row(entry: &LessonEntry, progress: Option<&Progress>) -> Row {
    match entry {
        LessonEntry::Ok(lesson) => {
            let stats = progress.map(|p| LessonStats::of(lesson, p.lessons.get(lesson.id())));
            let blank = LessonStats::of(lesson, None);
            Row {
                id: lesson.id().to_string(),
                title: lesson.title().to_string(),
                order: Some(lesson.meta.order),
                cards: lesson.cards.len(),
                questions: lesson.meta.quiz.len(),
                quiz_questions: blank.quiz_questions,
                predict_questions: blank.predict_questions,
                experiments: lesson.meta.experiments.clone(),
                broken: None,
                source: lesson.source.clone(),
                progress: stats,
                exercises: Vec::new(),
                exercise_count: lesson.meta.exercises.len(),
            }
        }
        LessonEntry::Broken { source, problems } => {
            let first = problems
                .first()
                .map_or_else(|| "unusable".to_string(), ToString::to_string);
            let more = match problems.len() {
                0 | 1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            Row {
                id: Path::new(source)
                    .file_stem()
                    .map_or_else(|| source.clone(), |s| s.to_string_lossy().into_owned()),
                title: entry.title(),
                order: None,
                cards: 0,
                questions: 0,
                quiz_questions: 0,
                predict_questions: 0,
                experiments: Vec::new(),
                broken: Some(format!("{first}{more}")),
                source: source.clone(),
                progress: None,
                exercises: Vec::new(),
                exercise_count: 0,
            }
        }
    }
}

/// Column headings of the table.
const HEADINGS: [&str; COLUMNS] = [
    "#",
    "ID",
    "TITLE",
    "SEEN",
    "QUIZ",
    "PREDICTIONS",
    "EXERCISES",
];
const COLUMNS: usize = 7;

/// The table for people: `#  ID  TITLE  SEEN  QUIZ  PREDICTIONS  EXERCISES`, at most 80 columns
/// wide, then what the columns count.
pub fn table(rows: &[Row]) -> String {
    let header = HEADINGS.map(String::from);
    let cells: Vec<[String; COLUMNS]> = rows.iter().map(cells).collect();
    let lines: Vec<&[String; COLUMNS]> = std::iter::once(&header).chain(&cells).collect();
    let widths = column_widths(&lines);
    let mut text = String::new();
    for line in lines {
        let parts: Vec<String> = line
            .iter()
            .zip(widths)
            .enumerate()
            .map(|(i, (cell, w))| {
                let cell = crate::sanitize::truncate(cell, w);
                // Numbers right-aligned, words left-aligned.
                if i == 0 || i >= 3 {
                    format!("{cell:>w$}")
                } else {
                    format!("{cell:<w$}")
                }
            })
            .collect();
        text.push_str(parts.join("  ").trim_end());
        text.push('\n');
    }
    text.push_str(
        "SEEN: cards seen. QUIZ: multiple-choice questions right on the first try.\n\
         PREDICTIONS: graded within tolerance by a run with default parameters.\n\
         EXERCISES: exercises passed (`cuda-academy exercise list` names them).\n",
    );
    let reset: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            let n = r.progress?.resets;
            (n > 0).then(|| format!("{} ({n}x)", r.id))
        })
        .collect();
    if !reset.is_empty() {
        text.push_str(&format!(
            "Reset: {}; their scores count the first tries from before the reset, retakes are practice.\n",
            reset.join(", ")
        ));
    }
    let viewed: Vec<String> = rows
        .iter()
        .flat_map(|r| &r.exercises)
        .filter(|e| e.solution_viewed)
        .map(|e| {
            let how = if e.passed { "passed" } else { "not passed yet" };
            format!("{} ({how})", e.id)
        })
        .collect();
    if !viewed.is_empty() {
        text.push_str(&format!(
            "Solution viewed before passing: {}.\n",
            viewed.join(", ")
        ));
    }
    if rows.iter().any(|r| r.broken.is_some()) {
        text.push_str(
            "Broken lessons are unusable; `cuda-academy check DIR` lists every problem.\n",
        );
    }
    text
}

/// Each column as wide as its widest cell; ids capped, the title taking what is left of 80.
fn column_widths(lines: &[&[String; COLUMNS]]) -> [usize; COLUMNS] {
    let mut widths = [0usize; COLUMNS];
    for line in lines {
        for (w, cell) in widths.iter_mut().zip(line.iter()) {
            *w = (*w).max(crate::sanitize::width(&crate::sanitize::clean_line(cell)));
        }
    }
    widths[1] = widths[1].min(24);
    let others: usize = widths.iter().sum::<usize>() - widths[2];
    let gaps = 2 * (widths.len() - 1);
    widths[2] = widths[2].min(TABLE_WIDTH.saturating_sub(others + gaps).max(10));
    widths
}

fn cells(row: &Row) -> [String; COLUMNS] {
    let Some(reason) = &row.broken else {
        let s = row.progress;
        let fraction = |done: Option<usize>, of: usize| match (of, done) {
            (0, _) => "-".to_string(),
            (_, None) => format!("-/{of}"),
            (_, Some(d)) => format!("{d}/{of}"),
        };
        return [
            row.order.map_or_else(String::new, |o| o.to_string()),
            row.id.clone(),
            row.title.clone(),
            fraction(s.map(|s| s.cards_seen), row.cards),
            fraction(s.map(|s| s.quiz_right), row.quiz_questions),
            fraction(s.map(|s| s.predictions_close), row.predict_questions),
            // Unknown (`-/N`) where the state folder could not be read.
            fraction(
                (!row.exercises.is_empty())
                    .then(|| row.exercises.iter().filter(|e| e.passed).count()),
                row.exercise_count,
            ),
        ];
    };
    // The reason without the path prefix, which the ID column already names.
    let reason = reason
        .strip_prefix(&format!("{}:", row.source))
        .unwrap_or(reason);
    let dash = || "-".to_string();
    [
        "!".to_string(),
        row.id.clone(),
        format!("BROKEN line {}", reason.trim_start()),
        dash(),
        dash(),
        dash(),
        dash(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_counts_each_lessons_exercises_passed() {
        let catalog = Catalog::embedded();
        let mut rows = rows(&catalog, Some(&Progress::fresh()));
        let first = rows
            .iter()
            .position(|r| r.exercise_count >= 2)
            .expect("a built-in lesson with exercises");
        let count = rows[first].exercise_count;
        let unknown = table(&rows);
        let id = rows[first].id.clone();
        let line = |text: &str| {
            text.lines()
                .find(|l| l.split_whitespace().nth(1) == Some(id.as_str()))
                .map(|l| l.split_whitespace().last().unwrap_or("").to_string())
        };
        assert!(unknown.lines().next().unwrap().ends_with("EXERCISES"));
        assert_eq!(line(&unknown), Some(format!("-/{count}")), "{unknown}");
        rows[first].exercises = (0..count)
            .map(|i| ExerciseRow {
                id: format!("x{i}"),
                passed: i == 0,
                solution_viewed: false,
            })
            .collect();
        let text = table(&rows);
        assert_eq!(line(&text), Some(format!("1/{count}")), "{text}");
        assert!(
            text.lines().all(|l| l.chars().count() <= TABLE_WIDTH),
            "{text}"
        );
    }
}
