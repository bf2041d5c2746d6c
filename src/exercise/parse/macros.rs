//! The preprocessor's macros, expanded in the text before the grammar sees it: object-like
//! `#define N (1 << 20)` and function-like `#define CHECK(call) do { … } while (0)` (learners'
//! own code checks its CUDA calls through such macros).
//!
//! Both are expanded here, in one bounded textual pass, so a `#define` costs nothing until it is
//! used and the grammar, the nesting limits and the parse-memory guard all see what the macros
//! became (review 2026-12-01b CK2, CK3, CK4, CK6: object-like values used to be substituted as
//! cloned expression trees, which doubled per line, copied every earlier define for each new one
//! and bypassed the nesting limit).
//!
//! Line numbers do not move: a definition (with its `\` continuation lines) becomes empty
//! lines, and an invocation's expansion goes on the invocation's first line, followed by the
//! newlines its arguments spanned, so diagnostics, gutter marks and `__LINE__` name the line
//! the learner wrote (columns after an expansion are those of the expanded text).
//!
//! What it takes: parameters by name, arguments expanded before they are substituted (so
//! `C(C(1))` works), `#param` (stringify) and `##` (paste), macros that use earlier macros,
//! `#undef`, and conditional groups (`#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif`:
//! [`cond`]). Variadic macros are left in place (the parser names them as unsupported). The
//! bounds ([`scan`]) hold while expanding, since the text is the learner's (or a hostile
//! file's).

mod cond;
mod scan;

use std::borrow::Cow;
use std::collections::HashMap;

use super::NotParsed;
use crate::exercise::Diagnostic;
use crate::exercise::ast::{MacroMap, MacroUse, Pos};
use crate::exercise::halt::Halt;
use scan::{Expander, MAX_DEPTH, MAX_EXPANDED, MAX_WORK, RawUse, Sub};

/// Most lines one invocation's arguments may span (each further line rescans the invocation).
const MAX_INVOCATION_LINES: usize = 64;

/// One macro: function-like when it has parameters (`Some`, maybe empty: `F()`).
#[derive(Debug, Clone)]
struct Macro {
    params: Option<Vec<String>>,
    body: String,
}

/// `text` with its macros expanded (unchanged, and not copied, when it has none), or why it
/// could not be: a diagnostic, or `halt` (Esc, the wall-clock limit), polled as it goes.
pub(super) fn expand<'t>(text: &'t str, halt: Halt) -> Result<Expanded<'t>, NotParsed> {
    expand_counted(text, halt).map(|(t, _)| t)
}

/// The text with its macros expanded, and where each top-level use went.
pub(super) struct Expanded<'t> {
    pub text: Cow<'t, str>,
    pub map: MacroMap,
}

/// [`expand`], and the work it did (bytes scanned and written), which tests hold to be linear.
fn expand_counted<'t>(text: &'t str, halt: Halt) -> Result<(Expanded<'t>, u64), NotParsed> {
    if !text.contains('#') || !(text.contains("define") || text.contains("if")) {
        let text = Cow::Borrowed(text);
        return Ok((
            Expanded {
                text,
                map: MacroMap::default(),
            },
            0,
        ));
    }
    let mut map = MacroMap::default();
    let mut macros: HashMap<String, Macro> = HashMap::new();
    let mut out = String::with_capacity(text.len());
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut work = 0u64;
    let mut i = 0;
    // Whether line i starts inside a /* comment */ left open on an earlier line.
    let mut in_comment = false;
    let mut pending = String::new(); // lines gathered for an invocation spanning lines
    let mut pending_from = 0usize; // the line `pending` starts on (1-based)
    let mut conds = cond::Conditions::default();
    while i < lines.len() {
        let line = lines[i];
        if !in_comment && pending.is_empty() {
            let read = directive_lines(&lines[i..], i + 1, &mut conds, &mut macros)?;
            if read > 0 {
                blank(&mut out, &lines[i..i + read]);
                // Reading a definition is work too: the chain of 35,000 defines is counted.
                work += lines[i..i + read]
                    .iter()
                    .map(|l| l.len() as u64)
                    .sum::<u64>();
                i += read;
                continue;
            }
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
        let at = u32::try_from(pending_from).unwrap_or(u32::MAX);
        let before = out.len();
        let mut ex = Expander::new(&macros, halt, work);
        let result = ex.substitute(&pending, in_comment, 0, &mut Vec::new(), &mut out);
        work = ex.work();
        match result {
            Ok(()) => {
                place_uses(&mut map, ex.uses, &pending, pending_from, &out);
                in_comment = ends_in_comment(&pending, in_comment);
                pending.clear();
            }
            // An invocation's arguments go on: take the next line too, unless there is none.
            Err(Sub::Unclosed)
                if i < lines.len() && i + 1 - pending_from < MAX_INVOCATION_LINES =>
            {
                out.truncate(before);
            }
            Err(why) => return Err(stop(why, at)),
        }
    }
    if let Some(line) = conds.unclosed() {
        return Err(problem(
            line,
            "this `#if` (or `#ifdef`, `#ifndef`) has no `#endif`; end the group with `#endif`"
                .into(),
        ));
    }
    let text = Cow::Owned(out);
    Ok((Expanded { text, map }, work))
}

/// The preprocessor's directives at the start of `lines` (line `at`, 1-based): a conditional
/// directive, a line of a group not taken, a `#define` (with its continuation lines) or an
/// `#undef`, applied; how many lines they take, which become empty lines (0: a line of code).
fn directive_lines(
    lines: &[&str],
    at: usize,
    conds: &mut cond::Conditions,
    macros: &mut HashMap<String, Macro>,
) -> Result<usize, NotParsed> {
    let Some(line) = lines.first() else {
        return Ok(0);
    };
    if let Some(d) = cond::directive(line) {
        conds.apply(d, at, macros).map_err(|m| problem(at, m))?;
        return Ok(1);
    }
    if !conds.active() {
        return Ok(1);
    }
    if let Some((name, mac, used)) = definition(lines) {
        macros.insert(name, mac);
        return Ok(used);
    }
    if let Some(name) = undef(line) {
        macros.remove(name);
        return Ok(1);
    }
    Ok(0)
}

/// A diagnostic at the start of line `line`, as the parse's answer.
fn problem(line: usize, message: String) -> NotParsed {
    let line = u32::try_from(line).unwrap_or(u32::MAX);
    NotParsed::Problems(vec![Diagnostic::at(line, 1, message)])
}

/// The 1-based line and column of byte `at` of `text`, whose first line is `first_line`.
fn line_col(text: &str, at: usize, first_line: usize) -> Pos {
    let before = &text[..at.min(text.len())];
    let line = first_line + before.matches('\n').count();
    let column = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    Pos {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
    }
}

/// The column of byte `at` of `out` (the output so far) on its line.
fn out_column(out: &str, at: usize) -> u32 {
    let before = &out[..at.min(out.len())];
    let column = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    u32::try_from(column).unwrap_or(u32::MAX)
}

/// The uses one scan of `pending` (starting on line `from`) expanded, placed in the file and
/// in the output.
fn place_uses(map: &mut MacroMap, uses: Vec<RawUse>, pending: &str, from: usize, out: &str) {
    for u in uses {
        let at = line_col(pending, u.at, from);
        let resume_at = line_col(pending, u.end, from);
        let end = out_column(out, u.out_end);
        let resume = if u.spanned == 0 {
            Pos {
                line: at.line,
                column: end,
            }
        } else {
            Pos {
                line: resume_at.line,
                column: 1,
            }
        };
        map.uses.push(MacroUse {
            name: u.name,
            at,
            start: out_column(out, u.out_start),
            end,
            resume,
            resume_at,
        });
    }
}

/// As many newlines as `lines` hold: what a definition leaves in the text.
fn blank(out: &mut String, lines: &[&str]) {
    for l in lines {
        if l.ends_with('\n') {
            out.push('\n');
        }
    }
}

/// What ended an expansion at line `at`, as the parse's answer.
fn stop(why: Sub, at: u32) -> NotParsed {
    let message = match why {
        Sub::Halted(h) => return NotParsed::Halted(h),
        Sub::Unclosed => {
            format!("a macro's `(` is not closed (within {MAX_INVOCATION_LINES} lines)")
        }
        Sub::TooLarge => format!(
            "macro expansion makes the file more than {} MiB",
            MAX_EXPANDED >> 20
        ),
        Sub::TooMuchWork => format!(
            "macro expansion takes too much work (more than {} MiB of text expanded and rescanned): do macros expand into many copies of each other?",
            MAX_WORK >> 20
        ),
        Sub::TooDeep(name) => format!(
            "the macro `{name}` expands macros more than {MAX_DEPTH} deep (a macro used in a macro, in a macro, …); use fewer levels"
        ),
        Sub::Arity(name, want, got) => {
            format!("the macro `{name}` takes {want} argument(s), not {got}")
        }
    };
    NotParsed::Problems(vec![Diagnostic::at(at, 1, message)])
}

/// The name after `#define` (or `#undef`) at the start of `line`, and the text after it.
fn directive<'l>(line: &'l str, word: &str) -> Option<(&'l str, &'l str)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix(word)?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start();
    let len = scan::ident_len(rest.as_bytes(), 0);
    (len > 0).then(|| rest.split_at(len))
}

/// `#undef NAME` on `line`: the name.
fn undef(line: &str) -> Option<&str> {
    directive(line, "undef").map(|(name, _)| name)
}

/// A `#define` at the start of `lines` (with its `\` continuations): its name, the macro and
/// how many lines it spans. Variadic macros are not taken.
fn definition(lines: &[&str]) -> Option<(String, Macro, usize)> {
    directive(lines.first()?, "define")?;
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
    let (name, after) = directive(&joined, "define")?;
    let (params, body) = match after.strip_prefix('(') {
        // Object-like: a `(` after a space is the value's.
        None => (None, after),
        Some(after) => {
            let close = after.find(')')?;
            let params: Vec<String> = after[..close]
                .split(',')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect();
            if params
                .iter()
                .any(|p| p.contains("...") || scan::ident_len(p.as_bytes(), 0) != p.len())
            {
                return None;
            }
            (Some(params), &after[close + 1..])
        }
    };
    let body = strip_line_comment(body.trim()).trim().to_string();
    Some((name.to_string(), Macro { params, body }, used))
}

/// `s` without a `//` comment (outside strings), which would swallow the rest of the line
/// the body is expanded on.
fn strip_line_comment(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = scan::skip_quoted(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => return &s[..i],
            _ => i += 1,
        }
    }
    s
}

/// Whether `text`, starting inside a comment or not, ends inside a `/* */` comment.
fn ends_in_comment(text: &str, mut in_comment: bool) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match scan::skip_non_code(b, i, in_comment) {
            Some((next, comment)) => (i, in_comment) = (next, comment),
            None => i += 1,
        }
    }
    in_comment
}

#[cfg(test)]
mod tests;
