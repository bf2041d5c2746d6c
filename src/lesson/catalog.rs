//! The set of lessons the app teaches: the ones embedded at build time, or a folder given with
//! `--lessons DIR`. A broken file becomes a [`LessonEntry::Broken`] with its diagnostics, so the
//! other lessons stay usable.

use std::path::Path;

use super::{Diagnostic, Lesson};

include!(concat!(env!("OUT_DIR"), "/embedded_lessons.rs"));

/// A lesson, or a file that failed to parse.
#[derive(Debug, Clone, PartialEq)]
pub enum LessonEntry {
    Ok(Lesson),
    Broken {
        /// The file, as shown in diagnostics.
        source: String,
        problems: Vec<Diagnostic>,
    },
}

impl LessonEntry {
    /// Id for progress and sorting: the lesson id, or the file name of a broken one.
    pub fn key(&self) -> &str {
        match self {
            LessonEntry::Ok(l) => l.id(),
            LessonEntry::Broken { source, .. } => source,
        }
    }

    pub fn lesson(&self) -> Option<&Lesson> {
        match self {
            LessonEntry::Ok(l) => Some(l),
            LessonEntry::Broken { .. } => None,
        }
    }

    /// Title for lists: the lesson title, or the file name of a broken one.
    pub fn title(&self) -> String {
        match self {
            LessonEntry::Ok(l) => l.title().to_string(),
            LessonEntry::Broken { source, .. } => {
                let name = Path::new(source)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned());
                format!("{} (broken)", name.unwrap_or_else(|| source.clone()))
            }
        }
    }
}

/// Lessons in course order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Catalog {
    pub entries: Vec<LessonEntry>,
}

/// Why a lesson folder could not be read at all.
#[derive(Debug, thiserror::Error)]
#[error("cannot read lesson folder {dir}: {source}")]
pub struct CatalogError {
    pub dir: String,
    #[source]
    pub source: std::io::Error,
}

impl Catalog {
    /// The lessons compiled into the binary.
    pub fn embedded() -> Catalog {
        Catalog::from_files(
            EMBEDDED_LESSONS
                .iter()
                .map(|(name, bytes)| (format!("lessons/{name}"), bytes.to_vec())),
        )
    }

    /// Every `*.md` file in `dir` (not recursive).
    pub fn load_dir(dir: &Path) -> Result<Catalog, CatalogError> {
        let err = |source| CatalogError {
            dir: dir.display().to_string(),
            source,
        };
        let mut files = Vec::new();
        let mut unreadable = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(err)? {
            let path = entry.map_err(err)?.path();
            if path.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let source = path.display().to_string();
            // One unreadable, oversized or odd entry is that lesson's problem, not the folder's,
            // and it is reported, never skipped in silence. A FIFO is never opened (no hang).
            match not_a_lesson_file(&path).map_or_else(|| read_lesson_file(&path), Err) {
                Ok(bytes) => files.push((source, bytes)),
                Err(message) => unreadable.push(LessonEntry::Broken {
                    problems: vec![Diagnostic::new(&source, 1, message)],
                    source,
                }),
            }
        }
        let mut catalog = Catalog::from_files(files);
        catalog.entries.extend(unreadable);
        catalog.entries.sort_by_key(sort_key);
        Ok(catalog)
    }

    /// Parse (source name, bytes) pairs; duplicate ids make every later holder broken.
    pub fn from_files(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Catalog {
        let mut entries: Vec<LessonEntry> = files
            .into_iter()
            .map(|(source, bytes)| match Lesson::parse(&source, &bytes) {
                Ok(lesson) => LessonEntry::Ok(lesson),
                Err(problems) => LessonEntry::Broken { source, problems },
            })
            .collect();
        entries.sort_by_key(sort_key);
        mark_duplicates(&mut entries);
        Catalog { entries }
    }

    /// Every diagnostic in the catalog, in order.
    pub fn problems(&self) -> Vec<Diagnostic> {
        self.entries
            .iter()
            .flat_map(|e| match e {
                LessonEntry::Broken { problems, .. } => problems.clone(),
                LessonEntry::Ok(_) => Vec::new(),
            })
            .collect()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Largest lesson file read: far beyond any real lesson, small enough that a stray huge file
/// named `*.md` cannot exhaust memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Why the `*.md` entry at `path` cannot be a lesson without opening it: a folder, a FIFO, a
/// socket or device, or a symlink that leads nowhere (dangling, or a loop).
fn not_a_lesson_file(path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Err(e) => Some(format!(
            "cannot read the file: {e} (a broken or looping symlink?)"
        )),
        Ok(meta) if meta.is_dir() => Some("this is a folder, not a lesson file".into()),
        Ok(meta) if !meta.is_file() => Some(
            "this is not a regular file (a FIFO, socket or device); a lesson is a markdown file"
                .into(),
        ),
        Ok(_) => None,
    }
}

/// The file's bytes through the one bounded, non-blocking read (the entry may have been
/// replaced by a FIFO or a device since `not_a_lesson_file` looked at it). The diagnostic names
/// the file already, so the messages here do not.
fn read_lesson_file(path: &Path) -> Result<Vec<u8>, String> {
    use crate::bounded_read::{Cap, ReadError, read};
    let cap = Cap {
        bytes: MAX_FILE_BYTES,
        what: "a lesson file",
    };
    read(path, cap).map_err(|e| match e {
        ReadError::Io { err, .. } => format!("cannot read the file: {err}"),
        ReadError::TooLarge { .. } => format!(
            "the file is larger than {} MiB; a lesson is a few KiB of markdown",
            MAX_FILE_BYTES >> 20
        ),
        ReadError::NotRegular { .. } | ReadError::NotUtf8 { .. } => {
            "this is not a regular file (a FIFO, socket or device); a lesson is a markdown file"
                .into()
        }
    })
}

/// Course order, then id, then file: the file breaks ties, so which of two files with the same
/// id is kept never depends on the order the folder lists them in.
fn sort_key(entry: &LessonEntry) -> (u32, String, String) {
    match entry {
        LessonEntry::Ok(l) => (l.meta.order, l.id().to_string(), l.source.clone()),
        LessonEntry::Broken { source, .. } => (u32::MAX, String::new(), source.clone()),
    }
}

fn mark_duplicates(entries: &mut [LessonEntry]) {
    let mut first_holder: std::collections::HashMap<String, String> = Default::default();
    for entry in entries.iter_mut() {
        let LessonEntry::Ok(lesson) = entry else {
            continue;
        };
        let id = lesson.id().to_string();
        match first_holder.get(&id) {
            None => {
                first_holder.insert(id, lesson.source.clone());
            }
            Some(first) => {
                let message = format!(
                    "duplicate lesson id {id:?}: {first} already uses it (that file is kept, \
                     this one is not loaded); give one of them another id"
                );
                let source = lesson.source.clone();
                let line = lesson.id_line;
                *entry = LessonEntry::Broken {
                    problems: vec![Diagnostic::new(&source, line, message)],
                    source,
                };
            }
        }
    }
}
