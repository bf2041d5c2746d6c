//! The expansion itself: one scan of a text that writes into a single output, expanding each
//! macro it meets, with the bounds a hostile file needs checked as it goes, not after:
//!
//! - the output may grow to at most [`MAX_EXPANDED`] bytes;
//! - all the text written and scanned (arguments, bodies, rescans) may come to at most
//!   [`MAX_WORK`] bytes, which bounds time and memory alike: no input makes the expansion
//!   worse than linear in that budget;
//! - macros nest at most [`MAX_DEPTH`] deep (which also bounds the recursion here), and a macro
//!   is not expanded inside itself;
//! - the check's [`Halt`] is looked at every [`POLL_EVERY`] bytes of work, so Esc and the
//!   wall-clock limit stop it at once.
//!
//! Each byte of output is written once, into the one buffer (a nested expansion writes where
//! its invocation stood, not into a copy its caller copies again).

use std::collections::HashMap;

use super::Macro;
use crate::exercise::halt::{Halt, Halted};

/// Deepest nesting of macros expanded inside expansions (and of arguments inside arguments).
pub(super) const MAX_DEPTH: usize = 16;
/// Largest expanded text, in bytes.
pub(super) const MAX_EXPANDED: usize = 4 << 20;
/// Most bytes written and scanned by one file's expansion, in all.
pub(super) const MAX_WORK: u64 = 64 << 20;
/// Bytes of work between two looks at the halt.
const POLL_EVERY: u64 = 64 << 10;

/// Why a scan stopped.
#[derive(Debug)]
pub(super) enum Sub {
    /// An invocation's `(` has no `)` yet.
    Unclosed,
    /// Too deep: the outermost macro being expanded.
    TooDeep(String),
    Arity(String, usize, usize),
    /// The expansion passed [`MAX_EXPANDED`].
    TooLarge,
    /// The expansion passed [`MAX_WORK`].
    TooMuchWork,
    Halted(Halted),
}

type Res<T> = Result<T, Sub>;

/// One expansion's state: the macros, the work done so far and the halt.
pub(super) struct Expander<'m, 'h> {
    macros: &'m HashMap<String, Macro>,
    halt: Halt<'h>,
    work: u64,
    next_poll: u64,
    /// The top-level uses expanded so far, for placing diagnostics.
    pub(super) uses: Vec<RawUse>,
}

/// A top-level macro use as the scan met it: byte offsets into the scanned text and the output.
#[derive(Debug)]
pub(super) struct RawUse {
    pub name: String,
    /// The name's start and the end of the use (after its `)`), in the scanned text.
    pub at: usize,
    pub end: usize,
    /// Where its expansion starts and ends in the output.
    pub out_start: usize,
    pub out_end: usize,
    /// The newlines the use spanned (written after its expansion).
    pub spanned: usize,
}

impl<'m, 'h> Expander<'m, 'h> {
    /// An expansion with `macros`, `work` bytes of work already done.
    pub(super) fn new(macros: &'m HashMap<String, Macro>, halt: Halt<'h>, work: u64) -> Self {
        Expander {
            macros,
            halt,
            work,
            // At each multiple of the interval, counted over the whole file: a small file's
            // expansion never looks (the run after it does).
            next_poll: (work / POLL_EVERY + 1) * POLL_EVERY,
            uses: Vec::new(),
        }
    }

    /// The work done so far, in bytes written and scanned.
    pub(super) fn work(&self) -> u64 {
        self.work
    }

    /// Count `bytes` of work; stop past the budget or when the halt says so.
    fn charge(&mut self, bytes: usize) -> Res<()> {
        self.work = self.work.saturating_add(bytes as u64);
        if self.work > MAX_WORK {
            return Err(Sub::TooMuchWork);
        }
        if self.work >= self.next_poll {
            self.next_poll = (self.work / POLL_EVERY + 1) * POLL_EVERY;
            if let Some(h) = self.halt.halted() {
                return Err(Sub::Halted(h));
            }
        }
        Ok(())
    }

    /// Append `s` to `out`: on one line inside an expansion (`depth` > 0), so the lines after
    /// it stay where they were.
    fn push(&mut self, out: &mut String, s: &str, depth: usize) -> Res<()> {
        self.charge(s.len())?;
        if depth > 0 && s.contains('\n') {
            out.extend(s.chars().map(|c| if c == '\n' { ' ' } else { c }));
        } else {
            out.push_str(s);
        }
        if out.len() > MAX_EXPANDED {
            return Err(Sub::TooLarge);
        }
        Ok(())
    }

    /// Remember a use of `key` at `site` that ends at `end`, when it is a top-level one.
    fn note_use(
        &mut self,
        site: &Site,
        key: &str,
        end: usize,
        out_start: usize,
        out_end: usize,
        spanned: usize,
    ) {
        if site.depth == 0 {
            self.uses.push(RawUse {
                name: key.to_string(),
                at: site.at,
                end,
                out_start,
                out_end,
                spanned,
            });
        }
    }

    /// Append `text` to `out` with every macro in it expanded (but those in `outer`, being
    /// expanded around it), `depth` expansions deep; `in_comment` when it starts inside a
    /// `/* */`.
    pub(super) fn substitute(
        &mut self,
        text: &str,
        mut in_comment: bool,
        depth: usize,
        outer: &mut Vec<&'m str>,
        out: &mut String,
    ) -> Res<()> {
        self.charge(text.len())?;
        let b = text.as_bytes();
        let mut i = 0;
        let mut copied = 0;
        while i < b.len() {
            if let Some((next, comment)) = skip_non_code(b, i, in_comment) {
                (i, in_comment) = (next, comment);
                continue;
            }
            if !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
                // A number's digits and suffix (`1e5f`, `0x1F`) are not a name.
                i += if b[i].is_ascii_digit() {
                    ident_len_from(b, i)
                } else {
                    1
                };
                continue;
            }
            let len = ident_len(b, i);
            let name = &text[i..i + len];
            let Some((key, mac)) = self
                .macros
                .get_key_value(name)
                .filter(|(k, _)| !outer.contains(&k.as_str()))
            else {
                i += len;
                continue;
            };
            let key: &'m str = key.as_str();
            let site = Site {
                text,
                copied,
                at: i,
                len,
                depth,
            };
            let end = match &mac.params {
                None => self.expand_object(&site, key, mac, outer, out)?,
                Some(params) => match self.expand_call(&site, key, mac, params, outer, out)? {
                    Some(end) => end,
                    None => {
                        // A function-like macro's name without arguments is just a name.
                        i += len;
                        continue;
                    }
                },
            };
            i = end;
            copied = end;
        }
        self.push(out, &text[copied..], depth)
    }

    /// Expand the object-like macro `key` named at `site`; the index after its name.
    fn expand_object(
        &mut self,
        site: &Site,
        key: &'m str,
        mac: &Macro,
        outer: &mut Vec<&'m str>,
        out: &mut String,
    ) -> Res<usize> {
        let depth = site.depth;
        if depth >= MAX_DEPTH {
            return Err(too_deep(outer, key));
        }
        self.push(out, &site.text[site.copied..site.at], depth)?;
        let out_start = out.len();
        outer.push(key);
        let r = self.substitute(&mac.body, false, depth + 1, outer, out);
        outer.pop();
        r?;
        let end = site.at + site.len;
        self.note_use(site, key, end, out_start, out.len(), 0);
        Ok(end)
    }

    /// Expand the function-like macro `key` named at `site` with `params`; the index after
    /// its `)`, or `None` when no `(` follows the name (then it is just a name).
    fn expand_call(
        &mut self,
        site: &Site,
        key: &'m str,
        mac: &Macro,
        params: &[String],
        outer: &mut Vec<&'m str>,
        out: &mut String,
    ) -> Res<Option<usize>> {
        let depth = site.depth;
        let (text, b) = (site.text, site.text.as_bytes());
        let mut j = site.at + site.len;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if b.get(j) != Some(&b'(') {
            return Ok(None);
        }
        let Some((spans, end)) = arguments(b, j) else {
            return Err(Sub::Unclosed);
        };
        let args: Vec<&str> = spans.iter().map(|&(a, z)| text[a..z].trim()).collect();
        let given = if args.len() == 1 && args[0].is_empty() {
            0
        } else {
            args.len()
        };
        if given != params.len() {
            return Err(Sub::Arity(key.to_string(), params.len(), given));
        }
        if depth >= MAX_DEPTH {
            return Err(too_deep(outer, key));
        }
        let body = self.replace_params(mac, params, &args, depth, outer)?;
        self.push(out, &text[site.copied..site.at], depth)?;
        let out_start = out.len();
        outer.push(key);
        let r = self.substitute(&body, false, depth + 1, outer, out);
        outer.pop();
        r?;
        if depth == 0 {
            let out_end = out.len();
            // The lines the invocation spanned, so later lines stay put.
            let spanned = text[site.at..end].matches('\n').count();
            self.push(out, &"\n".repeat(spanned), 0)?;
            self.note_use(site, key, end, out_start, out_end, spanned);
        }
        Ok(Some(end))
    }

    /// `mac`'s body with its `params` replaced by `args`: `#p` as a string literal, `a ## b`
    /// pasted (both as written), and elsewhere each argument with its own macros expanded
    /// first (once, when first needed), as the preprocessor does.
    fn replace_params(
        &mut self,
        mac: &Macro,
        params: &[String],
        args: &[&str],
        depth: usize,
        outer: &mut Vec<&'m str>,
    ) -> Res<String> {
        let body = mac.body.as_bytes();
        let mut expanded: Vec<Option<String>> = vec![None; args.len()];
        let mut out = String::with_capacity(mac.body.len());
        let mut i = 0;
        let mut copied = 0;
        // The last thing done was a paste: the parameter right after `##` is taken as written.
        let mut after_paste = false;
        let param = |name: &str| params.iter().position(|p| p == name);
        while i < body.len() {
            match body[i] {
                b'"' | b'\'' => {
                    i = skip_quoted(body, i);
                    after_paste = false;
                }
                b'#' if body.get(i + 1) == Some(&b'#') => {
                    // Paste: drop `##` and the spaces around it.
                    let before = mac.body[copied..i].trim_end();
                    self.push(&mut out, before, 1)?;
                    i += 2;
                    while i < body.len() && body[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    copied = i;
                    after_paste = true;
                }
                b'#' => {
                    let mut j = i + 1;
                    while j < body.len() && body[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    let len = ident_len(body, j);
                    match param(&mac.body[j..j + len]) {
                        Some(k) if len > 0 => {
                            self.push(&mut out, &mac.body[copied..i], 1)?;
                            self.push(&mut out, &stringify(args[k]), 1)?;
                            i = j + len;
                            copied = i;
                        }
                        _ => i += 1,
                    }
                    after_paste = false;
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let len = ident_len(body, i);
                    if let Some(k) = param(&mac.body[i..i + len]) {
                        self.push(&mut out, &mac.body[copied..i], 1)?;
                        let before_paste = mac.body[i + len..].trim_start().starts_with("##");
                        if after_paste || before_paste {
                            self.push(&mut out, args[k], 1)?;
                        } else {
                            self.expand_arg_once(&mut expanded[k], args[k], depth, outer)?;
                            let e = expanded[k].as_deref().unwrap_or_default();
                            self.push(&mut out, e, 1)?;
                        }
                        copied = i + len;
                    }
                    i += len;
                    after_paste = false;
                }
                c if c.is_ascii_whitespace() => i += 1,
                _ => {
                    i += 1;
                    after_paste = false;
                }
            }
        }
        self.push(&mut out, &mac.body[copied..], 1)?;
        Ok(out)
    }

    /// Fill `memo` with `arg` with its own macros expanded, once however often its parameter
    /// appears in the body.
    fn expand_arg_once(
        &mut self,
        memo: &mut Option<String>,
        arg: &str,
        depth: usize,
        outer: &mut Vec<&'m str>,
    ) -> Res<()> {
        if memo.is_none() {
            let mut e = String::new();
            self.substitute(arg, false, depth + 1, outer, &mut e)?;
            *memo = Some(e);
        }
        Ok(())
    }
}

/// Where a macro's name stands in the text being scanned: the text, how much of it is already
/// copied to the output, the name's start and length, and how many expansions deep the text is.
struct Site<'t> {
    text: &'t str,
    copied: usize,
    at: usize,
    len: usize,
    depth: usize,
}

/// The error for nesting past [`MAX_DEPTH`], naming the outermost macro being expanded.
fn too_deep(outer: &[&str], key: &str) -> Sub {
    Sub::TooDeep(outer.first().copied().unwrap_or(key).to_string())
}

/// `#arg`: the argument as a string literal, its quotes and backslashes escaped.
fn stringify(arg: &str) -> String {
    let mut s = String::with_capacity(arg.len() + 2);
    s.push('"');
    for c in arg.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
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

/// Length of the identifier starting at `at` (0 when none starts there).
pub(super) fn ident_len(b: &[u8], at: usize) -> usize {
    match b.get(at) {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => ident_len_from(b, at),
        _ => 0,
    }
}

/// Length of the run of name characters (letters, digits, `_`) starting at `at`.
fn ident_len_from(b: &[u8], at: usize) -> usize {
    b[at..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count()
}

/// The index after the string or character literal opened at `at` (or the end of the line:
/// a literal does not span lines).
pub(super) fn skip_quoted(b: &[u8], at: usize) -> usize {
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
pub(super) fn skip_non_code(b: &[u8], i: usize, in_comment: bool) -> Option<(usize, bool)> {
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
