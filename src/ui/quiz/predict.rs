//! A predict question in the quiz pane: the input field (with the metric's unit and any reason a
//! value is refused), the saved prediction, and once graded the frozen grade: "you predicted
//! 2.5x; measured 1.78x (simulated, default parameters); off by 40%".

use ratatui::text::{Line, Span};

use super::muted_wrapped;
use crate::app::predict_view::{backend_words, format_value_in};
use crate::app::{App, Focus};
use crate::progress::Grade;
use crate::ui::text;

/// The lines below the prompt.
pub(super) fn lines(app: &App, width: u16, out: &mut Vec<Line<'static>>) {
    let theme = &app.theme;
    let unit = app.prediction_unit().unwrap_or("");
    let shown_unit = if unit == "us" { "µs" } else { unit };
    let tolerance = app.prediction_tolerance_pct().map(|t| {
        format!(
            "Close enough: within a factor of {:.2} of the measured value, too high or too low alike.",
            1.0 + t / 100.0
        )
    });
    if let Some(input) = &app.quiz.input {
        let field = format!(
            " {input}▏{}",
            " ".repeat(12usize.saturating_sub(input.chars().count()))
        );
        out.push(Line::from(vec![
            Span::styled("Your prediction: ", theme.strong()),
            Span::styled(field, theme.selected()),
            Span::styled(format!(" {shown_unit}"), theme.strong()),
        ]));
        if let Some(err) = &app.quiz.input_error {
            let spans = [Span::styled(err.clone(), theme.error())];
            out.extend(text::wrap(&spans, width, Span::raw(""), Span::raw("")));
        }
        if let Some(t) = &tolerance {
            out.extend(muted_wrapped(app, t, width));
        }
        out.push(Line::styled("Enter saves · Esc leaves", theme.muted()));
        return;
    }
    let Some(record) = app.record() else {
        let hint = if app.nav.focus == Focus::Quiz {
            "Enter opens a field to type your prediction"
        } else {
            "Tab to this pane, then Enter to predict"
        };
        out.extend(muted_wrapped(app, hint, width));
        if let Some(t) = &tolerance {
            out.extend(muted_wrapped(app, t, width));
        }
        return;
    };
    if let Some((predicted, grade)) = record.graded() {
        out.extend(graded_lines(app, predicted, grade, width));
        return;
    }
    if let Some(value) = record.pending_prediction() {
        out.push(Line::from(vec![
            Span::styled("Your prediction: ", theme.strong()),
            Span::styled(format_value_in(value, unit), theme.inline_code()),
            Span::styled(" (saved)", theme.muted()),
        ]));
        out.extend(muted_wrapped(
            app,
            "It is graded by the next run of the lesson's experiment with its default parameters \
             (press r; changing the parameters with o means that run does not grade it).",
            width,
        ));
        out.push(Line::default());
        out.extend(muted_wrapped(
            app,
            "Enter changes it · n next question",
            width,
        ));
    }
}

/// The frozen grade, then the explanation.
fn graded_lines(app: &App, predicted: f64, grade: &Grade, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let (verdict, style) = if grade.close {
        ("✓ Close enough", theme.correct())
    } else {
        ("✗ Off", theme.wrong())
    };
    // The backend is named only where it is not the one the status line names now.
    let run = if app
        .panel
        .backend
        .kind()
        .is_some_and(|now| now != grade.run.backend)
    {
        format!("{}, default parameters", backend_words(grade.run.backend))
    } else {
        "default parameters".to_string()
    };
    let factor = crate::app::off_factor(predicted, grade.measured);
    // One measure throughout, the factor (review 2026-12-01b: "off by a factor of 1.11 (within
    // 25%). Within a factor of 1.15 either way counts" mixed a percentage band with it).
    let how_far = if factor.is_finite() {
        format!("; off by a factor of {factor:.2}")
    } else {
        String::new()
    };
    let sentence = format!(
        "you predicted {}; measured {} ({run}){how_far}. Within a factor of {:.2} either way counts.",
        format_value_in(predicted, &grade.unit),
        format_value_in(grade.measured, &grade.unit),
        1.0 + grade.tolerance_pct / 100.0
    );
    let mut spans = vec![
        Span::styled(format!("{verdict}: "), style),
        Span::raw(sentence),
    ];
    if app
        .record()
        .and_then(|r| r.graded_attempt())
        .is_some_and(|a| a.after_seeing)
    {
        spans.push(Span::styled(
            " You typed it after a run had shown a measured value: shown, not scored.",
            theme.muted(),
        ));
    }
    let mut out = text::wrap(&spans, width, Span::raw(""), Span::raw(""));
    if let Some(q) = app.question() {
        out.push(Line::default());
        let why = text::inline(&q.explanation, theme.text(), theme.inline_code());
        out.extend(text::wrap(&why, width, Span::raw(""), Span::raw("")));
    }
    out.push(Line::default());
    out.extend(muted_wrapped(
        app,
        "The grade is final · n next question",
        width,
    ));
    out
}
