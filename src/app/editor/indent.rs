//! Auto-indent for typing C in the editor: Enter keeps the line's indentation (one level more
//! after `{`, and `{` Enter `}` puts the `}` on its own line), and `}` typed on a blank line
//! takes one level off.

use ratatui_textarea::{CursorMove, TextArea};

/// Columns of one indentation level (Tab inserts as many spaces).
pub const WIDTH: u8 = 4;

/// Type `c` into `area` (over the selection, if any): `}` on a blank line takes one level off.
pub fn type_char(area: &mut TextArea<'static>, c: char) {
    if c == '}' && !area.is_selecting() {
        close_brace(area);
    } else {
        area.insert_char(c);
    }
}

/// The cursor's line split at the cursor.
fn split(area: &TextArea<'static>) -> (String, String) {
    let cursor = area.cursor();
    let (row, col) = (cursor.0, cursor.1);
    let line = area.lines().get(row).map_or("", String::as_str);
    let before: String = line.chars().take(col).collect();
    let after: String = line.chars().skip(col).collect();
    (before, after)
}

/// Leading spaces and tabs of `s`.
fn leading_space(s: &str) -> &str {
    &s[..s.len() - s.trim_start_matches([' ', '\t']).len()]
}

/// Enter: a new line (in place of the selection, if any) at the line's indentation, one level
/// more after `{`.
pub fn newline(area: &mut TextArea<'static>) {
    if area.is_selecting() {
        area.delete_char();
    }
    let (before, after) = split(area);
    let indent = leading_space(&before).to_string();
    let opens = before.trim_end().ends_with('{');
    area.insert_newline();
    // What followed the cursor starts at the new indentation, not at its old spaces.
    let moved_space = leading_space(&after).chars().count();
    if moved_space > 0 {
        // `delete_str` yanks what it deletes: keep what Ctrl-Y would paste.
        let yank = area.yank_text();
        area.delete_str(moved_space);
        area.set_yank_text(yank);
    }
    let level = " ".repeat(usize::from(WIDTH));
    if opens {
        area.insert_str(format!("{indent}{level}"));
        if after.trim_start().starts_with('}') {
            // `{|}`: the `}` goes on its own line under the `{`'s line, the cursor between.
            area.insert_newline();
            area.insert_str(&indent);
            area.move_cursor(CursorMove::Up);
            area.move_cursor(CursorMove::End);
        }
    } else if !indent.is_empty() {
        area.insert_str(indent);
    }
}

fn close_brace(area: &mut TextArea<'static>) {
    let (before, after) = split(area);
    if !before.is_empty() && before.trim().is_empty() && after.trim().is_empty() {
        let take = if before.ends_with('\t') {
            1
        } else {
            let spaces = before.chars().rev().take_while(|c| *c == ' ').count();
            spaces.min(usize::from(WIDTH))
        };
        for _ in 0..take {
            area.delete_char();
        }
    }
    area.insert_char('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(text: &str, row: usize, col: usize) -> TextArea<'static> {
        let mut a = TextArea::new(text.lines().map(str::to_string).collect());
        a.set_tab_length(WIDTH);
        super::super::put_cursor(&mut a, (row, col));
        a
    }

    fn typed(a: &mut TextArea<'static>, text: &str) {
        for c in text.chars() {
            if c == '\n' {
                newline(a);
            } else {
                type_char(a, c);
            }
        }
    }

    #[test]
    fn enter_keeps_the_indentation() {
        let mut a = area("    foo();", 0, 10);
        typed(&mut a, "\nbar();");
        assert_eq!(a.lines(), ["    foo();", "    bar();"]);
        assert_eq!(a.cursor(), (1, 10));
    }

    #[test]
    fn enter_after_a_brace_adds_a_level_and_a_closing_brace_goes_on_its_own_line() {
        let mut a = area("    for (;;) {", 0, 14);
        typed(&mut a, "\nx();\n}");
        assert_eq!(a.lines(), ["    for (;;) {", "        x();", "    }"]);
        let mut a = area("if (a) {}", 0, 8);
        typed(&mut a, "\nx();");
        assert_eq!(a.lines(), ["if (a) {", "    x();", "}"]);
    }

    #[test]
    fn enter_mid_line_moves_the_rest_to_the_indentation() {
        let mut a = area("  a();   b();", 0, 5);
        typed(&mut a, "\n");
        assert_eq!(a.lines(), ["  a()", "  ;   b();"]);
        let mut a = area("  a();   b();", 0, 6);
        typed(&mut a, "\n");
        assert_eq!(a.lines(), ["  a();", "  b();"]);
    }

    #[test]
    fn a_brace_dedents_only_a_blank_line() {
        let mut a = area("        ", 0, 8);
        typed(&mut a, "}");
        assert_eq!(a.lines(), ["    }"]);
        let mut a = area("  x ", 0, 4);
        typed(&mut a, "}");
        assert_eq!(a.lines(), ["  x }"]);
        let mut a = area("\t", 0, 1);
        typed(&mut a, "}");
        assert_eq!(a.lines(), ["}"]);
    }

    #[test]
    fn typing_and_enter_replace_the_selection() {
        let mut a = area("    abc", 0, 4);
        a.start_selection();
        a.move_cursor(CursorMove::End);
        typed(&mut a, "x");
        assert_eq!(a.lines(), ["    x"]);
        a.start_selection();
        a.move_cursor(CursorMove::Head);
        typed(&mut a, "\n");
        assert_eq!(a.lines(), ["", ""]);
    }
}
