//! The parameter form (`o`), drawn over the experiment panel: one row per field with the value
//! in brackets, the field under the cursor marked `›` and reversed, the typed text, and why a
//! value was refused.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use crate::app::params::fields;
use crate::app::{App, ParamsForm};
use crate::ui::{layout, pane_block, text};

/// Draw `form` over `panel` (grown to fit on small screens, within `screen`).
pub fn render(app: &App, form: &ParamsForm, panel: Rect, screen: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let width = panel.width.max(44).min(screen.width);
    let fields = fields(&form.experiment);
    let rows = u16::try_from(fields.len()).unwrap_or(5) + 8;
    let height = rows.max(panel.height).min(screen.height);
    let x = panel.x.min(screen.right().saturating_sub(width));
    let y = panel.y.min(screen.bottom().saturating_sub(height));
    let area = Rect::new(x, y, width, height);
    Clear.render(area, buf);
    let title = format!(" Parameters: {} ", form.experiment);
    pane_block(theme, true)
        .title(title)
        .title_bottom(Line::styled(" Enter runs · Esc closes ", theme.muted()))
        .render(area, buf);
    let inner = layout::text_area(area);
    let mut lines = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let here = i == form.field;
        let value = if here && !form.typed.is_empty() {
            format!("{}▏", form.typed)
        } else {
            field.value(&form.options)
        };
        let style = if here { theme.selected() } else { theme.text() };
        lines.push(Line::from(vec![
            Span::styled(if here { "› " } else { "  " }, style),
            Span::styled(format!("{:<12}", field.label()), style),
            Span::styled(format!("‹ {value} ›"), style),
        ]));
    }
    lines.push(Line::default());
    let hint = "↑↓ field · ←→ change · type a value (64M, 4) · Enter runs";
    let spans = [Span::styled(hint, theme.muted())];
    lines.extend(text::wrap(
        &spans,
        inner.width,
        Span::raw(""),
        Span::raw(""),
    ));
    if let Some(err) = &form.error {
        let spans = [Span::styled(err.clone(), theme.error())];
        lines.extend(text::wrap(
            &spans,
            inner.width,
            Span::raw("✗ "),
            Span::raw("  "),
        ));
    }
    Paragraph::new(lines).render(inner, buf);
}
