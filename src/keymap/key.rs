//! [`Key`]: a key as the table writes it, which key events it matches, and how it is written
//! on screen (the help's labels are derived from the keys, never typed beside them).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key as written in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A character, with or without Shift.
    Char(char),
    /// Ctrl plus a character.
    Ctrl(char),
    /// Alt plus a character (terminals send Esc then the character).
    Alt(char),
    /// A named key without Ctrl or Alt (with or without Shift: a `Shift` row for the same key
    /// earlier in the table takes the shifted one).
    Code(KeyCode),
    /// Shift plus a named key, without Ctrl or Alt.
    Shift(KeyCode),
    /// Ctrl plus a named key (an arrow), with or without Shift (as [`Key::Code`]).
    CtrlCode(KeyCode),
    /// Ctrl and Shift plus a named key.
    CtrlShift(KeyCode),
    /// Alt plus a named key (an arrow, Backspace).
    AltCode(KeyCode),
    /// Any printable character without Ctrl or Alt: text typed (a line for it, last in its
    /// context, so that every key the program answers has its line).
    Text,
}

impl Key {
    /// Whether the key event `ev` is this key.
    pub fn matches(self, ev: &KeyEvent) -> bool {
        let ctrl_alt = ev.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
        let shift = ev.modifiers.contains(KeyModifiers::SHIFT);
        match self {
            Key::Char(c) => ev.code == KeyCode::Char(c) && ctrl_alt.is_empty(),
            Key::Ctrl(c) => {
                ev.code == KeyCode::Char(c) && ev.modifiers.contains(KeyModifiers::CONTROL)
            }
            Key::Alt(c) => ev.code == KeyCode::Char(c) && ctrl_alt == KeyModifiers::ALT,
            Key::Code(code) => ev.code == code && ctrl_alt.is_empty(),
            Key::Shift(code) => ev.code == code && ctrl_alt.is_empty() && shift,
            Key::CtrlCode(code) => ev.code == code && ctrl_alt == KeyModifiers::CONTROL,
            Key::CtrlShift(code) => ev.code == code && ctrl_alt == KeyModifiers::CONTROL && shift,
            Key::AltCode(code) => ev.code == code && ctrl_alt == KeyModifiers::ALT,
            Key::Text => {
                matches!(ev.code, KeyCode::Char(c) if !c.is_control()) && ctrl_alt.is_empty()
            }
        }
    }

    /// How the key is written on screen: `k`, `Ctrl-R`, `Alt-↑`, `Shift-PgDn`.
    pub fn label(self) -> String {
        match self {
            Key::Char(c) => char_label(c),
            // `Ctrl('Z')` is the key with Shift held (the terminal sends the capital).
            Key::Ctrl(c) if c.is_ascii_uppercase() => format!("Ctrl-Shift-{}", char_label(c)),
            Key::Ctrl(c) => format!("Ctrl-{}", char_label(c.to_ascii_uppercase())),
            Key::Alt(c) => format!("Alt-{}", char_label(c.to_ascii_uppercase())),
            Key::Code(code) => code_label(code),
            Key::Shift(code) => format!("Shift-{}", code_label(code)),
            Key::CtrlCode(code) => format!("Ctrl-{}", code_label(code)),
            Key::CtrlShift(code) => format!("Ctrl-Shift-{}", code_label(code)),
            Key::AltCode(code) => format!("Alt-{}", code_label(code)),
            Key::Text => "text".to_string(),
        }
    }
}

fn char_label(c: char) -> String {
    match c {
        ' ' => "Space".to_string(),
        c => c.to_string(),
    }
}

fn code_label(code: KeyCode) -> String {
    match code {
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::Backspace => "Bksp".into(),
        KeyCode::Delete => "Del".into(),
        KeyCode::BackTab => "Shift-Tab".into(),
        KeyCode::F(n) => format!("F{n}"),
        KeyCode::Char(c) => char_label(c),
        other => format!("{other}"),
    }
}

/// The labels of `keys`, joined by spaces; a run of three or more characters in a row (`a b c
/// d`, `1 … 9`) is written `a-d`.
pub fn label(keys: &[Key]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < keys.len() {
        let run = run_length(&keys[i..]);
        match (keys[i], keys.get(i + run - 1)) {
            (Key::Char(first), Some(Key::Char(last))) if run >= 3 => {
                out.push(format!("{first}-{last}"));
                i += run;
            }
            (key, _) => {
                out.push(key.label());
                i += 1;
            }
        }
    }
    out.join(" ")
}

/// How many plain characters from the start of `keys` follow each other (`a`, `b`, `c`).
fn run_length(keys: &[Key]) -> usize {
    let mut n = 1;
    while let (Some(Key::Char(a)), Some(Key::Char(b))) = (keys.get(n - 1), keys.get(n)) {
        if u32::from(*b) != u32::from(*a) + 1 {
            break;
        }
        n += 1;
    }
    n
}

/// The first key's label, for a one-line hint (`Alt-←`); empty without keys.
pub fn short(keys: &[Key]) -> String {
    keys.first().map(|k| k.label()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capital_after_ctrl_is_labelled_with_shift() {
        assert_eq!(
            label(&[Key::Ctrl('y'), Key::Ctrl('Z')]),
            "Ctrl-Y Ctrl-Shift-Z"
        );
        assert_eq!(label(&[Key::Ctrl('z')]), "Ctrl-Z");
    }

    #[test]
    fn labels_come_from_the_keys() {
        assert_eq!(label(&[Key::Code(KeyCode::Up), Key::Char('k')]), "↑ k");
        assert_eq!(
            label(&[Key::Ctrl('r'), Key::Code(KeyCode::F(5))]),
            "Ctrl-R F5"
        );
        assert_eq!(label(&[Key::Shift(KeyCode::PageDown)]), "Shift-PgDn");
        let abcd = [
            Key::Char('a'),
            Key::Char('b'),
            Key::Char('c'),
            Key::Char('d'),
        ];
        assert_eq!(label(&abcd), "a-d");
        assert_eq!(label(&[Key::Char('a'), Key::Char('b')]), "a b");
        assert_eq!(
            label(&[Key::Code(KeyCode::PageDown), Key::Char(' ')]),
            "PgDn Space"
        );
    }

    #[test]
    fn shift_rows_take_only_the_shifted_key() {
        let up = KeyEvent::new(KeyCode::Up, KeyModifiers::NONE);
        let shift_up = KeyEvent::new(KeyCode::Up, KeyModifiers::SHIFT);
        assert!(!Key::Shift(KeyCode::Up).matches(&up));
        assert!(Key::Shift(KeyCode::Up).matches(&shift_up));
        let ctrl_shift = KeyEvent::new(KeyCode::End, KeyModifiers::CONTROL | KeyModifiers::SHIFT);
        assert!(Key::CtrlShift(KeyCode::End).matches(&ctrl_shift));
        assert!(
            !Key::CtrlShift(KeyCode::End)
                .matches(&KeyEvent::new(KeyCode::End, KeyModifiers::CONTROL))
        );
    }
}
