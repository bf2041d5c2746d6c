//! The help's list of the CUDA calls an exercise program may make: a line a row of the call
//! table (`exercise::calls`, the one home of each call), its form and its one-line doc, so the
//! list cannot drift from what the parser and the interpreter accept.

use ratatui::text::{Line, Span};

use super::flow::Item;

use crate::exercise::calls;
use crate::sanitize;
use crate::theme::Theme;
use crate::ui::text;

/// The section's title.
pub const TITLE: &str = "Calls an exercise may make";

/// The section at `width`: its title, then each call's form (`cudaMemcpyAsync(dst, src,
/// bytes, kind[, stream])`) and its doc wrapped under it where the help has room for
/// descriptions (`describe`); in the help's narrow columns the names alone, run on.
pub fn items(theme: &Theme, width: u16, describe: bool) -> Vec<Item> {
    let mut out = vec![
        Item::Gap,
        Item::Title(
            Line::styled(TITLE, theme.heading(2)),
            Line::styled(format!("{TITLE} (cont.)"), theme.heading(2)),
        ),
    ];
    if !describe {
        // The help's narrow columns show names only, as its keys go without descriptions
        // there: the names run on, wrapped at the column, so the list takes a third of the rows.
        let names: Vec<String> = calls::TABLE
            .iter()
            .map(|row| sanitize::clean_line(row.name))
            .collect();
        let spans = [Span::styled(names.join(" · "), theme.strong())];
        let lines = text::wrap(&spans, width, Span::raw("  "), Span::raw("  "));
        out.extend(lines.into_iter().map(Item::Row));
        return out;
    }
    for row in calls::TABLE {
        // The docs mark code with backticks for the README; on screen the form is enough.
        let doc = sanitize::clean_line(&row.doc.replace('`', ""));
        let spans = [
            Span::styled(sanitize::clean_line(&row.form()), theme.strong()),
            Span::styled(format!(" — {doc}"), theme.muted()),
        ];
        let lines = text::wrap(&spans, width, Span::raw("  "), Span::raw("      "));
        out.extend(lines.into_iter().map(Item::Row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(line: &Line<'_>) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    /// The section's lines, titles included, as one column shows them.
    fn lines(theme: &Theme, width: u16) -> Vec<Line<'static>> {
        items(theme, width, true)
            .into_iter()
            .map(|item| match item {
                Item::Gap => Line::default(),
                Item::Title(title, _) => title,
                Item::Row(line) => line,
            })
            .collect()
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
