//! Learner's `.cu` text -> [`Program`], through tree-sitter's CUDA grammar (a real C++ grammar
//! that knows `<<<…>>>`). Syntax errors (ERROR and MISSING nodes) and every construct outside the
//! subset become [`Diagnostic`]s at their line and column; nothing here panics on any input.

mod expr;
mod fit;
mod functions;
mod macros;
mod stmt;
mod text;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use tree_sitter::{Node, ParseOptions, Parser};

use super::Diagnostic;
use super::ast::{MacroMap, Pos, Program};
use super::halt::{Halt, Halted};
pub use fit::{PARSE_BYTES_PER_SOURCE_BYTE, parse_would_not_fit};

/// Where a diagnostic about a construct, call or helper the checker does not run sends the
/// learner: the list of what it runs.
pub const OUTSIDE_THE_SUBSET: &str = "the checker runs a subset of C and CUDA (README, \"Hands-on exercises\", \"The supported subset\")";

/// Deepest nesting of statements and expressions accepted: far beyond real exercise code, and
/// it keeps the recursive walk (here and in the interpreter) well inside the stack. Macros are
/// expanded before the walk, so they cannot bypass it (review 2026-12-01b CK6).
pub const MAX_DEPTH: usize = 200;
/// Diagnostics shown at most: past a few, the rest are usually echoes of the first.
const MAX_DIAGNOSTICS: usize = 8;
/// tree-sitter progress callbacks (each after 100 parse operations) between two looks at the
/// halt.
const POLL_EVERY_CALLBACKS: u32 = 16;
/// Tree nodes walked between two looks at the halt.
const POLL_EVERY_NODES: u64 = 1024;

/// Why a file gave no program.
#[derive(Debug, Clone, PartialEq)]
pub enum NotParsed {
    /// What is wrong and where (at least one).
    Problems(Vec<Diagnostic>),
    /// The check was stopped from outside while parsing (Esc, the wall-clock limit).
    Halted(Halted),
}

/// Parse an exercise file into the subset tree, or say what is wrong and where. No deadline
/// and no cancel: for files the program itself holds (solutions) and tests; a learner's file
/// is parsed with [`parse_within`].
pub fn parse(text: &str) -> Result<Program, Vec<Diagnostic>> {
    static NEVER: AtomicBool = AtomicBool::new(false);
    parse_within(text, Halt::cancel_only(&NEVER)).map_err(|e| match e {
        NotParsed::Problems(d) => d,
        NotParsed::Halted(h) => vec![Diagnostic::at(1, 1, h.message())],
    })
}

/// [`parse`], stopped by `halt` (the check's cancel flag and deadline), which every phase
/// polls: the macro expansion, tree-sitter's parse and the walk that builds the tree.
pub fn parse_within(text: &str, halt: Halt) -> Result<Program, NotParsed> {
    let problem = |d: Diagnostic| NotParsed::Problems(vec![d]);
    if let Some(d) = text::nul_byte(text) {
        return Err(problem(d));
    }
    // Classic Mac line endings (a lone CR) end lines, as for gcc and nvcc (CK12).
    let text = text::lone_cr_to_lf(text);
    let mut parser = Parser::new();
    if let Err(err) = parser.set_language(&tree_sitter_cuda::LANGUAGE.into()) {
        return Err(problem(Diagnostic::at(
            1,
            1,
            format!("the CUDA grammar could not be loaded ({err}); this build is broken"),
        )));
    }
    // `CUDART_CB` (the host-function calling convention, empty on Linux) becomes spaces of the
    // same length, so the grammar sees a plain function and every position stays where it was.
    let text = &functions::blank_cudart_cb(&text);
    // Macros expanded as the preprocessor would, lines kept in place.
    let expanded = macros::expand(text, halt)?;
    let map = expanded.map;
    let text: &str = &expanded.text;
    let placed = |d: Vec<Diagnostic>| NotParsed::Problems(relocate(&map, d));
    // What tree-sitter is given is what must fit (CK4), not the file.
    if let Some(why) = parse_would_not_fit(text.len()) {
        return Err(problem(Diagnostic::at(1, 1, why)));
    }
    let bytes = text.as_bytes();
    let mut read = |at: usize, _| bytes.get(at..).unwrap_or_default();
    // tree-sitter calls back every 100 parse operations; the halt is looked at every
    // `POLL_EVERY_CALLBACKS`-th call (a few thousand operations, well under a millisecond), so
    // Esc stops even a parse of 4 MiB of `(` at once, and a small file's parse never looks.
    let mut calls = 0u32;
    let mut stop = |_: &tree_sitter::ParseState| {
        calls = calls.wrapping_add(1);
        calls.is_multiple_of(POLL_EVERY_CALLBACKS) && halt.halted().is_some()
    };
    let options = ParseOptions::new().progress_callback(&mut stop);
    let Some(tree) = parser.parse_with_options(&mut read, None, Some(options)) else {
        if let Some(h) = halt.halted() {
            return Err(NotParsed::Halted(h));
        }
        return Err(problem(Diagnostic::at(
            1,
            1,
            "the parser gave up on this file",
        )));
    };
    let root = tree.root_node();
    if root.has_error() {
        let mut out = Vec::new();
        syntax_errors(root, text, &mut out);
        out.truncate(MAX_DIAGNOSTICS);
        // None left: the only errors were nested empty blocks, which the walk takes.
        if !out.is_empty() {
            return Err(placed(out));
        }
    }
    let mut cx = Cx::new(text.as_bytes(), halt);
    let program = cx.translation_unit(root);
    if let Some(h) = cx.halted {
        return Err(NotParsed::Halted(h));
    }
    match program {
        Some(p) if cx.diags.is_empty() => Ok(Program { macros: map, ..p }),
        _ => {
            let mut d = cx.diags;
            if d.is_empty() {
                d.push(Diagnostic::at(1, 1, "the file has no `int main()`"));
            }
            d.sort_by_key(|d| (d.line, d.column));
            d.truncate(MAX_DIAGNOSTICS);
            Err(placed(d))
        }
    }
}

/// `diags` (at positions in the expanded text) placed where the learner wrote them.
fn relocate(map: &MacroMap, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags
        .into_iter()
        .map(|d| {
            match map.locate(Pos {
                line: d.line,
                column: d.column,
            }) {
                (p, Some(name)) => Diagnostic::at(
                    p.line,
                    p.column,
                    format!("{} (in the expansion of `{name}`)", d.message),
                ),
                (p, None) => Diagnostic::at(p.line, p.column, d.message),
            }
        })
        .collect()
}

/// Collect ERROR and MISSING nodes, outermost first (in source order).
///
/// A walk with an explicit stack, not recursion: the error can sit under any number of nested
/// parentheses (50,000 fit in a 100 KB file), and one stack frame per level overflowed the main
/// thread's stack and, sooner, the check worker's, aborting the process.
fn syntax_errors(root: Node, text: &str, out: &mut Vec<Diagnostic>) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if out.len() >= MAX_DIAGNOSTICS {
            return;
        }
        if empty_blocks(node, text.as_bytes()) {
            continue;
        }
        if let Some(d) = syntax_error_at(node, text) {
            out.push(d);
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node
            .children(&mut cursor)
            .filter(|c| c.has_error() || c.is_missing())
            .collect();
        // Reversed, so the first child is popped (and reported) first.
        stack.extend(children.into_iter().rev());
    }
}

/// Whether `node` is nested empty blocks (`{ { } }`, `{{}}`), which the grammar reads as an
/// initializer list in error (review 2026-12-01b CK14): the one ERROR node forgiven, read as an
/// empty statement (an empty block does nothing).
fn empty_blocks(node: Node, src: &[u8]) -> bool {
    if !node.is_error() {
        return false;
    }
    let t = node.utf8_text(src).unwrap_or("");
    let mut depth = 0usize;
    for c in t.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            c if c.is_whitespace() => {}
            _ => return false,
        }
    }
    depth == 0 && t.contains('{')
}

/// The diagnostic for `node` itself when it is a MISSING or ERROR node.
fn syntax_error_at(node: Node, text: &str) -> Option<Diagnostic> {
    let p = pos(node);
    if node.is_missing() {
        return Some(Diagnostic::at(
            p.line,
            p.column,
            format!("syntax error: expected `{}` here", node.kind()),
        ));
    }
    if node.is_error() {
        let snippet: String = node
            .utf8_text(text.as_bytes())
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .filter(|c| !c.is_control())
            .take(30)
            .collect();
        if snippet.is_empty() {
            // Only control characters or spaces: name the first, which the learner cannot see.
            let first = node.utf8_text(text.as_bytes()).unwrap_or("").chars().next();
            return Some(Diagnostic::at(
                p.line,
                p.column,
                format!("syntax error: cannot read {} here", text::char_name(first)),
            ));
        }
        return Some(Diagnostic::at(
            p.line,
            p.column,
            format!("syntax error: cannot read `{snippet}` here"),
        ));
    }
    None
}

/// A node's 1-based start.
fn pos(node: Node) -> Pos {
    let p = node.start_position();
    Pos {
        line: p.row as u32 + 1,
        column: p.column as u32 + 1,
    }
}

/// The walk's state: the source bytes, the diagnostics so far, the names of the file's
/// functions (with the line each is defined on) and of its prototypes, and the halt it polls.
struct Cx<'a, 'h> {
    src: &'a [u8],
    diags: Vec<Diagnostic>,
    functions: HashSet<String>,
    /// Each function defined, and the line of its first definition.
    defined: HashMap<String, u32>,
    /// Each function declared by a prototype, and the line of its first prototype.
    prototypes: HashMap<String, u32>,
    halt: Halt<'h>,
    /// Nodes walked, for polling the halt.
    nodes: u64,
    /// Why the walk was stopped from outside, once it was.
    halted: Option<Halted>,
}

impl<'a, 'h> Cx<'a, 'h> {
    fn new(src: &'a [u8], halt: Halt<'h>) -> Cx<'a, 'h> {
        Cx {
            src,
            diags: Vec::new(),
            functions: HashSet::new(),
            defined: HashMap::new(),
            prototypes: HashMap::new(),
            halt,
            nodes: 0,
            halted: None,
        }
    }
}

impl Cx<'_, '_> {
    /// Count one node walked; whether the walk must stop (the halt said so, now or before).
    fn halting(&mut self) -> bool {
        self.nodes += 1;
        if self.halted.is_none() && self.nodes.is_multiple_of(POLL_EVERY_NODES) {
            self.halted = self.halt.halted();
        }
        self.halted.is_some()
    }

    fn text(&self, node: Node) -> String {
        node.utf8_text(self.src).unwrap_or("").to_string()
    }

    /// Report `node` as a construct outside the subset; returns `None` for `?` chaining.
    fn unsupported<T>(&mut self, node: Node, what: &str) -> Option<T> {
        let p = pos(node);
        self.diags.push(Diagnostic::at(
            p.line,
            p.column,
            format!("{what} is not supported here; {OUTSIDE_THE_SUBSET}"),
        ));
        None
    }

    fn error<T>(&mut self, node: Node, message: impl Into<String>) -> Option<T> {
        let p = pos(node);
        self.diags.push(Diagnostic::at(p.line, p.column, message));
        None
    }

    /// A short name for a node the subset does not take, e.g. "`do … while`" or "`goto`".
    fn construct_name(&self, node: Node) -> String {
        let first_line: String = self
            .text(node)
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect();
        format!(
            "`{}` ({})",
            first_line.trim(),
            node.kind().replace('_', " ")
        )
    }

    fn translation_unit(&mut self, root: Node) -> Option<Program> {
        let mut main = None;
        let mut functions = Vec::new();
        let mut globals = Vec::new();
        let mut cursor = root.walk();
        let items: Vec<Node> = root.named_children(&mut cursor).collect();
        // Every function's name first, so a call before the definition (after a prototype)
        // is known to be a call of the file's function.
        for item in &items {
            let Some((name, _, _)) = self.function_parts(*item) else {
                continue;
            };
            let line = pos(*item).line;
            if item.kind() == "function_definition" {
                self.functions.insert(name);
            } else {
                self.prototypes.entry(name).or_insert(line);
            }
        }
        for item in items {
            if self.halting() {
                return None;
            }
            match item.kind() {
                "comment" | "preproc_include" => {}
                "preproc_def" => self.unread_define(item),
                "preproc_function_def" => self.function_macro(item),
                "declaration" if self.is_prototype(item) => {}
                // `const int N = 1 << 20;`, `static float *h_a;`: the file's variables.
                "declaration" => {
                    if let Some(vars) = self.file_declaration(item) {
                        globals.extend(vars);
                    }
                }
                "function_definition" => {
                    let Some((name, _, pointers)) = self.function_parts(item) else {
                        let what = self.construct_name(item);
                        self.unsupported::<()>(item, &what);
                        continue;
                    };
                    if !self.first_definition(&name, item) {
                        continue;
                    }
                    if name == "main" {
                        let ret = item
                            .child_by_field_name("type")
                            .map(|t| self.text(t))
                            .unwrap_or_default();
                        if ret.trim() != "int" || pointers > 0 {
                            self.error::<()>(item, "`main` must return `int` (write `int main()`)");
                            continue;
                        }
                        let body = item.child_by_field_name("body")?;
                        main = self.block_items(body, 0);
                    } else if let Some(f) = self.function(item) {
                        functions.push(f);
                    }
                }
                _ => {
                    let what = self.construct_name(item);
                    self.unsupported::<()>(item, &format!("{what} outside a function"));
                }
            }
        }
        main.map(|main| Program {
            main,
            functions,
            globals,
            macros: MacroMap::default(),
        })
    }

    /// Whether `item` is the first definition of `name`; a second is a diagnostic, as for
    /// nvcc (CK9: a file with two `main`s ran one of them).
    fn first_definition(&mut self, name: &str, item: Node) -> bool {
        let line = pos(item).line;
        match self.defined.get(name) {
            Some(first) => {
                let first = *first;
                self.error::<()>(
                    item,
                    format!("redefinition of `{name}`, first defined on line {first}"),
                );
                false
            }
            None => {
                self.defined.insert(name.to_string(), line);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests;
