//! The tutor pane (issue 31): over the lower part of the lesson view or the editor (the right
//! part from 140 columns on), it shows which model answers and that it can be wrong, a note
//! when the request was cut to fit the model's window, the conversation (the answer streaming
//! in), the last failure and the question being typed. With no tutor set up it shows only how
//! to set one up.
//!
//! Everything in it that came from outside is clean already: the model's answers and errors
//! (`crate::tutor::worker`), the settings' reasons (`crate::tutor::config`); the question is the
//! learner's own typing, cleaned here as any text.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Widget};

use crate::app::App;
use crate::app::tutor::how_to_set_up;
use crate::theme::Theme;
use crate::tutor::{Role, Setup};

/// From this width the pane stands on the right, the whole height.
const SIDE_FROM: u16 = 140;

/// Where the pane goes inside `content` (the lesson's or the editor's area).
pub fn area(content: Rect) -> Rect {
    if content.width >= SIDE_FROM {
        let w = content.width * 9 / 20;
        Rect::new(content.right() - w, content.y, w, content.height)
    } else {
        let h = (content.height * 3 / 5).max(10).min(content.height);
        Rect::new(content.x, content.bottom() - h, content.width, h)
    }
}

/// Draw the pane over `content`, when it is open.
pub fn render(app: &App, content: Rect, buf: &mut Buffer) {
    if !app.tutor.open {
        return;
    }
    let outer = area(content);
    Clear.render(outer, buf);
    let theme = &app.theme;
    let title = match app.tutor.setup.ready() {
        Some(c) => format!(
            " Tutor · {} · {} ",
            crate::sanitize::truncate(&c.model, 30),
            app.tutor.mode.label()
        ),
        None => " Tutor ".to_string(),
    };
    let block = crate::ui::pane_block(theme, true)
        .title(title)
        .title(Line::from(" Esc closes ").right_aligned());
    let framed = block.inner(outer);
    block.render(outer, buf);
    // A column of air on each side, as the other panes' text has.
    let inner = Rect::new(
        framed.x + 1,
        framed.y,
        framed.width.saturating_sub(2),
        framed.height,
    );
    if inner.width < 4 || inner.height < 3 {
        return;
    }
    let lines = body(app, theme, inner.width);
    // The last line is the question field; the rest shows the end of the conversation,
    // scrolled up by the learner's ↑.
    let room = usize::from(inner.height);
    let scroll = usize::from(app.tutor.scroll).min(lines.len().saturating_sub(room));
    let end = lines.len() - scroll;
    let start = end.saturating_sub(room);
    for (i, line) in lines[start..end].iter().enumerate() {
        let y = inner.y + u16::try_from(i).unwrap_or(u16::MAX);
        line.clone()
            .render(Rect::new(inner.x, y, inner.width, 1), buf);
    }
}

/// Every line of the pane, top to bottom, wrapped to `width`.
fn body(app: &App, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let t = &app.tutor;
    let mut out = Vec::new();
    let config = match &t.setup {
        Setup::Off => {
            out.extend(para(&how_to_set_up(), Style::new(), width, ""));
            return out;
        }
        Setup::Unusable(why) => {
            let text = format!("The tutor is configured but cannot be used: {why}");
            out.extend(para(&text, theme.warning(), width, ""));
            return out;
        }
        Setup::Ready(config) => config,
    };
    let at = config.endpoint.authority();
    let about = format!(
        "{} at {at} answers. It can be wrong: check what it says against the cards.",
        config.model
    );
    out.extend(para(&about, theme.muted(), width, ""));
    if !config.endpoint.loopback {
        let warn = format!(
            "{at} is another machine (allow_remote): your code and questions go there over plain http, unencrypted."
        );
        out.extend(para(&warn, theme.warning(), width, ""));
    }
    if !t.last_cut.is_empty() {
        let note = format!("Cut to fit the model's window: {}.", t.last_cut.join(", "));
        out.extend(para(&note, theme.warning(), width, ""));
    }
    for turn in &t.conversation.turns {
        out.push(Line::default());
        let (who, style) = match turn.role {
            Role::User => ("you: ", theme.focus()),
            Role::Assistant => ("tutor: ", Style::new()),
        };
        out.extend(para(&turn.text, style, width, who));
    }
    if let Some(answer) = &t.answering {
        out.push(Line::default());
        let text = if answer.text.is_empty() {
            "…"
        } else {
            answer.text.as_str()
        };
        out.extend(para(&format!("{text}▌"), Style::new(), width, "tutor: "));
    }
    if let Some(error) = &t.error {
        out.push(Line::default());
        out.extend(para(error, theme.error(), width, ""));
    }
    out.push(Line::default());
    let question = crate::sanitize::clean_line(&t.input);
    out.extend(para(&format!("{question}▏"), theme.focus(), width, "> "));
    out
}

/// `text` wrapped to `width`, each paragraph on its own lines, the first starting with `lead`.
fn para(text: &str, style: Style, width: u16, lead: &str) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for (i, paragraph) in text.split('\n').enumerate() {
        let first = Span::styled(
            if i == 0 {
                lead.to_string()
            } else {
                String::new()
            },
            style,
        );
        // Answers, config errors and the config path come from outside: cleaned here, once.
        let spans = [Span::styled(
            crate::sanitize::clean_line(&paragraph.replace('\t', "    ")),
            style,
        )];
        if paragraph.trim().is_empty() {
            out.push(Line::from(first));
        } else {
            out.extend(crate::ui::text::wrap(&spans, width, first, Span::raw("")));
        }
    }
    out
}
