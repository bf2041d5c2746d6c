//! Tests of the highlighter: CUDA words get their colours, other languages use syntect's
//! defaults, unknown ones and oversized code fall back to plain (None).

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

use super::*;

const KERNEL: &str = "__global__ void scale(float* __restrict__ x, int n) {\n  for (int k = 0; k < n; ++k) {\n    if (k == threadIdx.x) { x[k] *= 2.0f; }\n  }\n  __syncthreads();\n}\nscale<<<grid, 256, 0, stream>>>(d_x, n);\ncudaMemcpyAsync(d_x, h_x, bytes, cudaMemcpyHostToDevice, stream);\ncudaStream_t stream;\n";

fn ready() {
    warm_up();
    assert!(is_ready(), "warm-up failed: {:?}", load_error());
}

/// The style of the first span whose text is exactly `word`.
fn style_of(lines: &[Line<'_>], word: &str) -> Style {
    lines
        .iter()
        .flat_map(|l| l.spans.iter())
        .find(|s| s.content.trim() == word)
        .map(|s| s.style)
        .unwrap_or_else(|| panic!("no span {word:?} in {lines:?}"))
}

fn text_of(lines: &[Line<'_>]) -> String {
    lines.iter().map(|l| l.to_string() + "\n").collect()
}

#[test]
fn cuda_words_are_coloured_even_inside_nested_blocks() {
    ready();
    let lines = highlight("cuda", KERNEL, Theme::new(true).with_truecolor(true)).unwrap();
    assert_eq!(
        text_of(&lines),
        KERNEL,
        "highlighting must not change the text"
    );
    let global = style_of(&lines, "__global__");
    assert_eq!(global.fg, Some(Color::Rgb(0xbf, 0x61, 0x6a)));
    assert!(global.add_modifier.contains(Modifier::BOLD));
    // threadIdx sits three braces deep: a top-level-only overlay would miss it.
    assert_eq!(
        style_of(&lines, "threadIdx").fg,
        Some(Color::Rgb(0xbf, 0x61, 0x6a))
    );
    assert_eq!(
        style_of(&lines, "__syncthreads").fg,
        Some(Color::Rgb(0x96, 0xb5, 0xb4))
    );
    assert_eq!(
        style_of(&lines, "<<<").fg,
        Some(Color::Rgb(0x96, 0xb5, 0xb4))
    );
    assert_eq!(
        style_of(&lines, ">>>").fg,
        Some(Color::Rgb(0x96, 0xb5, 0xb4))
    );
    assert_eq!(
        style_of(&lines, "cudaMemcpyAsync").fg,
        Some(Color::Rgb(0x8f, 0xa1, 0xb3))
    );
    assert_eq!(
        style_of(&lines, "cudaStream_t").fg,
        Some(Color::Rgb(0xeb, 0xcb, 0x8b))
    );
    assert_eq!(
        style_of(&lines, "cudaMemcpyHostToDevice").fg,
        Some(Color::Rgb(0xd0, 0x87, 0x70))
    );
    // Plain identifiers keep the terminal's colour.
    assert_eq!(style_of(&lines, "stream;").fg, None);
}

#[test]
fn fence_aliases_pick_the_cuda_syntax() {
    ready();
    let cuda = highlight("cuda", KERNEL, Theme::new(true).with_truecolor(true));
    assert!(cuda.is_some());
    assert_eq!(
        highlight("cu", KERNEL, Theme::new(true).with_truecolor(true)),
        cuda
    );
    assert_eq!(
        highlight("CUH", KERNEL, Theme::new(true).with_truecolor(true)),
        cuda
    );
}

#[test]
fn other_languages_use_syntect_defaults_and_unknown_ones_are_none() {
    ready();
    for lang in ["cpp", "c", "rust", "sh", "bash", "python", "c++"] {
        let lines = highlight(
            lang,
            "int main() { return 0; }\n",
            Theme::new(true).with_truecolor(true),
        );
        let lines = lines.unwrap_or_else(|| panic!("{lang} should highlight"));
        assert!(
            lines
                .iter()
                .flat_map(|l| &l.spans)
                .any(|s| s.style.fg.is_some()),
            "{lang}"
        );
    }
    assert_eq!(
        highlight("klingon", "qapla'\n", Theme::new(true).with_truecolor(true)),
        None
    );
    assert_eq!(
        highlight("", "x\n", Theme::new(true).with_truecolor(true)),
        None
    );
}

#[test]
fn colour_off_keeps_only_modifiers() {
    ready();
    let lines = highlight("cuda", KERNEL, Theme::new(false)).unwrap();
    assert!(
        lines
            .iter()
            .flat_map(|l| &l.spans)
            .all(|s| s.style.fg.is_none() && s.style.bg.is_none())
    );
    assert!(
        style_of(&lines, "__global__")
            .add_modifier
            .contains(Modifier::BOLD)
    );
}

#[test]
fn oversized_code_is_left_plain() {
    ready();
    let long_line = "x".repeat(MAX_LINE_BYTES + 1);
    assert_eq!(
        highlight("cuda", &long_line, Theme::new(true).with_truecolor(true)),
        None
    );
    let many = "int x;\n".repeat(MAX_CODE_BYTES / 7 + 1);
    assert_eq!(
        highlight("cuda", &many, Theme::new(true).with_truecolor(true)),
        None
    );
}

#[test]
fn unterminated_comment_and_string_do_not_fail() {
    ready();
    let lines = highlight(
        "cuda",
        "/* never closed\n\"also open\nint x;\n",
        Theme::new(true).with_truecolor(true),
    )
    .unwrap();
    assert_eq!(lines.len(), 3);
}
