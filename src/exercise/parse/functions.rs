//! What a file holds besides `main`: its other functions (helpers, and host functions for
//! `cudaLaunchHostFunc` with `CUDART_CB`), their prototypes, and `#define NAME value`
//! constants, whose value is an expression substituted where the name is used.

use tree_sitter::{Node, Parser};

use super::{Cx, pos};
use crate::exercise::api;
use crate::exercise::ast::{Expr, ExprKind, Function, Pos, Ty};

/// Longest `#define` value read: a constant, not a program.
const MAX_DEFINE_LEN: usize = 200;

/// `text` with each `CUDART_CB` token replaced by as many spaces.
pub(super) fn blank_cudart_cb(text: &str) -> String {
    const CB: &str = "CUDART_CB";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(CB) {
        let (before, after) = (&rest[..i], &rest[i + CB.len()..]);
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let whole = !before.ends_with(ident) && !after.starts_with(ident);
        out.push_str(before);
        if whole {
            out.push_str(&" ".repeat(CB.len()));
        } else {
            out.push_str(CB);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

impl Cx<'_> {
    /// A function definition's (or prototype's) name, its declarator and the stars of its
    /// return type.
    pub(super) fn function_parts<'t>(&self, item: Node<'t>) -> Option<(String, Node<'t>, usize)> {
        let mut d = item.child_by_field_name("declarator")?;
        let mut pointers = 0;
        while d.kind() == "pointer_declarator" {
            pointers += 1;
            d = d.child_by_field_name("declarator")?;
        }
        if d.kind() != "function_declarator" {
            return None;
        }
        let name = d.child_by_field_name("declarator")?;
        (name.kind() == "identifier").then(|| (self.text(name), d, pointers))
    }

    /// A top-level declaration of a function (a prototype): nothing to run.
    pub(super) fn is_prototype(&self, item: Node) -> bool {
        self.function_parts(item).is_some()
    }

    /// A function besides `main`, with its parameters and body.
    pub(super) fn function(&mut self, item: Node) -> Option<Function> {
        let (name, decl, pointers) = self.function_parts(item)?;
        if api::is_call(&name) || api::is_kernel(&name) || name == "dim3" {
            return self.error(
                item,
                format!("`{name}` is already defined by academy.cuh or CUDA; give your function another name"),
            );
        }
        let type_node = item.child_by_field_name("type")?;
        let base = self.text(type_node);
        let ret = if base.trim() == "void" && pointers == 0 {
            None
        } else {
            Some(self.type_of(&base, pointers, type_node)?)
        };
        let params = self.parameters(decl.child_by_field_name("parameters")?)?;
        let body = item.child_by_field_name("body")?;
        let body = self.block_items(body, 0)?;
        Some(Function {
            name,
            ret,
            params,
            body,
            pos: pos(item),
        })
    }

    fn parameters(&mut self, list: Node) -> Option<Vec<(String, Ty)>> {
        let mut out = Vec::new();
        let mut cursor = list.walk();
        let params: Vec<Node> = list.named_children(&mut cursor).collect();
        for p in params {
            match p.kind() {
                "comment" => continue,
                "parameter_declaration" => {}
                _ => {
                    let what = self.construct_name(p);
                    return self.unsupported(p, &format!("the parameter {what}"));
                }
            }
            let type_node = p.child_by_field_name("type")?;
            let base = self.text(type_node);
            let Some(mut d) = p.child_by_field_name("declarator") else {
                if base.trim() == "void" {
                    continue; // `f(void)`
                }
                return self.error(p, "a parameter needs a name here");
            };
            let mut pointers = 0;
            while d.kind() == "pointer_declarator" {
                pointers += 1;
                d = d.child_by_field_name("declarator")?;
            }
            if d.kind() != "identifier" {
                let what = self.construct_name(d);
                return self.unsupported(d, &format!("the parameter {what}"));
            }
            let ty = self.type_of(&base, pointers, type_node)?;
            out.push((self.text(d), ty));
        }
        Some(out)
    }

    /// `#define NAME value`: the value is read as an expression of the subset.
    pub(super) fn define(&mut self, item: Node) {
        let Some(name) = item.child_by_field_name("name").map(|n| self.text(n)) else {
            return;
        };
        let value = item
            .child_by_field_name("value")
            .map(|v| self.text(v))
            .unwrap_or_default();
        let value = value.trim();
        if value.is_empty() {
            self.error::<()>(
                item,
                format!("`#define {name}` has no value; give it one, e.g. `#define {name} 1024`"),
            );
            return;
        }
        if value.len() > MAX_DEFINE_LEN || value.contains(['\n', ';', '{']) {
            self.error::<()>(
                item,
                format!("the value of `#define {name}` must be one expression, e.g. `(1 << 20)`"),
            );
            return;
        }
        match self.define_value(value, pos(item)) {
            Some(e) => {
                self.defines.insert(name, e);
            }
            None => {
                self.error::<()>(
                    item,
                    format!("the value of `#define {name}` is not an expression the subset reads: `{value}`"),
                );
            }
        }
    }

    /// `#define F(x) …`: refused with what to write instead.
    pub(super) fn function_macro(&mut self, item: Node) {
        let name = item
            .child_by_field_name("name")
            .map(|n| self.text(n))
            .unwrap_or_default();
        self.error::<()>(
            item,
            format!("`{name}` is a function-like macro (`#define {name}(…)`), which is not supported here; write a function, or `#define` a value"),
        );
    }

    /// Parse `value` on its own, as the initializer of a declaration, into an expression placed
    /// at `at` (the `#define` line).
    fn define_value(&mut self, value: &str, at: Pos) -> Option<Expr> {
        let src = format!("int __academy_define = ({value});");
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_cuda::LANGUAGE.into())
            .ok()?;
        let tree = parser.parse(&src, None)?;
        let root = tree.root_node();
        if root.has_error() {
            return None;
        }
        let decl = root.named_child(0)?;
        let init = decl.child_by_field_name("declarator")?;
        let v = init.child_by_field_name("value")?;
        let mut sub = Cx::new(src.as_bytes());
        sub.defines = self.defines.clone();
        sub.functions = self.functions.clone();
        let e = sub.expression(v, 0)?;
        if !sub.diags.is_empty() {
            return None;
        }
        Some(relocated(e, at))
    }

    /// The expression a `#define`d name stands for, placed where it is used.
    pub(super) fn macro_use(&self, name: &str, at: Pos) -> Option<Expr> {
        self.defines.get(name).map(|e| relocated(e.clone(), at))
    }
}

/// `e` with every position moved to `at`: a macro's value is reported where it is used.
fn relocated(mut e: Expr, at: Pos) -> Expr {
    e.pos = at;
    let boxed = |b: Box<Expr>| Box::new(relocated(*b, at));
    e.kind = match e.kind {
        ExprKind::Index(a, b) => ExprKind::Index(boxed(a), boxed(b)),
        ExprKind::Unary(op, a) => ExprKind::Unary(op, boxed(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(op, boxed(a), boxed(b)),
        ExprKind::Assign(op, a, b) => ExprKind::Assign(op, boxed(a), boxed(b)),
        ExprKind::Update {
            inc,
            prefix,
            target,
        } => ExprKind::Update {
            inc,
            prefix,
            target: boxed(target),
        },
        ExprKind::AddrOf(a) => ExprKind::AddrOf(boxed(a)),
        ExprKind::Cast(t, a) => ExprKind::Cast(t, boxed(a)),
        ExprKind::Cond(a, b, c) => ExprKind::Cond(boxed(a), boxed(b), boxed(c)),
        ExprKind::Call { name, args } => ExprKind::Call {
            name,
            args: args.into_iter().map(|a| relocated(a, at)).collect(),
        },
        ExprKind::Launch {
            kernel,
            config,
            args,
        } => ExprKind::Launch {
            kernel,
            config: config.into_iter().map(|a| relocated(a, at)).collect(),
            args: args.into_iter().map(|a| relocated(a, at)).collect(),
        },
        other => other,
    };
    e
}
