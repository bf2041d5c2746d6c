//! The import graph of `src/` (issue 20): every file's `use crate::…`/`use super::…` lines and
//! the `crate::…`/`super::…` paths in its code, read as text, make a graph of files. Two rules
//! hold, as CONTRIBUTING's module map states them:
//!
//! - no import circle between files, other than a module file and its own descendants (a child
//!   using `super::` items is how a module is split into files, so edges from a file to its own
//!   ancestors are left out);
//! - no import from a lower layer to a higher one ([`LAYERS`], the same table as CONTRIBUTING's).
//!
//! Test code is left out (`tests.rs`, `*_tests.rs`, and everything from a `#[cfg(test)] mod` on).
//! [`ALLOWED_CIRCLES`] is empty: any circle between files fails here.

// Test helpers outside `#[test]` functions may fail loudly.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module of `src/` and its layer: a module may import from its own layer or any
/// lower one, never a higher one. Keep in step with CONTRIBUTING's "Layers".
const LAYERS: &[(&str, u8)] = &[
    ("main", 13),
    ("cli", 12),
    ("tui", 11),
    ("ui", 10),
    ("app", 9),
    ("worker", 8),
    ("progress", 7),
    ("lesson", 6),
    ("exercise", 5),
    ("metric_text", 5),
    ("widgets", 5),
    ("markdown", 5),
    ("keymap", 5),
    ("trace", 5),
    ("attach", 5),
    ("experiment", 4),
    ("highlight", 4),
    ("gpu", 3),
    ("timeline", 3),
    ("theme", 3),
    ("ordering", 2),
    ("report", 1),
    ("tutor", 1),
    ("units", 0),
    ("utc", 0),
    ("meminfo", 0),
    ("atomic_file", 0),
    ("bounded_read", 0),
    ("sanitize", 0),
    ("text_fit", 0),
    ("panes", 0),
];

/// Circles still allowed, each as its sorted list of files (module paths). None: issue 20's
/// editor work made the exercise editor one sub-state (`app/editor/`, `ui/editor/`, its file I/O in
/// `tui/exercise_*`), split the parameter dialog's glue from the form (`app/params/dialog`) and
/// the terminal from the external editor (`tui/external_editor::Handover`). A new circle fails.
const ALLOWED_CIRCLES: &[&[&str]] = &[];

type Module = Vec<String>;

/// The module path of a file under `src/` (`gpu/cuda/init.rs` → `gpu::cuda::init`).
fn module_of(rel: &str) -> Module {
    match rel {
        "lib.rs" => Vec::new(),
        "main.rs" => vec!["main".to_string()],
        _ => rel
            .trim_end_matches(".rs")
            .split('/')
            .map(str::to_string)
            .collect(),
    }
}

pub(crate) fn is_test_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name == "tests.rs" || name.ends_with("_tests.rs") || rel.contains("/tests/")
}

pub(crate) fn rust_files(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let path = e.path();
        if path.is_dir() {
            rust_files(&path, root, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push((rel, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

/// The code of a file without comments, string literals and its test module.
pub(crate) fn code_only(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("");
        out.push_str(line);
        out.push('\n');
    }
    if let Some(at) = test_module_start(&out) {
        out.truncate(at);
    }
    blank_strings(&out)
}

fn test_module_start(code: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = code[from..].find("#[cfg(test)]") {
        let at = from + i;
        let rest = code[at + "#[cfg(test)]".len()..].trim_start();
        let rest = rest.strip_prefix("pub ").unwrap_or(rest);
        if rest.starts_with("mod ") {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

fn blank_strings(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let (mut in_str, mut escaped) = (false, false);
    for ch in code.chars() {
        if in_str {
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_str = false;
                out.push('"');
            }
            continue;
        }
        if ch == '"' {
            in_str = true;
        }
        out.push(ch);
    }
    out
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand_use(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.to_string()];
    };
    let close = tree.rfind('}').unwrap_or(tree.len());
    let (prefix, inner) = (&tree[..open], &tree[open + 1..close]);
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| {
            expand_use(p)
                .into_iter()
                .map(move |x| format!("{prefix}{x}"))
        })
        .collect()
}

/// Every `crate::`/`super::`/`self::` path a file's code names.
fn paths_named(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = String::new();
    let mut from = 0;
    // `use` statements (possibly over several lines, with braces).
    while let Some(i) = code[from..].find("use ") {
        let at = from + i;
        let boundary = at == 0
            || !code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let end = code[at..].find(';').map(|e| at + e);
        match end {
            Some(end) if boundary => {
                rest.push_str(&code[from..at]);
                let tree = code[at + 4..end].trim();
                if ["crate", "super", "self"].iter().any(|r| {
                    tree.starts_with(&format!("{r}::")) || tree.starts_with(&format!("{r}::{{"))
                }) {
                    paths.extend(expand_use(tree));
                }
                from = end + 1;
            }
            _ => {
                rest.push_str(&code[from..at + 4]);
                from = at + 4;
            }
        }
    }
    rest.push_str(&code[from..]);
    // Paths in code: `crate::a::b(…)`, `super::x::Y`.
    let bytes = rest.as_bytes();
    for root in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = rest[from..].find(root) {
            let at = from + i;
            from = at + root.len();
            let before = at.checked_sub(1).map(|b| bytes[b]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            let len = rest[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len() - at);
            paths.push(rest[at..at + len].trim_end_matches(':').to_string());
        }
    }
    paths
}

/// The file (module) a path from module `current` lands in: the longest prefix that is a file.
fn resolve(current: &Module, path: &str, files: &BTreeSet<Module>) -> Option<Module> {
    let segs: Vec<String> = path
        .split("::")
        .map(|s| s.split(" as ").next().unwrap_or(s).trim().to_string())
        .collect();
    let (mut base, mut i) = match segs.first().map(String::as_str) {
        Some("crate") => (Vec::new(), 1),
        Some("super") => (current[..current.len().saturating_sub(1)].to_vec(), 1),
        Some("self") => (current.clone(), 1),
        _ => return None,
    };
    while segs.get(i).is_some_and(|s| s == "super") {
        base.pop();
        i += 1;
    }
    base.extend(
        segs[i..]
            .iter()
            .filter(|s| *s != "self" && *s != "*")
            .cloned(),
    );
    (1..=base.len())
        .rev()
        .map(|k| base[..k].to_vec())
        .find(|m| files.contains(m))
}

/// The file graph, edges to a file's own ancestors left out.
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources = Vec::new();
    rust_files(&root, &root, &mut sources);
    let files: BTreeSet<Module> = sources.iter().map(|(rel, _)| module_of(rel)).collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (rel, text) in &sources {
        if is_test_file(rel) {
            continue;
        }
        let current = module_of(rel);
        for path in paths_named(&code_only(text)) {
            let Some(target) = resolve(&current, &path, &files) else {
                continue;
            };
            if target == current || current.starts_with(&target) {
                continue;
            }
            edges.entry(current.clone()).or_default().insert(target);
        }
    }
    edges
}

fn name(m: &Module) -> String {
    m.join("::")
}

/// Strongly connected components of more than one file (Tarjan, iterative enough for `src/`).
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(name(w));
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

#[test]
fn no_import_circle_between_files_beyond_the_allowed_ones() {
    let found = circles(&graph());
    let allowed: Vec<Vec<String>> = ALLOWED_CIRCLES
        .iter()
        .map(|c| c.iter().map(|s| s.to_string()).collect())
        .collect();
    let new: Vec<&Vec<String>> = found.iter().filter(|c| !allowed.contains(c)).collect();
    assert!(
        new.is_empty(),
        "import circles between files (move the shared types to the module both use): {new:#?}"
    );
}

#[test]
fn no_import_points_up_a_layer() {
    let layer: BTreeMap<&str, u8> = LAYERS.iter().copied().collect();
    let mut up = Vec::new();
    for (from, targets) in graph() {
        let Some(top) = from.first() else { continue };
        let here = *layer.get(top.as_str()).unwrap_or_else(|| {
            panic!("module `{top}` has no layer: add it to LAYERS and CONTRIBUTING")
        });
        for to in targets {
            let there = to.first().and_then(|t| layer.get(t.as_str()).copied());
            if there.is_some_and(|t| t > here) {
                up.push(format!("{} -> {}", name(&from), name(&to)));
            }
        }
    }
    assert!(
        up.is_empty(),
        "imports from a lower layer to a higher one: {up:#?}"
    );
}

#[test]
fn the_check_sees_circles_and_upward_imports() {
    // The parser and the circle finder on a made-up tree: a circle through a `use` group and an
    // inline path is found; a child's `super::` import of its parent is not a circle.
    let code = "use crate::a::{X, b::Y};\nfn f() { crate::c::g(); }\n// crate::d::h()\n";
    let paths = paths_named(&code_only(code));
    assert_eq!(paths, ["crate::a::X", "crate::a::b::Y", "crate::c::g"]);
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Module>();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    edges.entry(m("a::b")).or_default().insert(m("c"));
    edges.entry(m("c")).or_default().insert(m("a::b"));
    edges.entry(m("a")).or_default().insert(m("a::b"));
    assert_eq!(circles(&edges), [vec!["a::b".to_string(), "c".to_string()]]);
    let files: BTreeSet<Module> = [m("a"), m("a::b"), m("c")].into();
    assert_eq!(resolve(&m("a::b"), "super::Z", &files), Some(m("a")));
    assert_eq!(resolve(&m("a::b"), "crate::c::g", &files), Some(m("c")));
}
