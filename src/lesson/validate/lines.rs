//! The front matter parsed once, byte offsets to line numbers and the lines of front-matter
//! keys, each in O(log n) after one pass: diagnostics for every question of a huge lesson must
//! keep parsing linear in its size.

use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue, Deserializer};

use crate::lesson::FrontMatter;

/// `validate::parse_front_matter` as one TOML document: the way that is always right, and the one that
/// gives errors their positions. The tree is parsed once, for the lines of the keys (its spans)
/// and the values alike (parsing twice doubled the time and peak memory of a big lesson).
pub fn parse_front_matter_whole(
    front: &str,
    front_line: usize,
) -> (Result<FrontMatter, toml::de::Error>, KeyLines) {
    match DeTable::parse(front) {
        Ok(document) => {
            let lines = KeyLines::find(document.get_ref(), front, front_line);
            (
                FrontMatter::deserialize(Deserializer::from(document)),
                lines,
            )
        }
        Err(err) => (Err(err), KeyLines::find(&DeTable::new(), front, front_line)),
    }
}

/// Where each line of a text starts.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { starts }
    }

    /// 1-based line of byte `offset`.
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset).max(1)
    }
}

/// 1-based lines (in the whole file) of the keys and of each quiz question.
pub struct KeyLines {
    pub format_version: usize,
    pub id: usize,
    pub title: usize,
    pub experiments: usize,
    pub exercises: usize,
    /// One per question, in order.
    pub quiz: Vec<usize>,
    /// Used when a key's position is unknown: the first line of the front matter.
    pub front_line: usize,
}

impl KeyLines {
    /// Positions of the keys of `document`, parsed from `front` (which starts at line
    /// `front_line` of the file). A key that is absent points at the front matter's first line.
    pub fn find(document: &DeTable<'_>, front: &str, front_line: usize) -> KeyLines {
        let index = LineIndex::new(front);
        let line = |value: &Spanned<DeValue<'_>>| front_line + index.line(value.span().start) - 1;
        let at = |key: &str| document.get(key).map_or(front_line, line);
        let quiz = match document.get("quiz").map(Spanned::get_ref) {
            Some(DeValue::Array(questions)) => questions.iter().map(line).collect(),
            _ => Vec::new(),
        };
        KeyLines {
            format_version: at("format_version"),
            id: at("id"),
            title: at("title"),
            experiments: at("experiments"),
            exercises: at("exercises"),
            quiz,
            front_line,
        }
    }

    /// The line of question `i` (0-based).
    pub fn question(&self, i: usize) -> usize {
        self.quiz.get(i).copied().unwrap_or(self.front_line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_lines() {
        let index = LineIndex::new("ab\ncd\n\nef");
        assert_eq!(index.line(0), 1);
        assert_eq!(index.line(2), 1);
        assert_eq!(index.line(3), 2);
        assert_eq!(index.line(6), 3);
        assert_eq!(index.line(7), 4);
        assert_eq!(index.line(999), 4);
    }

    #[test]
    fn keys_and_questions_are_found_by_their_spans() {
        let front = "id = \"x\"\ntitle = \"t\"\n\n[[quiz]]\nid = \"a\"\n\n[[ quiz ]]\nid = \"b\"\n";
        let document = DeTable::parse(front).expect("valid TOML");
        let lines = KeyLines::find(document.get_ref(), front, 2);
        assert_eq!((lines.id, lines.title), (2, 3));
        assert_eq!(lines.quiz, vec![5, 8]);
        assert_eq!(
            lines.experiments, 2,
            "absent keys point at the front matter"
        );
    }
}
