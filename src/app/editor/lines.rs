//! Where the last check's lines are now. A verdict names lines of the text that was checked;
//! the learner goes on typing, so its gutter marks (`●` `▲`) and the message under the code
//! follow the text: a line inserted or deleted above a mark moves it, and editing the marked
//! line keeps the mark on that line. [`LineMap`] pairs the checked text's lines with the
//! editor's (the conflict diff's line matching: common lines stay paired, and within a changed
//! stretch the n-th old line pairs with the n-th new one), and is rebuilt after each edit.

use super::conflict::{DiffLine, diff};

/// The pairing of the checked text's lines (old) with the editor's (new), both 1-based.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineMap {
    /// `old_to_new[i]`: where old line `i + 1` is now (`None`: deleted).
    old_to_new: Vec<Option<u32>>,
    /// `new_to_old[j]`: which old line new line `j + 1` is (`None`: a new line).
    new_to_old: Vec<Option<u32>>,
}

impl LineMap {
    /// The pairing of `old` (the text checked) with `new` (the editor's text now).
    pub fn between(old: &str, new: &str) -> LineMap {
        let mut map = LineMap::default();
        // A changed stretch: its old lines and new lines, paired in order at its end.
        let (mut gone, mut came): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        let (mut old_line, mut new_line) = (0u32, 0u32);
        for line in diff(old, new) {
            match line {
                DiffLine::Both(_) => {
                    map.pair_stretch(&mut gone, &mut came);
                    old_line += 1;
                    new_line += 1;
                    map.old_to_new.push(Some(new_line));
                    map.new_to_old.push(Some(old_line));
                }
                DiffLine::Mine(_) => {
                    old_line += 1;
                    map.old_to_new.push(None);
                    gone.push(old_line);
                }
                DiffLine::Theirs(_) => {
                    new_line += 1;
                    map.new_to_old.push(None);
                    came.push(new_line);
                }
            }
        }
        map.pair_stretch(&mut gone, &mut came);
        map
    }

    /// Within one changed stretch, the n-th old line is the n-th new one, edited.
    fn pair_stretch(&mut self, gone: &mut Vec<u32>, came: &mut Vec<u32>) {
        for (&old, &new) in gone.iter().zip(came.iter()) {
            self.old_to_new[old as usize - 1] = Some(new);
            self.new_to_old[new as usize - 1] = Some(old);
        }
        gone.clear();
        came.clear();
    }

    /// Where line `old` of the checked text is now, if it is still there.
    pub fn now(&self, old: u32) -> Option<u32> {
        let i = usize::try_from(old).ok()?.checked_sub(1)?;
        *self.old_to_new.get(i)?
    }

    /// Which line of the checked text line `new` of the editor is, if any.
    pub fn checked(&self, new: u32) -> Option<u32> {
        let i = usize::try_from(new).ok()?.checked_sub(1)?;
        *self.new_to_old.get(i)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKED: &str = "a\nb\nc\nd\n";

    #[test]
    fn a_line_inserted_above_moves_the_lines_below_and_not_those_above() {
        let m = LineMap::between(CHECKED, "a\nnew\nb\nc\nd\n");
        assert_eq!(m.now(1), Some(1));
        assert_eq!(m.now(2), Some(3));
        assert_eq!(m.now(4), Some(5));
        assert_eq!(m.checked(2), None, "the new line was not checked");
        assert_eq!(m.checked(5), Some(4));
    }

    #[test]
    fn a_line_deleted_above_moves_the_lines_below_up_and_its_own_mark_goes() {
        let m = LineMap::between(CHECKED, "a\nc\nd\n");
        assert_eq!(m.now(2), None);
        assert_eq!(m.now(3), Some(2));
        assert_eq!(m.checked(3), Some(4));
    }

    #[test]
    fn an_edited_line_keeps_its_place() {
        let m = LineMap::between(CHECKED, "a\nb + 1;\nc\nd\n");
        assert_eq!(m.now(2), Some(2));
        assert_eq!(m.checked(2), Some(2));
        // Edited and a line inserted above it.
        let m = LineMap::between(CHECKED, "x\na\nb + 1;\nc\nd\n");
        assert_eq!(m.now(2), Some(3));
        assert_eq!(m.now(4), Some(5));
    }

    #[test]
    fn lines_out_of_range_map_to_nothing() {
        let m = LineMap::between(CHECKED, CHECKED);
        assert_eq!(m.now(0), None);
        assert_eq!(m.now(5), None);
        assert_eq!(m.checked(9), None);
        assert_eq!(m.now(3), Some(3));
    }
}
