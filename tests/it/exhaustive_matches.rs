//! No catch-all over what the checker must not forget (issue 26): in `src/exercise/` and
//! `src/ordering/`, a `match` whose arms name a call ([`CallId`], the log's `Call`), a trace
//! record (`Record`) or a hazard kind (`HazardKind`) has no `_` arm, so a variant added to one
//! of those enums and forgotten in a match does not compile. Filters that want one variant
//! write `if let` / `matches!` instead, which say so. Read as text, as `import_graph` reads
//! imports (comments, strings and test modules left out).

// Test helpers outside `#[test]` functions may fail loudly.
#![allow(clippy::unwrap_used, clippy::panic)]

use super::import_graph::{code_only, is_test_file, rust_files};
use std::path::Path;

/// The enums a `match` must cover arm by arm, as their paths start in a pattern.
const WATCHED: &[&str] = &["CallId::", "Call::", "Record::", "HazardKind::"];

/// Each `match` block's arm patterns (the text before each depth-0 `=>`) with the line the
/// `match` is on.
fn match_patterns(code: &str) -> Vec<(usize, Vec<String>)> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find("match ") {
        let at = from + i;
        from = at + 1;
        let word_start =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        if !word_start {
            continue;
        }
        // The scrutinee ends at the first `{` outside brackets.
        let mut depth = 0i32;
        let mut open = None;
        for (j, &b) in bytes.iter().enumerate().skip(at + 6) {
            match b {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b'{' if depth == 0 => {
                    open = Some(j);
                    break;
                }
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        out.push((code[..at].lines().count(), arms(&code[open + 1..])));
    }
    out
}

/// The patterns of the arms of a match body (text from just after its `{`).
fn arms(body: &str) -> Vec<String> {
    let bytes = body.as_bytes();
    let (mut depth, mut pattern, mut in_pattern) = (0i32, String::new(), true);
    let mut out = Vec::new();
    let mut j = 0;
    while j < bytes.len() {
        let b = bytes[j];
        if depth == 0 && b == b'}' {
            break;
        }
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        if in_pattern {
            if depth == 0 && body[j..].starts_with("=>") {
                out.push(pattern.trim().to_string());
                pattern.clear();
                in_pattern = false;
                j += 2;
                continue;
            }
            pattern.push(b as char);
        } else if depth == 0 && (b == b',' || b == b'}') {
            // A body ends at a depth-0 comma, or with the block it was (`=> { … }`).
            in_pattern = true;
        }
        j += 1;
    }
    out
}

/// Whether an arm's pattern is a catch-all: `_`, or `_ if …`.
fn is_catch_all(pattern: &str) -> bool {
    let p = pattern.trim_start_matches('|').trim();
    p == "_" || p.starts_with("_ if ")
}

fn catch_alls_over_watched(code: &str) -> Vec<usize> {
    match_patterns(code)
        .into_iter()
        .filter(|(_, pats)| {
            pats.iter().any(|p| WATCHED.iter().any(|w| p.contains(w)))
                && pats.iter().any(|p| is_catch_all(p))
        })
        .map(|(line, _)| line)
        .collect()
}

#[test]
fn no_catch_all_over_calls_records_or_hazard_kinds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["exercise", "ordering"] {
        rust_files(&root.join(dir), &root, &mut files);
    }
    assert!(
        files.len() > 50,
        "src/exercise and src/ordering read: {}",
        files.len()
    );
    let mut found = Vec::new();
    for (rel, text) in &files {
        if is_test_file(rel) {
            continue;
        }
        for line in catch_alls_over_watched(&code_only(text)) {
            found.push(format!("src/{rel}:{line}"));
        }
    }
    assert!(
        found.is_empty(),
        "a `_ =>` arm in a match over calls, records or hazard kinds (cover each variant, or use `if let`/`matches!` for a filter):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_a_catch_all_and_passes_a_full_match() {
    let caught = "fn f(c: &Call) -> u8 {\n    match c {\n        Call::Free { .. } => { 1 }\n        _ => 0,\n    }\n}\n";
    assert_eq!(catch_alls_over_watched(caught), vec![2]);
    let full = "fn f(c: &Call) -> u8 {\n    match c {\n        Call::Free { .. } => 1,\n        Call::Alloc { .. } | Call::Device(_) => { 2 }\n    }\n}\n";
    assert!(catch_alls_over_watched(full).is_empty());
    // `_` inside a pattern's fields is not a catch-all arm.
    let fields = "match c { Call::Device(_) => 1, Call::Free { .. } => 2 }";
    assert!(catch_alls_over_watched(fields).is_empty());
    // A match over something else may end in `_`.
    assert!(catch_alls_over_watched("match n { 1 => 1, _ => 0 }").is_empty());
}
