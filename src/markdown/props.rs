//! Property tests: any input renders without panicking, and no line is wider than the width.

use proptest::prelude::*;

use super::*;

fn no_metric(_: &str) -> Option<String> {
    None
}

/// Markdown-ish fragments, so generated inputs reach nested blocks, tables and fences.
fn markdownish() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("> ".to_string()),
        Just("- ".to_string()),
        Just("1. ".to_string()),
        Just("\n".to_string()),
        Just("\n\n".to_string()),
        Just("```cuda\n".to_string()),
        Just("| a | b |\n|---|---|\n".to_string()),
        Just("**".to_string()),
        Just("`".to_string()),
        Just("[x](http://y) ".to_string()),
        Just("{{metric:m}}".to_string()),
        Just("<!-- c -->".to_string()),
        Just("# ".to_string()),
        "[a-z ]{0,30}",
        "\\PC{0,20}",
        any::<String>(),
    ];
    prop::collection::vec(token, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn render_never_panics_and_lines_fit(md in markdownish(), width in 10u16..200, color: bool, code_scroll in 0u16..300) {
        // Scrolled code (cut at the edge, never wrapped) fits too.
        let opts = RenderOptions { width, theme: Theme::new(color), highlight: true, metric: &no_metric, code_scroll };
        for line in render(&md, &opts) {
            prop_assert!(line.width() <= usize::from(width), "{} > {width}: {line:?}", line.width());
            // An ESC or other control character would reach the terminal as a command.
            prop_assert!(!line.spans.iter().any(|s| s.content.contains(char::is_control)), "{line:?}");
        }
    }

    #[test]
    fn tiny_widths_never_panic(md in markdownish(), width in 0u16..10) {
        let opts = RenderOptions { width, theme: Theme::new(true), highlight: false, metric: &no_metric, code_scroll: 0 };
        let _ = render(&md, &opts);
    }
}
