//! The status bar, from the first frame: which backend runs experiments (`Live: <GPU name>` or
//! `Simulated: profile <name> — <reason>`), "detecting backend…" until the worker has opened
//! it, and the run in progress on the right.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::app::{App, BackendState};
use crate::report::BackendKind;

/// The backend's words, as the status bar shows them.
pub fn backend_text(app: &App) -> String {
    backend_texts(app).swap_remove(0)
}

/// The backend's words, fullest first: a narrow bar drops the device name and the word
/// `profile`, then the reason's detail, before it cuts anything (review 2026-12-01b: below 200
/// columns it was cut). The simulator's line ends with the reason it runs, never with advice
/// to use it ("or use --backend sim" while the simulator is in use).
fn backend_texts(app: &App) -> Vec<String> {
    if let BackendState::Ready(info) = &app.panel.backend
        && info.backend.kind == BackendKind::Simulated
    {
        let profile = info.backend.profile.as_deref().unwrap_or("unknown");
        let reasons = info
            .backend
            .reason
            .as_deref()
            .map_or_else(Vec::new, reasons);
        let short = format!("Simulated ({profile})");
        let mut texts: Vec<String> = match reasons.first() {
            Some(why) => [
                format!("Simulated: profile {profile} ({})", info.name),
                format!("Simulated: profile {profile}"),
            ]
            .into_iter()
            .map(|lead| format!("{lead} — {why}"))
            .collect(),
            None => vec![format!("Simulated: profile {profile} ({})", info.name)],
        };
        texts.extend(reasons.iter().map(|r| format!("{short} — {r}")));
        texts.push(short);
        return texts;
    }
    vec![full_text(app)]
}

/// Why the simulator runs, fullest first, without the remedy that names the simulator:
/// `no usable GPU: no CUDA driver found (libcuda.so …)`, then without the parenthesis, then
/// the words before the first colon (`no usable GPU`).
fn reasons(reason: &str) -> Vec<String> {
    let why = reason
        .rsplit_once("; ")
        .filter(|(_, remedy)| remedy.contains("--backend sim"))
        .map_or(reason, |(why, _)| why)
        .trim();
    let mut out = vec![why.to_string()];
    if let Some((short, _)) = why.split_once(" (") {
        out.push(short.trim().to_string());
    }
    if let Some((head, _)) = why.split_once(": ") {
        out.push(head.trim().to_string());
    }
    out.dedup();
    out
}

fn full_text(app: &App) -> String {
    match &app.panel.backend {
        BackendState::Detecting => "Detecting backend… (experiments run once it is open)".into(),
        BackendState::Failed(why) => format!("No backend: {why}"),
        BackendState::Ready(info) => match info.backend.kind {
            BackendKind::Cuda => format!("Live: {}", info.name),
            BackendKind::Simulated => format!("Simulated ({})", info.name),
        },
    }
}

/// Draw the status bar.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let style = match &app.panel.backend {
        BackendState::Failed(_) => theme.error(),
        BackendState::Detecting => theme.muted(),
        BackendState::Ready(_) => theme.strong(),
    };
    let right = app
        .panel
        .running
        .as_ref()
        .map(|r| format!(" running {} ", r.experiment))
        .unwrap_or_default();
    let right_width = u16::try_from(right.chars().count()).unwrap_or(0);
    let room = usize::from(area.width.saturating_sub(right_width + 2));
    // Device names and reasons come from the driver or a profile: outside text.
    let texts = backend_texts(app);
    let fits = texts
        .iter()
        .find(|t| crate::sanitize::width(t) <= room)
        .or(texts.last());
    let left = crate::sanitize::truncate(fits.map_or("", String::as_str), room);
    Line::from(vec![Span::raw(" "), Span::styled(left, style)]).render(area, buf);
    if right_width > 0 && right_width < area.width {
        let at = Rect::new(area.right() - right_width, area.y, right_width, 1);
        Span::styled(right, theme.focus()).render(at, buf);
    }
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Size;

    use super::*;
    use crate::app::{Msg, fixture};
    use crate::gpu::detect;
    use crate::progress::Progress;
    use crate::theme::Theme;
    use crate::worker::WorkerEvent;

    /// The reason the simulator gives when no driver loads, as `gpu::detect` words it.
    const NO_DRIVER: &str = "no usable GPU: no CUDA driver found (libcuda.so could not be \
         loaded: libcuda.so.1: cannot open shared object file); install the NVIDIA driver or \
         use --backend sim";

    fn bar(width: u16) -> String {
        let mut app = App::new(
            fixture::sample_catalog(),
            Theme::new(false),
            Progress::default(),
            Size::new(width, 24),
        );
        let gpu = detect::open_sim(None, NO_DRIVER.into()).unwrap();
        app.update(Msg::Worker(WorkerEvent::Backend(Ok(gpu.info().clone()))));
        let area = Rect::new(0, 0, width, 1);
        let mut buf = Buffer::empty(area);
        render(&app, area, &mut buf);
        (0..width).map(|x| buf[(x, 0)].symbol()).collect::<String>()
    }

    #[test]
    fn the_status_line_fits_and_never_advises_the_simulator_it_runs() {
        for width in 60..=200 {
            let text = bar(width);
            let text = text.trim_end();
            assert!(text.contains("Simulated"), "{width}: {text}");
            assert!(!text.contains('…'), "{width}: cut: {text}");
            assert!(!text.contains("--backend sim"), "{width}: {text}");
            assert!(text.contains("no usable GPU"), "{width}: {text}");
        }
        assert!(bar(200).contains("no CUDA driver found (libcuda.so"));
        assert!(bar(120).contains("no CUDA driver found"), "{}", bar(120));
    }

    #[test]
    fn the_reason_loses_its_detail_before_it_is_cut() {
        assert_eq!(
            reasons(NO_DRIVER),
            [
                "no usable GPU: no CUDA driver found (libcuda.so could not be loaded: libcuda.so.1: \
                 cannot open shared object file)",
                "no usable GPU: no CUDA driver found",
                "no usable GPU",
            ]
        );
        assert_eq!(reasons("--backend sim"), ["--backend sim"]);
        // Advice that is not about the simulator stays.
        assert_eq!(reasons("a; do b"), ["a; do b"]);
    }
}
