//! What a lesson names must exist in the experiment registry: every `experiments = [...]` entry,
//! every predict question's `metric` (measured by one of the lesson's own experiments, since the
//! lesson's runs grade it), and every `{{metric:NAME}}` placeholder in the cards. Without this a
//! typo shows "press r to measure" forever. Each problem is a `file:line` diagnostic with the
//! nearest valid name when there is one.

use super::Diagnostic;
use crate::experiment::registry;
use crate::lesson::{Card, FrontMatter, QuestionKind};

const OPEN: &str = "{{metric:";
const CLOSE: &str = "}}";

/// Check `meta` (whose TOML text is `front`, starting at line `front_line`, with its
/// `experiments` key at line `experiments_line`) and `cards`.
pub fn check(
    source: &str,
    meta: Option<&FrontMatter>,
    (front, front_line, experiments_line): (&str, usize, usize),
    cards: &[Card],
    out: &mut Vec<Diagnostic>,
) {
    let at = |found: Option<usize>| found.map_or(front_line, |l| front_line + l);
    if let Some(meta) = meta {
        for id in &meta.experiments {
            if registry::find(id).is_none() {
                let line = line_with(front, "experiments", id)
                    .map_or(experiments_line, |l| front_line + l);
                out.push(Diagnostic::new(source, line, unknown_experiment(id)));
            }
        }
        for q in meta.quiz.iter().filter(|q| q.kind == QuestionKind::Predict) {
            let Some(metric) = q.metric.as_deref().filter(|m| !m.is_empty()) else {
                continue; // a missing metric is reported with the rest of the question
            };
            if let Some(why) = predict_problem(metric, &meta.experiments) {
                let line = at(line_with(front, "metric", metric));
                let message = format!("quiz question {:?}: {why}", q.id);
                out.push(Diagnostic::new(source, line, message));
            }
        }
    }
    for card in cards {
        for (i, line) in card.markdown.lines().enumerate() {
            for name in placeholders(line) {
                if registry::metric(name).is_none() {
                    let message = format!("{{{{metric:{name}}}}}: {}", unknown_metric(name));
                    out.push(Diagnostic::new(source, card.line + i, message));
                }
            }
        }
    }
}

/// Why `metric` cannot grade a prediction in a lesson running `experiments`, if it cannot.
fn predict_problem(metric: &str, experiments: &[String]) -> Option<String> {
    let Some((owner, _)) = registry::metric(metric) else {
        return Some(format!("`metric = {metric:?}`: {}", unknown_metric(metric)));
    };
    let measured_here = experiments
        .iter()
        .filter_map(|id| registry::find(id))
        .any(|spec| spec.metric(metric).is_some());
    (!measured_here).then(|| {
        format!(
            "`metric = {metric:?}` is measured by {}, which this lesson's `experiments` does not \
             list, so no run of this lesson can grade the prediction",
            owner.id
        )
    })
}

fn unknown_experiment(id: &str) -> String {
    let known: Vec<&str> = registry::ids().collect();
    let hint = registry::closest_id(id).map_or(String::new(), |c| format!("did you mean {c:?}? "));
    format!(
        "unknown experiment {id:?}; {hint}known: {}",
        known.join(", ")
    )
}

fn unknown_metric(name: &str) -> String {
    match registry::closest_metric(name) {
        Some(c) => format!("no experiment reports a metric {name:?}; did you mean {c:?}?"),
        None => format!(
            "no experiment reports a metric {name:?} (`cuda-academy run EXPERIMENT --json` \
             lists each experiment's metrics)"
        ),
    }
}

/// The names of the well-formed placeholders on `line` (malformed ones render as written).
fn placeholders(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find(OPEN) {
        let after = &rest[start + OPEN.len()..];
        let Some(len) = after.find(CLOSE) else { break };
        let name = after[..len].trim();
        if !name.is_empty() {
            out.push(name);
        }
        rest = &after[len + CLOSE.len()..];
    }
    out
}

/// The 0-based line of `front` that sets `key` and mentions `"value"` (arrays may span lines: the
/// first line from `key` on that holds the quoted value).
fn line_with(front: &str, key: &str, value: &str) -> Option<usize> {
    let quoted = format!("\"{value}\"");
    let lines: Vec<&str> = front.lines().collect();
    let starts = lines.iter().enumerate().filter(|(_, l)| {
        let l = l.trim_start();
        l.strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    });
    for (i, _) in starts {
        // The value sits on the key's line or, for a multi-line array, before its `]`.
        for (j, l) in lines.iter().enumerate().skip(i) {
            if l.contains(&quoted) {
                return Some(j);
            }
            if l.contains(']') || (j > i && l.contains('=')) {
                break;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::validate::parse_lesson;

    /// A valid lesson with one line swapped for `bad` (when given).
    fn lesson(swap: Option<(&str, &str)>) -> String {
        let text = r#"+++
id = "l"
title = "L"
experiments = ["pipeline"]

[[quiz]]
id = "p"
kind = "predict"
prompt = "Predict the speedup."
metric = "speedup"
tolerance_pct = 30.0
explanation = "Because."
+++
# Card

Best: {{metric:best_ms}}, sequential {{metric:sequential_ms}}.
"#;
        match swap {
            Some((from, to)) => text.replacen(from, to, 1),
            None => text.to_string(),
        }
    }

    fn errors(text: &str) -> Vec<String> {
        match parse_lesson("l.md", text.as_bytes()) {
            Ok(_) => Vec::new(),
            Err(d) => d.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn a_lesson_naming_only_registered_things_passes() {
        assert_eq!(errors(&lesson(None)), Vec::<String>::new());
    }

    #[test]
    fn a_misspelled_placeholder_fails_at_its_line() {
        let e = errors(&lesson(Some(("{{metric:best_ms}}", "{{metric:bset_ms}}"))));
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].starts_with("l.md:16: {{metric:bset_ms}}"), "{e:?}");
        assert!(e[0].contains("did you mean \"best_ms\""), "{e:?}");
    }

    #[test]
    fn a_misspelled_predict_metric_fails_at_its_line() {
        let e = errors(&lesson(Some((
            "metric = \"speedup\"",
            "metric = \"speedpu\"",
        ))));
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].starts_with("l.md:10: quiz question \"p\""), "{e:?}");
        assert!(e[0].contains("did you mean \"speedup\""), "{e:?}");
    }

    #[test]
    fn a_predict_metric_of_another_lessons_experiment_fails() {
        let e = errors(&lesson(Some((
            "metric = \"speedup\"",
            "metric = \"pinned_h2d_gbps\"",
        ))));
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("does not list"), "{e:?}");
    }

    #[test]
    fn an_unknown_experiment_id_fails_at_its_line() {
        let e = errors(&lesson(Some(("[\"pipeline\"]", "[\"pipline\"]"))));
        // The predict metric is then measured by no experiment of the lesson, too.
        assert!(
            e.iter().any(|d| d
                .starts_with("l.md:4: unknown experiment \"pipline\"; did you mean \"pipeline\"?")),
            "{e:?}"
        );
    }

    #[test]
    fn placeholders_are_found_and_malformed_ones_skipped() {
        assert_eq!(
            placeholders("a {{metric:x_ms}} b {{metric: y }} {{metric:z"),
            vec!["x_ms", "y"]
        );
    }

    #[test]
    fn values_are_found_on_their_own_line_of_an_array() {
        let front = "id = \"a\"\nexperiments = [\n  \"pipeline\",\n  \"pipline\",\n]\n";
        assert_eq!(line_with(front, "experiments", "pipline"), Some(3));
        assert_eq!(line_with(front, "experiments", "absent"), None);
    }
}
