//! Statements: declarations, expressions, `if`, loops, blocks and their scopes.

use super::value::{Scope, Value, convert};
use super::{Flow, Interp, Res};
use crate::exercise::ast::{Expr, ExprKind, Pos, Stmt, StmtKind, VarDecl};

impl Interp<'_> {
    /// The file's variables, declared in the file's scope before `main` runs; those without
    /// an initialiser start at zero (NULL, stream 0), as C's static storage does.
    pub(super) fn globals(&mut self, decls: &[VarDecl]) -> Res<()> {
        for d in decls {
            self.step(d.pos)?;
            self.line = d.pos.line;
            self.declare(d)?;
            if let Some(var) = self.scopes.first_mut().and_then(|s| s.get_mut(&d.name)) {
                let zero = convert(var.ty, Value::Int(0)).unwrap_or(Value::Uninit);
                for slot in var.slots.iter_mut().filter(|v| **v == Value::Uninit) {
                    *slot = zero.clone();
                }
            }
        }
        Ok(())
    }

    pub(super) fn block(&mut self, stmts: &[Stmt]) -> Res<Flow> {
        self.scopes.push(Scope::default());
        let mut flow = Flow::Normal;
        for s in stmts {
            flow = self.stmt(s)?;
            if !matches!(flow, Flow::Normal) {
                break;
            }
        }
        self.drop_scopes(self.scopes.len().saturating_sub(1));
        Ok(flow)
    }

    pub(super) fn stmt(&mut self, s: &Stmt) -> Res<Flow> {
        self.step(s.pos)?;
        self.line = s.pos.line;
        match &s.kind {
            StmtKind::Decl(vars) => {
                for v in vars {
                    self.declare(v)?;
                }
            }
            StmtKind::Expr(e) => {
                // A query whose answer is thrown away teaches the program nothing (issue 27).
                self.answer_unused = matches!(&e.kind, ExprKind::Call { name, .. } if name == "cudaStreamQuery" || name == "cudaEventQuery");
                let r = self.eval(e);
                self.answer_unused = false;
                r?;
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                if self.truthy(cond)? {
                    return self.scoped(then);
                } else if let Some(o) = otherwise {
                    return self.scoped(o);
                }
            }
            StmtKind::While {
                cond,
                body,
                test_first,
            } => {
                // A do-while skips the first test; `continue` goes to the test in both.
                let mut first = true;
                loop {
                    if (*test_first || !first) && !self.truthy(cond)? {
                        break;
                    }
                    first = false;
                    match self.scoped(body)? {
                        Flow::Break => break,
                        Flow::Return => return Ok(Flow::Return),
                        _ => {}
                    }
                    self.step(s.pos)?;
                }
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                return self.for_loop(init.as_deref(), cond.as_ref(), update.as_ref(), body, s.pos);
            }
            StmtKind::Block(items) => return self.block(items),
            StmtKind::Return(e) => {
                self.ret = match e {
                    Some(e) => Some(self.eval(e)?),
                    None => None,
                };
                if self.call_depth == 0 && self.collect.is_none() {
                    self.out.return_line = Some(s.pos.line);
                }
                return Ok(Flow::Return);
            }
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Empty => {}
        }
        Ok(Flow::Normal)
    }

    /// A statement in its own scope (an `if` branch or a loop body).
    pub(super) fn scoped(&mut self, s: &Stmt) -> Res<Flow> {
        match &s.kind {
            StmtKind::Block(items) => self.block(items),
            _ => self.block(std::slice::from_ref(s)),
        }
    }

    pub(super) fn for_loop(
        &mut self,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        update: Option<&Expr>,
        body: &Stmt,
        pos: Pos,
    ) -> Res<Flow> {
        self.scopes.push(Scope::default());
        let result = (|| {
            if let Some(i) = init {
                self.stmt(i)?;
            }
            loop {
                if let Some(c) = cond
                    && !self.truthy(c)?
                {
                    break;
                }
                match self.scoped(body)? {
                    Flow::Break => break,
                    Flow::Return => return Ok(Flow::Return),
                    _ => {}
                }
                self.step(pos)?;
                if let Some(u) = update {
                    self.eval(u)?;
                }
            }
            Ok(Flow::Normal)
        })();
        self.drop_scopes(self.scopes.len().saturating_sub(1));
        result
    }
}
