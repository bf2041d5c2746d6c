//! The help's list of the CUDA calls an exercise program may make: a line a row of the call
//! table (`exercise::calls`, the one home of each call), its form and its one-line doc, so the
//! list cannot drift from what the parser and the interpreter accept.

use ratatui::text::{Line, Span};

use crate::exercise::calls;
use crate::sanitize;
use crate::theme::Theme;
use crate::ui::text;

/// The section's title.
pub const TITLE: &str = "Calls an exercise may make";

/// The section at `width`: its title, then each call's form (`cudaMemcpyAsync(dst, src,
/// bytes, kind[, stream])`) and doc, wrapped under it.
pub fn lines(theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let mut out = vec![Line::default(), Line::styled(TITLE, theme.heading(2))];
    for row in calls::TABLE {
        // The docs mark code with backticks for the README; on screen the form is enough.
        let doc = sanitize::clean_line(&row.doc.replace('`', ""));
        let spans = [
            Span::styled(sanitize::clean_line(&row.form()), theme.strong()),
            Span::styled(format!(" — {doc}"), theme.muted()),
        ];
        out.extend(text::wrap(
            &spans,
            width,
            Span::raw("  "),
            Span::raw("      "),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(line: &Line<'_>) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn every_row_of_the_call_table_has_its_line_with_its_doc() {
        let theme = Theme::new(false);
        // Wide enough that no row wraps: each row is one line.
        let shown: Vec<String> = lines(&theme, 400).iter().map(plain).collect();
        for row in calls::TABLE {
            let doc = row.doc.replace('`', "");
            assert!(
                shown
                    .iter()
                    .any(|l| l.trim_start().starts_with(&format!("{}(", row.name))
                        && l.contains(&row.form())
                        && l.ends_with(&doc)),
                "no help line for `{}` with its doc: {shown:#?}",
                row.name
            );
        }
        assert_eq!(shown.len(), calls::TABLE.len() + 2, "one line a row");
    }

    #[test]
    fn narrow_lines_fit_and_still_name_every_call() {
        let theme = Theme::new(false);
        let shown: Vec<String> = lines(&theme, 40).iter().map(plain).collect();
        assert!(shown.iter().all(|l| sanitize::width(l) <= 40), "{shown:#?}");
        let text = shown.join("\n");
        for row in calls::TABLE {
            assert!(text.contains(&format!("{}(", row.name)), "{}", row.name);
        }
    }
}
