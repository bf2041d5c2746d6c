//! The colours of highlighted code: a syntect theme built in code from the base16-ocean-dark
//! palette (reads well on dark terminals), and the conversion of syntect styles to ratatui.
//!
//! Built in code rather than loaded from syntect's theme dump because `ThemeSet::load_defaults`
//! goes through `dumps::from_binary`, which unwraps; a selector that fails to parse is skipped.

use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use syntect::highlighting::{
    Color as SynColor, FontStyle, ScopeSelectors, StyleModifier, Theme as SynTheme, ThemeItem,
    ThemeSettings,
};

/// Alpha 0 marks "no colour": plain text keeps the terminal's own foreground, so it also reads
/// on light terminals.
const DEFAULT_FG: SynColor = SynColor {
    r: 0,
    g: 0,
    b: 0,
    a: 0,
};

const fn rgb(hex: u32) -> SynColor {
    SynColor {
        r: (hex >> 16) as u8,
        g: (hex >> 8) as u8,
        b: hex as u8,
        a: 0xff,
    }
}

// base16-ocean-dark (Chris Kempson): base03 comment, 08 red, 09 orange, 0A yellow, 0B green,
// 0C cyan, 0D blue, 0E purple.
const COMMENT: SynColor = rgb(0x65737e);
const RED: SynColor = rgb(0xbf616a);
const ORANGE: SynColor = rgb(0xd08770);
const YELLOW: SynColor = rgb(0xebcb8b);
const GREEN: SynColor = rgb(0xa3be8c);
const CYAN: SynColor = rgb(0x96b5b4);
const BLUE: SynColor = rgb(0x8fa1b3);
const PURPLE: SynColor = rgb(0xb48ead);

/// Scope selectors and their colour; the more specific CUDA scopes come after the general ones
/// so they win (syntect ranks by selector specificity, then order).
const RULES: &[(&str, SynColor, FontStyle)] = &[
    (
        "comment, punctuation.definition.comment",
        COMMENT,
        FontStyle::ITALIC,
    ),
    (
        "string, constant.character, punctuation.definition.string",
        GREEN,
        FontStyle::empty(),
    ),
    (
        "constant.numeric, constant.language, constant.other",
        ORANGE,
        FontStyle::empty(),
    ),
    ("keyword, storage.modifier", PURPLE, FontStyle::empty()),
    ("keyword.operator", CYAN, FontStyle::empty()),
    (
        "storage.type, support.type, entity.name.type, entity.name.class",
        YELLOW,
        FontStyle::empty(),
    ),
    (
        "entity.name.function, variable.function, support.function, support.macro",
        BLUE,
        FontStyle::empty(),
    ),
    (
        "variable.language, variable.parameter, support.constant",
        RED,
        FontStyle::empty(),
    ),
    (
        "entity.name.tag, meta.preprocessor, keyword.control.import",
        PURPLE,
        FontStyle::empty(),
    ),
    ("storage.modifier.cuda", RED, FontStyle::BOLD),
    ("keyword.operator.launch.cuda", CYAN, FontStyle::BOLD),
    ("support.function.builtin.cuda", CYAN, FontStyle::empty()),
    ("support.constant.cuda", ORANGE, FontStyle::empty()),
    ("variable.language.cuda", RED, FontStyle::empty()),
];

/// The syntect theme the highlighter uses.
pub(crate) fn theme() -> SynTheme {
    let scopes = RULES
        .iter()
        .filter_map(|(selector, colour, font)| {
            Some(ThemeItem {
                scope: ScopeSelectors::from_str(selector).ok()?,
                style: StyleModifier {
                    foreground: Some(*colour),
                    background: None,
                    font_style: Some(*font),
                },
            })
        })
        .collect();
    SynTheme {
        name: Some("cuda-academy (base16-ocean-dark)".to_string()),
        author: None,
        settings: ThemeSettings {
            foreground: Some(DEFAULT_FG),
            ..ThemeSettings::default()
        },
        scopes,
    }
}

/// A syntect style as a ratatui style: the foreground colour (when `color`) and the font
/// modifiers; the background is left to the terminal.
pub(crate) fn to_ratatui(style: syntect::highlighting::Style, color: bool) -> Style {
    let mut out = Style::new();
    let fg = style.foreground;
    if color && fg.a != 0 {
        out = out.fg(Color::Rgb(fg.r, fg.g, fg.b));
    }
    let font = style.font_style;
    if font.contains(FontStyle::BOLD) {
        out = out.add_modifier(Modifier::BOLD);
    }
    if font.contains(FontStyle::ITALIC) {
        out = out.add_modifier(Modifier::ITALIC);
    }
    if font.contains(FontStyle::UNDERLINE) {
        out = out.add_modifier(Modifier::UNDERLINED);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_selector_parses() {
        assert_eq!(theme().scopes.len(), RULES.len());
    }

    #[test]
    fn default_foreground_maps_to_no_colour_and_colour_off_drops_colours() {
        let plain = syntect::highlighting::Style {
            foreground: DEFAULT_FG,
            background: DEFAULT_FG,
            font_style: FontStyle::empty(),
        };
        assert_eq!(to_ratatui(plain, true), Style::new());
        let red_bold = syntect::highlighting::Style {
            foreground: RED,
            font_style: FontStyle::BOLD,
            ..plain
        };
        assert_eq!(
            to_ratatui(red_bold, true).fg,
            Some(Color::Rgb(0xbf, 0x61, 0x6a))
        );
        let no_colour = to_ratatui(red_bold, false);
        assert_eq!(no_colour.fg, None);
        assert!(no_colour.add_modifier.contains(Modifier::BOLD));
    }
}
