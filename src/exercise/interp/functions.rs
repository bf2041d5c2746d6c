//! Calls of the file's own functions (helpers besides `main`, host functions for
//! `cudaLaunchHostFunc`): arguments by value (an address, `&x` or an array, as a pointer to the
//! caller's variable) into a fresh frame that sees only its own variables, a depth limit against runaway recursion, and the value of `return`. Each
//! statement inside sets the line, so what a helper does is booked at the helper's lines.

use super::eval::stop;
use super::value::{Scope, Value, Var, convert};
use super::{Interp, Res};
use crate::exercise::ast::{Expr, Function, Pos};
use crate::exercise::log::Range;

/// Deepest nesting of calls of the file's functions: real helpers nest a few deep; the limit
/// keeps the recursive walk well inside the stack.
pub const MAX_CALL_DEPTH: usize = 16;

/// The host memory a host function touched, merged into ranges.
#[derive(Debug, Default)]
pub(super) struct Collected {
    pub reads: Vec<Range>,
    pub writes: Vec<Range>,
    /// Each access with the line of the body that made it and whether it wrote.
    pub accesses: Vec<(Range, u32, bool)>,
    /// CUDA calls it made (a host function must make none).
    pub cuda_calls: u32,
}

impl Collected {
    pub fn read(&mut self, r: Range, line: u32) {
        merge(&mut self.reads, r);
        self.note(r, line, false);
    }
    pub fn write(&mut self, r: Range, line: u32) {
        merge(&mut self.writes, r);
        self.note(r, line, true);
    }
    fn note(&mut self, r: Range, line: u32, write: bool) {
        let same_line = self.accesses.iter_mut().find(|(x, l, w)| {
            *l == line && *w == write && x.region == r.region && x.end == r.start
        });
        match same_line {
            Some((x, _, _)) => x.end = r.end,
            None => self.accesses.push((r, line, write)),
        }
    }
}

/// Add `r`, extending a range it continues (a loop over `h[i]`).
fn merge(ranges: &mut Vec<Range>, r: Range) {
    match ranges
        .iter_mut()
        .find(|x| x.region == r.region && x.start <= r.end && r.start <= x.end)
    {
        Some(x) => {
            x.start = x.start.min(r.start);
            x.end = x.end.max(r.end);
        }
        None => ranges.push(r),
    }
}

impl Interp<'_> {
    /// `f(args)` from the program.
    pub(super) fn call_function(&mut self, f: &Function, exprs: &[Expr], pos: Pos) -> Res<Value> {
        if exprs.len() != f.params.len() {
            return Err(stop(
                pos,
                format!(
                    "`{}` takes {} arguments, not {}",
                    f.name,
                    f.params.len(),
                    exprs.len()
                ),
            ));
        }
        let mut vals = Vec::with_capacity(exprs.len());
        for e in exprs {
            vals.push(self.eval(e)?);
        }
        self.invoke(f, vals, pos)
    }

    /// Run `f` with `vals` bound to its parameters; its value, converted to its return type.
    pub(super) fn invoke(&mut self, f: &Function, vals: Vec<Value>, pos: Pos) -> Res<Value> {
        if self.call_depth >= MAX_CALL_DEPTH {
            return Err(stop(
                pos,
                format!(
                    "calls nested more than {MAX_CALL_DEPTH} deep: does `{}` call itself without end?",
                    f.name
                ),
            ));
        }
        let mut scope = Scope::default();
        for ((name, ty), v) in f.params.iter().zip(vals) {
            let v = convert(*ty, v)
                .map_err(|m| stop(pos, format!("parameter `{name}` of `{}`: {m}", f.name)))?;
            scope.insert(
                name.clone(),
                Var {
                    ty: *ty,
                    slots: vec![v],
                    array: false,
                },
            );
        }
        let (frame, line, ret) = (self.frame, self.line, self.ret.take());
        self.frame = self.scopes.len();
        self.scopes.push(scope);
        self.call_depth += 1;
        let flow = self.block(&f.body);
        self.call_depth -= 1;
        self.drop_scopes(self.frame);
        let value = std::mem::replace(&mut self.ret, ret);
        let own = self.frame;
        self.frame = frame;
        // The rest of the caller's statement is booked at the caller's line again.
        self.line = line;
        flow?;
        if let Some(Value::Ref(p)) = &value
            && p.scope >= own
        {
            return Err(stop(
                pos,
                format!(
                    "`{}` returns the address of its own variable `{}`, which ends with the call; return a value, or a pointer from an allocation",
                    f.name, p.name
                ),
            ));
        }
        match (f.ret, value) {
            (None, _) => Ok(Value::Void),
            (Some(ty), Some(v)) => convert(ty, v)
                .map_err(|m| stop(pos, format!("the value `{}` returns: {m}", f.name))),
            (Some(_), None) => Err(stop(
                pos,
                format!(
                    "`{}` ended without returning a value; end it with `return …;`",
                    f.name
                ),
            )),
        }
    }
}
