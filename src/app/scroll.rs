//! Scroll offsets, one helper for every pane: how far a text can scroll, and a step kept inside.

/// The furthest first line that still fills `height` rows with `lines` of text.
pub(super) fn max_scroll(lines: usize, height: u16) -> u16 {
    u16::try_from(lines.saturating_sub(usize::from(height))).unwrap_or(u16::MAX)
}

/// `value` moved by `delta` lines, kept within `0..=max`.
pub(super) fn add(value: u16, delta: i32, max: u16) -> u16 {
    let v = (i32::from(value) + delta).clamp(0, i32::from(max));
    u16::try_from(v).unwrap_or(max)
}
