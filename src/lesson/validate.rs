//! Turns the bytes of a lesson file into a [`Lesson`] or `file:line: message` diagnostics.
//!
//! Every malformed input (empty, binary junk, invalid UTF-8, NUL bytes, bad or unterminated front
//! matter, unknown keys, a quiz answer that does not exist, unterminated code fences, very deep
//! nesting, very long lines) is a diagnostic, never a panic.

use std::fmt;

use super::{FORMAT_VERSION, FrontMatter, Lesson};

mod body;
mod chunked;
mod cues;
mod placement;
mod references;

mod lines;
mod quiz;

use body::{check_line_lengths, check_nesting, split_cards};
use lines::KeyLines;
pub use quiz::{MAX_CHOICES, names_an_option_letter};

/// Longest line a lesson may have: longer ones are almost certainly not prose, and would make
/// wrapping and highlighting slow.
pub const MAX_LINE_CHARS: usize = 4096;
/// Deepest nesting of lists and block quotes a card may have.
pub const MAX_NESTING: usize = 12;

/// One problem in a lesson file, printed as `file:line: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    /// 1-based line.
    pub line: usize,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: &str, line: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            line: line.max(1),
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// Parse and validate a lesson file.
pub fn parse_lesson(source: &str, bytes: &[u8]) -> Result<Lesson, Vec<Diagnostic>> {
    let text = decode(source, bytes).map_err(|d| vec![d])?;
    let (front, front_line, body, body_line) =
        split_front_matter(source, text).map_err(|d| vec![d])?;
    let mut problems = Vec::new();
    check_line_lengths(source, text, &mut problems);
    // One TOML parse for the values and the lines of every key and question (see `lines`).
    let (meta, lines) = parse_front_matter(front, front_line);
    let mut meta = match meta {
        Ok(meta) => Some(meta),
        Err(err) => {
            let line = err
                .span()
                .map(|span| front_line + line_of_offset(front, span.start) - 1)
                .unwrap_or(front_line);
            problems.push(Diagnostic::new(source, line, toml_message(&err)));
            None
        }
    };
    if let Some(meta) = &mut meta {
        check_meta(source, meta, &lines, &mut problems);
        meta.sanitize();
    }
    let cards = split_cards(source, body, body_line, &mut problems);
    if cards.is_empty() && problems.is_empty() {
        problems.push(Diagnostic::new(
            source,
            body_line,
            "a lesson needs at least one card after the front matter",
        ));
    }
    for card in &cards {
        check_nesting(source, card, &mut problems);
    }
    references::check(
        source,
        meta.as_ref(),
        (front, front_line, lines.experiments),
        &cards,
        &mut problems,
    );
    if let Some(meta) = &meta {
        cues::check(source, &meta.experiments, &cards, &mut problems);
        placement::check(source, &meta.quiz, &cards, &lines, &mut problems);
    }
    match meta {
        Some(meta) if problems.is_empty() => Ok(Lesson {
            meta,
            cards,
            source: source.to_string(),
            id_line: lines.id,
        }),
        _ => Err(problems),
    }
}

fn decode<'a>(source: &str, bytes: &'a [u8]) -> Result<&'a str, Diagnostic> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Diagnostic::new(
            source,
            1,
            "the file is empty; a lesson starts with `+++` TOML front matter",
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = line_of_offset_bytes(bytes, e.valid_up_to());
        Diagnostic::new(
            source,
            line,
            format!(
                "not valid UTF-8 (bad byte at offset {}); save the file as UTF-8",
                e.valid_up_to()
            ),
        )
    })?;
    if let Some(pos) = text.find('\0') {
        return Err(Diagnostic::new(
            source,
            line_of_offset(text, pos),
            "contains a NUL byte; is this a binary file?",
        ));
    }
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// Returns (front matter text, its first line, body text, its first line).
fn split_front_matter<'a>(
    source: &str,
    text: &'a str,
) -> Result<(&'a str, usize, &'a str, usize), Diagnostic> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "+++" {
        return Err(Diagnostic::new(
            source,
            1,
            "missing front matter: the first line must be `+++`, then TOML with at least `id` and `title`, then `+++`",
        ));
    }
    let front_start = first.len();
    let mut offset = front_start;
    for (line_no, line) in (2..).zip(lines) {
        if line.trim_end() == "+++" {
            let front = &text[front_start..offset];
            let body = &text[offset + line.len()..];
            return Ok((front, 2, body, line_no + 1));
        }
        offset += line.len();
    }
    Err(Diagnostic::new(
        source,
        1,
        "unterminated front matter: no closing `+++` line",
    ))
}

fn toml_message(err: &toml::de::Error) -> String {
    let msg = err.message().trim().to_string();
    format!("front matter: {msg}")
}

fn check_meta(source: &str, meta: &FrontMatter, lines: &KeyLines, out: &mut Vec<Diagnostic>) {
    if meta.format_version > FORMAT_VERSION {
        out.push(Diagnostic::new(source, lines.format_version, format!("format_version {} is newer than this cuda-academy understands ({FORMAT_VERSION}); upgrade cuda-academy", meta.format_version)));
    }
    if !is_valid_id(&meta.id) {
        out.push(Diagnostic::new(
            source,
            lines.id,
            format!(
                "id {:?} must be non-empty lowercase letters, digits and `-`",
                meta.id
            ),
        ));
    }
    if meta.title.trim().is_empty() {
        out.push(Diagnostic::new(source, lines.title, "title is empty"));
    }
    out.extend(
        crate::exercise::validate(&meta.id, &meta.exercises)
            .into_iter()
            .map(|m| Diagnostic::new(source, lines.exercises, m)),
    );
    quiz::check_quiz(source, &meta.quiz, lines, out);
}

pub(super) fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// 1-based line of a byte offset in `text`.
pub fn line_of_offset(text: &str, offset: usize) -> usize {
    line_of_offset_bytes(text.as_bytes(), offset)
}

fn line_of_offset_bytes(bytes: &[u8], offset: usize) -> usize {
    bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// Parse the front matter and find the lines of its keys and questions: part by part where that
/// cannot change the meaning (`chunked`: a big lesson never builds one tree of all its
/// questions), otherwise as one document. (Here, above both, so that `lines` and `chunked` do
/// not import each other: issue 20.)
fn parse_front_matter(
    front: &str,
    front_line: usize,
) -> (
    Result<crate::lesson::FrontMatter, toml::de::Error>,
    KeyLines,
) {
    match chunked::parse(front, front_line) {
        Some((meta, lines)) => (Ok(meta), lines),
        None => lines::parse_front_matter_whole(front, front_line),
    }
}
