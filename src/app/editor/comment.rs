//! Ctrl-/: comment out the cursor's line, or every line the selection touches, with `// ` at
//! their common indentation; when every one of them is already a `//` comment, take it off.

use ratatui_textarea::TextArea;

use super::{put_cursor, text_area};

/// Toggle `//` on the lines; true when the text changed.
pub fn toggle(area: &mut TextArea<'static>) -> bool {
    let cursor = (area.cursor().0, area.cursor().1);
    let (first, last) = match area.selection_range() {
        Some(((r0, _), (r1, c1))) if r1 > r0 && c1 == 0 => (r0, r1 - 1),
        Some(((r0, _), (r1, _))) => (r0, r1),
        None => (cursor.0, cursor.0),
    };
    let mut lines = area.lines().to_vec();
    let Some(range) = lines.get_mut(first..=last) else {
        return false;
    };
    let (col_delta, on) = toggle_lines(range);
    *area = text_area(&(lines.join("\n") + "\n"));
    let col = if on {
        cursor.1 + col_delta
    } else {
        cursor.1.saturating_sub(col_delta)
    };
    put_cursor(area, (cursor.0, col));
    true
}

/// Comment or uncomment `lines` in place; how many columns the text moved, and whether the
/// lines are comments now.
fn toggle_lines(lines: &mut [String]) -> (usize, bool) {
    let code = |l: &&mut String| !l.trim().is_empty();
    let all_commented = lines
        .iter_mut()
        .filter(code)
        .all(|l| l.trim_start().starts_with("//"));
    if all_commented && lines.iter_mut().any(|l| code(&l)) {
        for line in lines.iter_mut() {
            let indent = line.len() - line.trim_start().len();
            let rest = &line[indent..];
            let rest = rest
                .strip_prefix("// ")
                .or_else(|| rest.strip_prefix("//"))
                .unwrap_or(rest);
            *line = format!("{}{rest}", &line[..indent]);
        }
        return (3, false);
    }
    let indent = lines
        .iter_mut()
        .filter(code)
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    for line in lines.iter_mut().filter(|l| !l.trim().is_empty()) {
        line.insert_str(indent, "// ");
    }
    (3, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_the_lines_at_their_indent_and_takes_it_off_again() {
        let mut lines = vec![
            "    a();".to_string(),
            String::new(),
            "      b();".to_string(),
        ];
        toggle_lines(&mut lines);
        assert_eq!(lines, ["    // a();", "", "    //   b();"]);
        toggle_lines(&mut lines);
        assert_eq!(lines, ["    a();", "", "      b();"]);
    }

    #[test]
    fn the_cursor_line_alone_without_a_selection() {
        let mut a = text_area("x();\ny();\n");
        put_cursor(&mut a, (1, 2));
        assert!(toggle(&mut a));
        assert_eq!(a.lines(), ["x();", "// y();"]);
        assert_eq!(a.cursor(), (1, 5));
    }
}
