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
fn c_and_cpp_fences_read_as_cuda_shell_fences_as_shell_and_the_rest_are_plain() {
    ready();
    let theme = Theme::new(true).with_truecolor(true);
    let code = "int main() { return 0; }\n";
    for lang in ["cpp", "c", "c++", "CXX", "hpp"] {
        assert_eq!(
            highlight(lang, code, theme),
            highlight("cuda", code, theme),
            "{lang}"
        );
    }
    let command = "nvcc -O2 -o app app.cu && ./app --size 64 # run it\n";
    for lang in ["sh", "bash", "shell", "console"] {
        let lines = highlight(lang, command, theme).unwrap_or_else(|| panic!("{lang}"));
        let coloured = |word: &str| {
            lines
                .iter()
                .flat_map(|l| &l.spans)
                .any(|s| s.content.contains(word) && s.style.fg.is_some())
        };
        for word in ["nvcc", "-O2", "&&", "--size", "64", "run it"] {
            assert!(coloured(word), "{lang}: {word} in {lines:?}");
        }
    }
    for lang in ["rust", "python", "toml", "text", "klingon", ""] {
        assert_eq!(highlight(lang, "x = 1\n", theme), None, "{lang}");
    }
}

#[test]
fn a_continuation_line_has_options_and_arguments_not_a_command() {
    ready();
    let theme = Theme::new(true).with_truecolor(true);
    let lines =
        highlight("sh", "nsys profile \\\n     -o report ./prog\n", theme).unwrap_or_default();
    let style_of = |word: &str| {
        lines
            .iter()
            .flat_map(|l| &l.spans)
            .find(|s| s.content.trim() == word)
            .and_then(|s| s.style.fg)
    };
    let report = lines
        .iter()
        .flat_map(|l| &l.spans)
        .find(|s| s.content.contains("report"));
    assert!(style_of("nsys").is_some(), "{lines:?}");
    assert_ne!(style_of("-o"), style_of("nsys"), "{lines:?}");
    assert!(
        matches!(report, Some(s) if s.style.fg.is_none()),
        "{lines:?}"
    );
}

#[test]
fn a_shell_variable_and_strings_are_coloured() {
    ready();
    let theme = Theme::new(true).with_truecolor(true);
    let lines = highlight("sh", "echo \"$HOME\" 'x'\n", theme).unwrap_or_default();
    let style_of = |word: &str| {
        lines
            .iter()
            .flat_map(|l| &l.spans)
            .find(|s| s.content.contains(word))
            .and_then(|s| s.style.fg)
    };
    assert!(style_of("$HOME").is_some(), "{lines:?}");
    assert!(style_of("'x'").is_some(), "{lines:?}");
    assert_ne!(style_of("$HOME"), style_of("'x'"), "{lines:?}");
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
