//! The file changed outside while the editor was open (another instance, `$EDITOR` in another
//! window, the learner's own editor through Ctrl-E). The editor's text stays the truth: the
//! disk's text replaces it without asking only when nothing typed would be lost (the editor
//! held exactly what it last read or wrote), and only the learner's own editor's save is checked
//! at once. Otherwise a prompt offers "keep mine" (Alt-K: the next save replaces the file),
//! "load theirs" (Alt-L: the editor's text is kept in a recovery file first) and "compare"
//! (Alt-C: the diff). The prompt appears on its own while the learner may be typing, so it
//! takes no typed key: typing goes on into the text (see [`Exercises::prompt`]). Saves are refused meanwhile (the shell compares the
//! file's stamp), so two instances never reload and re-save each other, and a file the editor
//! cannot load (Latin-1, binary, over the cap) is left as it is on disk.
//!
//! The same module answers the y/n asked when quitting would lose the text.

use super::{
    EditorCtx, EditorEffect, EditorState, Exercises, Stamp, banner, cmds, normal, put_cursor,
    text_area,
};
use crate::app::{BannerKind, Cmd, ExerciseCmd};
use crate::keymap::{Action, Ctx, first_key};

/// An answer to one of the editor's prompts, or the diff's scrolling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptAction {
    /// Alt-K: keep the editor's text.
    Keep,
    /// Alt-L: load the file's text (the editor's is kept in a recovery file first).
    Load,
    /// Alt-C: show or hide the diff.
    Compare,
    /// ↑↓ PgUp PgDn in the diff: scroll it by this many lines.
    DiffScroll(isize),
    /// Esc in the diff.
    DiffClose,
    /// y: quit although the text cannot be kept.
    QuitYes,
    /// n, Esc: don't.
    QuitNo,
}

/// The disk's version, while the learner decides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The file's text, or why it cannot be loaded.
    pub theirs: Result<String, String>,
    /// The file's stamp when it was read.
    pub stamp: Option<Stamp>,
    /// The diff (mine against theirs) while it is shown.
    pub diff: Option<Vec<DiffLine>>,
    /// First diff line shown.
    pub diff_top: usize,
}

/// One line of the diff view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffLine {
    Both(String),
    /// Only in the editor.
    Mine(String),
    /// Only on disk.
    Theirs(String),
}

/// Most cells of the line-matching table (beyond it, the differing middle is shown as all
/// removed, then all added).
const DIFF_CELLS: usize = 1 << 22;

/// The lines of `mine` and `theirs`, matched (common prefix and suffix, and a longest common
/// subsequence of the middle when it is small enough).
pub fn diff(mine: &str, theirs: &str) -> Vec<DiffLine> {
    let a: Vec<&str> = mine.lines().collect();
    let b: Vec<&str> = theirs.lines().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (am, bm) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut out: Vec<DiffLine> = a[..prefix]
        .iter()
        .map(|l| DiffLine::Both((*l).to_string()))
        .collect();
    if am.len().saturating_mul(bm.len()) <= DIFF_CELLS {
        // lcs[i][j]: the longest common subsequence of am[i..] and bm[j..].
        let w = bm.len() + 1;
        let mut lcs = vec![0u32; (am.len() + 1) * w];
        for i in (0..am.len()).rev() {
            for j in (0..bm.len()).rev() {
                lcs[i * w + j] = if am[i] == bm[j] {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < am.len() || j < bm.len() {
            if i < am.len() && j < bm.len() && am[i] == bm[j] {
                out.push(DiffLine::Both(am[i].to_string()));
                i += 1;
                j += 1;
            } else if j < bm.len() && (i == am.len() || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j])
            {
                out.push(DiffLine::Theirs(bm[j].to_string()));
                j += 1;
            } else {
                out.push(DiffLine::Mine(am[i].to_string()));
                i += 1;
            }
        }
    } else {
        out.extend(am.iter().map(|l| DiffLine::Mine((*l).to_string())));
        out.extend(bm.iter().map(|l| DiffLine::Theirs((*l).to_string())));
    }
    out.extend(
        a[a.len() - suffix..]
            .iter()
            .map(|l| DiffLine::Both((*l).to_string())),
    );
    out
}

impl Exercises {
    /// The shell found the file on disk different from what the editor last read or wrote.
    pub(super) fn on_changed_outside(
        &mut self,
        (id, theirs, stamp, external): (&str, Result<String, String>, Option<Stamp>, bool),
        ctx: &EditorCtx,
    ) -> Vec<EditorEffect> {
        let Some(ed) = self.editor.as_mut().filter(|e| e.id == id) else {
            return Vec::new();
        };
        ed.leaving = false;
        let theirs = theirs.map(|t| normal(&t));
        if let Ok(text) = &theirs
            && Some(text) == ed.saved.as_ref()
        {
            // Touched, or saved with the same text (another instance): nothing to take.
            ed.stamp = stamp;
            ed.conflict = None;
            return Vec::new();
        }
        match theirs {
            Ok(text) if !ed.dirty() && ed.conflict.is_none() => {
                reload(ed, &text, stamp);
                if external {
                    return cmds(self.check(ctx));
                }
                vec![banner(
                    BannerKind::Info,
                    "the exercise file changed outside and was loaded (the editor had no unsaved changes)",
                )]
            }
            theirs => {
                let mut effects = Vec::new();
                if let Err(why) = &theirs {
                    let whose = if external {
                        "your editor's save"
                    } else {
                        "the file on disk"
                    };
                    effects.push(banner(
                        BannerKind::Warning,
                        format!(
                            "{whose} cannot be loaded: {why}; it is left as it is, and the text here is kept"
                        ),
                    ));
                }
                ed.conflict = Some(Conflict {
                    theirs,
                    stamp,
                    diff: None,
                    diff_top: 0,
                });
                effects
            }
        }
    }

    /// An answer to a prompt (the key table binds each: `Ctx::Editor` for the "file changed
    /// outside" prompt's Alt keys, `Ctx::EditorDiff` while its diff covers the code,
    /// `Ctx::QuitPrompt` for the y/n asked when quitting would lose the text).
    ///
    /// The "file changed outside" prompt appears on its own, between two keys of whatever the
    /// learner is typing (review 2026-12-01b ED5: the `l` of "float" loaded the disk's text and
    /// the unsaved line was gone). So, as editors whose notice of an outside change is not modal
    /// (VS Code's notification, JetBrains' banner), it takes no typing: typed keys go on into
    /// the text, and the answers are Alt keys that type nothing (Alt-K keep mine, Alt-L load
    /// theirs, Alt-C compare); with no prompt up they do nothing. Only the diff, which covers
    /// the code, takes the keys while it is shown (its scrolling; nothing is typed unseen).
    pub(super) fn prompt(&mut self, answer: PromptAction) -> Vec<EditorEffect> {
        let Some(ed) = self.editor.as_mut() else {
            return Vec::new();
        };
        match answer {
            PromptAction::QuitYes if ed.quit_prompt.is_some() => {
                self.quit_anyway = true;
                return vec![EditorEffect::Cmd(Cmd::Quit)];
            }
            PromptAction::QuitNo => ed.quit_prompt = None,
            PromptAction::Keep if ed.conflict.is_some() => return self.keep_mine(),
            PromptAction::Load if ed.conflict.is_some() => return self.load_theirs(),
            PromptAction::Compare => return self.toggle_diff(),
            PromptAction::DiffScroll(lines) => {
                if let Some(c) = ed.conflict.as_mut() {
                    c.diff_top = c.diff_top.saturating_add_signed(lines);
                }
            }
            PromptAction::DiffClose => {
                if let Some(c) = ed.conflict.as_mut() {
                    c.diff = None;
                }
            }
            _ => {}
        }
        Vec::new()
    }

    /// Alt-C: show the diff of the editor's text and the disk's, or hide it.
    fn toggle_diff(&mut self) -> Vec<EditorEffect> {
        let Some(ed) = self.editor.as_mut() else {
            return Vec::new();
        };
        let mine = ed.text().unwrap_or_default();
        let Some(conflict) = ed.conflict.as_mut() else {
            return Vec::new();
        };
        match &conflict.theirs {
            Ok(theirs) => {
                conflict.diff = match conflict.diff {
                    Some(_) => None,
                    None => Some(diff(&mine, theirs)),
                };
                conflict.diff_top = 0;
                Vec::new()
            }
            Err(why) => {
                let text = format!("no diff: the file on disk cannot be loaded: {why}");
                vec![banner(BannerKind::Info, text)]
            }
        }
    }

    /// Esc while a prompt is up: close the diff, or answer "no" to quitting; `false` when no
    /// prompt took it.
    pub(super) fn prompt_escape(&mut self) -> bool {
        let Some(ed) = self.editor.as_mut() else {
            return false;
        };
        if ed.quit_prompt.take().is_some() {
            return true;
        }
        match ed.conflict.as_mut() {
            Some(c) if c.diff.is_some() => {
                c.diff = None;
                true
            }
            _ => false,
        }
    }

    /// Alt-K: the editor's text stays; the next save replaces the file (its stamp is taken as
    /// seen; a FIFO or device in the file's place is not replaced, and that save says so).
    fn keep_mine(&mut self) -> Vec<EditorEffect> {
        let Some(ed) = self.editor.as_mut() else {
            return Vec::new();
        };
        let Some(c) = ed.conflict.take() else {
            return Vec::new();
        };
        ed.stamp = c.stamp;
        ed.saved = c.theirs.ok();
        vec![banner(
            BannerKind::Info,
            format!(
                "kept your text; it replaces the file on disk when saved ({}, {}, Esc, quit)",
                first_key(Ctx::Editor, Action::EditSave),
                first_key(Ctx::Editor, Action::EditorCheck)
            ),
        )]
    }

    /// Alt-L: the disk's text replaces the editor's (when it can be loaded); the editor's text
    /// goes to a recovery file first (the shell says where), so the choice loses nothing.
    fn load_theirs(&mut self) -> Vec<EditorEffect> {
        let Some(ed) = self.editor.as_mut() else {
            return Vec::new();
        };
        let Some(c) = ed.conflict.as_ref() else {
            return Vec::new();
        };
        match c.theirs.clone() {
            Ok(text) => {
                let stamp = c.stamp;
                let mine = ed.text();
                ed.conflict = None;
                reload(ed, &text, stamp);
                mine.filter(|m| normal(m) != normal(&text))
                    .map(|text| {
                        EditorEffect::Cmd(Cmd::Exercise(ExerciseCmd::KeepCopy {
                            id: ed.id.clone(),
                            text,
                        }))
                    })
                    .into_iter()
                    .collect()
            }
            Err(why) => vec![banner(
                BannerKind::Error,
                format!(
                    "cannot load the file on disk: {why}; fix it in your editor, or press {} to keep the text here",
                    first_key(Ctx::Editor, Action::ConflictKeep)
                ),
            )],
        }
    }
}

/// Put `text` (the disk's) in the editor, the cursor where it was.
fn reload(ed: &mut EditorState, text: &str, stamp: Option<Stamp>) {
    let mut area = text_area(text);
    if let Some(c) = ed.cursor() {
        put_cursor(&mut area, c);
    }
    ed.area = Some(area);
    ed.saved = Some(normal(text));
    ed.stamp = stamp;
    ed.remap();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diff_keeps_common_lines_and_marks_each_side() {
        let d = diff("a\nb\nc\nd\n", "a\nx\nc\nd\ne\n");
        assert_eq!(
            d,
            vec![
                DiffLine::Both("a".into()),
                DiffLine::Theirs("x".into()),
                DiffLine::Mine("b".into()),
                DiffLine::Both("c".into()),
                DiffLine::Both("d".into()),
                DiffLine::Theirs("e".into()),
            ]
        );
        assert_eq!(
            diff("same\n", "same\n"),
            vec![DiffLine::Both("same".into())]
        );
    }
}
