//! What a file holds besides `main`: its other functions (helpers, and host functions for
//! `cudaLaunchHostFunc` with `CUDART_CB`) and their prototypes. (`#define`s are expanded
//! before the parse, in `macros`.)

use tree_sitter::Node;

use super::{Cx, pos};
use crate::exercise::api;
use crate::exercise::ast::{Function, Ty};

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

impl Cx<'_, '_> {
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
            // `float *v` and `float v[]` (or `float v[10]`, whose size C ignores) are the
            // same parameter: a pointer.
            let mut pointers = 0;
            while matches!(d.kind(), "pointer_declarator" | "array_declarator") {
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

    /// A `#define` the expander did not take (one inside a macro's arguments, or with no
    /// name): said so.
    pub(super) fn unread_define(&mut self, item: Node) {
        self.error::<()>(
            item,
            "this `#define` is not read here; write `#define NAME value` on a line of its own, outside a macro's arguments",
        );
    }

    /// `#define F(...) …` (the expander takes every other function-like macro): refused with
    /// what to write instead.
    pub(super) fn function_macro(&mut self, item: Node) {
        let name = item
            .child_by_field_name("name")
            .map(|n| self.text(n))
            .unwrap_or_default();
        self.error::<()>(
            item,
            format!("`{name}` is a variadic function-like macro (`#define {name}(…)` with `...`), which is not supported here; give it named parameters, or write a function"),
        );
    }
}
