//! The quiz pane: the question map (`✓ ✗ ○`, the question shown reversed), the question, its
//! options in the learner's own order with a `›` cursor (reversed while focused), and after
//! answering the verdict in words and glyphs: the scored first try, and practice tries said to be
//! practice. Predict questions show an input field instead of options (`quiz::predict`).

mod predict;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::app::{App, Focus};
use crate::lesson::{Question, QuestionKind};
use crate::progress::score::Mark;
use crate::ui::{layout, pane_block, text};

/// Draw the quiz pane into `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let text_area = layout::text_area(area);
    let count = app.questions().len();
    let title = if count == 0 {
        " Quick check ".to_string()
    } else {
        format!(" Quick check {}/{count} ", app.quiz.question + 1)
    };
    let mut block = pane_block(theme, app.nav.focus == Focus::Quiz).title(title.clone());
    // The score on the frame when it fits beside the title; else on the question map's line.
    if score_fits_title(app, area.width) {
        let score = format!(" {} ", app.stats(app.nav.lesson).score_text());
        block = block.title(Line::from(score).right_aligned());
    }
    let lines = lines(app, text_area.width);
    let height = usize::from(text_area.height);
    let scroll = usize::from(app.quiz.scroll);
    if lines.len() > scroll + height {
        block = block.title_bottom(Line::from(" ↓ more ").right_aligned());
    }
    block.render(area, buf);
    let visible: Vec<Line> = lines.into_iter().skip(scroll).take(height).collect();
    Paragraph::new(visible).render(text_area, buf);
}

/// Whether the score fits on the frame of a pane `width` wide, beside the title.
fn score_fits_title(app: &App, width: u16) -> bool {
    let count = app.questions().len();
    let score = app.stats(app.nav.lesson).score_text();
    let title = format!(" Quick check {}/{count} ", app.quiz.question + 1);
    !score.is_empty() && title.chars().count() + score.chars().count() + 6 <= usize::from(width)
}

/// The pane's text at `width` columns (the app uses the count to clamp scrolling).
pub fn lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(q) = app.question() else {
        if let Some(waiting) = app.quiz_waiting() {
            return muted_wrapped(app, &waiting, width);
        }
        let why = if app.entry().and_then(|e| e.lesson()).is_some() {
            "This lesson has no quick-check questions."
        } else {
            "No questions: the lesson did not load."
        };
        return muted_wrapped(app, why, width);
    };
    let mut out = map_lines(app, width);
    if let Some(notice) = &app.quiz.notice {
        out.extend(muted_wrapped(app, notice, width));
    }
    // Predict prompts already say what to predict; no "Predict:" tag in front of them.
    let prompt = text::inline(&q.prompt, theme.strong(), theme.inline_code());
    out.extend(text::wrap(&prompt, width, Span::raw(""), Span::raw("")));
    out.push(Line::default());
    match q.kind {
        QuestionKind::Choice => choice_lines(app, q, width, &mut out),
        QuestionKind::Predict => predict::lines(app, width, &mut out),
    }
    out
}

/// `✓ ✗ ○ ○ ◌`: every question offered so far (those whose card is reached: a prefix of the
/// lesson's), the one shown reversed; then the score when the frame has no room for it.
fn map_lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let marks = app.question_marks(app.nav.lesson);
    let offered = app.questions().len();
    let mut spans = Vec::new();
    for (i, mark) in marks.iter().take(offered).enumerate() {
        let style = if i == app.quiz.question {
            theme.selected()
        } else if *mark == Mark::Wrong {
            theme.wrong()
        } else if *mark == Mark::Right {
            theme.correct()
        } else {
            theme.muted()
        };
        spans.push(Span::styled(mark.glyph(), style));
        spans.push(Span::raw(" "));
    }
    // The pane is 4 columns wider than its text.
    if !score_fits_title(app, width.saturating_add(4)) {
        let score = app.stats(app.nav.lesson).score_text();
        spans.push(Span::styled(format!(" {score}"), theme.muted()));
    }
    text::wrap(&spans, width, Span::raw(""), Span::raw(""))
}

fn choice_lines(app: &App, q: &Question, width: u16, out: &mut Vec<Line<'static>>) {
    let theme = &app.theme;
    let revealed = app.revealed();
    let chosen = app.latest_choice();
    let order = app.option_order();
    // The verdict goes above the options so it is seen at once, even in a short pane.
    if revealed {
        for verdict in verdict_lines(app, q, &order) {
            out.extend(text::wrap(
                &verdict.spans,
                width,
                Span::raw(""),
                Span::raw("  "),
            ));
        }
        out.push(Line::default());
    }
    for (pos, &index) in order.iter().enumerate() {
        let Some(choice) = q.choices.get(index) else {
            continue;
        };
        let at_cursor = pos == app.quiz.cursor;
        let cursor = if at_cursor { "›" } else { " " };
        let right = q.answer == Some(index);
        let mark = match (revealed, right, chosen == Some(index)) {
            // A no-break space keeps the mark on the line of the option's last word.
            (true, true, _) => "\u{a0}✓",
            (true, false, true) => "\u{a0}✗",
            _ => "",
        };
        let mut style = theme.text();
        if revealed && right {
            style = theme.correct();
        } else if revealed && chosen == Some(index) {
            style = theme.wrong();
        } else if at_cursor && app.nav.focus == Focus::Quiz {
            style = theme.selected();
        }
        let mut spans = text::inline(choice, style, style.patch(theme.inline_code()));
        spans.push(Span::styled(mark, style));
        let first = Span::styled(format!("{cursor} {}. ", letter(pos)), style);
        out.extend(text::wrap(&spans, width, first, Span::raw("     ")));
    }
    out.push(Line::default());
    if revealed {
        let why = text::inline(&q.explanation, theme.text(), theme.inline_code());
        out.extend(text::wrap(&why, width, Span::raw(""), Span::raw("")));
        out.push(Line::default());
        out.extend(muted_wrapped(
            app,
            "Enter tries again (practice) · n next question · N next to review",
            width,
        ));
    } else {
        let hint = if app.nav.focus == Focus::Quiz {
            let last = letter(order.len().saturating_sub(1).min(3)).to_ascii_lowercase();
            format!("↑↓ choose, Enter answers (or a-{last}); the first answer is the one scored")
        } else {
            "Tab to this pane to answer".to_string()
        };
        out.extend(muted_wrapped(app, &hint, width));
    }
}

/// The scored first try; and when the latest answer is practice, that too, said to be practice.
fn verdict_lines(app: &App, q: &Question, order: &[usize]) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let answer = q
        .answer
        .and_then(|a| crate::progress::shuffle::position_of(order, a))
        .map_or('?', letter);
    let count = app.record().map_or(1, |r| r.count());
    if app.is_retake() {
        // After a lesson reset: the first try from before stays the score.
        let latest_right = app.latest_choice().is_some_and(|c| q.answer == Some(c));
        let now = if latest_right {
            Span::styled("retake: ✓ right", theme.correct())
        } else {
            Span::styled(format!("retake: ✗ the answer is {answer}"), theme.wrong())
        };
        let first = match app.mark() {
            Mark::Right => Span::styled("✓ right", theme.correct()),
            _ => Span::styled("✗ not right", theme.wrong()),
        };
        return vec![
            Line::from(vec![now, Span::styled("  · not scored", theme.muted())]),
            Line::from(vec![
                Span::styled("scored (first try, before the reset): ", theme.muted()),
                first,
            ]),
        ];
    }
    let scored = match app.mark() {
        Mark::Right => Span::styled("✓ Correct", theme.correct()),
        _ if app.record().is_some_and(|r| r.first_unrecorded) => Span::styled(
            "✗ First try not recorded (an older version kept only the latest answer)",
            theme.wrong(),
        ),
        _ => Span::styled(
            format!("✗ Not quite: the answer is {answer}"),
            theme.wrong(),
        ),
    };
    if count <= 1 {
        let note = Span::styled("  · first try, scored", theme.muted());
        return vec![Line::from(vec![scored, note])];
    }
    let latest_right = app.latest_choice().is_some_and(|c| q.answer == Some(c));
    let practice = if latest_right {
        Span::styled("practice: ✓ right", theme.correct())
    } else {
        Span::styled(format!("practice: ✗ the answer is {answer}"), theme.wrong())
    };
    vec![
        Line::from(vec![
            practice,
            Span::styled(format!("  · attempt {count}"), theme.muted()),
        ]),
        Line::from(vec![
            Span::styled("scored (first try): ", theme.muted()),
            scored,
        ]),
    ]
}

/// A, B, C, ... for the option shown at position `i`.
fn letter(i: usize) -> char {
    char::from(b'A' + u8::try_from(i.min(25)).unwrap_or(25))
}

/// A muted hint, wrapped to the pane (narrow panes beside the experiment panel).
fn muted_wrapped(app: &App, hint: &str, width: u16) -> Vec<Line<'static>> {
    let spans = [Span::styled(hint.to_string(), app.theme.muted())];
    text::wrap(&spans, width, Span::raw(""), Span::raw(""))
}
