//! The line that says the editor's keys once, the first time the editor opens in a session
//! (walkthrough 2026-12-01b: "nothing says up front" which keys it uses). Every key in it is
//! read from the key table, with the action's own name, so the line follows the table when a
//! binding changes.

use crate::keymap::{Action, Ctx, first_key};

/// The keys the line names, most needed first: the app's own, then the editing ones whose
/// keys differ from editor to editor.
const SAID: &[Action] = &[
    Action::EditorCheck,
    Action::EditorHint,
    Action::EditUndo,
    Action::EditCopy,
    Action::EditPaste,
    Action::EditorSolution,
    Action::EditorLeave,
];

/// The editor's first key for `action`, as the table writes it (`None`: not bound there).
fn label(action: Action) -> Option<String> {
    Some(first_key(Ctx::Editor, action)).filter(|k| !k.is_empty())
}

/// The hint, at most `width` columns: as many of [`SAID`] as fit, in order, then where the
/// rest are listed (the help's key, always).
pub fn line(width: usize) -> String {
    let rest = label(Action::ToggleHelp).map_or_else(String::new, |k| format!("{k} all keys"));
    let mut out = String::from("Keys:");
    for action in SAID {
        let Some(key) = label(*action) else { continue };
        let piece = format!(" {key} {} ·", action.name());
        if out.chars().count() + piece.chars().count() + 1 + rest.chars().count() > width {
            break;
        }
        out.push_str(&piece);
    }
    out.push(' ');
    out.push_str(&rest);
    crate::text_fit::truncate(&out, width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_tables_keys_and_fits() {
        for width in [40, 64, 78, 118] {
            let hint = line(width);
            assert!(hint.chars().count() <= width, "{width}: {hint}");
            let help = label(Action::ToggleHelp).unwrap();
            assert_eq!(help, "F1");
            assert!(hint.ends_with(&format!("{help} all keys")), "{hint}");
        }
        let wide = line(200);
        for action in SAID {
            let key = label(*action).unwrap();
            assert!(wide.contains(&format!("{key} {}", action.name())), "{wide}");
        }
    }
}
