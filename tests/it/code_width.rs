//! Code reads as code (issue 7 §4): from 140 columns on, no code line of up to 80 columns wraps
//! in the card pane, on any card of the built-in lessons, and from 80 columns on none of theirs
//! does (a trailing comment goes above its line: issue 28); and lesson 4 card 3's chunking
//! diagram at 200x60 and 160x48 as snapshots.

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
