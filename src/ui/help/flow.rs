//! The help's lines poured into newspaper columns: a section runs on into the next column
//! under its title marked "(cont.)", a title never ends a column, and no column starts or ends
//! with a blank line. The columns are as short as they can be, so the overlay is only as tall as
//! its text (issue 28: at 160x48 two columns needed scrolling where four fit).

use ratatui::text::Line;

/// One line of the help, and what it is.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// The blank line between two sections.
    Gap,
    /// A section's title; the line says how it reads continued in the next column.
    Title(Line<'static>, Line<'static>),
    /// A row of a section (or a line of the notes).
    Row(Line<'static>),
}

/// `items` in at most `columns` columns of at most `height` lines, or `None` when they do not
/// fit.
fn pour(items: &[Item], columns: usize, height: usize) -> Option<Vec<Vec<Line<'static>>>> {
    let height = height.max(2);
    let mut out: Vec<Vec<Line<'static>>> = vec![Vec::new()];
    let mut title: Option<&Line<'static>> = None;
    for item in items {
        let col = out.last().map_or(0, Vec::len);
        // A gap at the top or the foot of a column is left out.
        if matches!(item, Item::Gap) && (col == 0 || col + 1 >= height) {
            continue;
        }
        let full = col >= height || (matches!(item, Item::Title(..)) && col + 1 >= height);
        if full {
            if out.len() == columns {
                return None;
            }
            out.push(Vec::new());
            if let (Item::Row(_), Some(cont)) = (item, title) {
                out.last_mut()?.push(cont.clone());
            }
        }
        let column = out.last_mut()?;
        match item {
            Item::Gap => column.push(Line::default()),
            Item::Title(line, cont) => {
                title = Some(cont);
                column.push(line.clone());
            }
            Item::Row(line) => column.push(line.clone()),
        }
    }
    Some(out)
}

/// `items` in at most `columns` columns, as short as they can be.
pub fn columns(items: &[Item], columns: usize) -> Vec<Vec<Line<'static>>> {
    let columns = columns.max(1);
    let (mut low, mut high) = (items.len().div_ceil(columns).max(1), items.len().max(2));
    // Everything fits in one column of every line; find the shortest that still fits.
    while low < high {
        let mid = (low + high) / 2;
        if pour(items, columns, mid).is_some() {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    pour(items, columns, high).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn title(t: &str) -> Item {
        Item::Title(
            Line::from(t.to_string()),
            Line::from(format!("{t} (cont.)")),
        )
    }

    fn row(t: &str) -> Item {
        Item::Row(Line::from(t.to_string()))
    }

    fn text(columns: &[Vec<Line<'static>>]) -> Vec<Vec<String>> {
        columns
            .iter()
            .map(|c| c.iter().map(|l| l.to_string()).collect())
            .collect()
    }

    #[test]
    fn sections_run_on_under_their_title_and_columns_are_short() {
        let items = [
            title("A"),
            row("a1"),
            row("a2"),
            row("a3"),
            Item::Gap,
            title("B"),
            row("b1"),
        ];
        assert_eq!(
            text(&columns(&items, 2)),
            [vec!["A", "a1", "a2", "a3"], vec!["B", "b1"]],
            "the gap is not carried to the top of a column"
        );
        assert_eq!(
            text(&columns(&items, 3)),
            [
                vec!["A", "a1", "a2"],
                vec!["A (cont.)", "a3"],
                vec!["B", "b1"]
            ],
        );
        // A title never ends a column: it goes with its first row.
        let items = [title("A"), row("a1"), title("B"), row("b1")];
        assert_eq!(
            text(&columns(&items, 2)),
            [vec!["A", "a1"], vec!["B", "b1"]]
        );
        assert_eq!(text(&columns(&items, 1)), [vec!["A", "a1", "B", "b1"]]);
    }
}
