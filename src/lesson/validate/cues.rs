//! The cards' panel cues (`<!-- panel: NAME -->`, see `lesson::cue`) checked: each names a view,
//! a card has at most one, and the view's experiment is one the lesson runs.

use super::Diagnostic;
use crate::lesson::Card;
use crate::lesson::cue::{PanelCue, cue_lines};

/// Diagnostics for the cues of `cards` in a lesson running `experiments`.
pub(super) fn check(
    source: &str,
    experiments: &[String],
    cards: &[Card],
    out: &mut Vec<Diagnostic>,
) {
    for card in cards {
        let cues = cue_lines(card);
        for (n, (i, name)) in cues.iter().enumerate() {
            let line = card.line + i;
            let Some(cue) = PanelCue::from_name(name) else {
                let names: Vec<&str> = PanelCue::ALL.iter().map(|c| c.name()).collect();
                let message = format!(
                    "`<!-- panel: {name} -->`: no such panel view; the views are {}",
                    names.join(", ")
                );
                out.push(Diagnostic::new(source, line, message));
                continue;
            };
            if n > 0 {
                let message =
                    "a card has one panel view: remove this second `<!-- panel: -->` line";
                out.push(Diagnostic::new(source, line, message));
            }
            if !experiments.iter().any(|e| e == cue.experiment()) {
                let message = format!(
                    "`<!-- panel: {name} -->` is a view of the `{}` experiment, which this lesson does not run (add it to `experiments`)",
                    cue.experiment()
                );
                out.push(Diagnostic::new(source, line, message));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::experiment::options::IssueOrder;
    use crate::lesson::{Lesson, PanelCue};

    fn lesson(experiments: &str, body: &str) -> Result<Lesson, Vec<String>> {
        let text =
            format!("+++\nid = \"l\"\ntitle = \"L\"\nexperiments = [{experiments}]\n+++\n{body}");
        Lesson::parse("l.md", text.as_bytes())
            .map_err(|d| d.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn a_card_cue_is_read_and_an_uncued_card_has_none() {
        let body = "# A\n\ntext\n\n<!-- panel: breadth-first -->\n---\n# B\n\n```\n<!-- panel: by-stage -->\n```\n";
        let l = lesson("\"pipeline\"", body).unwrap();
        let cue = Some(PanelCue::Layout(IssueOrder::BreadthFirst));
        assert_eq!(l.cards[0].panel_cue(), cue);
        // Inside a code fence it is code, not a cue.
        assert_eq!(l.cards[1].panel_cue(), None);
    }

    #[test]
    fn check_names_an_unknown_view_a_second_cue_and_a_missing_experiment() {
        let errs = lesson("\"pipeline\"", "# A\n<!-- panel: depth-first -->\n").unwrap_err();
        assert_eq!(errs.len(), 1);
        assert!(errs[0].starts_with("l.md:7: "), "{errs:?}");
        assert!(errs[0].contains("breadth-first, by-stage"), "{errs:?}");
        let two = "# A\n<!-- panel: by-stage -->\n<!-- panel: breadth-first -->\n";
        let errs = lesson("\"pipeline\"", two).unwrap_err();
        assert!(
            errs[0].starts_with("l.md:8: a card has one panel view"),
            "{errs:?}"
        );
        let errs = lesson("\"async-copy\"", "# A\n<!-- panel: by-stage -->\n").unwrap_err();
        assert!(errs[0].contains("`pipeline` experiment"), "{errs:?}");
    }
}
