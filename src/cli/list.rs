//! `cuda-academy list [--json]`: the lessons in course order, from the binary or `--lessons DIR`.
//!
//! The table (for people) fits 80 columns and shows, read-only, how far the learner got; the
//! JSON (for scripts) is `{"lessons": [{"id", "title", "order", "cards", "questions",
//! "experiments", "broken", "source"}]}` where `broken` is `null` or the reason the file is
//! unusable. A broken lesson is listed, not an error: `cuda-academy check` explains it.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;

use crate::cli::{GlobalArgs, ListArgs};
use crate::lesson::{Catalog, LessonEntry};
use crate::progress::{self, Progress};

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
    pub experiments: Vec<String>,
    /// `null`, or why the file cannot be used (its first problem, `file:line: message`).
    pub broken: Option<String>,
    /// Where the lesson came from.
    pub source: String,
}

#[derive(Serialize)]
struct ListJson<'a> {
    lessons: &'a [Row],
}

/// Carry out `cuda-academy list`.
pub fn list(args: &ListArgs, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let catalog = load_catalog(global.lessons.as_deref())?;
    let rows = rows(&catalog);
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        let json = serde_json::to_string_pretty(&ListJson { lessons: &rows })?;
        writeln!(out, "{}", crate::sanitize::json(json))?;
    } else if rows.is_empty() {
        let place = global.lessons.as_ref().map_or_else(
            || "built into this binary".to_string(),
            |d| format!("in {}", d.display()),
        );
        let line = format!("No lessons {place}: lessons are `*.md` files.");
        writeln!(out, "{}", crate::sanitize::clean_line(&line))?;
    } else {
        // Read-only: `list` must never move or rewrite the progress file.
        // No file yet means nothing done (0/N); an unreadable one means unknown (-).
        let progress = progress::state_dir().ok().and_then(|d| {
            progress::peek(&d).or_else(|| (!progress::path(&d).exists()).then(Progress::fresh))
        });
        out.write_all(table(&rows, progress.as_ref()).as_bytes())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
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

/// The catalog as rows, in course order.
pub fn rows(catalog: &Catalog) -> Vec<Row> {
    catalog.entries.iter().map(row).collect()
}

fn row(entry: &LessonEntry) -> Row {
    match entry {
        LessonEntry::Ok(lesson) => Row {
            id: lesson.id().to_string(),
            title: lesson.title().to_string(),
            order: Some(lesson.meta.order),
            cards: lesson.cards.len(),
            questions: lesson.meta.quiz.len(),
            experiments: lesson.meta.experiments.clone(),
            broken: None,
            source: lesson.source.clone(),
        },
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
                experiments: Vec::new(),
                broken: Some(format!("{first}{more}")),
                source: source.clone(),
            }
        }
    }
}

/// The table for people: `#  ID  TITLE  CARDS  QUIZ  SEEN  SCORE`, at most 80 columns wide.
pub fn table(rows: &[Row], progress: Option<&Progress>) -> String {
    let header = ["#", "ID", "TITLE", "CARDS", "QUIZ", "SEEN", "SCORE"].map(String::from);
    let cells: Vec<[String; 7]> = rows.iter().map(|r| cells(r, progress)).collect();
    let lines: Vec<&[String; 7]> = std::iter::once(&header).chain(&cells).collect();
    let widths = column_widths(&lines);
    let mut text = String::new();
    for line in lines {
        let parts: Vec<String> = line
            .iter()
            .zip(widths)
            .enumerate()
            .map(|(i, (cell, w))| {
                let cell = truncate(cell, w);
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
    if rows.iter().any(|r| r.broken.is_some()) {
        text.push_str(
            "Broken lessons are unusable; `cuda-academy check DIR` lists every problem.\n",
        );
    }
    text
}

/// Each column as wide as its widest cell; ids capped, the title taking what is left of 80.
fn column_widths(lines: &[&[String; 7]]) -> [usize; 7] {
    let mut widths = [0usize; 7];
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

fn cells(row: &Row, progress: Option<&Progress>) -> [String; 7] {
    let Some(reason) = &row.broken else {
        let lesson = progress.and_then(|p| p.lessons.get(&row.id));
        let (seen, score) = match (progress, lesson) {
            (None, _) => ("-".to_string(), "-".to_string()),
            (Some(_), None) => (format!("0/{}", row.cards), format!("0/{}", row.questions)),
            (Some(_), Some(l)) => (
                format!("{}/{}", l.seen_count(row.cards), row.cards),
                format!("{}/{}", l.correct_count().min(row.questions), row.questions),
            ),
        };
        return [
            row.order.map_or_else(String::new, |o| o.to_string()),
            row.id.clone(),
            row.title.clone(),
            row.cards.to_string(),
            row.questions.to_string(),
            seen,
            score,
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

/// `text` cleaned of control characters and cut to `width` columns, ending in `…` when cut.
fn truncate(text: &str, width: usize) -> String {
    crate::sanitize::truncate(text, width)
}
