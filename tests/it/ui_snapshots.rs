//! Every screen of the tutorial, rendered on a `TestBackend` at 80x24 and 120x40 (and the wide
//! layout at 160x48), from the fixed test catalog, compared with insta snapshots.

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cuda_academy::app::{App, Banner, BannerKind, Msg, fixture};
use cuda_academy::progress::Progress;
use cuda_academy::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;
use ratatui::style::{Color, Modifier};

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

fn app(w: u16, h: u16, color: bool) -> App {
    App::new(
        fixture::sample_catalog(),
        Theme::new(color),
        Progress::default(),
        Size::new(w, h),
    )
}

/// The key of the option at file index `index` of the question shown (options are shuffled per
/// learner, so the letter is looked up).
fn letter_of(app: &App, index: usize) -> char {
    let pos = app.option_order().iter().position(|&i| i == index).unwrap();
    char::from(b'a' + u8::try_from(pos).unwrap())
}

/// Press space-separated keys (single characters, or Tab/Enter/Down/Esc/Right; RIGHT and WRONG
/// pick the right option of the question shown, or its first wrong one).
fn press(app: &mut App, keys: &str) {
    for k in keys.split_whitespace() {
        let answer = app.question().and_then(|q| q.answer).unwrap_or(0);
        let code = match k {
            "RIGHT" => KeyCode::Char(letter_of(app, answer)),
            "WRONG" => KeyCode::Char(letter_of(app, usize::from(answer == 0))),
            "Tab" => KeyCode::Tab,
            "Enter" => KeyCode::Enter,
            "Down" => KeyCode::Down,
            "Esc" => KeyCode::Esc,
            "Right" => KeyCode::Right,
            c => KeyCode::Char(c.chars().next().unwrap()),
        };
        app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }
}

fn draw(app: &App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal
}

/// Snapshot the screen after `keys` at both sizes, as `{name}_{w}x{h}`.
#[track_caller]
fn screen(name: &str, keys: &str) {
    for (w, h) in SIZES {
        let mut app = app(w, h, true);
        press(&mut app, keys);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), draw(&app, w, h).backend());
    }
}

fn text(buf: &Buffer) -> String {
    buf.content().iter().map(|c| c.symbol()).collect()
}

#[test]
fn card() {
    screen("card", "");
}

#[test]
fn card_scrolled_on_the_last_card_of_a_lesson() {
    screen("card_last", "Right Right j");
}

#[test]
fn quiz_before_answering() {
    screen("quiz_before", "Tab Down");
}

#[test]
fn quiz_answered_right() {
    screen("quiz_right", "Tab RIGHT");
}

#[test]
fn quiz_answered_wrong() {
    screen("quiz_wrong", "Tab WRONG");
}

#[test]
fn quiz_practice_after_a_wrong_first_try() {
    screen("quiz_practice", "Tab WRONG RIGHT");
}

#[test]
fn quiz_map_after_one_right_one_wrong() {
    screen("quiz_map", "Tab RIGHT n WRONG N");
}

#[test]
fn quiz_prediction_field() {
    screen("quiz_predict_input", "2 Tab n Enter 5 . 5");
}

#[test]
fn quiz_prediction_saved() {
    screen("quiz_predict_saved", "2 Tab n Enter 5 . 5 Enter");
}

#[test]
fn lesson_list() {
    screen("lessons", "Tab RIGHT n WRONG L j");
}

#[test]
fn help_overlay() {
    screen("help", "?");
}

#[test]
fn broken_lesson() {
    screen("broken", "4");
}

#[test]
fn confirmation_dialog() {
    screen("confirm", "L x");
}

#[test]
fn wide_layout_with_the_lesson_sidebar() {
    let mut app = app(200, 50, true);
    press(&mut app, "Tab RIGHT Tab");
    insta::assert_snapshot!("wide_200x50", draw(&app, 200, 50).backend());
}

#[test]
fn help_overlay_in_columns_on_a_wide_screen() {
    let mut app = app(160, 48, true);
    press(&mut app, "?");
    let terminal = draw(&app, 160, 48);
    let screen = text(terminal.backend().buffer());
    for name in [
        "quit",
        "next card",
        "reset everything",
        "run experiment",
        "export trace",
        "Experiment panel",
        "Parameter form",
    ] {
        assert!(screen.contains(name), "{name} missing");
    }
    // With the editor's desktop keys two columns were longer than 160x48 (issue 28): in as many
    // columns as it takes, everything fits, with no scrolling.
    assert!(screen.contains("Exercise editor"), "{screen}");
    assert!(screen.contains("Changed outside: the diff"), "{screen}");
    assert!(screen.contains("Notes"), "{screen}");
    assert!(!screen.contains("↓ more"), "{screen}");
    insta::assert_snapshot!("help_160x48", terminal.backend());
}

#[test]
fn too_small() {
    let app = app(59, 15, true);
    let terminal = draw(&app, 59, 15);
    let screen = text(terminal.backend().buffer());
    assert!(
        screen.contains("terminal too small: need at least 60x16, have 59x15"),
        "{screen}"
    );
    insta::assert_snapshot!("too_small_59x15", terminal.backend());
    // One column more and one row more: the lesson is back.
    let terminal = draw(&app, 60, 16);
    assert!(text(terminal.backend().buffer()).contains("Lesson 1/4 · card 1/3"));
}

#[test]
fn a_save_failure_banner() {
    let mut app = app(80, 24, true);
    app.update(Msg::Banner(Banner {
        kind: BannerKind::Warning,
        text: "Your progress file could not be read (not valid JSON at line 1 column 2). It was kept as /home/learner/.local/state/cuda-academy/progress.json.corrupt-20261129T180417Z; starting fresh.".into(),
    }));
    app.update(Msg::SaveFailed(
        "cannot write /nowhere/progress.json: read-only file system".into(),
    ));
    insta::assert_snapshot!("banner_80x24", draw(&app, 80, 24).backend());
}

#[test]
fn colour_off_uses_no_colour_and_still_shows_the_selection() {
    let mut app = app(80, 24, false);
    press(&mut app, "Tab Down");
    let terminal = draw(&app, 80, 24);
    let buf = terminal.backend().buffer();
    for cell in buf.content() {
        assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{cell:?}");
    }
    let reversed = buf
        .content()
        .iter()
        .filter(|c| c.modifier.contains(Modifier::REVERSED))
        .map(|c| c.symbol())
        .collect::<String>();
    let second = app.question().unwrap().choices[app.option_order()[1]].clone();
    assert!(reversed.contains(&format!("B. {second}")), "{reversed:?}");
    insta::assert_snapshot!("no_color_quiz_80x24", terminal.backend());

    let coloured = draw(&self::app(80, 24, true), 80, 24);
    assert!(
        coloured
            .backend()
            .buffer()
            .content()
            .iter()
            .any(|c| c.fg != Color::Reset)
    );
}

#[test]
fn the_breadcrumb_follows_the_contract() {
    let mut app = app(80, 24, true);
    press(&mut app, "Right Right Right");
    let screen = text(draw(&app, 80, 24).backend().buffer());
    assert!(screen.contains("Lesson 2/4 · card 1/2"), "{screen}");
    // At 80 columns the title gives way to the score, cut with an ellipsis; wider, it is whole.
    assert!(screen.contains("Pinned Memory with cuda"), "{screen}");
    assert!(screen.contains("…  quiz 0/1 · prediction 0/1"), "{screen}");
    app.update(Msg::Resize(120, 24));
    let screen = text(draw(&app, 120, 24).backend().buffer());
    assert!(
        screen.contains("Pinned Memory with cudaMallocHost"),
        "{screen}"
    );
}

#[test]
fn any_size_renders_without_panicking() {
    let states = [
        "",
        "Tab Down Enter",
        "L",
        "?",
        "4",
        "L x",
        "2 Tab n Enter 5",
    ];
    for keys in states {
        let mut app = app(80, 24, true);
        press(&mut app, keys);
        // Sampled: the edges of every layout (too small, narrow, side by side, wide) and sizes
        // in between; every size at every height is 20x the time for no more coverage.
        for w in [
            0, 1, 59, 60, 79, 80, 99, 100, 139, 140, 181, 182, 199, 200, 230,
        ] {
            for h in [0, 1, 15, 16, 24, 45] {
                app.update(Msg::Resize(w, h));
                draw(&app, w, h);
            }
        }
    }
}

/// The footer (last) line of `app` drawn at `w`x`h`.
fn footer_line(app: &App, w: u16, h: u16) -> String {
    let terminal = draw(app, w, h);
    let buf = terminal.backend().buffer();
    (0..w).map(|x| buf[(x, h - 1)].symbol()).collect()
}

#[test]
fn at_80_columns_every_pane_keeps_the_card_keys_and_the_score() {
    // Review 2026-12-01: at 80x24 the header lost the score and the footer `←→ card` and
    // `Tab pane`; nothing said `w` opens the exercises.
    for keys in ["", "Tab", "Tab Tab"] {
        let mut app = app(80, 24, true);
        press(&mut app, keys);
        let footer = footer_line(&app, 80, 24);
        for wanted in ["←→ card", "Tab pane", "? help", "q quit"] {
            assert!(
                footer.contains(wanted),
                "{keys:?}: {wanted} missing: {footer}"
            );
        }
        let screen = text(draw(&app, 80, 24).backend().buffer());
        let header: String = screen.chars().take(80).collect();
        assert!(header.contains("quiz 0/2"), "{keys:?}: {header}");
    }
    // The footer at 80 columns names the exercises where the lesson has some (the shipped
    // lessons all do), and not where it has none (the test catalog's).
    let app = app(80, 24, true);
    assert!(app.lesson_exercises().is_empty());
    assert!(!footer_line(&app, 80, 24).contains("w exercises"));
    for lesson in ["1", "2", "3", "4"] {
        for keys in ["", "Tab", "Tab Tab"] {
            let mut shipped = App::new(
                cuda_academy::lesson::Catalog::embedded(),
                Theme::new(true),
                Progress::default(),
                Size::new(80, 24),
            );
            press(&mut shipped, lesson);
            press(&mut shipped, keys);
            assert!(!shipped.lesson_exercises().is_empty(), "lesson {lesson}");
            let footer = footer_line(&shipped, 80, 24);
            assert!(
                footer.contains("w exercises"),
                "lesson {lesson} {keys:?}: {footer}"
            );
        }
    }
    // A footer that drops keys says so with an ellipsis, never silently.
    let footer = footer_line(&app, 80, 24);
    assert!(footer.contains('…'), "{footer}");
    assert!(!footer_line(&app, 200, 24).contains('…'));
}

#[test]
fn the_card_keeps_half_the_body_when_another_pane_has_the_focus() {
    // Review 2026-12-01: the card shrank to 3 lines when the quiz or the panel had the focus.
    // A card shorter than half keeps all of its text and gives the rest away (issue 28).
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        for keys in ["", "Tab", "Tab Tab"] {
            let mut app = app(w, h, true);
            press(&mut app, keys);
            let p = app.panes();
            let body = p.status.y - p.banners.bottom();
            let text_rows = app.card_lines(w - 4).len() as u16;
            let whole = p.card.height >= text_rows + 2;
            assert!(
                whole && (p.card.height * 2 >= body || p.card.height <= (text_rows + 2).max(5)),
                "{w}x{h} after {keys:?}: card {} of {body} rows for {text_rows} lines",
                p.card.height
            );
            // And it is what is drawn: the card's bottom border is at least half way down.
            let screen = text(draw(&app, w, h).backend().buffer());
            let rows: Vec<String> = screen
                .chars()
                .collect::<Vec<_>>()
                .chunks(usize::from(w))
                .map(|r| r.iter().collect())
                .collect();
            let card_bottom = rows
                .iter()
                .position(|r| r.starts_with('╰') || r.starts_with('┗'))
                .unwrap();
            assert_eq!(card_bottom as u16, p.card.bottom() - 1, "{w}x{h} {keys:?}");
        }
    }
}

#[test]
fn the_verdict_pane_scrolls_and_shows_a_new_hint_at_80x24() {
    use ratatui::crossterm::event::{MouseEvent, MouseEventKind};
    let mut h = crate::editor::harness();
    h.open_first();
    h.check();
    let screen = h.screen(80, 24);
    assert!(
        screen.contains("· ↓ Alt-↓"),
        "the pane says there is more:\n{screen}"
    );
    assert_eq!(
        h.editor().verdict_scroll.offset(),
        0,
        "a new verdict shows its start"
    );
    // Ctrl-T: the hint is drawn although the verdict above it is longer than the pane.
    h.f(6);
    let screen = h.screen(80, 24);
    assert!(screen.contains("Hint 1 of"), "{screen}");
    assert!(h.editor().verdict_scroll.offset() > 0);
    // Alt-↑ back to the top, a line at a time (plain ↑ would move in the code).
    let line_before = h.editor().area.as_ref().unwrap().cursor();
    for _ in 0..40 {
        h.key(KeyCode::Up, KeyModifiers::ALT);
    }
    assert_eq!(h.editor().verdict_scroll.offset(), 0);
    assert_eq!(h.editor().area.as_ref().unwrap().cursor(), line_before);
    let screen = h.screen(80, 24);
    assert!(!screen.contains("Hint 1 of"), "{screen}");
    // The wheel over the pane scrolls it; over the code it does not.
    let area = h.editor().verdict_scroll.area();
    let wheel = |column, row| {
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::ScrollDown,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    h.send(wheel(area.x + 2, area.y + 2));
    let after_wheel = h.editor().verdict_scroll.offset();
    assert!(after_wheel > 0);
    h.send(wheel(2, 3));
    assert_eq!(h.editor().verdict_scroll.offset(), after_wheel);
    // Alt-PgDn goes a page, and never past the end.
    for _ in 0..20 {
        h.key(KeyCode::PageDown, KeyModifiers::ALT);
    }
    let end = h.screen(80, 24);
    assert!(
        end.contains("↑ Alt-↑") && end.contains("F6: a hint"),
        "{end}"
    );
    // The footer lists the scroll keys.
    let footer = end.lines().last().unwrap();
    assert!(footer.contains("Alt-↑↓ verdict"), "{footer}");
}

/// The quiz pane's map shows the questions offered so far (those whose card is reached), not
/// every question of the lesson: "Quick check 1/4" above seven glyphs read as seven questions.
#[test]
fn the_quiz_map_counts_only_the_questions_offered() {
    let mut shipped = App::new(
        cuda_academy::lesson::Catalog::embedded(),
        Theme::new(false),
        Progress::default(),
        Size::new(120, 40),
    );
    press(&mut shipped, "1 Right Right Right Right");
    let offered = shipped.questions().len();
    let total = shipped.question_marks(0).len();
    assert!(offered > 0 && offered < total, "{offered} of {total}");
    let screen = text(draw(&shipped, 120, 40).backend().buffer());
    let map = screen
        .lines()
        .find(|l| l.contains("quiz 0/") && l.contains('○'))
        .and_then(|l| l.split('│').find(|cell| cell.contains('○')))
        .unwrap_or_else(|| panic!("no question map:\n{screen}"));
    assert_eq!(map.matches('○').count(), offered, "{map}");
}
