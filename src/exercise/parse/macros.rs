//! Function-like macros (`#define CHECK(call) do { … } while (0)`), expanded in the text before
//! the grammar sees it, as the C preprocessor does: learners' own code checks its CUDA calls
//! through such macros. Object-like `#define NAME value` stays with the parser.
//!
//! Line numbers do not move: a definition (with its `\` continuation lines) becomes empty
//! lines, and an invocation's expansion goes on the invocation's first line, followed by the
//! newlines its arguments spanned, so diagnostics, gutter marks and `__LINE__` name the line
//! the learner wrote (columns after an expansion are those of the expanded text).
//!
//! What it takes: parameters by name, `#param` (stringify) and `##` (paste), macros that use
//! earlier macros. Variadic macros are left in place (the parser names them as unsupported).
//! Bounds, since the text is the learner's (or a hostile file's): expansions nest at most
//! [`MAX_DEPTH`] deep, a macro is not expanded inside itself, and the expanded text may grow
//! to at most [`MAX_EXPANDED`] bytes.

use std::collections::HashMap;

use crate::exercise::Diagnostic;

/// Deepest nesting of macros expanded inside expansions.
const MAX_DEPTH: usize = 16;
/// Largest expanded text, in bytes.
const MAX_EXPANDED: usize = 4 << 20;
/// Most lines one invocation's arguments may span (each further line rescans the invocation).
const MAX_INVOCATION_LINES: usize = 64;

/// One function-like macro.
#[derive(Debug, Clone)]
struct Macro {
    params: Vec<String>,
    body: String,
}

/// `text` with its function-like macros expanded (unchanged, and not copied, when it has
/// none), or why it could not be.
pub(super) fn expand(text: &str) -> Result<std::borrow::Cow<'_, str>, Diagnostic> {
    if !text.contains("#") || !text.contains("define") {
        return Ok(std::borrow::Cow::Borrowed(text));
    }
    let mut macros: HashMap<String, Macro> = HashMap::new();
    let mut out = String::with_capacity(text.len());
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut i = 0;
    // Whether line i starts inside a /* comment */ left open on an earlier line.
    let mut in_comment = false;
    let mut pending = String::new(); // lines gathered for an invocation spanning lines
    let mut pending_from = 0usize; // the line `pending` starts on (1-based)
    while i < lines.len() {
        let line = lines[i];
        if !in_comment
            && pending.is_empty()
            && let Some((name, mac, used)) = definition(&lines[i..])
        {
            // The definition and its continuation lines become empty lines.
            for l in &lines[i..i + used] {
                out.push_str(if l.ends_with('\n') { "\n" } else { "" });
            }
            macros.insert(name, mac);
            i += used;
            continue;
        }
        if macros.is_empty() {
            in_comment = ends_in_comment(line, in_comment);
            out.push_str(line);
            i += 1;
            continue;
        }
        if pending.is_empty() {
            pending_from = i + 1;
        }
        pending.push_str(line);
        i += 1;
        match substitute(&pending, &macros, in_comment, 0, &[]) {
            Substituted::Done(s) => {
                in_comment = ends_in_comment(&pending, in_comment);
                out.push_str(&s);
                pending.clear();
            }
            // An invocation's arguments go on: take the next line too, unless there is none.
            Substituted::Unclosed
                if i < lines.len() && i + 1 - pending_from < MAX_INVOCATION_LINES => {}
            Substituted::Unclosed => {
                return Err(Diagnostic::at(
                    u32::try_from(pending_from).unwrap_or(u32::MAX),
                    1,
                    format!("a macro's `(` is not closed (within {MAX_INVOCATION_LINES} lines)"),
                ));
            }
            Substituted::TooLarge => return Err(too_large(pending_from)),
            Substituted::TooDeep(name) => {
                return Err(Diagnostic::at(
                    u32::try_from(pending_from).unwrap_or(u32::MAX),
                    1,
                    format!("the macro `{name}` expands macros more than {MAX_DEPTH} deep"),
                ));
            }
            Substituted::Arity(name, want, got) => {
                return Err(Diagnostic::at(
                    u32::try_from(pending_from).unwrap_or(u32::MAX),
                    1,
                    format!("the macro `{name}` takes {want} argument(s), not {got}"),
                ));
            }
        }
        if out.len() > MAX_EXPANDED {
            return Err(too_large(pending_from));
        }
    }
    Ok(std::borrow::Cow::Owned(out))
}

/// The diagnostic for an expansion past [`MAX_EXPANDED`], at `line`.
fn too_large(line: usize) -> Diagnostic {
    Diagnostic::at(
        u32::try_from(line).unwrap_or(u32::MAX),
        1,
        format!(
            "macro expansion makes the file more than {} MiB",
            MAX_EXPANDED >> 20
        ),
    )
}

/// A function-like `#define` at the start of `lines` (with its `\` continuations): its name,
/// the macro and how many lines it spans. Variadic macros are not taken.
fn definition(lines: &[&str]) -> Option<(String, Macro, usize)> {
    let first = lines.first()?.trim_start();
    let rest = first.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("define")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start();
    let name_len = ident_len(rest.as_bytes(), 0);
    if name_len == 0 || rest.as_bytes().get(name_len) != Some(&b'(') {
        return None;
    }
    // Join the continuation lines: a line ending in `\` goes on.
    let mut joined = String::new();
    let mut used = 0;
    for l in lines {
        used += 1;
        let l = l.trim_end_matches(['\n', '\r']);
        match l.strip_suffix('\\') {
            Some(head) => {
                joined.push_str(head);
                joined.push(' ');
            }
            None => {
                joined.push_str(l);
                break;
            }
        }
    }
    let joined = joined.trim_start().strip_prefix('#')?.trim_start();
    let joined = joined.strip_prefix("define")?.trim_start();
    let name = joined[..name_len].to_string();
    let after = &joined[name_len + 1..];
    let close = after.find(')')?;
    let params: Vec<String> = after[..close]
        .split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    if params
        .iter()
        .any(|p| p.contains("...") || ident_len(p.as_bytes(), 0) != p.len())
    {
        return None;
    }
    let body = strip_line_comment(after[close + 1..].trim())
        .trim()
        .to_string();
    Some((name, Macro { params, body }, used))
}

/// `s` without a `//` comment (outside strings), which would swallow the rest of the line
/// the body is expanded on.
fn strip_line_comment(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = skip_quoted(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => return &s[..i],
            _ => i += 1,
        }
    }
    s
}

/// How `substitute` ended.
enum Substituted {
    Done(String),
    /// An invocation's `(` has no `)` yet.
    Unclosed,
    TooDeep(String),
    Arity(String, usize, usize),
    /// The expansion passed [`MAX_EXPANDED`].
    TooLarge,
}

/// `text` with every invocation of `macros` expanded (but those in `outer`, being expanded
/// around it), `depth` expansions deep; `in_comment` when it starts inside a `/* */`.
fn substitute(
    text: &str,
    macros: &HashMap<String, Macro>,
    mut in_comment: bool,
    depth: usize,
    outer: &[&str],
) -> Substituted {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if let Some((next, comment)) = skip_non_code(b, i, in_comment) {
            (i, in_comment) = (next, comment);
            continue;
        }
        match b[i] {
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let len = ident_len(b, i);
                let name = &text[i..i + len];
                let Some(mac) = macros.get(name).filter(|_| !outer.contains(&name)) else {
                    i += len;
                    continue;
                };
                let mut j = i + len;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                if b.get(j) != Some(&b'(') {
                    i += len;
                    continue;
                }
                let Some((args, end)) = arguments(b, j) else {
                    return Substituted::Unclosed;
                };
                let args: Vec<&str> = args.iter().map(|&(a, z)| text[a..z].trim()).collect();
                let given = if args.len() == 1 && args[0].is_empty() {
                    0
                } else {
                    args.len()
                };
                if given != mac.params.len() {
                    return Substituted::Arity(name.to_string(), mac.params.len(), given);
                }
                if depth >= MAX_DEPTH {
                    return Substituted::TooDeep(name.to_string());
                }
                let body = replace_params(mac, &args);
                if body.len() > MAX_EXPANDED {
                    return Substituted::TooLarge;
                }
                let mut inner: Vec<&str> = outer.to_vec();
                inner.push(name);
                let expanded = match substitute(&body, macros, false, depth + 1, &inner) {
                    Substituted::Done(s) => s,
                    other => return other,
                };
                out.push_str(&text[copied..i]);
                // One line, then the lines the invocation spanned, so later lines stay put.
                out.push_str(&expanded.replace('\n', " "));
                let spanned = text[i..end].matches('\n').count();
                out.push_str(&"\n".repeat(spanned));
                if out.len() > MAX_EXPANDED {
                    return Substituted::TooLarge;
                }
                i = end;
                copied = end;
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[copied..]);
    Substituted::Done(out)
}

/// The argument spans of the invocation whose `(` is at `open`, split at top-level commas,
/// and the index after its `)`; `None` when it is not closed in `b`.
fn arguments(b: &[u8], open: usize) -> Option<(Vec<(usize, usize)>, usize)> {
    let mut depth = 0usize;
    let mut args = Vec::new();
    let mut start = open + 1;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => {
                depth += 1;
                i += 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    args.push((start, i));
                    return Some((args, i + 1));
                }
                i += 1;
            }
            b',' if depth == 1 => {
                args.push((start, i));
                start = i + 1;
                i += 1;
            }
            b'"' | b'\'' => i = skip_quoted(b, i),
            _ => i += 1,
        }
    }
    None
}

/// `mac`'s body with its parameters replaced by `args`: `#p` as a string literal, `a ## b`
/// pasted.
fn replace_params(mac: &Macro, args: &[&str]) -> String {
    let body = mac.body.as_bytes();
    let mut out =
        String::with_capacity(mac.body.len() + args.iter().map(|a| a.len()).sum::<usize>());
    let mut i = 0;
    let mut copied = 0;
    let param = |name: &str| mac.params.iter().position(|p| p == name);
    while i < body.len() {
        match body[i] {
            b'"' | b'\'' => i = skip_quoted(body, i),
            b'#' if body.get(i + 1) == Some(&b'#') => {
                // Paste: drop `##` and the spaces around it.
                let before = mac.body[copied..i].trim_end();
                out.push_str(before);
                i += 2;
                while i < body.len() && body[i].is_ascii_whitespace() {
                    i += 1;
                }
                copied = i;
            }
            b'#' => {
                let mut j = i + 1;
                while j < body.len() && body[j].is_ascii_whitespace() {
                    j += 1;
                }
                let len = ident_len(body, j);
                match param(&mac.body[j..j + len]) {
                    Some(k) if len > 0 => {
                        out.push_str(&mac.body[copied..i]);
                        out.push('"');
                        for c in args[k].chars() {
                            if c == '"' || c == '\\' {
                                out.push('\\');
                            }
                            out.push(c);
                        }
                        out.push('"');
                        i = j + len;
                        copied = i;
                    }
                    _ => i += 1,
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let len = ident_len(body, i);
                if let Some(k) = param(&mac.body[i..i + len]) {
                    out.push_str(&mac.body[copied..i]);
                    out.push_str(args[k]);
                    copied = i + len;
                }
                i += len;
            }
            _ => i += 1,
        }
    }
    out.push_str(&mac.body[copied..]);
    out
}

/// Length of the identifier starting at `at` (0 when none starts there).
fn ident_len(b: &[u8], at: usize) -> usize {
    match b.get(at) {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => b[at..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count(),
        _ => 0,
    }
}

/// The index after the string or character literal opened at `at` (or the end of the line:
/// a literal does not span lines).
fn skip_quoted(b: &[u8], at: usize) -> usize {
    let quote = b[at];
    let mut i = at + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The first index of `needle` in `b` from `from`.
fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// At `i` of `b` (inside a `/* */` comment when `in_comment`): where the comment, string or
/// character literal that starts (or goes on) there ends, and whether a comment is still open
/// then; `None` at code.
fn skip_non_code(b: &[u8], i: usize, in_comment: bool) -> Option<(usize, bool)> {
    if in_comment {
        return Some(match find(b, i, b"*/") {
            Some(end) => (end + 2, false),
            None => (b.len(), true),
        });
    }
    match b[i] {
        b'/' if b.get(i + 1) == Some(&b'*') => Some((i + 2, true)),
        b'/' if b.get(i + 1) == Some(&b'/') => Some((find(b, i, b"\n").unwrap_or(b.len()), false)),
        b'"' | b'\'' => Some((skip_quoted(b, i), false)),
        _ => None,
    }
}

/// Whether `text`, starting inside a comment or not, ends inside a `/* */` comment.
fn ends_in_comment(text: &str, mut in_comment: bool) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match skip_non_code(b, i, in_comment) {
            Some((next, comment)) => (i, in_comment) = (next, comment),
            None => i += 1,
        }
    }
    in_comment
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expanded(text: &str) -> String {
        expand(text).unwrap().into_owned()
    }

    #[test]
    fn a_statement_macro_expands_on_its_line_and_lines_stay_put() {
        let src = "#define CHECK(call) do { \\\n    int e = (call); \\\n  } while (0)\nint main()\n{\n    CHECK(f(1, g(2)));\n    return 0;\n}\n";
        let out = expanded(src);
        assert_eq!(out.lines().count(), src.lines().count());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "");
        assert_eq!(lines[2], "");
        assert_eq!(
            lines[5],
            "    do {      int e = (f(1, g(2)));    } while (0);"
        );
    }

    #[test]
    fn stringify_paste_nesting_and_arguments_over_lines() {
        let src = "#define S(x) #x\n#define CAT(a, b) a ## b\n#define TWICE(x) (S(x) CAT(x, 2))\nTWICE(\"q\\\\\"\n)\nnext\n";
        let out = expanded(src);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[3], r#"("\"q\\\\\"" "q\\"2)"#, "{out}");
        assert_eq!(lines[4], "");
        assert_eq!(lines[5], "next");
    }

    #[test]
    fn comments_strings_and_other_names_are_left_alone() {
        let src = "#define F(x) x + 1\nint a = F(1); // F(2)\nconst char *s = \"F(3)\";\n/* F(4)\n F(5) */ int FF = 0; int b = F (6);\n";
        let out = expanded(src);
        assert!(out.contains("int a = 1 + 1; // F(2)"), "{out}");
        assert!(out.contains("\"F(3)\""));
        assert!(
            out.contains("/* F(4)\n F(5) */ int FF = 0; int b = 6 + 1;"),
            "{out}"
        );
    }

    #[test]
    fn bad_use_is_a_diagnostic_and_runaway_growth_is_bounded() {
        let arity = expand("#define F(a, b) a\nF(1)\n").unwrap_err();
        assert!(
            arity.message.contains("takes 2 argument(s), not 1"),
            "{arity:?}"
        );
        assert_eq!(arity.line, 2);
        let open = expand("#define F(a) a\nF(1\n").unwrap_err();
        assert!(open.message.contains("not closed"), "{open:?}");
        // An invocation left open for long stops at the line limit, not at the end of the file.
        let long = format!("#define F(a) a\nF(1\n{}", "2,\n".repeat(10_000));
        let err = expand(&long).unwrap_err();
        assert!(err.message.contains("within 64 lines"), "{err:?}");
        // Each level copies four times within the depth limit: 4^15 copies would be gigabytes.
        let mut src = String::from("#define L0(x) x x x x\n");
        for k in 1..16 {
            let p = k - 1;
            src.push_str(&format!(
                "#define L{k}(x) L{p}(x) L{p}(x) L{p}(x) L{p}(x)\n"
            ));
        }
        src.push_str("L15(abcdefgh)\n");
        let err = expand(&src).unwrap_err();
        assert!(err.message.contains("more than 4 MiB"), "{err:?}");
        // Deeper than the limit is said so.
        let mut deep = String::from("#define D0(x) x\n");
        for k in 1..40 {
            deep.push_str(&format!("#define D{k}(x) D{}(x)\n", k - 1));
        }
        deep.push_str("D39(1)\n");
        let err = expand(&deep).unwrap_err();
        assert!(err.message.contains("more than 16 deep"), "{err:?}");
        // A macro that names itself is not expanded inside itself.
        assert_eq!(
            expanded("#define R(x) R(x)\nR(1)\n").lines().nth(1),
            Some("R(1)")
        );
    }

    #[test]
    fn files_without_function_like_macros_are_not_copied() {
        let src = "#define N 4\nint main() { return N; }\n";
        assert_eq!(expanded(src), src);
        let plain = "int main() { return 0; }\n";
        assert!(matches!(expand(plain), Ok(std::borrow::Cow::Borrowed(_))));
        // Variadic macros stay for the parser to name.
        let v = "#define P(...) printf(__VA_ARGS__)\n";
        assert_eq!(expanded(v), v);
    }
}
