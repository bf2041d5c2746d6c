//! Learner's `.cu` text -> [`Program`], through tree-sitter's CUDA grammar (a real C++ grammar
//! that knows `<<<…>>>`). Syntax errors (ERROR and MISSING nodes) and every construct outside the
//! subset become [`Diagnostic`]s at their line and column; nothing here panics on any input.

mod expr;
mod functions;
mod macros;
mod stmt;

use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, Parser};

use super::Diagnostic;
use super::ast::{Expr, Pos, Program};

/// Where a diagnostic about a construct, call or helper the checker does not run sends the
/// learner: the list of what it runs.
pub const OUTSIDE_THE_SUBSET: &str = "the checker runs a subset of C and CUDA (README, \"Hands-on exercises\", \"The supported subset\")";

/// Deepest nesting of statements and expressions accepted: far beyond real exercise code, and
/// it keeps the recursive walk (here and in the interpreter) well inside the stack.
pub const MAX_DEPTH: usize = 200;
/// Diagnostics shown at most: past a few, the rest are usually echoes of the first.
const MAX_DIAGNOSTICS: usize = 8;

/// Parse an exercise file into the subset tree, or say what is wrong and where.
pub fn parse(text: &str) -> Result<Program, Vec<Diagnostic>> {
    let mut parser = Parser::new();
    if let Err(err) = parser.set_language(&tree_sitter_cuda::LANGUAGE.into()) {
        return Err(vec![Diagnostic::at(
            1,
            1,
            format!("the CUDA grammar could not be loaded ({err}); this build is broken"),
        )]);
    }
    // `CUDART_CB` (the host-function calling convention, empty on Linux) becomes spaces of the
    // same length, so the grammar sees a plain function and every position stays where it was.
    let text = &functions::blank_cudart_cb(text);
    // Function-like macros expanded as the preprocessor would, lines kept in place.
    let expanded = match macros::expand(text) {
        Ok(t) => t,
        Err(d) => return Err(vec![d]),
    };
    let text: &str = &expanded;
    let Some(tree) = parser.parse(text, None) else {
        return Err(vec![Diagnostic::at(
            1,
            1,
            "the parser gave up on this file",
        )]);
    };
    let root = tree.root_node();
    if root.has_error() {
        let mut out = Vec::new();
        syntax_errors(root, text, &mut out);
        out.truncate(MAX_DIAGNOSTICS);
        if out.is_empty() {
            out.push(Diagnostic::at(1, 1, "syntax error"));
        }
        return Err(out);
    }
    let mut cx = Cx::new(text.as_bytes());
    let program = cx.translation_unit(root);
    match program {
        Some(p) if cx.diags.is_empty() => Ok(p),
        _ => {
            let mut d = cx.diags;
            if d.is_empty() {
                d.push(Diagnostic::at(1, 1, "the file has no `int main()`"));
            }
            d.sort_by_key(|d| (d.line, d.column));
            d.truncate(MAX_DIAGNOSTICS);
            Err(d)
        }
    }
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

/// The walk's state: the source bytes, the diagnostics so far, the `#define`s seen and the
/// names of the file's functions.
struct Cx<'a> {
    src: &'a [u8],
    diags: Vec<Diagnostic>,
    defines: HashMap<String, Expr>,
    functions: HashSet<String>,
}

impl<'a> Cx<'a> {
    fn new(src: &'a [u8]) -> Cx<'a> {
        Cx {
            src,
            diags: Vec::new(),
            defines: HashMap::new(),
            functions: HashSet::new(),
        }
    }
}

impl Cx<'_> {
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
        let mut cursor = root.walk();
        let items: Vec<Node> = root.named_children(&mut cursor).collect();
        // Every function's name first, so a call before the definition (after a prototype)
        // is known to be a call of the file's function.
        for item in &items {
            if item.kind() == "function_definition"
                && let Some((name, _, _)) = self.function_parts(*item)
            {
                self.functions.insert(name);
            }
        }
        for item in items {
            match item.kind() {
                "comment" | "preproc_include" => {}
                "preproc_def" => self.define(item),
                "preproc_function_def" => self.function_macro(item),
                "declaration" if self.is_prototype(item) => {}
                "function_definition" => {
                    let Some((name, _, _)) = self.function_parts(item) else {
                        let what = self.construct_name(item);
                        self.unsupported::<()>(item, &what);
                        continue;
                    };
                    if name == "main" {
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
        main.map(|main| Program { main, functions })
    }
}
