//! Code reads as code (issue 7 §4): from 140 columns on, no code line of up to 80 columns wraps
//! in the card pane, on any card of the built-in lessons, and from 80 columns on none of theirs
//! does (a trailing comment goes above its line: issue 28); at 60 and 80 columns no code line
//! ever wraps: one too long is cut at the edge with `»` and Shift-→ scrolls to its end (issue
//! 28); and lesson 4 card 3's chunking diagram at 200x60 and 160x48 as snapshots.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cuda_academy::app::{App, Msg};
use cuda_academy::lesson::Catalog;
use cuda_academy::progress::Progress;
use cuda_academy::theme::Theme;
use cuda_academy::ui::layout;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Rect, Size};

fn app(w: u16, h: u16) -> App {
    App::new(
        Catalog::embedded(),
        Theme::new(true),
        Progress::default(),
        Size::new(w, h),
    )
}

fn key(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn shift(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::SHIFT)));
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    let buf = terminal.backend().buffer();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}

/// The longest code line in the built-in lessons: the test below only proves something while
/// it is at most 80 columns and more than the old ~45-column card.
fn longest_code_line() -> usize {
    let mut longest = 0;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let mut inside = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                inside = !inside;
            } else if inside {
                longest = longest.max(line.chars().count());
            }
        }
    }
    longest
}

#[test]
fn no_card_wraps_its_code_from_80_columns_on() {
    let longest = longest_code_line();
    assert!((60..=80).contains(&longest), "longest code line {longest}");
    for (w, h) in [
        (80, 24),
        (100, 30),
        (120, 40),
        (140, 40),
        (160, 48),
        (200, 60),
    ] {
        let mut app = app(w, h);
        let card_pane = layout::panes(Rect::new(0, 0, w, h), 0, app.nav.focus, false).card;
        let width = layout::text_area(card_pane).width;
        let lessons = app.catalog.entries.len();
        assert_eq!(lessons, 4);
        let mut cards = 0;
        for lesson in 0..lessons {
            key(&mut app, KeyCode::Char(char::from(b'1' + lesson as u8)));
            for card in 0..app.card_count(lesson) {
                // Every line of the card, scrolled or not.
                let text: Vec<String> = app
                    .card_lines(width)
                    .iter()
                    .map(|l| l.to_string())
                    .collect();
                assert!(
                    !text.iter().any(|l| l.contains('↪')),
                    "lesson {} card {} wraps code at {w}x{h}:\n{}",
                    lesson + 1,
                    card + 1,
                    text.join("\n")
                );
                cards += 1;
                key(&mut app, KeyCode::Right);
            }
        }
        assert!(cards > 30, "{cards} cards");
    }
}

#[test]
fn the_chunking_diagram_reads_whole() {
    for (w, h) in [(200, 60), (160, 48)] {
        let mut app = app(w, h);
        key(&mut app, KeyCode::Char('4'));
        // Lesson 4's fourth card, "Chunking".
        for _ in 0..3 {
            key(&mut app, KeyCode::Right);
        }
        let text = screen(&app, w, h);
        assert!(
            text.contains("stream 1: [H2D 0][K 0][D2H 0]  [H2D 3][K 3][D2H 3]"),
            "{text}"
        );
        insta::assert_snapshot!(format!("chunking_diagram_{w}x{h}"), text);
    }
}

/// The code lines of a card's markdown, in order (the lessons' fences are not indented).
fn source_code(markdown: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if inside {
            out.push(line.trim_end().to_string());
        }
    }
    out
}

/// What follows the `▎ ` gutter on each code line of `lines`, and whether it ends in `»`.
fn shown_code(lines: &[String]) -> Vec<(String, bool)> {
    lines
        .iter()
        .filter_map(|l| l.split_once("▎ ").map(|(_, code)| code))
        .map(|code| match code.strip_suffix('»') {
            Some(cut) => (cut.trim_end().to_string(), true),
            None => (code.trim_end().to_string(), false),
        })
        .collect()
}

/// Whether the shown code lines are the source lines one for one, each whole or cut at the
/// edge (`»`), or a long line's trailing comment above its code: never a line broken in two.
fn unwrapped(source: &[String], shown: &[(String, bool)]) -> Result<(), String> {
    let mut shown = shown.iter();
    for line in source {
        let Some((first, cut)) = shown.next() else {
            return Err(format!("{line:?} is missing"));
        };
        let whole_or_cut = |text: &str, cut: bool| {
            line == text || (cut && line.starts_with(text) && !text.is_empty())
        };
        if whole_or_cut(first, *cut) {
            continue;
        }
        // A trailing comment set above: `// c` then the code before it.
        let comment = first.trim_start();
        let code = shown.next();
        let moved = comment.starts_with("//")
            && line.ends_with(comment)
            && code.is_some_and(|(code, cut)| {
                line.starts_with(code.as_str()) && (!*cut || !code.is_empty())
            });
        if !moved {
            return Err(format!("{line:?} shown as {first:?} then {code:?}"));
        }
    }
    match shown.next() {
        Some(extra) => Err(format!("a line more than the source: {extra:?}")),
        None => Ok(()),
    }
}

#[test]
fn no_code_line_wraps_at_60_and_80_columns() {
    let mut cut_somewhere = 0;
    for (w, h) in [(60, 20), (80, 24)] {
        let mut app = app(w, h);
        let card_pane = layout::panes(Rect::new(0, 0, w, h), 0, app.nav.focus, false).card;
        let width = layout::text_area(card_pane).width;
        let mut cards = 0;
        for lesson in 0..app.catalog.entries.len() {
            key(&mut app, KeyCode::Char(char::from(b'1' + lesson as u8)));
            let lesson_cards = app.catalog.entries[lesson].lesson().unwrap().cards.clone();
            for (card, source) in lesson_cards.iter().enumerate() {
                let text: Vec<String> = app
                    .card_lines(width)
                    .iter()
                    .map(|l| l.to_string())
                    .collect();
                let shown = shown_code(&text);
                cut_somewhere += shown.iter().filter(|(_, cut)| *cut).count();
                if let Err(why) = unwrapped(&source_code(&source.markdown), &shown) {
                    panic!(
                        "lesson {} card {} at {w}x{h}: {why}\n{}",
                        lesson + 1,
                        card + 1,
                        text.join("\n")
                    );
                }
                cards += 1;
                key(&mut app, KeyCode::Right);
            }
        }
        assert!(cards > 30, "{cards} cards");
    }
    // At 60 columns some lines are too long to fit: the test saw the cut, not only short code.
    assert!(cut_somewhere > 5, "{cut_somewhere} lines cut");
}

#[test]
fn shift_arrows_scroll_cut_code_to_its_end_and_back() {
    let (w, h) = (60, 20);
    let mut app = app(w, h);
    key(&mut app, KeyCode::Char('4'));
    let width = layout::text_area(app.panes().card).width;
    let lines = |app: &App| -> Vec<String> {
        app.card_lines(width)
            .iter()
            .map(|l| l.to_string())
            .collect()
    };
    let before = lines(&app);
    let source = source_code(&app.catalog.entries[3].lesson().unwrap().cards[0].markdown);
    // A line cut at the edge, and the source line it shows the start of.
    let (start, _) = shown_code(&before)
        .into_iter()
        .find(|(_, cut)| *cut)
        .unwrap_or_else(|| panic!("no line cut: {before:#?}"));
    let cut = source.iter().find(|l| l.starts_with(&start)).unwrap();
    let tail: String = cut.chars().skip(cut.chars().count() - 12).collect();
    assert!(
        !before.iter().any(|l| l.contains(&tail)),
        "{tail} already shown"
    );
    // The card says which keys show the rest.
    assert!(
        screen(&app, w, h).contains("Shift-←→ code"),
        "{}",
        screen(&app, w, h)
    );
    for _ in 0..20 {
        shift(&mut app, KeyCode::Right);
    }
    let after = lines(&app);
    assert!(after.iter().any(|l| l.contains(&tail)), "{after:#?}");
    assert!(after.iter().any(|l| l.contains("▎ «")), "{after:#?}");
    assert_eq!(
        app.nav.card, 0,
        "Shift-→ scrolled, it did not turn the card"
    );
    for _ in 0..20 {
        shift(&mut app, KeyCode::Left);
    }
    assert_eq!(lines(&app), before, "back at the start");
    // A new card starts unscrolled.
    for _ in 0..5 {
        shift(&mut app, KeyCode::Right);
    }
    key(&mut app, KeyCode::Right);
    assert_eq!(app.nav.code_scroll, 0);
}
