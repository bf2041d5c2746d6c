//! The quiz pane: the question shown, its options with a `›` cursor (reversed while focused), and
//! after answering the verdict in words and glyphs, the right answer marked, and the explanation.
//! Predict questions show an input field instead of options.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::app::{App, Focus};
use crate::lesson::{Question, QuestionKind};
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
    let stats = app.stats(app.lesson);
    let mut block = pane_block(theme, app.focus == Focus::Quiz).title(title);
    if stats.answered > 0 {
        let score = format!(" score {}/{} ", stats.right, stats.answered);
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

/// The pane's text at `width` columns (the app uses the count to clamp scrolling).
pub fn lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(q) = app.question() else {
        let why = if app.entry().and_then(|e| e.lesson()).is_some() {
            "This lesson has no quick-check questions."
        } else {
            "No questions: the lesson did not load."
        };
        return vec![Line::styled(why, theme.muted())];
    };
    let mut out = Vec::new();
    let tag = if q.kind == QuestionKind::Predict {
        "Predict: "
    } else {
        ""
    };
    let prompt = text::inline(&q.prompt, theme.strong(), theme.inline_code());
    out.extend(text::wrap(
        &prompt,
        width,
        Span::styled(tag, theme.heading(3)),
        Span::raw(""),
    ));
    out.push(Line::default());
    match q.kind {
        QuestionKind::Choice => choice_lines(app, q, width, &mut out),
        QuestionKind::Predict => predict_lines(app, width, &mut out),
    }
    out
}

fn choice_lines(app: &App, q: &Question, width: u16, out: &mut Vec<Line<'static>>) {
    let theme = &app.theme;
    let revealed = app.revealed();
    let chosen = app.record().and_then(|r| r.choice);
    // The verdict goes above the options so it is seen at once, even in a short pane.
    if revealed {
        let verdict = verdict_line(app, q);
        out.extend(text::wrap(
            &verdict.spans,
            width,
            Span::raw(""),
            Span::raw("  "),
        ));
        out.push(Line::default());
    }
    for (i, choice) in q.choices.iter().enumerate() {
        let letter = letter(i);
        let at_cursor = i == app.quiz.cursor;
        let cursor = if at_cursor { "›" } else { " " };
        let right = q.answer == Some(i);
        let mark = match (revealed, right, chosen == Some(i)) {
            // A no-break space keeps the mark on the line of the option's last word.
            (true, true, _) => "\u{a0}✓",
            (true, false, true) => "\u{a0}✗",
            _ => "",
        };
        let mut style = theme.text();
        if revealed && right {
            style = theme.correct();
        } else if revealed && chosen == Some(i) {
            style = theme.wrong();
        } else if at_cursor && app.focus == Focus::Quiz {
            style = theme.selected();
        }
        let mut spans = text::inline(choice, style, style.patch(theme.inline_code()));
        spans.push(Span::styled(mark, style));
        let first = Span::styled(format!("{cursor} {letter}. "), style);
        out.extend(text::wrap(&spans, width, first, Span::raw("     ")));
    }
    out.push(Line::default());
    if revealed {
        let why = text::inline(&q.explanation, theme.text(), theme.inline_code());
        out.extend(text::wrap(&why, width, Span::raw(""), Span::raw("")));
        out.push(Line::default());
        out.push(Line::styled(
            "Enter tries again · n next question",
            theme.muted(),
        ));
    } else {
        let hint = if app.focus == Focus::Quiz {
            "↑↓ choose, Enter answers"
        } else {
            "Tab to this pane to answer"
        };
        out.extend(muted_wrapped(app, hint, width));
    }
}

fn verdict_line(app: &App, q: &Question) -> Line<'static> {
    let theme = &app.theme;
    let record = app.record();
    let attempts = match record.map_or(1, |r| r.attempts) {
        1 => "first try".to_string(),
        n => format!("attempt {n}"),
    };
    let verdict = if record.and_then(|r| r.correct) == Some(true) {
        Span::styled("✓ Correct", theme.correct())
    } else {
        let answer = q.answer.map_or('?', letter);
        Span::styled(
            format!("✗ Not quite: the answer is {answer}"),
            theme.wrong(),
        )
    };
    Line::from(vec![
        verdict,
        Span::styled(format!("  ({attempts})"), theme.muted()),
    ])
}

/// A, B, C, ... for option `i`.
fn letter(i: usize) -> char {
    char::from(b'A' + u8::try_from(i.min(25)).unwrap_or(25))
}

fn predict_lines(app: &App, width: u16, out: &mut Vec<Line<'static>>) {
    let theme = &app.theme;
    if let Some(input) = &app.quiz.input {
        let field = format!(
            " {input}▏{}",
            " ".repeat(12usize.saturating_sub(input.len()))
        );
        out.push(Line::from(vec![
            Span::styled("Your prediction: ", theme.strong()),
            Span::styled(field, theme.selected()),
        ]));
        if let Some(err) = &app.quiz.input_error {
            let spans = [Span::styled(err.clone(), theme.error())];
            out.extend(text::wrap(&spans, width, Span::raw(""), Span::raw("")));
        }
        out.push(Line::styled("Enter saves · Esc leaves", theme.muted()));
        return;
    }
    match app.record().and_then(|r| r.predicted) {
        Some(value) => {
            out.push(Line::from(vec![
                Span::styled("Your prediction: ", theme.strong()),
                Span::styled(value.to_string(), theme.inline_code()),
                Span::styled(" (saved)", theme.muted()),
            ]));
            out.extend(graded_lines(app, value, width));
            out.push(Line::default());
            out.push(Line::styled(
                "Enter changes it · n next question",
                theme.muted(),
            ));
        }
        None => {
            let hint = if app.focus == Focus::Quiz {
                "Enter opens a field to type your prediction"
            } else {
                "Tab to this pane, then Enter to predict"
            };
            out.extend(muted_wrapped(app, hint, width));
        }
    }
}

/// "you predicted X, measured Y" with the verdict once a run graded it; else when it will be.
fn graded_lines(app: &App, predicted: f64, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let measured = app
        .question()
        .and_then(|q| q.metric.as_deref())
        .and_then(|m| app.metric_text(m));
    let correct = app.record().and_then(|r| r.correct);
    let spans = match (correct, measured) {
        (Some(right), Some(measured)) => {
            let (verdict, style) = if right {
                ("✓ Close enough: ", theme.correct())
            } else {
                ("✗ Off: ", theme.wrong())
            };
            let tol = app.question().and_then(|q| q.tolerance_pct).unwrap_or(10.0);
            vec![
                Span::styled(verdict, style),
                Span::raw(format!(
                    "you predicted {predicted}, measured {measured} (within {tol}% counts)."
                )),
            ]
        }
        (Some(right), None) => {
            let verdict = if right {
                "✓ Graded: close enough."
            } else {
                "✗ Graded: off."
            };
            vec![Span::raw(verdict)]
        }
        (None, _) => vec![Span::raw(
            "It will be graded when the lesson's experiment runs (press r).",
        )],
    };
    let mut out = text::wrap(&spans, width, Span::raw(""), Span::raw(""));
    if let (Some(_), Some(q)) = (correct, app.question()) {
        out.push(Line::default());
        let why = text::inline(&q.explanation, theme.text(), theme.inline_code());
        out.extend(text::wrap(&why, width, Span::raw(""), Span::raw("")));
    }
    out
}

/// A muted hint, wrapped to the pane (narrow panes beside the experiment panel).
fn muted_wrapped(app: &App, hint: &str, width: u16) -> Vec<Line<'static>> {
    let spans = [Span::styled(hint.to_string(), app.theme.muted())];
    text::wrap(&spans, width, Span::raw(""), Span::raw(""))
}
