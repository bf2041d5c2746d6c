//! Ctrl-F: the find bar. What is typed is searched as it is typed, from the cursor on (and
//! round from the top); Enter, ↓ or F3 goes to the next match, ↑ or Shift-F3 to the one
//! before, Esc closes the bar and leaves the cursor on the match. Plain text, case as typed.

use ratatui_textarea::TextArea;

use super::put_cursor;

/// The find bar's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Find {
    /// What is searched for.
    pub query: String,
    /// Whether the last search found it.
    pub found: bool,
}

/// What the find bar's keys ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindOp {
    Open,
    Type(char),
    Erase,
    Next,
    Prev,
    Close,
}

/// Carry out `op`.
pub fn apply(area: &mut TextArea<'static>, find: &mut Option<Find>, op: FindOp) {
    match op {
        FindOp::Open => {
            find.get_or_insert_with(Find::default);
        }
        FindOp::Close => *find = None,
        FindOp::Type(c) => {
            if let Some(f) = find.as_mut() {
                f.query.push(c);
                f.found = search(area, &f.query, Dir::Here);
            }
        }
        FindOp::Erase => {
            if let Some(f) = find.as_mut() {
                f.query.pop();
                f.found = f.query.is_empty() || search(area, &f.query, Dir::Here);
            }
        }
        FindOp::Next | FindOp::Prev => {
            if let Some(f) = find.as_mut() {
                let dir = if op == FindOp::Next {
                    Dir::Next
                } else {
                    Dir::Prev
                };
                f.found = search(area, &f.query, dir);
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dir {
    /// From the cursor itself (typing makes the match under the cursor longer).
    Here,
    Next,
    Prev,
}

/// Put the cursor on the next match of `query` in `dir`, wrapping round; false if none.
fn search(area: &mut TextArea<'static>, query: &str, dir: Dir) -> bool {
    if query.is_empty() {
        return false;
    }
    let lines = area.lines();
    let (row, col) = (area.cursor().0, area.cursor().1);
    // Every match as (row, column in chars), in text order.
    let mut hits: Vec<(usize, usize)> = Vec::new();
    for (r, line) in lines.iter().enumerate() {
        for (byte, _) in line.match_indices(query) {
            hits.push((r, line[..byte].chars().count()));
        }
    }
    let here = (row, col);
    let hit = match dir {
        Dir::Here => hits.iter().find(|h| **h >= here).or(hits.first()),
        Dir::Next => hits.iter().find(|h| **h > here).or(hits.first()),
        Dir::Prev => hits.iter().rev().find(|h| **h < here).or(hits.last()),
    };
    match hit.copied() {
        Some(at) => {
            put_cursor(area, at);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(text: &str) -> TextArea<'static> {
        TextArea::new(text.lines().map(str::to_string).collect())
    }

    #[test]
    fn typing_finds_as_it_goes_and_next_wraps_round() {
        let mut a = area("float a;\nint b;\nfloat c;");
        let mut find = None;
        apply(&mut a, &mut find, FindOp::Open);
        for c in "flo".chars() {
            apply(&mut a, &mut find, FindOp::Type(c));
        }
        assert_eq!(a.cursor(), (0, 0));
        apply(&mut a, &mut find, FindOp::Next);
        assert_eq!(a.cursor(), (2, 0));
        apply(&mut a, &mut find, FindOp::Next);
        assert_eq!(a.cursor(), (0, 0), "round from the top");
        apply(&mut a, &mut find, FindOp::Prev);
        assert_eq!(a.cursor(), (2, 0));
        apply(&mut a, &mut find, FindOp::Type('x'));
        assert_eq!(find.as_ref().map(|f| f.found), Some(false));
        apply(&mut a, &mut find, FindOp::Close);
        assert!(find.is_none());
    }
}
