//! The fast path for big front matter: the text before the first `[[quiz]]` header and each
//! `[[quiz]]` table are parsed on their own, so a lesson of 200,000 questions never builds one
//! TOML document tree of them all (that tree cost ~2.7 KB a question and most of the time of a
//! 16 MiB lesson: page faults and allocations, not parsing).
//!
//! It answers only when the split cannot change the meaning: every part parses, no part after
//! the first header holds another table header (which would belong to the document root, not to
//! the question), and the head has no `quiz` key of its own. A header inside a multi-line string
//! leaves that string unterminated in the part before it, so that part fails and the caller
//! falls back to parsing the whole document, which also gives every error its exact position.

use crate::lesson::{FrontMatter, Question};

use super::lines::KeyLines;

/// `front` parsed part by part with the lines of its keys, or `None` when only the whole
/// document can say (see the module).
pub fn parse(front: &str, front_line: usize) -> Option<(FrontMatter, KeyLines)> {
    let (head, tables) = split(front)?;
    let head_doc = toml::de::DeTable::parse(head).ok()?;
    if head_doc.get_ref().contains_key("quiz") {
        return None;
    }
    let mut lines = KeyLines::find(head_doc.get_ref(), head, front_line);
    let mut meta: FrontMatter =
        serde::Deserialize::deserialize(toml::de::Deserializer::from(head_doc)).ok()?;
    meta.quiz = parse_questions(&tables)?;
    lines.quiz = tables
        .iter()
        .map(|(header_line, _)| front_line + header_line - 1)
        .collect();
    Some((meta, lines))
}

/// Every table's question, or `None` if one does not parse. The tables are independent, so a
/// big lesson's are parsed on all cores (a 16 MiB lesson of 190,000 questions took about 1 s on
/// one core of the 2-core development machine).
fn parse_questions(tables: &[(usize, &str)]) -> Option<Vec<Question>> {
    let one = |part: &[(usize, &str)]| -> Option<Vec<Question>> {
        part.iter()
            .map(|(_, body)| toml::from_str(body).ok())
            .collect()
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    if threads < 2 || tables.len() < 1024 {
        return one(tables);
    }
    let per_thread = tables.len().div_ceil(threads);
    let parts: Vec<Option<Vec<Question>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = tables
            .chunks(per_thread)
            .map(|part| scope.spawn(move || one(part)))
            .collect();
        // A thread that panicked (it cannot: parsing returns errors) counts as a part that
        // did not parse, so the whole document decides.
        handles
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect()
    });
    let mut questions = Vec::with_capacity(tables.len());
    for part in parts {
        questions.extend(part?);
    }
    Some(questions)
}

/// The head and, per `[[quiz]]` table, the 1-based line of its header (in `front`) and its body;
/// `None` when a body holds another table header or there is no `[[quiz]]` at all.
fn split(front: &str) -> Option<(&str, Vec<(usize, &str)>)> {
    let mut head_end = None;
    let mut tables: Vec<(usize, &str)> = Vec::new();
    let mut body_start = 0;
    let mut offset = 0;
    for (index, line) in front.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim();
        if !trimmed.starts_with('[') {
            continue;
        }
        if !is_quiz_header(trimmed) {
            // A table (or an array of tables) after the first question would belong to the
            // root, not to the question; a line of a multi-line array starting with `[` is
            // only ever a nested array, which no lesson key holds. Either way: the whole way.
            if head_end.is_some() {
                return None;
            }
            continue;
        }
        match head_end {
            None => head_end = Some(start),
            Some(_) => {
                if let Some(last) = tables.last_mut() {
                    last.1 = &front[body_start..start];
                }
            }
        }
        tables.push((index + 1, ""));
        body_start = offset;
    }
    let head_end = head_end?;
    if let Some(last) = tables.last_mut() {
        last.1 = &front[body_start..];
    }
    Some((&front[..head_end], tables))
}

/// `[[quiz]]`, spaces allowed inside the brackets, an optional comment after it.
fn is_quiz_header(line: &str) -> bool {
    let code = line.split('#').next().unwrap_or("").trim();
    let Some(inner) = code.strip_prefix("[[").and_then(|s| s.strip_suffix("]]")) else {
        return false;
    };
    inner.trim() == "quiz"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::validate::lines::parse_front_matter_whole;

    const FRONT: &str = "id = \"x\"\ntitle = \"t\" # a comment\n\n[[quiz]]\nid = \"a\"\nprompt = \"p\"\nexplanation = \"e\"\nchoices = [\n  \"one\",\n  \"two\",\n]\nanswer = 1\n\n[[ quiz ]] # second\nid = \"b\"\nprompt = \"\"\"\nmulti\nline\"\"\"\nexplanation = \"e\"\n";

    #[test]
    fn parts_give_what_the_whole_document_gives() {
        let (fast, fast_lines) = parse(FRONT, 2).expect("the fast path answers");
        let (whole, whole_lines) = parse_front_matter_whole(FRONT, 2);
        assert_eq!(Some(fast), whole.ok());
        assert_eq!(fast_lines.quiz, whole_lines.quiz);
        assert_eq!(
            (fast_lines.id, fast_lines.title, fast_lines.experiments),
            (whole_lines.id, whole_lines.title, whole_lines.experiments)
        );
    }

    #[test]
    fn many_questions_parse_on_several_threads_in_order() {
        let mut front = String::from("id = \"x\"\ntitle = \"t\"\n");
        for i in 0..3000 {
            front.push_str(&format!(
                "[[quiz]]\nid = \"q{i}\"\nprompt = \"p\"\nexplanation = \"e\"\n"
            ));
        }
        let (fast, lines) = parse(&front, 1).expect("the fast path answers");
        let (whole, whole_lines) = parse_front_matter_whole(&front, 1);
        assert_eq!(Some(&fast), whole.as_ref().ok());
        assert_eq!(lines.quiz, whole_lines.quiz);
        assert_eq!(fast.quiz[2999].id, "q2999");
        // One bad question anywhere: the whole document decides (and gives the error's line).
        let bad = front.replacen("prompt = \"p\"", "prompt = 7", 2000);
        assert!(parse(&bad, 1).is_none());
    }

    #[test]
    fn a_header_inside_a_multiline_string_falls_back() {
        let front = "id = \"x\"\ntitle = \"t\"\n[[quiz]]\nid = \"a\"\nprompt = \"\"\"\n[[quiz]]\n\"\"\"\nexplanation = \"e\"\n";
        assert!(parse(front, 1).is_none());
        let (whole, _) = parse_front_matter_whole(front, 1);
        assert_eq!(whole.expect("valid TOML").quiz.len(), 1);
    }

    #[test]
    fn a_table_after_the_questions_falls_back() {
        let front = "id = \"x\"\ntitle = \"t\"\n[[quiz]]\nid = \"a\"\nprompt = \"p\"\nexplanation = \"e\"\n[extra]\nk = 1\n";
        assert!(parse(front, 1).is_none());
    }

    #[test]
    fn a_bad_question_or_a_quiz_key_in_the_head_falls_back() {
        let bad =
            "id = \"x\"\ntitle = \"t\"\n[[quiz]]\nid = \"a\"\nprompt = 3\nexplanation = \"e\"\n";
        assert!(parse(bad, 1).is_none());
        let inline = "id = \"x\"\ntitle = \"t\"\nquiz = []\n[[quiz]]\nid = \"a\"\nprompt = \"p\"\nexplanation = \"e\"\n";
        assert!(parse(inline, 1).is_none());
        assert!(
            parse("id = \"x\"\ntitle = \"t\"\n", 1).is_none(),
            "no question: the whole way"
        );
    }
}
