//! Expressions: variables, arithmetic, pointers into host memory, assignment.

use super::memory::Target;
use super::value::{Place, Value, Var, convert};
use super::{Interp, Res};
use crate::exercise::ast::{BinOp, Expr, ExprKind, Pos, Ty, UnOp, VarDecl};
use crate::exercise::log::RegionId;

/// Longest array a program may declare: arrays hold streams and events, not data.
const MAX_ARRAY: i64 = 4096;

// Defined in `interp.rs` beside `Stop`, so that `memory` need not import `eval` (which imports
// `memory`): re-exported here for the files that take it from `eval`.
pub(super) use super::stop;

impl Interp<'_> {
    pub(super) fn declare(&mut self, d: &VarDecl) -> Res<()> {
        let (array, len) = match &d.array_len {
            Some(e) => {
                let n = self
                    .eval(e)?
                    .as_i64()
                    .ok_or_else(|| stop(e.pos, "an array size must be a whole number"))?;
                if !(1..=MAX_ARRAY).contains(&n) {
                    return Err(stop(
                        e.pos,
                        format!("an array of {n} elements: keep it between 1 and {MAX_ARRAY}"),
                    ));
                }
                self.hold_array(e.pos, n as u64)?;
                (true, n as usize)
            }
            None => (false, 1),
        };
        let mut var = Var {
            ty: d.ty,
            slots: vec![Value::Uninit; len],
            array,
        };
        if let Some(items) = &d.init_list {
            if items.len() > len {
                return Err(stop(
                    d.pos,
                    format!(
                        "`{}` has {len} elements and {} initialisers",
                        d.name,
                        items.len()
                    ),
                ));
            }
            // The rest are zero, as in C (NULL for a pointer, stream 0 for a stream).
            let zero = convert(d.ty, Value::Int(0)).unwrap_or(Value::Uninit);
            for (i, slot) in var.slots.iter_mut().enumerate() {
                *slot = match items.get(i) {
                    Some(e) => {
                        let v = self.eval(e)?;
                        self.name_region(&v, &d.name);
                        convert(d.ty, v).map_err(|m| stop(e.pos, m))?
                    }
                    None => zero.clone(),
                };
            }
        }
        if let Some(init) = &d.init {
            if array {
                return Err(stop(
                    init.pos,
                    "initialising an array is not supported here; assign its elements",
                ));
            }
            let v = self.eval(init)?;
            self.name_region(&v, &d.name);
            var.slots[0] = convert(d.ty, v).map_err(|m| stop(init.pos, m))?;
        }
        let scope = self
            .scopes
            .last_mut()
            .ok_or_else(|| stop(d.pos, "no scope"))?;
        // A name declared again in one scope (a loop's body runs in one scope per pass, so
        // only a repeated declaration does this) gives back the old array's elements.
        if let Some(old) = scope.insert(d.name.clone(), var)
            && old.array
        {
            self.array_elements = self.array_elements.saturating_sub(old.slots.len() as u64);
        }
        Ok(())
    }

    /// Remember the first variable an allocation is stored in, for messages.
    pub(super) fn name_region(&mut self, v: &Value, name: &str) {
        if let Value::Ptr { region, .. } = v {
            self.out
                .region_names
                .entry(*region)
                .or_insert_with(|| name.to_string());
        }
    }

    pub(super) fn lookup(&self, name: &str, pos: Pos) -> Res<(usize, &Var)> {
        // A function sees its own scopes (from `frame` on) and the file's, never its caller's.
        let own = self.scopes.iter().enumerate().skip(self.frame).rev();
        let file = self.scopes.iter().enumerate().take(self.frame.min(1));
        for (depth, scope) in own.chain(file) {
            if let Some(v) = scope.get(name) {
                return Ok((depth, v));
            }
        }
        Err(stop(pos, format!("`{name}` is not declared")))
    }

    pub(super) fn truthy(&mut self, e: &Expr) -> Res<bool> {
        let v = self.eval(e)?;
        v.truth().ok_or_else(|| {
            stop(
                e.pos,
                format!(
                    "a condition must be a number or a pointer, not {}",
                    v.describe()
                ),
            )
        })
    }

    pub(super) fn eval(&mut self, e: &Expr) -> Res<Value> {
        self.step(e.pos)?;
        Ok(match &e.kind {
            ExprKind::Int(i) => Value::Int(*i),
            ExprKind::Float(f) => Value::Float(*f),
            ExprKind::Str(s) => Value::Str(s.clone()),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Null => Value::Null,
            ExprKind::Func(name) => Value::Func(name.clone()),
            ExprKind::SizeOf(n) => Value::Int(*n as i64),
            // The preprocessor's line number, as error-checking helpers pass it.
            ExprKind::Var(name) if name == "__LINE__" => Value::Int(i64::from(e.pos.line)),
            ExprKind::Var(name) => {
                let (scope, var) = self.lookup(name, e.pos)?;
                if var.array {
                    // An array decays to the address of its first element, as in C
                    // (`median(times, n)` with `float times[10]`).
                    return Ok(Value::Ref(Place {
                        scope,
                        name: name.clone(),
                        index: 0,
                    }));
                }
                match &var.slots[0] {
                    Value::Uninit => {
                        return Err(stop(
                            e.pos,
                            format!("`{name}` is used before it is given a value"),
                        ));
                    }
                    v => v.clone(),
                }
            }
            ExprKind::Index(..) => match self.target(e)? {
                Target::Var(p) => self.read_place(&p, e.pos)?,
                Target::Mem(r, off, elem) => self.host_load(r, off, elem, e.pos)?,
            },
            ExprKind::AddrOf(inner) => match self.target(inner)? {
                Target::Var(p) => Value::Ref(p),
                // `&p[i]` is `p + i`: the same pointer, nothing read (the offset in bytes, as
                // `target` made it, back to signed: a byte before the allocation stays so).
                Target::Mem(region, off, elem) => Value::Ptr {
                    region: RegionId(region as u32),
                    off: off as i64,
                    elem,
                },
            },
            ExprKind::Unary(op, a) => self.unary(*op, a, e.pos)?,
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, e.pos)?,
            ExprKind::Cond(c, a, b) => {
                if self.truthy(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            ExprKind::Cast(ty, inner) => {
                let v = self.eval(inner)?;
                match ty {
                    Ty::Ptr(_) => convert(*ty, v).map_err(|m| stop(e.pos, m))?,
                    Ty::Str => v,
                    _ => convert(*ty, v).map_err(|m| stop(e.pos, m))?,
                }
            }
            ExprKind::Assign(op, l, r) => self.assign(*op, l, r, e.pos)?,
            ExprKind::Update {
                inc,
                prefix,
                target,
            } => self.update(*inc, *prefix, target, e.pos)?,
            ExprKind::Call { name, args } => self.call(name, args, e.pos)?,
            ExprKind::Assert(cond, text) => self.assert(cond, text, e.pos)?,
            ExprKind::Launch {
                kernel,
                config,
                args,
            } => self.launch(kernel, config, args, e.pos)?,
        })
    }

    /// `-a`, `+a`, `!a`.
    fn unary(&mut self, op: UnOp, a: &Expr, pos: Pos) -> Res<Value> {
        let v = self.eval(a)?;
        Ok(match (op, &v) {
            (UnOp::Not, _) => Value::Bool(
                !v.truth()
                    .ok_or_else(|| stop(pos, "`!` needs a number or pointer"))?,
            ),
            (UnOp::Neg, Value::Int(i)) => Value::Int(i.wrapping_neg()),
            (UnOp::Neg, Value::Float(f)) => Value::Float(-f),
            (UnOp::Plus, Value::Int(_) | Value::Float(_)) => v,
            _ => {
                return Err(stop(
                    pos,
                    format!("cannot apply this operator to {}", v.describe()),
                ));
            }
        })
    }

    /// `++x`, `x--`, …: the new value when `prefix`, else the old one.
    fn update(&mut self, inc: bool, prefix: bool, target: &Expr, pos: Pos) -> Res<Value> {
        let one = Expr {
            kind: ExprKind::Int(1),
            pos,
        };
        let old = self.eval(target)?;
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        let new = self.assign(Some(op), target, &one, pos)?;
        Ok(if prefix { new } else { old })
    }

    /// `assert(cond)`: nothing when it holds; else the program ends there, naming the line.
    fn assert(&mut self, cond: &Expr, text: &str, pos: Pos) -> Res<Value> {
        if !self.truthy(cond)? {
            return Err(stop(
                pos,
                format!(
                    "assertion failed on line {}: `{text}` is false, and `assert` ends the program there",
                    pos.line
                ),
            ));
        }
        Ok(Value::Void)
    }

    pub(super) fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr, pos: Pos) -> Res<Value> {
        let a = self.eval(l)?;
        if matches!(op, BinOp::And | BinOp::Or) {
            let a = a
                .truth()
                .ok_or_else(|| stop(l.pos, "`&&`/`||` need numbers or pointers"))?;
            if (op == BinOp::And) != a {
                return Ok(Value::Bool(a));
            }
            let b = self
                .eval(r)?
                .truth()
                .ok_or_else(|| stop(r.pos, "`&&`/`||` need numbers or pointers"))?;
            return Ok(Value::Bool(b));
        }
        let b = self.eval(r)?;
        super::arith::arith(op, &a, &b).map_err(|m| stop(pos, m))
    }
}
