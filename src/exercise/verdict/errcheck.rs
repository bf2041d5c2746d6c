//! `checks-errors`: the error a call returns is tested. Whether a program looks at a returned
//! `cudaError_t` is in its code, not in what one run did (a run where every call succeeds takes
//! the same path with or without the test), so this criterion reads the program's tree, after
//! macro expansion: `CHECK(cudaHostRegister(…))` is judged by what `CHECK` expands to.
//!
//! A call's value is tested when it reaches a comparison (`!= cudaSuccess`), a `!`, or a
//! condition (`if`, `while`, `for`, `?:`): directly, through a variable it was stored in (`err =
//! cudaMallocHost(…); if (err != cudaSuccess) …`), or as an argument of a function of the file
//! whose parameter is tested (a `check(cudaError_t e, int line)` helper). Variables are matched
//! by name within one function, which is how the classic `CHECK` macro's `err_` is written.

use std::collections::{HashMap, HashSet};

use crate::exercise::ast::{BinOp, Expr, ExprKind, Program, Stmt, StmtKind, UnOp};

/// Where a value goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Sink {
    Tested,
    /// Stored in this variable.
    Var(String),
    /// Argument `n` of this function of the file.
    Arg(String, usize),
    Unused,
}

/// One function's calls of interest, with where each value went, and the variables it tests.
#[derive(Default)]
struct Seen {
    calls: Vec<(String, u32, Sink)>,
    tested: HashSet<String>,
}

/// Every call of `calls` in `program` has its returned error tested, and each is called.
pub(super) fn checks_errors(program: &Program, calls: &[String]) -> Result<String, String> {
    let wanted: HashSet<&str> = calls.iter().map(String::as_str).collect();
    let users: HashSet<&str> = program.functions.iter().map(|f| f.name.as_str()).collect();
    let mut seen: HashMap<&str, Seen> = HashMap::new();
    let bodies = std::iter::once(("main", &program.main[..])).chain(
        program
            .functions
            .iter()
            .map(|f| (f.name.as_str(), &f.body[..])),
    );
    for (name, body) in bodies {
        let mut s = Seen::default();
        let w = Walk {
            wanted: &wanted,
            users: &users,
        };
        for st in body {
            w.stmt(st, &mut s);
        }
        seen.insert(name, s);
    }
    let tested_param = |f: &str, i: usize| -> bool {
        let (Some(func), Some(s)) = (program.function(f), seen.get(f)) else {
            return false;
        };
        func.params
            .get(i)
            .is_some_and(|(p, _)| s.tested.contains(p))
    };
    let mut untested: Vec<String> = Vec::new();
    let mut found: HashMap<&str, usize> = HashMap::new();
    for s in seen.values() {
        for (call, line, sink) in &s.calls {
            *found.entry(call.as_str()).or_default() += 1;
            let ok = match sink {
                Sink::Tested => true,
                Sink::Var(v) => s.tested.contains(v),
                Sink::Arg(f, i) => tested_param(f, *i),
                Sink::Unused => false,
            };
            if !ok {
                untested.push(format!("`{call}` on line {line}"));
            }
        }
    }
    untested.sort();
    untested.dedup();
    let never: Vec<&str> = calls
        .iter()
        .map(String::as_str)
        .filter(|c| !found.contains_key(c))
        .collect();
    if let Some(c) = never.first() {
        return Err(format!(
            "the program never calls `{c}`: check what it returns{}",
            if *c == "cudaGetLastError" {
                " (after a launch, `CHECK(cudaGetLastError())` is how its error is seen)"
            } else {
                ""
            }
        ));
    }
    if !untested.is_empty() {
        return Err(format!(
            "the error returned by {} is never tested: compare it with `cudaSuccess` (a `CHECK(call)` macro that prints `cudaGetErrorString(err)` and returns 1 from `main` does it at every call)",
            untested.join(", ")
        ));
    }
    let n: usize = found.values().sum();
    Ok(format!(
        "{n} call(s) of {}, each error tested",
        calls.join(", ")
    ))
}

struct Walk<'a> {
    wanted: &'a HashSet<&'a str>,
    users: &'a HashSet<&'a str>,
}

impl Walk<'_> {
    fn stmt(&self, st: &Stmt, s: &mut Seen) {
        match &st.kind {
            StmtKind::Decl(decls) => {
                for d in decls {
                    if let Some(e) = &d.array_len {
                        self.expr(e, Sink::Unused, s);
                    }
                    if let Some(e) = &d.init {
                        self.expr(e, Sink::Var(d.name.clone()), s);
                    }
                    for e in d.init_list.iter().flatten() {
                        self.expr(e, Sink::Unused, s);
                    }
                }
            }
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e, Sink::Unused, s),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond, Sink::Tested, s);
                self.stmt(then, s);
                if let Some(o) = otherwise {
                    self.stmt(o, s);
                }
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                if let Some(i) = init {
                    self.stmt(i, s);
                }
                if let Some(c) = cond {
                    self.expr(c, Sink::Tested, s);
                }
                if let Some(u) = update {
                    self.expr(u, Sink::Unused, s);
                }
                self.stmt(body, s);
            }
            StmtKind::While { cond, body, .. } => {
                self.expr(cond, Sink::Tested, s);
                self.stmt(body, s);
            }
            StmtKind::Block(v) => {
                for st in v {
                    self.stmt(st, s);
                }
            }
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue | StmtKind::Empty => {}
        }
    }

    fn expr(&self, e: &Expr, sink: Sink, s: &mut Seen) {
        match &e.kind {
            ExprKind::Call { name, args } => {
                if self.wanted.contains(name.as_str()) {
                    s.calls.push((name.clone(), e.pos.line, sink));
                }
                let user = self.users.contains(name.as_str());
                for (i, a) in args.iter().enumerate() {
                    let to = if user {
                        Sink::Arg(name.clone(), i)
                    } else {
                        Sink::Unused
                    };
                    self.expr(a, to, s);
                }
            }
            ExprKind::Var(v) => {
                if sink == Sink::Tested {
                    s.tested.insert(v.clone());
                }
            }
            ExprKind::Unary(UnOp::Not, a) => self.expr(a, Sink::Tested, s),
            // `assert(cond)` tests its condition.
            ExprKind::Assert(a, _) => self.expr(a, Sink::Tested, s),
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => self.expr(a, sink, s),
            ExprKind::Binary(op, a, b) => {
                let to = if matches!(
                    op,
                    BinOp::Eq
                        | BinOp::Ne
                        | BinOp::Lt
                        | BinOp::Le
                        | BinOp::Gt
                        | BinOp::Ge
                        | BinOp::And
                        | BinOp::Or
                ) {
                    Sink::Tested
                } else {
                    Sink::Unused
                };
                self.expr(a, to.clone(), s);
                self.expr(b, to, s);
            }
            ExprKind::Assign(None, target, value) => {
                let to = match &target.kind {
                    ExprKind::Var(v) => Sink::Var(v.clone()),
                    _ => Sink::Unused,
                };
                self.expr(target, Sink::Unused, s);
                self.expr(value, to, s);
            }
            ExprKind::Assign(Some(_), a, b) | ExprKind::Index(a, b) => {
                self.expr(a, Sink::Unused, s);
                self.expr(b, Sink::Unused, s);
            }
            ExprKind::Cond(c, a, b) => {
                self.expr(c, Sink::Tested, s);
                self.expr(a, sink.clone(), s);
                self.expr(b, sink, s);
            }
            ExprKind::Update { target: a, .. } | ExprKind::AddrOf(a) => {
                self.expr(a, Sink::Unused, s);
            }
            ExprKind::Launch { config, args, .. } => {
                for a in config.iter().chain(args) {
                    self.expr(a, Sink::Unused, s);
                }
            }
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::Func(_)
            | ExprKind::SizeOf(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::parse;

    fn judged(body: &str) -> Result<String, String> {
        let src = format!("#include \"academy.cuh\"\n{body}");
        let p = parse::parse(&src).unwrap_or_else(|d| panic!("{d:?}"));
        checks_errors(&p, &["cudaHostRegister".into(), "cudaGetLastError".into()])
    }

    const MACRO: &str = "#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { printf(\"%s\\n\", cudaGetErrorString(err_)); return 1; } } while (0)\n";

    #[test]
    fn a_check_macro_a_variable_and_a_helper_function_each_test_the_error() {
        let with_macro = format!(
            "{MACRO}int main() {{ float *h = (float *)malloc(16); CHECK(cudaHostRegister(h, 16, 0)); CHECK(cudaGetLastError()); return 0; }}"
        );
        assert!(judged(&with_macro).is_ok(), "{:?}", judged(&with_macro));
        let direct = "int main() { float *h = (float *)malloc(16); cudaError_t e = cudaHostRegister(h, 16, 0); if (e != cudaSuccess) { return 1; } if (cudaGetLastError() != cudaSuccess) return 1; return 0; }";
        assert!(judged(direct).is_ok(), "{:?}", judged(direct));
        let helper = "int check(int e, int line) { if (e != 0) { printf(\"line %d\\n\", line); return 1; } return 0; }\nint main() { float *h = (float *)malloc(16); check(cudaHostRegister(h, 16, 0), __LINE__); check(cudaGetLastError(), __LINE__); return 0; }";
        assert!(judged(helper).is_ok(), "{:?}", judged(helper));
    }

    #[test]
    fn an_ignored_or_missing_error_fails_naming_the_call() {
        let ignored = "int main() { float *h = (float *)malloc(16); cudaHostRegister(h, 16, 0); cudaGetLastError(); return 0; }";
        let err = judged(ignored).unwrap_err();
        assert!(err.contains("`cudaHostRegister` on line 2"), "{err}");
        let stored = "int main() { float *h = (float *)malloc(16); cudaError_t e = cudaHostRegister(h, 16, 0); printf(\"%d\\n\", e); if (cudaGetLastError() != cudaSuccess) return 1; return 0; }";
        let err = judged(stored).unwrap_err();
        assert!(err.contains("`cudaHostRegister`"), "{err}");
        let never = "int main() { float *h = (float *)malloc(16); if (cudaHostRegister(h, 16, 0) != cudaSuccess) return 1; return 0; }";
        let err = judged(never).unwrap_err();
        assert!(err.contains("never calls `cudaGetLastError`"), "{err}");
    }
}
