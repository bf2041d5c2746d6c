//! Whether to draw links as OSC 8 hyperlinks: `--hyperlinks`, else `CUDA_ACADEMY_HYPERLINKS`,
//! else a guess from the environment.
//!
//! A terminal that does not know OSC 8 should ignore it, but some old ones print the URL or
//! garbage, so `auto` turns hyperlinks on only for terminals known to support them (their
//! own environment variables say which they are). Inside tmux the outer terminal's variables
//! may have leaked in from the shell that started tmux, and tmux (3.4 on) passes OSC 8 on only
//! when its `terminal-features` include `hyperlinks` for the client: there, tmux is asked.
//! `NO_COLOR` has nothing to do with links and is not looked at.

use std::process::Command;

/// The environment variable that chooses when `--hyperlinks` is not given.
pub const ENV: &str = "CUDA_ACADEMY_HYPERLINKS";

/// `--hyperlinks` and `CUDA_ACADEMY_HYPERLINKS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HyperlinkChoice {
    /// On for terminals known to support OSC 8.
    Auto,
    /// Always on.
    Always,
    /// Never: plain text (the links overlay still lists every URL).
    Never,
}

impl HyperlinkChoice {
    /// `auto`, `always` or `never` (any case, spaces around ignored); `None` for anything else.
    pub fn parse(text: &str) -> Option<HyperlinkChoice> {
        match text.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(HyperlinkChoice::Auto),
            "always" => Some(HyperlinkChoice::Always),
            "never" => Some(HyperlinkChoice::Never),
            _ => None,
        }
    }
}

/// The decision for this process: the flag, else the environment variable (an unknown value
/// counts as `auto`), else the terminal's environment; asks tmux when inside it.
pub fn enabled(flag: Option<HyperlinkChoice>) -> bool {
    decide(flag, &|name| std::env::var(name).ok(), &tmux_features)
}

/// The decision from `flag`, the environment `env` and, inside tmux, `tmux_features` (the
/// client's terminal features, comma-separated).
pub fn decide(
    flag: Option<HyperlinkChoice>,
    env: &dyn Fn(&str) -> Option<String>,
    tmux_features: &dyn Fn() -> Option<String>,
) -> bool {
    let choice = flag
        .or_else(|| env(ENV).as_deref().and_then(HyperlinkChoice::parse))
        .unwrap_or(HyperlinkChoice::Auto);
    match choice {
        HyperlinkChoice::Always => true,
        HyperlinkChoice::Never => false,
        HyperlinkChoice::Auto => terminal_supports(env, tmux_features),
    }
}

/// Terminals that draw OSC 8 links, named by `TERM_PROGRAM`.
const PROGRAMS: &[&str] = &["iTerm.app", "WezTerm", "vscode", "ghostty"];
/// `TERM` values (or their starts) of terminals that draw OSC 8 links.
const TERMS: &[&str] = &[
    "xterm-kitty",
    "kitty",
    "foot",
    "alacritty",
    "wezterm",
    "xterm-ghostty",
];
/// VTE (GNOME Terminal, Tilix, ...) draws them from 0.50, `VTE_VERSION` 5000.
const VTE_FROM: u32 = 5000;

fn terminal_supports(
    env: &dyn Fn(&str) -> Option<String>,
    tmux_features: &dyn Fn() -> Option<String>,
) -> bool {
    let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
    let term = env("TERM").unwrap_or_default();
    if set("TMUX") {
        return tmux_features()
            .is_some_and(|features| features.split(',').any(|f| f.trim() == "hyperlinks"));
    }
    if term == "dumb" {
        return false;
    }
    let program = env("TERM_PROGRAM").unwrap_or_default();
    let vte = env("VTE_VERSION").and_then(|v| v.trim().parse::<u32>().ok());
    PROGRAMS.contains(&program.as_str())
        || vte.is_some_and(|v| v >= VTE_FROM)
        || set("KITTY_WINDOW_ID")
        || set("WT_SESSION")
        || TERMS.iter().any(|t| term.starts_with(t))
}

/// The features tmux knows for the client it shows us on, or `None` when it cannot say (tmux
/// before 3.2 has no `client_termfeatures`; then no hyperlinks).
/// tmux is asked with a time limit ([`TMUX_LIMIT`]): one that does not answer means no
/// hyperlinks, never a tutorial that does not start.
fn tmux_features() -> Option<String> {
    let mut command = Command::new("tmux");
    command.args(["display-message", "-p", "#{client_termfeatures}"]);
    let (status, out) = super::child::output_within(command, TMUX_LIMIT)?;
    status
        .success()
        .then(|| String::from_utf8_lossy(&out).trim().to_string())
}

/// How long tmux may take to answer (it answers in milliseconds; at a tiny `ulimit -n` it
/// hung forever: review 2026-12-01 U5).
const TMUX_LIMIT: std::time::Duration = std::time::Duration::from_millis(500);

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)], flag: Option<HyperlinkChoice>, tmux: Option<&str>) -> bool {
        let env = |name: &str| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        };
        let tmux = || tmux.map(str::to_string);
        decide(flag, &env, &tmux)
    }

    #[test]
    fn auto_knows_the_terminals_that_draw_osc_8() {
        let table: &[(&[(&str, &str)], bool)] = &[
            (&[("TERM_PROGRAM", "iTerm.app")], true),
            (&[("TERM_PROGRAM", "WezTerm")], true),
            (&[("TERM_PROGRAM", "vscode")], true),
            (&[("TERM_PROGRAM", "ghostty")], true),
            (&[("TERM_PROGRAM", "Apple_Terminal")], false),
            (&[("VTE_VERSION", "7200"), ("TERM", "xterm-256color")], true),
            (&[("VTE_VERSION", "4803")], false),
            (&[("VTE_VERSION", "junk")], false),
            (&[("KITTY_WINDOW_ID", "1")], true),
            (&[("KITTY_WINDOW_ID", "")], false),
            (&[("WT_SESSION", "b0e2…")], true),
            (&[("TERM", "xterm-kitty")], true),
            (&[("TERM", "foot-extra")], true),
            (&[("TERM", "alacritty")], true),
            (&[("TERM", "wezterm")], true),
            (&[("TERM", "xterm-ghostty")], true),
            (&[("TERM", "xterm-256color")], false),
            (&[("TERM", "linux")], false),
            (&[], false),
            // A dumb terminal gets none, whatever leaked into its environment.
            (&[("TERM", "dumb"), ("TERM_PROGRAM", "vscode")], false),
            // NO_COLOR is about colour only.
            (&[("TERM", "xterm-kitty"), ("NO_COLOR", "1")], true),
        ];
        for (vars, expected) in table {
            assert_eq!(with(vars, None, None), *expected, "{vars:?}");
        }
    }

    #[test]
    fn inside_tmux_only_tmux_decides() {
        // The outer terminal's variables leak into tmux; tmux must say it passes links on.
        let inside = [
            ("TMUX", "/tmp/tmux-0/default,1,0"),
            ("TERM_PROGRAM", "tmux"),
        ];
        let leaked = [
            ("TMUX", "/tmp/tmux-0/default,1,0"),
            ("KITTY_WINDOW_ID", "3"),
        ];
        assert!(with(
            &inside,
            None,
            Some("256,RGB,clipboard,hyperlinks,title")
        ));
        assert!(!with(&inside, None, Some("256,RGB,clipboard,title")));
        assert!(!with(&leaked, None, None), "tmux could not be asked");
        assert!(with(&leaked, Some(HyperlinkChoice::Always), None));
    }

    #[test]
    fn the_flag_beats_the_variable_which_beats_the_guess() {
        let kitty = ("TERM", "xterm-kitty");
        assert!(!with(&[kitty, (ENV, "never")], None, None));
        assert!(with(&[(ENV, "ALWAYS ")], None, None));
        assert!(with(
            &[kitty, (ENV, "never")],
            Some(HyperlinkChoice::Always),
            None
        ));
        assert!(!with(&[kitty], Some(HyperlinkChoice::Never), None));
        assert!(!with(&[(ENV, "auto")], None, None));
        // An unknown value is auto.
        assert!(with(&[kitty, (ENV, "yes please")], None, None));
        assert!(with(
            &[("TERM", "dumb")],
            Some(HyperlinkChoice::Always),
            None
        ));
    }
}
