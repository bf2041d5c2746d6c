//! Links in cards (issue 7 §4): OSC 8 hyperlinks carry the full URL when they are on and are
//! absent when off or covered; the links overlay lists, opens and copies them; and no URL of
//! any built-in lesson is ever broken across lines.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cuda_academy::app::{App, Cmd, Msg};
use cuda_academy::keymap::Ctx;
use cuda_academy::lesson::Catalog;
use cuda_academy::progress::Progress;
use cuda_academy::theme::Theme;
use cuda_academy::ui::layout;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Rect, Size};
use ratatui::widgets::Widget;

const SYNC: &str = "https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html";
const PINNED: &str =
    "https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#pinned-memory";
const LONG: &str = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html\
                    #asynchronous-concurrent-execution-between-host-and-device";

fn lesson() -> String {
    format!(
        "+++\nid = \"reading\"\ntitle = \"Reading\"\norder = 1\n\
         experiments = [\"pageable-vs-pinned\"]\n+++\n\
         # Further reading\n\n\
         - CUDA Runtime API, **API synchronization behavior**:\n  {SYNC}\n\
         - The [Best Practices Guide]({PINNED}), pinned memory\n\
         - The whole chapter: {LONG}\n\
         ---\n# No links here\n\nJust text.\n"
    )
}

fn app(w: u16, h: u16, osc8: bool) -> App {
    let catalog = Catalog::from_files([("lessons/reading.md".to_string(), lesson().into_bytes())]);
    let mut app = App::new(
        catalog,
        Theme::new(true),
        Progress::default(),
        Size::new(w, h),
    );
    app.hyperlinks = osc8;
    app
}

fn press(app: &mut App, code: KeyCode) -> Vec<Cmd> {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

/// Every cell, as the view leaves it (not through a terminal diff).
fn cells(app: &App, w: u16, h: u16) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    app.render(buf.area, &mut buf);
    buf
}

fn hyperlinks(buf: &Buffer) -> Vec<String> {
    buf.content()
        .iter()
        .map(|c| c.symbol())
        .filter(|s| s.contains('\u{1b}'))
        .map(str::to_string)
        .collect()
}

#[test]
fn card_links_are_osc8_hyperlinks_with_the_full_url_when_on() {
    let app = app(80, 24, true);
    let links = hyperlinks(&cells(&app, 80, 24));
    for url in [SYNC, PINNED, LONG] {
        let start = "\u{1b}]8;id=";
        let found = links
            .iter()
            .find(|s| s.starts_with(start) && s.contains(&format!(";{url}\u{1b}\\")))
            .unwrap_or_else(|| panic!("no hyperlink to {url} in {links:#?}"));
        assert!(found.ends_with("\u{1b}]8;;\u{1b}\\"), "{found:?}");
    }
    // The long URL is elided on screen, yet its hyperlink holds all of it.
    let long = links.iter().find(|s| s.contains(LONG)).unwrap();
    assert!(long.contains("…"), "{long:?}");
    assert!(
        links
            .iter()
            .any(|s| s.contains("\\Best Practices Guide\u{1b}"))
    );
}

#[test]
fn no_escape_reaches_a_cell_when_off_or_when_something_covers_the_card() {
    let off = app(80, 24, false);
    assert_eq!(hyperlinks(&cells(&off, 80, 24)), Vec::<String>::new());
    // Help drawn over the card: a hyperlink run would print through it.
    let mut help = app(120, 40, true);
    press(&mut help, KeyCode::Char('?'));
    assert_eq!(hyperlinks(&cells(&help, 120, 40)), Vec::<String>::new());
}

#[test]
fn the_links_overlay_opens_and_copies_the_selected_url() {
    let mut app = app(80, 24, false);
    assert!(press(&mut app, KeyCode::Char('u')).is_empty());
    assert_eq!(app.key_context(), Ctx::Links);
    assert_eq!(
        press(&mut app, KeyCode::Enter),
        [Cmd::OpenUrl(SYNC.to_string())]
    );
    press(&mut app, KeyCode::Down);
    assert_eq!(
        press(&mut app, KeyCode::Char('y')),
        [Cmd::CopyText(PINNED.to_string())]
    );
    // Past the last link the selection stays on it.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    assert_eq!(
        press(&mut app, KeyCode::Enter),
        [Cmd::OpenUrl(LONG.to_string())]
    );
    app.update(Msg::LinkReport("Asked xdg-open to open it.".to_string()));
    let screen = format!("{:?}", draw(&app, 80, 24).backend());
    assert!(screen.contains("Asked xdg-open to open it."), "{screen}");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.key_context(), Ctx::Cards);
    assert!(app.overlays.dialog.is_none());
}

#[test]
fn a_card_without_links_says_so() {
    let mut app = app(80, 24, false);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Char('u'));
    assert!(app.card_links().is_empty());
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    let screen = format!("{:?}", draw(&app, 80, 24).backend());
    assert!(screen.contains("This card has no links."), "{screen}");
}

fn draw(app: &App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal
}

#[test]
fn links_overlay_at_80x24() {
    let mut app = app(80, 24, false);
    press(&mut app, KeyCode::Char('u'));
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Right);
    insta::assert_snapshot!("links_overlay_80x24", draw(&app, 80, 24).backend());
}

/// Whether `token` (a word of a rendered line that starts with `http`) is a card URL shown
/// whole, or one elided as `start…end` on one line, perhaps with punctuation after it.
fn shown_whole(token: &str, urls: &[String]) -> bool {
    let token = token.trim_end_matches([',', '.', ';', ':', ')']);
    urls.iter().any(|url| match token.split_once('…') {
        None => token == url,
        Some((head, tail)) => head.len() >= 12 && url.starts_with(head) && url.ends_with(tail),
    })
}

#[test]
fn no_url_of_any_lesson_is_split_across_lines() {
    for (w, h) in [(80, 24), (200, 60)] {
        let mut app = App::new(
            Catalog::embedded(),
            Theme::new(true),
            Progress::default(),
            Size::new(w, h),
        );
        let width =
            layout::text_area(layout::panes(Rect::new(0, 0, w, h), 0, app.nav.focus, false).card)
                .width;
        let mut urls_seen = 0;
        for lesson in 0..app.catalog.entries.len() {
            press(&mut app, KeyCode::Char(char::from(b'1' + lesson as u8)));
            for card in 0..app.card_count(lesson) {
                let view = app.card_view(width);
                let urls: Vec<String> = view.links.iter().map(|l| l.url.clone()).collect();
                let text: Vec<String> = view.lines.iter().map(|l| l.to_string()).collect();
                for line in &text {
                    for token in line
                        .split([' ', '\u{a0}'])
                        .filter(|t| t.starts_with("http"))
                    {
                        assert!(
                            shown_whole(token, &urls),
                            "lesson {} card {} at {w}x{h}: {token:?} is not a whole URL:\n{}",
                            lesson + 1,
                            card + 1,
                            text.join("\n")
                        );
                        urls_seen += 1;
                    }
                }
                // Every link is drawn somewhere on the card.
                for (i, url) in urls.iter().enumerate() {
                    let drawn = view.spots.iter().any(|s| s.link == i);
                    assert!(drawn, "{url} not drawn at {w}x{h}");
                }
                press(&mut app, KeyCode::Right);
            }
        }
        assert!(urls_seen >= 20, "{urls_seen} URLs at {w}x{h}");
    }
}

#[test]
fn the_footer_names_the_links_key_even_at_80_columns() {
    let app = app(80, 24, false);
    let buf = cells(&app, 80, 24);
    let footer: String = (0..80).map(|x| buf[(x, 23)].symbol()).collect();
    assert!(footer.contains("u links"), "{footer}");
}

#[test]
fn the_selected_link_stays_in_view_when_not_all_fit() {
    let items: String = (1..=12)
        .map(|i| format!("- Page {i}: https://example.org/page-{i}\n"))
        .collect();
    let md = format!(
        "+++\nid = \"many\"\ntitle = \"Many\"\norder = 1\n\
         experiments = [\"pageable-vs-pinned\"]\n+++\n# Many links\n\n{items}"
    );
    let catalog = Catalog::from_files([("lessons/many.md".to_string(), md.into_bytes())]);
    let mut app = App::new(
        catalog,
        Theme::new(false),
        Progress::default(),
        Size::new(80, 24),
    );
    press(&mut app, KeyCode::Char('u'));
    let screen = |app: &App| format!("{:?}", draw(app, 80, 24).backend());
    assert!(screen(&app).contains("https://example.org/page-1 "));
    assert!(
        !screen(&app).contains("page-12"),
        "12 links at 2 rows do not fit in 20"
    );
    for _ in 0..11 {
        press(&mut app, KeyCode::Down);
    }
    let last = screen(&app);
    assert!(last.contains("› [12] Page 12"), "{last}");
    assert!(last.contains("https://example.org/page-12"), "{last}");
    assert_eq!(
        press(&mut app, KeyCode::Enter),
        [Cmd::OpenUrl("https://example.org/page-12".to_string())]
    );
}
