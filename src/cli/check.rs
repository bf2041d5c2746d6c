//! `cuda-academy check [DIR]`: validate a lesson folder the way the app loads it.
//!
//! Prints one `file:line: message` per problem on stdout (duplicate ids included) and exits 1 if
//! there is any; otherwise prints `N lessons OK` and exits 0. A missing, unreadable or empty
//! folder is an error (exit 1), never a silent success. A lesson that renamed a card the
//! exercise checker's hazard messages link to is a problem too.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{CheckArgs, GlobalArgs};
use crate::lesson::Catalog;

/// The folder checked when none is given.
pub const DEFAULT_DIR: &str = "lessons";

/// Carry out `cuda-academy check`.
pub fn check(args: &CheckArgs, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let dir = folder(args, global)?;
    // The error's own text already ends with its io cause; `{:#}` would print that twice.
    let catalog = Catalog::load_dir(&dir).map_err(|e| anyhow::anyhow!("{e}"))?;
    if catalog.is_empty() {
        anyhow::bail!(
            "no lesson files in {}: lessons are `*.md` files directly inside the folder",
            dir.display()
        );
    }
    let mut problems = catalog.problems();
    problems.extend(catalog.hazard_link_problems());
    // By file, then line: duplicate-id problems are found after parsing, out of file order.
    problems.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    let mut out = BufWriter::new(io::stdout().lock());
    for problem in &problems {
        // File names and messages (TOML's quote the file) are outside text.
        writeln!(out, "{}", crate::sanitize::clean_line(&problem.to_string()))?;
    }
    if problems.is_empty() {
        writeln!(out, "{}", ok_line(catalog.len()))?;
    }
    out.flush()?;
    if problems.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    // The files with a problem: broken ones, and good ones with a broken hazard link.
    let broken = problems
        .iter()
        .map(|p| p.file.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let _ = writeln!(
        io::stderr(),
        "cuda-academy: {} in {broken} of {} lesson files",
        plural(problems.len(), "problem"),
        catalog.len()
    );
    Ok(ExitCode::FAILURE)
}

/// `DIR`, else `--lessons DIR`, else `./lessons` (which must exist).
fn folder(args: &CheckArgs, global: &GlobalArgs) -> anyhow::Result<PathBuf> {
    if let Some(dir) = args.dir.as_ref().or(global.lessons.as_ref()) {
        return Ok(dir.clone());
    }
    let dir = Path::new(DEFAULT_DIR);
    if !dir.exists() {
        let here = std::env::current_dir()
            .map(|d| format!(" ({})", d.display()))
            .unwrap_or_default();
        anyhow::bail!(
            "there is no `{DEFAULT_DIR}` folder in the current directory{here}; pass the folder \
             to check: cuda-academy check DIR"
        );
    }
    Ok(dir.to_path_buf())
}

fn ok_line(lessons: usize) -> String {
    format!("{} OK", plural(lessons, "lesson"))
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
