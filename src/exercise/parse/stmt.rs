//! Statements and declarations of `main`'s body.

use tree_sitter::Node;

use super::{Cx, MAX_DEPTH, pos};
use crate::exercise::ast::{Elem, Expr, Stmt, StmtKind, Ty, VarDecl};

/// A brace list's items and the list's node (for messages about it).
type BraceList<'t> = (Vec<Expr>, Node<'t>);

impl Cx<'_, '_> {
    /// The statements inside `{ … }`, comments skipped.
    pub(super) fn block_items(&mut self, node: Node, depth: usize) -> Option<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut ok = true;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "comment" {
                continue;
            }
            match self.statement(child, depth + 1) {
                Some(s) => out.push(s),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    pub(super) fn statement(&mut self, node: Node, depth: usize) -> Option<Stmt> {
        if self.halting() {
            return None;
        }
        if depth > MAX_DEPTH {
            return self.error(
                node,
                format!("statements nested more than {MAX_DEPTH} deep"),
            );
        }
        let kind = match node.kind() {
            "compound_statement" => StmtKind::Block(self.block_items(node, depth)?),
            "declaration" => StmtKind::Decl(self.declaration(node, depth)?),
            "expression_statement" => match node.named_child(0) {
                Some(e) if e.kind() != "comment" => StmtKind::Expr(self.expression(e, depth)?),
                _ => StmtKind::Empty,
            },
            "if_statement" => self.if_statement(node, depth)?,
            "for_statement" => self.for_statement(node, depth)?,
            "while_statement" => {
                let cond = self.condition(node, depth)?;
                let body = self.field_stmt(node, "body", depth)?;
                StmtKind::While {
                    cond,
                    body,
                    test_first: true,
                }
            }
            "do_statement" => {
                let body = self.field_stmt(node, "body", depth)?;
                let cond = self.expression(node.child_by_field_name("condition")?, depth)?;
                StmtKind::While {
                    cond,
                    body,
                    test_first: false,
                }
            }
            "return_statement" => match node.named_child(0) {
                Some(e) => StmtKind::Return(Some(self.expression(e, depth)?)),
                None => StmtKind::Return(None),
            },
            // `#define`s between statements are expanded before the parse; one left is odd.
            "preproc_def" => {
                self.unread_define(node);
                return None;
            }
            "ERROR" if super::empty_blocks(node, self.src) => StmtKind::Empty,
            "break_statement" => StmtKind::Break,
            "continue_statement" => StmtKind::Continue,
            _ => {
                let what = self.construct_name(node);
                return self.unsupported(node, &what);
            }
        };
        Some(Stmt {
            kind,
            pos: pos(node),
        })
    }

    fn field_stmt(&mut self, node: Node, field: &str, depth: usize) -> Option<Box<Stmt>> {
        let child = node.child_by_field_name(field)?;
        self.statement(child, depth + 1).map(Box::new)
    }

    /// The expression inside an `if`/`while` condition clause.
    fn condition(&mut self, node: Node, depth: usize) -> Option<Expr> {
        let clause = node.child_by_field_name("condition")?;
        match clause.child_by_field_name("value") {
            Some(v)
                if v.kind() != "declaration"
                    && clause.child_by_field_name("initializer").is_none() =>
            {
                self.expression(v, depth)
            }
            _ => self.unsupported(clause, "a declaration inside a condition"),
        }
    }

    fn if_statement(&mut self, node: Node, depth: usize) -> Option<StmtKind> {
        let cond = self.condition(node, depth)?;
        let then = self.field_stmt(node, "consequence", depth)?;
        let otherwise = match node.child_by_field_name("alternative") {
            Some(alt) => {
                let inner = alt.named_child(0)?;
                Some(Box::new(self.statement(inner, depth + 1)?))
            }
            None => None,
        };
        Some(StmtKind::If {
            cond,
            then,
            otherwise,
        })
    }

    fn for_statement(&mut self, node: Node, depth: usize) -> Option<StmtKind> {
        let init = match node.child_by_field_name("initializer") {
            Some(i) if i.kind() == "declaration" => Some(Box::new(Stmt {
                kind: StmtKind::Decl(self.declaration(i, depth)?),
                pos: pos(i),
            })),
            Some(i) => Some(Box::new(Stmt {
                kind: StmtKind::Expr(self.expression(i, depth)?),
                pos: pos(i),
            })),
            None => None,
        };
        let cond = match node.child_by_field_name("condition") {
            Some(c) => Some(self.expression(c, depth)?),
            None => None,
        };
        let update = match node.child_by_field_name("update") {
            Some(u) => Some(self.expression(u, depth)?),
            None => None,
        };
        let body = self.field_stmt(node, "body", depth)?;
        Some(StmtKind::For {
            init,
            cond,
            update,
            body,
        })
    }

    fn declaration(&mut self, node: Node, depth: usize) -> Option<Vec<VarDecl>> {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "storage_class_specifier" {
                let what = format!("`{}`", self.text(child));
                if what == "`static`" {
                    // A `static` local keeps its value between calls, which the subset does
                    // not model; at file scope it is an ordinary variable of the file.
                    return self.error(
                        child,
                        "a `static` variable inside a function is not supported here; declare it at file scope (before `main`), or pass it as a parameter",
                    );
                }
                return self.unsupported(child, &what);
            }
        }
        self.declarators(node, depth)
    }

    /// A declaration at file scope: `static` is allowed (it only hides the name from other
    /// files).
    pub(super) fn file_declaration(&mut self, node: Node) -> Option<Vec<VarDecl>> {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "storage_class_specifier" && self.text(child) != "static" {
                let what = format!("`{}` outside a function", self.text(child));
                return self.unsupported(child, &what);
            }
        }
        self.declarators(node, 0)
    }

    /// The variables a declaration declares.
    fn declarators(&mut self, node: Node, depth: usize) -> Option<Vec<VarDecl>> {
        let base_node = node.child_by_field_name("type")?;
        let base = self.text(base_node);
        let mut out = Vec::new();
        let mut cursor = node.walk();
        let declarators: Vec<Node> = node
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        for d in declarators {
            out.push(self.declarator(&base, base_node, d, depth)?);
        }
        Some(out)
    }

    fn declarator(
        &mut self,
        base: &str,
        base_node: Node,
        node: Node,
        depth: usize,
    ) -> Option<VarDecl> {
        let (d, init, init_list) = self.initializer(base, node, depth)?;
        let (d, pointers, array_len) = self.shape(d, init_list.as_ref(), depth)?;
        let ty = self.type_of(base, pointers, base_node)?;
        let init_list = match init_list {
            Some((_, list)) if array_len.is_none() => {
                return self.unsupported(list, "a brace initializer for a single variable");
            }
            Some((items, _)) => Some(items),
            None => None,
        };
        Some(VarDecl {
            name: self.text(d),
            ty,
            array_len,
            init,
            init_list,
            pos: pos(d),
        })
    }

    /// What follows `= ` (or the `(…)` of `dim3`) in a declarator: the declarator without it,
    /// the initial value, and a brace list's items with the list's node (checked by the caller
    /// to initialise an array).
    fn initializer<'t>(
        &mut self,
        base: &str,
        node: Node<'t>,
        depth: usize,
    ) -> Option<(Node<'t>, Option<Expr>, Option<BraceList<'t>>)> {
        if node.kind() != "init_declarator" {
            return Some((node, None, None));
        }
        let value = node.child_by_field_name("value")?;
        let declarator = node.child_by_field_name("declarator")?;
        if value.kind() == "argument_list" && base.trim() == "dim3" {
            // `dim3 grid(256, 1, 1)`: the constructor, read as a call of `dim3`.
            Some((declarator, Some(self.dim3_ctor(value, depth)?), None))
        } else if value.kind() == "initializer_list" {
            // `T a[n] = {x, y}`: checked to be an array by the caller.
            let mut items = Vec::new();
            let mut cursor = value.walk();
            let nodes: Vec<Node> = value
                .named_children(&mut cursor)
                .filter(|n| n.kind() != "comment")
                .collect();
            for item in nodes {
                items.push(self.expression(item, depth)?);
            }
            Some((declarator, None, Some((items, value))))
        } else if value.kind() != "argument_list" {
            Some((declarator, Some(self.expression(value, depth)?), None))
        } else {
            self.unsupported(value, "a constructor call")
        }
    }

    /// The pointers and array size wrapped round a declared name: the name's node, how many
    /// `*`, and the array length (from `[n]`, or from the brace list's length for `[]`).
    fn shape<'t>(
        &mut self,
        mut d: Node<'t>,
        init_list: Option<&BraceList<'t>>,
        depth: usize,
    ) -> Option<(Node<'t>, usize, Option<Expr>)> {
        let (mut pointers, mut array_len) = (0, None);
        loop {
            match d.kind() {
                "pointer_declarator" => pointers += 1,
                "array_declarator" if array_len.is_none() => {
                    let size = d.child_by_field_name("size");
                    array_len = match (size, init_list) {
                        (Some(s), _) => Some(self.expression(s, depth)?),
                        // `T a[] = {x, y}`: as many elements as the list has.
                        (None, Some((items, _))) => Some(Expr {
                            kind: crate::exercise::ast::ExprKind::Int(items.len() as i64),
                            pos: pos(d),
                        }),
                        (None, None) => {
                            return self.error(d, "an array needs a size here, e.g. `s[4]`");
                        }
                    };
                }
                "identifier" => return Some((d, pointers, array_len)),
                _ => {
                    let what = self.construct_name(d);
                    return self.unsupported(d, &what);
                }
            }
            d = d.child_by_field_name("declarator")?;
        }
    }

    /// `(x, y, z)` after `dim3 name`: a call of `dim3` with those arguments.
    fn dim3_ctor(&mut self, list: Node, depth: usize) -> Option<Expr> {
        let mut args = Vec::new();
        let mut cursor = list.walk();
        let nodes: Vec<Node> = list
            .named_children(&mut cursor)
            .filter(|n| n.kind() != "comment")
            .collect();
        for a in nodes {
            args.push(self.expression(a, depth)?);
        }
        Some(crate::exercise::ast::Expr {
            kind: crate::exercise::ast::ExprKind::Call {
                name: "dim3".into(),
                args,
            },
            pos: pos(list),
        })
    }

    /// The subset type of a base type name with `pointers` stars.
    pub(super) fn type_of(&mut self, base: &str, pointers: usize, node: Node) -> Option<Ty> {
        let base = base.trim();
        let ty = match (base, pointers) {
            ("float", 0) => Ty::Float,
            ("double", 0) => Ty::Double,
            ("bool", 0) => Ty::Bool,
            ("cudaStream_t", 0) => Ty::Stream,
            ("cudaEvent_t", 0) => Ty::Event,
            ("dim3", 0) => Ty::Dim3,
            ("float" | "void", 1) => Ty::Ptr(Elem::Float),
            (b, 1) if four_byte_integer(b) => Ty::Ptr(Elem::Int),
            (b, 1) if pointee_name(b).is_some() => {
                Ty::Ptr(Elem::Other(pointee_name(b).unwrap_or("this type")))
            }
            ("void", 2) => Ty::Ptr(Elem::Float), // `(void **)&ptr` in cudaMalloc calls
            // `float *d_in[]` (a parameter that takes an array of buffers) and `float **`: a
            // pointer to pointer variables.
            ("float", 2) => Ty::Ptr(Elem::Other("float *")),
            ("char", 1) => Ty::Str,
            (b, 0) if is_integer_type(b) => Ty::Int,
            _ => {
                let stars = "*".repeat(pointers);
                let what = format!("the type `{base} {stars}`");
                return self.unsupported(node, what.trim_end());
            }
        };
        Some(ty)
    }
}

/// `int`, `unsigned`, `int32_t`, `uint32_t` and their spellings: what an `int *` into host
/// memory may point at (4 bytes, as the buffers' elements).
fn four_byte_integer(name: &str) -> bool {
    matches!(
        name.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .as_str(),
        "int" | "unsigned" | "unsigned int" | "signed" | "signed int" | "int32_t" | "uint32_t"
    )
}

/// The name kept for a pointer to `name` that points at variables only (`double *`,
/// `unsigned char *`, `size_t *`, `cudaStream_t *`), or `None` for a type the subset lacks.
fn pointee_name(name: &str) -> Option<&'static str> {
    const NAMES: &[&str] = &[
        "double",
        "bool",
        "cudaStream_t",
        "cudaEvent_t",
        "unsigned char",
        "signed char",
        "size_t",
        "long",
        "long long",
        "unsigned long",
        "unsigned long long",
        "short",
        "unsigned short",
        "int64_t",
        "uint64_t",
        "cudaError_t",
    ];
    let joined = name.split_whitespace().collect::<Vec<_>>().join(" ");
    NAMES.iter().find(|n| **n == joined).copied()
}

fn is_integer_type(name: &str) -> bool {
    let words: Vec<&str> = name.split_whitespace().collect();
    !words.is_empty()
        && (matches!(
            name,
            "size_t" | "cudaError_t" | "int64_t" | "uint64_t" | "int32_t" | "uint32_t"
        ) || words.iter().all(|w| {
            matches!(
                *w,
                "int" | "long" | "short" | "unsigned" | "signed" | "char"
            )
        }))
}
