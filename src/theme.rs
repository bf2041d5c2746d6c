//! The one palette of the app. With colour off (`NO_COLOR`, `--color never`) every style keeps
//! only its modifiers (bold, italic, underline, reversed), so nothing depends on colour alone.
//! The app's own colours are the 16 named ones; 24-bit colours (highlighted code) are sent only
//! where the terminal says it shows them (`COLORTERM=truecolor` or `24bit`), else their nearest
//! xterm-256 index.

use ratatui::style::{Color, Modifier, Style};

use crate::report::OpKind;

/// Whether to use colour, and whether 24-bit colour may be sent; see [`Theme::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Theme {
    pub color: bool,
    /// 24-bit colours as they are; else mapped to the 256-colour palette.
    pub truecolor: bool,
}

impl Theme {
    /// Colour on or off, 256 colours at most (what every colour terminal shows).
    pub const fn new(color: bool) -> Self {
        Theme {
            color,
            truecolor: false,
        }
    }

    /// The same, with 24-bit colour allowed or not.
    pub const fn with_truecolor(self, truecolor: bool) -> Self {
        Theme { truecolor, ..self }
    }

    /// Whether the terminal says it shows 24-bit colour: `COLORTERM` is `truecolor` or `24bit`
    /// (the convention terminals set; there is no reliable query).
    pub fn truecolor_from_env() -> bool {
        truecolor_in(std::env::var("COLORTERM").ok().as_deref())
    }

    fn pick(&self, color: Color, modifiers: Modifier) -> Style {
        let style = Style::new().add_modifier(modifiers);
        if self.color { style.fg(color) } else { style }
    }

    pub fn text(&self) -> Style {
        Style::new()
    }
    /// Secondary text: hints, footers, units.
    pub fn muted(&self) -> Style {
        self.pick(Color::DarkGray, Modifier::empty())
    }
    pub fn heading(&self, level: u8) -> Style {
        match level {
            1 => self.pick(Color::LightGreen, Modifier::BOLD | Modifier::UNDERLINED),
            2 => self.pick(Color::LightGreen, Modifier::BOLD),
            _ => self.pick(Color::Green, Modifier::BOLD),
        }
    }
    pub fn emphasis(&self) -> Style {
        Style::new().add_modifier(Modifier::ITALIC)
    }
    pub fn strong(&self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }
    pub fn inline_code(&self) -> Style {
        self.pick(Color::LightYellow, Modifier::empty())
    }
    pub fn link(&self) -> Style {
        self.pick(Color::LightBlue, Modifier::UNDERLINED)
    }
    pub fn quote(&self) -> Style {
        self.pick(Color::Gray, Modifier::ITALIC)
    }
    /// The focused pane's border and the selected item (reversed, so it shows without colour).
    pub fn focus(&self) -> Style {
        self.pick(Color::LightCyan, Modifier::BOLD)
    }
    pub fn selected(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }
    pub fn correct(&self) -> Style {
        self.pick(Color::LightGreen, Modifier::BOLD)
    }
    pub fn wrong(&self) -> Style {
        self.pick(Color::LightRed, Modifier::BOLD)
    }
    pub fn warning(&self) -> Style {
        self.pick(Color::Yellow, Modifier::BOLD)
    }
    pub fn error(&self) -> Style {
        self.pick(Color::LightRed, Modifier::BOLD)
    }
    /// Timeline bars; each kind also has its own glyph (see [`Theme::op_glyph`]).
    pub fn op(&self, kind: OpKind) -> Style {
        match kind {
            OpKind::H2d => self.pick(Color::LightBlue, Modifier::empty()),
            OpKind::D2h => self.pick(Color::LightMagenta, Modifier::empty()),
            OpKind::Kernel => self.pick(Color::LightGreen, Modifier::empty()),
            OpKind::Host => self.pick(Color::Gray, Modifier::empty()),
        }
    }
    /// The glyph that fills a timeline bar, so kinds read apart without colour.
    pub fn op_glyph(kind: OpKind) -> char {
        match kind {
            OpKind::H2d => '▶',
            OpKind::D2h => '◀',
            OpKind::Kernel => '█',
            OpKind::Host => '·',
        }
    }
}

/// Whether a `COLORTERM` value announces 24-bit colour.
fn truecolor_in(colorterm: Option<&str>) -> bool {
    matches!(colorterm, Some(v) if v.eq_ignore_ascii_case("truecolor") || v.eq_ignore_ascii_case("24bit"))
}

#[cfg(test)]
mod truecolor_tests {
    use super::*;

    #[test]
    fn only_truecolor_and_24bit_announce_24_bit_colour() {
        assert!(truecolor_in(Some("truecolor")) && truecolor_in(Some("24bit")));
        assert!(!truecolor_in(None) && !truecolor_in(Some("")) && !truecolor_in(Some("yes")));
        assert!(!Theme::new(true).truecolor);
        assert!(Theme::new(true).with_truecolor(true).truecolor);
    }
}
