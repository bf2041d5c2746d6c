//! Renderer tests on sample cards: layout snapshots (plain text) and targeted style checks.

use ratatui::style::{Color, Modifier};
use ratatui::text::Line;

use super::*;

/// A card in the style of the lessons: every construct the renderer supports.
const CARD: &str = r#"<!-- source: CUDA Programming Guide, 3.2.6 Asynchronous Concurrent Execution -->
# Returning is not finishing

`cudaMemcpyAsync` *queues* the copy and returns; the data is there only once the **stream**
reaches it. Measured here: {{metric:async_return_us_pinned}}, pageable {{metric:async_return_us_pageable}}.

> From pageable memory the driver stages the data through its own pinned buffer.
> > On the H200 a 64 MiB call returned only after the whole copy.

- Pinned host memory makes the call truly asynchronous, which is the whole point of this lesson and worth a long line.
- Work in one stream runs in order:
  1. the copy
  2. the kernel
- ~~cudaDeviceSynchronize~~ `cudaStreamSynchronize(s)` before touching results

| source | call returned after |
|---|---:|
| pinned | 2.2 µs |
| pageable | 6.2 ms: the whole copy |

```cuda
cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);
kernel<<<grid, block, 0, s>>>(d_in, d_out, n);  // runs after the copy: same stream
cudaStreamSynchronize(s);
```

See the [API synchronization behavior](https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html) page.

---
"#;

fn metric(name: &str) -> Option<String> {
    (name == "async_return_us_pinned").then(|| "2.2 µs".to_string())
}

fn opts(width: u16, color: bool, highlight: bool) -> RenderOptions<'static> {
    RenderOptions {
        width,
        theme: Theme::new(color),
        highlight,
        metric: &metric,
        code_scroll: 0,
    }
}

fn card(md: &str, width: u16) -> Rendered {
    render_card(md, &opts(width, true, false))
}

fn lines(md: &str, width: u16, color: bool) -> Vec<Line<'static>> {
    render(md, &opts(width, color, false))
}

/// The rendered text, with no-break spaces shown as spaces.
fn text(md: &str, width: u16) -> String {
    let out: String = lines(md, width, true)
        .iter()
        .map(|l| l.to_string() + "\n")
        .collect();
    out.replace('\u{a0}', " ")
}

fn assert_fits(lines: &[Line], width: usize) {
    for line in lines {
        assert!(
            line.width() <= width,
            "{} > {width}: {line:?}",
            line.width()
        );
    }
}

#[test]
fn sample_card_at_76_columns() {
    let out = lines(CARD, 76, true);
    assert_fits(&out, 76);
    insta::assert_snapshot!(text(CARD, 76));
}

#[test]
fn sample_card_at_40_columns() {
    let out = lines(CARD, 40, true);
    assert_fits(&out, 40);
    insta::assert_snapshot!(text(CARD, 40));
}

#[test]
fn styles_without_colour() {
    let md = "## Pinned\n\n*queued*, **done**, ~~gone~~, `code`, [doc](u)\n\n> quoted\n\n- item";
    insta::assert_debug_snapshot!(lines(md, 40, false));
}

#[test]
fn headings_differ_by_level_without_colour() {
    let out = lines("# One\n\n## Two\n\n### Three\n\n#### Four", 40, false);
    let t: Vec<String> = out.iter().map(|l| l.to_string()).collect();
    assert_eq!(t, ["One", "═══", "", "Two", "───", "", "Three", "", "Four"]);
    let style = |i: usize| out[i].spans[0].style;
    assert!(
        style(0)
            .add_modifier
            .contains(Modifier::BOLD | Modifier::UNDERLINED)
    );
    assert!(style(6).add_modifier.contains(Modifier::BOLD));
    assert!(
        style(8)
            .add_modifier
            .contains(Modifier::BOLD | Modifier::ITALIC)
    );
    assert_ne!(style(6), style(8));
}

#[test]
fn nested_quotes_draw_one_bar_per_level_and_blank_lines_keep_them() {
    let t = text("> outer\n>\n> > inner\n\nafter", 40);
    assert_eq!(t, "│ outer\n│\n│ │ inner\n\nafter\n");
}

#[test]
fn list_items_hang_their_wrapped_lines_under_the_text() {
    let t = text(
        "- alpha beta gamma delta\n  - one two three four\n3. x\n4. y",
        16,
    );
    assert_eq!(
        t,
        "• alpha beta\n  gamma delta\n  ◦ one two\n    three four\n\n3. x\n4. y\n"
    );
}

#[test]
fn an_empty_item_still_shows_its_bullet() {
    assert_eq!(text("- \n- b", 20), "•\n• b\n");
}

#[test]
fn web_links_are_numbered_in_reading_order() {
    let md = "A bare https://b.org/x, then [guide](https://x.org/g) and <https://y.org>; \
              [guide again](https://x.org/g).";
    let t = text(md, 80);
    assert_eq!(
        t,
        "A bare https://b.org/x [1], then guide [2] and https://y.org [3]; guide\n\
         again [2].\n"
    );
    let out = card(md, 80);
    let urls: Vec<&str> = out.links.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(
        urls,
        ["https://b.org/x", "https://x.org/g", "https://y.org"]
    );
    assert_eq!(out.links[0].label, "A bare");
    assert_eq!(out.links[1].label, "guide");
    // `A: url1 and url2`: the second is called as the first.
    let two = card(
        "- The API, **streams**: https://a.org/1\n  and https://a.org/2",
        80,
    );
    let labels: Vec<&str> = two.links.iter().map(|l| l.label.as_str()).collect();
    assert_eq!(labels, ["The API, streams", "The API, streams"]);
    // The link text is underlined, the marker is not.
    let line = &out.lines[0];
    let guide = line.spans.iter().find(|s| s.content == "guide").unwrap();
    assert!(guide.style.add_modifier.contains(Modifier::UNDERLINED));
    let mark = line
        .spans
        .iter()
        .find(|s| s.content.contains("[2]"))
        .unwrap();
    assert!(!mark.style.add_modifier.contains(Modifier::UNDERLINED));
}

#[test]
fn link_spots_cover_exactly_the_link_text() {
    let out = card("- see [the guide](https://x.org/g) or https://y.org/z", 80);
    let line = out.lines[0].to_string();
    for spot in &out.spots {
        let cols: String = line
            .chars()
            .skip(usize::from(spot.col))
            .take(usize::from(spot.width))
            .collect();
        let expected = ["the guide", "https://y.org/z"][spot.link];
        assert_eq!(cols, expected, "{spot:?} in {line:?}");
    }
    assert_eq!(out.spots.len(), 2);
}

#[test]
fn other_links_show_their_target_and_are_no_links() {
    let out = card("[mail](mailto:a@b.org), [rel](../x.md) and ftp://f.org", 80);
    assert_eq!(
        out.lines[0].to_string(),
        "mail (mailto:a@b.org), rel (../x.md) and ftp://f.org"
    );
    assert!(out.links.is_empty() && out.spots.is_empty());
}

#[test]
fn html_comments_are_hidden_and_other_html_shows() {
    assert_eq!(
        text("<!-- source: guide -->\ntext <!-- inline --> here", 80),
        "text here\n"
    );
    assert_eq!(
        text("<!-- a\nmulti-line\ncomment -->\n\npara", 80),
        "para\n"
    );
    assert_eq!(text("<div>\nraw\n</div>", 80), "<div>\nraw\n</div>\n");
}

#[test]
fn metrics_show_their_value_or_an_invitation() {
    let t = text("a {{metric:async_return_us_pinned}} b {{metric:other}}", 80);
    assert_eq!(t, format!("a 2.2 µs b {METRIC_INVITATION}\n"));
    let out = lines("{{metric:other}}", 80, true);
    assert_eq!(out[0].spans[0].style, Theme::new(true).muted());
}

#[test]
fn inline_code_keeps_backticks_without_colour() {
    assert_eq!(
        lines("use `cudaMallocHost`", 80, false)[0].to_string(),
        "use `cudaMallocHost`"
    );
    assert_eq!(
        lines("use `cudaMallocHost`", 80, true)[0].to_string(),
        "use cudaMallocHost"
    );
}

#[test]
fn without_colour_no_span_has_a_colour() {
    crate::highlight::warm_up();
    let out = render(CARD, &opts(76, false, true));
    for span in out.iter().flat_map(|l| &l.spans) {
        assert!(
            span.style.fg.is_none() && span.style.bg.is_none(),
            "{span:?}"
        );
    }
}

#[test]
fn code_is_cut_at_the_edge_with_a_mark_and_scrolls_never_wraps() {
    let md = "```cuda\nkernel<<<grid, block, 0, stream>>>(d_in, d_out, n);\n}\n```";
    let scrolled = |columns: u16| {
        let rendered = render_card(
            md,
            &RenderOptions {
                code_scroll: columns,
                ..opts(24, true, false)
            },
        );
        let text: Vec<String> = rendered.lines.iter().map(|l| l.to_string()).collect();
        (text, rendered.code_overflow)
    };
    // 51 columns of code in 22 (the gutter takes 2): one line each, 29 columns to scroll.
    assert_eq!(
        scrolled(0),
        (vec!["▎ kernel<<<grid, block,»".into(), "▎ }".into()], 29)
    );
    assert_eq!(scrolled(10).0, ["▎ «id, block, 0, stream»", "▎ «"]);
    // At most to the line's end: there the `»` is gone.
    let end = vec!["▎ «m>>>(d_in, d_out, n);".to_string(), "▎ «".into()];
    assert_eq!(scrolled(29).0, end);
    assert_eq!(scrolled(300).0, end);
    // Code that fits is never marked, whatever the scroll.
    assert_eq!(text("```\nshort();\n```", 24), "▎ short();\n");
    let fits = RenderOptions {
        code_scroll: 5,
        ..opts(24, true, false)
    };
    assert_eq!(render_card("```\nshort();\n```", &fits).code_overflow, 0);
    assert_eq!(
        render("```\nshort();\n```", &fits)[0].to_string(),
        "▎ short();"
    );
}

#[test]
fn code_is_highlighted_only_when_asked_and_ready() {
    crate::highlight::warm_up();
    let md = "```cu\n__global__ void k() {}\n```";
    let coloured = render(md, &opts(40, true, true));
    let global = coloured[0]
        .spans
        .iter()
        .find(|s| s.content == "__global__")
        .unwrap();
    // 256 colours unless the theme allows 24-bit colour (COLORTERM).
    assert!(matches!(global.style.fg, Some(Color::Indexed(..))));
    let plain = render(md, &opts(40, true, false));
    assert!(
        plain[0]
            .spans
            .iter()
            .all(|s| !matches!(s.style.fg, Some(Color::Rgb(..) | Color::Indexed(..))))
    );
    let unknown = render("```klingon\n__global__\n```", &opts(40, true, true));
    assert_eq!(unknown[0].to_string(), "▎ __global__");
}

#[test]
fn tables_have_borders_and_shrink_to_fit() {
    let md = "| a | b |\n|---|---|\n| 1 | a rather long cell that must wrap |";
    let t = text(md, 20);
    insta::assert_snapshot!(t);
    assert_fits(&lines(md, 20, true), 20);
}

#[test]
fn unterminated_fence_still_shows_the_code() {
    assert_eq!(text("```cuda\nint x;\n", 40), "▎ int x;\n");
}

/// Renders `md` at two widths and checks that every line fits. How long it takes is measured by
/// `cargo bench --bench render -- hostile` (BENCHMARKS.md), not here: a quadratic renderer would
/// still never finish these inputs.
fn survives(md: &str) {
    for width in [200, 10] {
        let out = render(md, &opts(width, true, true));
        assert_fits(&out, usize::from(width));
    }
}

#[test]
fn deep_nesting_renders_with_a_capped_margin() {
    survives(&format!("{}deep", "> ".repeat(1000)));
    let list: String = (0..1000)
        .map(|i| format!("{}- item {i}\n", "  ".repeat(i)))
        .collect();
    survives(&list);
    let out = lines(&format!("{}deep", "> ".repeat(1000)), 80, true);
    assert_eq!(
        out.last().unwrap().to_string(),
        format!("{}deep", "│ ".repeat(prefix::MAX_DEPTH))
    );
}

#[test]
fn hostile_input_renders() {
    // 256 KiB each: one unbroken word, many short words, one long code line.
    survives(&"x".repeat(256 << 10));
    survives(&"word ".repeat((256 << 10) / 5));
    survives(&format!("```cuda\n{}\n```", "a+".repeat(128 << 10)));
    survives("nul \0 bytes \0\0 and \u{1b}[2J escapes");
    survives("```\nunterminated\n| a | b |\n");
    survives(&"| a | b |\n|---|---|\n".repeat(2000));
    let escaped = text("\u{1b}[31mred", 40);
    assert!(!escaped.contains('\u{1b}'));
}
