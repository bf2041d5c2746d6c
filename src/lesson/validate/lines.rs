//! Byte offsets to line numbers and the lines of front-matter keys, each in O(log n) after one
//! pass: diagnostics for every question of a huge lesson must keep parsing linear in its size.

use serde::Deserialize;
use serde::de::IgnoredAny;
use toml::Spanned;

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

/// The spans of the front-matter keys that diagnostics point at, read in the same single TOML
/// pass as any other value (no searching the text per question).
#[derive(Deserialize, Default)]
pub struct KeySpans {
    #[serde(default)]
    format_version: Option<Spanned<IgnoredAny>>,
    #[serde(default)]
    id: Option<Spanned<IgnoredAny>>,
    #[serde(default)]
    title: Option<Spanned<IgnoredAny>>,
    #[serde(default)]
    experiments: Option<Spanned<IgnoredAny>>,
    #[serde(default)]
    exercises: Option<Spanned<IgnoredAny>>,
    #[serde(default)]
    quiz: Vec<Spanned<IgnoredAny>>,
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
    /// Positions in `front` (which starts at line `front_line` of the file).
    pub fn find(front: &str, front_line: usize) -> KeyLines {
        let spans: KeySpans = toml::from_str(front).unwrap_or_default();
        let index = LineIndex::new(front);
        let at = |s: &Option<Spanned<IgnoredAny>>| {
            s.as_ref()
                .map_or(front_line, |s| front_line + index.line(s.span().start) - 1)
        };
        KeyLines {
            format_version: at(&spans.format_version),
            id: at(&spans.id),
            title: at(&spans.title),
            experiments: at(&spans.experiments),
            exercises: at(&spans.exercises),
            quiz: spans
                .quiz
                .iter()
                .map(|q| front_line + index.line(q.span().start) - 1)
                .collect(),
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
        let lines = KeyLines::find(front, 2);
        assert_eq!((lines.id, lines.title), (2, 3));
        assert_eq!(lines.quiz, vec![5, 8]);
        assert_eq!(
            lines.experiments, 2,
            "absent keys point at the front matter"
        );
    }
}
