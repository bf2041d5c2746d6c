//! Expressions, casts and `sizeof`.

use tree_sitter::Node;

use super::{Cx, MAX_DEPTH, pos};
use crate::exercise::api;
use crate::exercise::ast::{BinOp, Expr, ExprKind, Ty, UnOp};

impl Cx<'_, '_> {
    pub(super) fn expression(&mut self, node: Node, depth: usize) -> Option<Expr> {
        if self.halting() {
            return None;
        }
        if depth > MAX_DEPTH {
            return self.error(
                node,
                format!("expressions nested more than {MAX_DEPTH} deep"),
            );
        }
        let d = depth + 1;
        let kind = match node.kind() {
            "identifier"
            | "null"
            | "nullptr"
            | "true"
            | "false"
            | "number_literal"
            | "string_literal"
            | "concatenated_string" => self.literal(node)?,
            "parenthesized_expression" => return self.expression(node.named_child(0)?, d),
            "binary_expression"
            | "assignment_expression"
            | "unary_expression"
            | "update_expression"
            | "pointer_expression" => self.operation(node, d)?,
            "subscript_expression" => {
                let arg = self.field_expr(node, "argument", d)?;
                let indices = node.child_by_field_name("indices")?;
                if indices.named_child_count() != 1 {
                    return self.unsupported(indices, "indexing with more than one index");
                }
                let index = self.expression(indices.named_child(0)?, d)?;
                ExprKind::Index(arg, Box::new(index))
            }
            "call_expression" => self.call(node, d)?,
            "cast_expression" => {
                let ty = self.type_descriptor(node.child_by_field_name("type")?)?;
                ExprKind::Cast(ty, self.field_expr(node, "value", d)?)
            }
            "sizeof_expression" => match node.child_by_field_name("type") {
                Some(t) => ExprKind::SizeOf(self.size_of(t)?),
                None => {
                    return self
                        .unsupported(node, "`sizeof` of an expression (write `sizeof(float)`)");
                }
            },
            "conditional_expression" => ExprKind::Cond(
                self.field_expr(node, "condition", d)?,
                self.field_expr(node, "consequence", d)?,
                self.field_expr(node, "alternative", d)?,
            ),
            _ => {
                let what = self.construct_name(node);
                return self.unsupported(node, &what);
            }
        };
        Some(Expr {
            kind,
            pos: pos(node),
        })
    }

    /// A name or a literal: the leaves of an expression, which nest nothing.
    fn literal(&mut self, node: Node) -> Option<ExprKind> {
        Some(match node.kind() {
            "identifier" => {
                let name = self.text(node);
                match (api::constant(&name), name.as_str()) {
                    (Some(v), _) => ExprKind::Int(v),
                    (None, _) if let Some(v) = api::float_constant(&name) => ExprKind::Float(v),
                    (None, "NULL") => ExprKind::Null,
                    (None, "__FILE__") => ExprKind::Str(api::FILE_NAME.into()),
                    _ if self.functions.contains(&name) => ExprKind::Func(name),
                    _ => ExprKind::Var(name),
                }
            }
            "true" => ExprKind::Bool(true),
            "false" => ExprKind::Bool(false),
            "number_literal" => self.number(node)?,
            "string_literal" => ExprKind::Str(self.string(node)?),
            "concatenated_string" => {
                let mut s = String::new();
                let mut cursor = node.walk();
                let parts: Vec<Node> = node.named_children(&mut cursor).collect();
                for part in parts {
                    s += &self.string(part)?;
                }
                ExprKind::Str(s)
            }
            // "null" and "nullptr", the only other kinds `expression` sends here.
            _ => ExprKind::Null,
        })
    }

    /// An operator applied to operands: binary, assignment, unary, `++`/`--`, `*p` and `&x`.
    fn operation(&mut self, node: Node, d: usize) -> Option<ExprKind> {
        Some(match node.kind() {
            "binary_expression" => {
                let op = self.binop(node, "")?;
                let l = self.field_expr(node, "left", d)?;
                let r = self.field_expr(node, "right", d)?;
                ExprKind::Binary(op, l, r)
            }
            "assignment_expression" => {
                let op_node = node.child_by_field_name("operator")?;
                let op = match self.text(op_node).as_str() {
                    "=" => None,
                    _ => Some(self.binop(node, "=")?),
                };
                let l = self.field_expr(node, "left", d)?;
                let r = self.field_expr(node, "right", d)?;
                ExprKind::Assign(op, l, r)
            }
            "unary_expression" => {
                let op = match self.text(node.child_by_field_name("operator")?).as_str() {
                    "-" => UnOp::Neg,
                    "!" => UnOp::Not,
                    "+" => UnOp::Plus,
                    other => return self.unsupported(node, &format!("the operator `{other}`")),
                };
                ExprKind::Unary(op, self.field_expr(node, "argument", d)?)
            }
            "update_expression" => {
                let op = self.text(node.child_by_field_name("operator")?);
                let prefix = node.child(0).is_some_and(|c| c.kind() == op);
                ExprKind::Update {
                    inc: op == "++",
                    prefix,
                    target: self.field_expr(node, "argument", d)?,
                }
            }
            // "pointer_expression", the only other kind `expression` sends here.
            _ => {
                let arg = self.field_expr(node, "argument", d)?;
                match self.text(node.child_by_field_name("operator")?).as_str() {
                    "&" => ExprKind::AddrOf(arg),
                    _ => ExprKind::Index(
                        arg,
                        Box::new(Expr {
                            kind: ExprKind::Int(0),
                            pos: pos(node),
                        }),
                    ),
                }
            }
        })
    }

    fn field_expr(&mut self, node: Node, field: &str, depth: usize) -> Option<Box<Expr>> {
        let child = node.child_by_field_name(field)?;
        self.expression(child, depth).map(Box::new)
    }

    /// The operator of a binary or compound-assignment node, without the trailing `suffix`.
    fn binop(&mut self, node: Node, suffix: &str) -> Option<BinOp> {
        let text = self.text(node.child_by_field_name("operator")?);
        let op = match text.strip_suffix(suffix).unwrap_or(&text) {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Rem,
            "<<" => BinOp::Shl,
            ">>" => BinOp::Shr,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            ">=" => BinOp::Ge,
            "==" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "&&" => BinOp::And,
            "||" => BinOp::Or,
            "&" => BinOp::BitAnd,
            "|" => BinOp::BitOr,
            "^" => BinOp::BitXor,
            _ => return self.unsupported(node, &format!("the operator `{text}`")),
        };
        Some(op)
    }

    fn call(&mut self, node: Node, depth: usize) -> Option<ExprKind> {
        let function = node.child_by_field_name("function")?;
        let name = self.text(function);
        // `std::min`, `std::max`, `std::abs`, `std::fabs` and `std::sqrt` are the subset's.
        let std_minmax = matches!(
            name.as_str(),
            "std::min" | "std::max" | "std::abs" | "std::fabs" | "std::sqrt"
        );
        let name = if std_minmax {
            name["std::".len()..].to_string()
        } else {
            name
        };
        let list = node.child_by_field_name("arguments")?;
        if name == "assert" && function.kind() == "identifier" {
            return self.assert(list, depth);
        }
        let mut args = Vec::new();
        let mut cursor = list.walk();
        let arg_nodes: Vec<Node> = list
            .named_children(&mut cursor)
            .filter(|n| n.kind() != "comment")
            .collect();
        for a in arg_nodes {
            args.push(self.expression(a, depth)?);
        }
        let mut cursor = node.walk();
        let launch = node
            .children(&mut cursor)
            .find(|c| c.kind() == "kernel_call_syntax");
        if let Some(syntax) = launch {
            if function.kind() != "identifier" || !api::is_kernel(&name) {
                return self.unsupported(
                    function,
                    &format!("the kernel `{name}` (only `transform` and `spin` from academy.cuh)"),
                );
            }
            let mut config = Vec::new();
            let mut cursor = syntax.walk();
            let cfg: Vec<Node> = syntax.named_children(&mut cursor).collect();
            for c in cfg {
                config.push(self.expression(c, depth)?);
            }
            return Some(ExprKind::Launch {
                kernel: name,
                config,
                args,
            });
        }
        let known = api::is_call(&name) || self.functions.contains(&name);
        if let Some(line) = self.prototypes.get(&name).filter(|_| !known) {
            let line = *line;
            return self.error(
                function,
                format!("`{name}` is declared on line {line} but never defined; write its body (`{name}(…) {{ … }}`)"),
            );
        }
        if (function.kind() != "identifier" && !std_minmax) || !known {
            let shown: String = name.chars().filter(|c| !c.is_control()).take(40).collect();
            return self.unsupported(function, &format!("`{shown}`"));
        }
        Some(ExprKind::Call { name, args })
    }

    /// `assert(cond)` (a macro of `<assert.h>`): the condition and its text.
    fn assert(&mut self, list: Node, depth: usize) -> Option<ExprKind> {
        let mut cursor = list.walk();
        let args: Vec<Node> = list
            .named_children(&mut cursor)
            .filter(|n| n.kind() != "comment")
            .collect();
        let [cond] = args.as_slice() else {
            return self.error(list, "`assert` takes one condition, e.g. `assert(n > 0)`");
        };
        let text: String = self
            .text(*cond)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .filter(|c| !c.is_control())
            .take(60)
            .collect();
        let cond = self.expression(*cond, depth)?;
        Some(ExprKind::Assert(Box::new(cond), text))
    }

    fn number(&mut self, node: Node) -> Option<ExprKind> {
        let text = self.text(node).replace('\'', "");
        let lower = text.to_ascii_lowercase();
        if let Some(hex) = lower.strip_prefix("0x") {
            let digits = hex.trim_end_matches(['u', 'l']);
            return match i64::from_str_radix(digits, 16) {
                Ok(v) => Some(ExprKind::Int(v)),
                Err(_) => self.error(node, format!("cannot read the number `{text}`")),
            };
        }
        let is_float = lower.contains(['.', 'e']) || lower.ends_with('f');
        let digits = lower.trim_end_matches(['u', 'l', 'f']);
        let parsed = if is_float {
            digits.parse::<f64>().ok().map(ExprKind::Float)
        } else {
            digits.parse::<i64>().ok().map(ExprKind::Int)
        };
        match parsed {
            Some(k) => Some(k),
            None => self.error(node, format!("cannot read the number `{text}`")),
        }
    }

    fn string(&mut self, node: Node) -> Option<String> {
        let raw = self.text(node);
        let Some(inner) = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else {
            return self.unsupported(node, "this kind of string literal");
        };
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some('\'') => out.push('\''),
                other => {
                    let shown: String = other.into_iter().collect();
                    return self.unsupported(node, &format!("the escape `\\{shown}`"));
                }
            }
        }
        Some(out)
    }

    /// `float *`, `void **`, `int`, ... inside a cast.
    fn type_descriptor(&mut self, node: Node) -> Option<Ty> {
        let base = self.text(node.child_by_field_name("type")?);
        let pointers = self.text(node).matches('*').count();
        self.type_of(&base, pointers, node)
    }

    fn size_of(&mut self, node: Node) -> Option<u64> {
        let base = self.text(node.child_by_field_name("type")?);
        if self.text(node).contains('*') {
            return Some(8);
        }
        let size = match base.trim() {
            "float" | "int" | "unsigned" | "unsigned int" | "int32_t" | "uint32_t" => 4,
            "double" | "size_t" | "long" | "long long" | "unsigned long long" | "int64_t"
            | "uint64_t" => 8,
            "char" | "bool" | "unsigned char" | "signed char" | "uint8_t" | "int8_t" => 1,
            other => return self.unsupported(node, &format!("`sizeof({other})`")),
        };
        Some(size)
    }
}
