//! The colours of highlighted code: a syntect theme built in code from the base16-ocean-dark
//! palette (reads well on dark terminals), and the conversion of syntect styles to ratatui.
//!
//! Built in code rather than loaded from syntect's theme dump because `ThemeSet::load_defaults`
//! goes through `dumps::from_binary`, which unwraps; a selector that fails to parse is skipped.

use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};

use crate::theme::Theme;
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
        "variable.language, variable.parameter, variable.other.shell, support.constant",
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

/// A syntect style as a ratatui style: the foreground colour (when `theme.color`; 24-bit only
/// when `theme.truecolor`, else the nearest xterm-256 colour) and the font modifiers; the
/// background is left to the terminal.
pub(crate) fn to_ratatui(style: syntect::highlighting::Style, theme: Theme) -> Style {
    let mut out = Style::new();
    let fg = style.foreground;
    if theme.color && fg.a != 0 {
        out = out.fg(if theme.truecolor {
            Color::Rgb(fg.r, fg.g, fg.b)
        } else {
            Color::Indexed(nearest_xterm256(fg.r, fg.g, fg.b))
        });
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

/// The xterm-256 index nearest to an RGB colour: the 6x6x6 cube (16-231) or the 24 greys
/// (232-255), by squared distance. The 16 system colours are left out: terminals redefine them.
pub fn nearest_xterm256(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [i32; 6] = [0, 95, 135, 175, 215, 255];
    let nearest_level = |v: u8| {
        (0..6)
            .min_by_key(|&i| (LEVELS[i] - i32::from(v)).abs())
            .unwrap_or(0)
    };
    let (ri, gi, bi) = (nearest_level(r), nearest_level(g), nearest_level(b));
    let dist = |(cr, cg, cb): (i32, i32, i32)| {
        (cr - i32::from(r)).pow(2) + (cg - i32::from(g)).pow(2) + (cb - i32::from(b)).pow(2)
    };
    let cube = (LEVELS[ri], LEVELS[gi], LEVELS[bi]);
    let mean = (i32::from(r) + i32::from(g) + i32::from(b)) / 3;
    // Grey i (0..24) is 8 + 10 i.
    let grey_step = ((mean - 8 + 5) / 10).clamp(0, 23);
    let grey = 8 + 10 * grey_step;
    // Both indices fit in a u8 by construction (at most 231 and 255).
    if dist((grey, grey, grey)) < dist(cube) {
        232 + grey_step as u8
    } else {
        16 + (36 * ri + 6 * gi + bi) as u8
    }
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
        let truecolor = Theme::new(true).with_truecolor(true);
        assert_eq!(to_ratatui(plain, truecolor), Style::new());
        let red_bold = syntect::highlighting::Style {
            foreground: RED,
            font_style: FontStyle::BOLD,
            ..plain
        };
        assert_eq!(
            to_ratatui(red_bold, truecolor).fg,
            Some(Color::Rgb(0xbf, 0x61, 0x6a))
        );
        // Without truecolor: 0xbf616a is nearest cube colour (175, 95, 95), index 131.
        assert_eq!(
            to_ratatui(red_bold, Theme::new(true)).fg,
            Some(Color::Indexed(131))
        );
        let no_colour = to_ratatui(red_bold, Theme::new(false));
        assert_eq!(no_colour.fg, None);
        assert!(no_colour.add_modifier.contains(Modifier::BOLD));
    }

    #[test]
    fn rgb_maps_to_the_nearest_xterm_256_colour() {
        assert_eq!(nearest_xterm256(0, 0, 0), 16);
        assert_eq!(nearest_xterm256(255, 255, 255), 231);
        assert_eq!(nearest_xterm256(255, 0, 0), 196);
        assert_eq!(nearest_xterm256(95, 135, 175), 16 + 36 + 12 + 3);
        // Greys between cube levels go to the grey ramp: 0x65737e's comment grey is bluish,
        // a pure grey of 128 is grey 12 (8 + 10 * 12 = 128).
        assert_eq!(nearest_xterm256(128, 128, 128), 244);
        assert_eq!(nearest_xterm256(0x65, 0x73, 0x7e), 243);
    }
}
