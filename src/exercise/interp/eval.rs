//! Expressions: variables, arithmetic, pointers into host memory, assignment.

use super::value::{Place, Value, Var, convert};
use super::{Interp, Res, Stop};
use crate::exercise::ast::{BinOp, Expr, ExprKind, Pos, Ty, UnOp, VarDecl};
use crate::exercise::log::{Call, MemKind, Range};

/// Longest array a program may declare: arrays hold streams and events, not data.
const MAX_ARRAY: i64 = 4096;

/// Where an assignment goes.
enum Target {
    Var(Place),
    /// A float in host memory: the allocation's index and the byte offset.
    Mem(usize, u64),
}

pub(super) fn stop(pos: Pos, message: impl Into<String>) -> Stop {
    Stop {
        pos,
        message: message.into(),
    }
}

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
                (true, n as usize)
            }
            None => (false, 1),
        };
        let mut var = Var {
            ty: d.ty,
            slots: vec![Value::Uninit; len],
            array,
        };
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
        scope.insert(d.name.clone(), var);
        Ok(())
    }

    /// Remember the first variable an allocation is stored in, for messages.
    fn name_region(&mut self, v: &Value, name: &str) {
        if let Value::Ptr { region, .. } = v {
            self.out
                .region_names
                .entry(*region)
                .or_insert_with(|| name.to_string());
        }
    }

    fn lookup(&self, name: &str, pos: Pos) -> Res<(usize, &Var)> {
        for (depth, scope) in self.scopes.iter().enumerate().rev() {
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
            ExprKind::SizeOf(n) => Value::Int(*n as i64),
            ExprKind::Var(name) => {
                let (_, var) = self.lookup(name, e.pos)?;
                if var.array {
                    return Err(stop(
                        e.pos,
                        format!("`{name}` is an array: use one element, `{name}[i]`"),
                    ));
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
                Target::Mem(r, off) => self.host_load(r, off, e.pos)?,
            },
            ExprKind::AddrOf(inner) => match self.target(inner)? {
                Target::Var(p) => Value::Ref(p),
                Target::Mem(..) => {
                    return Err(stop(
                        e.pos,
                        "`&` of host memory is not supported here; use `h + i`",
                    ));
                }
            },
            ExprKind::Unary(op, a) => {
                let v = self.eval(a)?;
                match (op, &v) {
                    (UnOp::Not, _) => Value::Bool(
                        !v.truth()
                            .ok_or_else(|| stop(e.pos, "`!` needs a number or pointer"))?,
                    ),
                    (UnOp::Neg, Value::Int(i)) => Value::Int(i.wrapping_neg()),
                    (UnOp::Neg, Value::Float(f)) => Value::Float(-f),
                    (UnOp::Plus, Value::Int(_) | Value::Float(_)) => v,
                    _ => {
                        return Err(stop(
                            e.pos,
                            format!("cannot apply this operator to {}", v.describe()),
                        ));
                    }
                }
            }
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
                    Ty::Ptr | Ty::Str => v,
                    _ => convert(*ty, v).map_err(|m| stop(e.pos, m))?,
                }
            }
            ExprKind::Assign(op, l, r) => self.assign(*op, l, r, e.pos)?,
            ExprKind::Update {
                inc,
                prefix,
                target,
            } => {
                let one = Expr {
                    kind: ExprKind::Int(1),
                    pos: e.pos,
                };
                let old = self.eval(target)?;
                let new = self.assign(
                    Some(if *inc { BinOp::Add } else { BinOp::Sub }),
                    target,
                    &one,
                    e.pos,
                )?;
                if *prefix { new } else { old }
            }
            ExprKind::Call { name, args } => self.call(name, args, e.pos)?,
            ExprKind::Launch {
                kernel,
                config,
                args,
            } => self.launch(kernel, config, args, e.pos)?,
        })
    }

    /// What `e` names as an assignment target.
    fn target(&mut self, e: &Expr) -> Res<Target> {
        match &e.kind {
            ExprKind::Var(name) => {
                let (scope, var) = self.lookup(name, e.pos)?;
                if var.array {
                    return Err(stop(
                        e.pos,
                        format!("`{name}` is an array: use one element, `{name}[i]`"),
                    ));
                }
                Ok(Target::Var(Place {
                    scope,
                    name: name.clone(),
                    index: 0,
                }))
            }
            ExprKind::Index(base, idx) => {
                let i = self
                    .eval(idx)?
                    .as_i64()
                    .ok_or_else(|| stop(idx.pos, "an index must be a whole number"))?;
                if let ExprKind::Var(name) = &base.kind {
                    let (scope, var) = self.lookup(name, e.pos)?;
                    if var.array {
                        let len = var.slots.len();
                        if i < 0 || i as usize >= len {
                            return Err(stop(
                                idx.pos,
                                format!("index {i} is outside `{name}`, which has {len} elements"),
                            ));
                        }
                        return Ok(Target::Var(Place {
                            scope,
                            name: name.clone(),
                            index: i as usize,
                        }));
                    }
                }
                match self.eval(base)? {
                    Value::Ptr { region, off } => Ok(Target::Mem(
                        region.0 as usize,
                        u64::try_from(off.saturating_add(i.saturating_mul(4))).unwrap_or(u64::MAX),
                    )),
                    v => Err(stop(base.pos, format!("cannot index {}", v.describe()))),
                }
            }
            _ => Err(stop(e.pos, "this cannot be assigned to")),
        }
    }

    fn read_place(&self, p: &Place, pos: Pos) -> Res<Value> {
        let v = self.scopes[p.scope]
            .get(&p.name)
            .and_then(|v| v.slots.get(p.index));
        match v {
            Some(Value::Uninit) | None => Err(stop(
                pos,
                format!(
                    "`{}[{}]` is used before it is given a value",
                    p.name, p.index
                ),
            )),
            Some(v) => Ok(v.clone()),
        }
    }

    pub(super) fn write_place(&mut self, p: &Place, v: Value, pos: Pos) -> Res<()> {
        self.name_region(&v, &p.name);
        let var = self.scopes[p.scope]
            .get_mut(&p.name)
            .ok_or_else(|| stop(pos, "lost variable"))?;
        let v = convert(var.ty, v).map_err(|m| stop(pos, format!("`{}`: {m}", p.name)))?;
        if let Some(slot) = var.slots.get_mut(p.index) {
            *slot = v;
        }
        Ok(())
    }

    fn assign(&mut self, op: Option<BinOp>, l: &Expr, r: &Expr, pos: Pos) -> Res<Value> {
        let value = match op {
            None => self.eval(r)?,
            Some(op) => self.binary(op, l, r, pos)?,
        };
        match self.target(l)? {
            Target::Var(p) => {
                self.write_place(&p, value, pos)?;
                self.read_place(&p, pos)
            }
            Target::Mem(region, off) => {
                self.host_store(region, off, &value, pos)?;
                Ok(value)
            }
        }
    }

    /// A checked host-memory float: the allocation is host memory, alive, and `off` inside it.
    fn host_float(&self, region: usize, off: u64, pos: Pos) -> Res<crate::gpu::HostBuf> {
        let r = &self.regions[region];
        let name = self.region_name(region);
        if r.freed {
            return Err(stop(pos, format!("`{name}` is used after it was freed")));
        }
        if r.kind == MemKind::Device {
            return Err(stop(
                pos,
                format!(
                    "`{name}` is device memory: the host cannot read or write it (copy it to the host first)"
                ),
            ));
        }
        if !off.is_multiple_of(4) || off.saturating_add(4) > r.bytes {
            return Err(stop(
                pos,
                format!(
                    "index out of bounds: byte {off} of `{name}`, which has {} bytes",
                    r.bytes
                ),
            ));
        }
        r.host.ok_or_else(|| stop(pos, "host buffer missing"))
    }

    fn host_load(&mut self, region: usize, off: u64, pos: Pos) -> Res<Value> {
        let buf = self.host_float(region, off, pos)?;
        self.log(Call::HostRead {
            range: self.range(region, off, 4),
            what: "a read".into(),
        });
        let r = self.machine.host_read_f32(buf, off / 4);
        Ok(Value::Float(f64::from(self.m(
            pos,
            "reading host memory",
            r,
        )?)))
    }

    fn host_store(&mut self, region: usize, off: u64, v: &Value, pos: Pos) -> Res<()> {
        let buf = self.host_float(region, off, pos)?;
        let x = v
            .as_f64()
            .ok_or_else(|| stop(pos, format!("cannot store {} in a float", v.describe())))?;
        self.log(Call::HostWrite {
            range: self.range(region, off, 4),
            what: "a write".into(),
        });
        let r = self.machine.host_write_f32(buf, off / 4, x as f32);
        self.m(pos, "writing host memory", r)
    }

    pub(super) fn range(&self, region: usize, start: u64, bytes: u64) -> Range {
        Range {
            region: crate::exercise::log::RegionId(region as u32),
            start,
            end: start + bytes,
        }
    }

    pub(super) fn region_name(&self, region: usize) -> String {
        self.out
            .region_names
            .get(&crate::exercise::log::RegionId(region as u32))
            .cloned()
            .unwrap_or_else(|| format!("allocation #{}", region + 1))
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr, pos: Pos) -> Res<Value> {
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
        arith(op, &a, &b).map_err(|m| stop(pos, m))
    }
}

/// `a op b` with C's rules for the subset: integers stay integers, anything with a float is a
/// float, and `ptr ± n` moves by `n` floats.
fn arith(op: BinOp, a: &Value, b: &Value) -> Result<Value, String> {
    use BinOp::*;
    match (a, b) {
        (Value::Ptr { region, off }, v) | (v, Value::Ptr { region, off })
            if matches!(op, Add | Sub) && v.as_i64().is_some() && !matches!(v, Value::Float(_)) =>
        {
            if op == Sub && matches!(a, Value::Int(_) | Value::Bool(_)) {
                return Err("cannot subtract a pointer from a number".into());
            }
            let n = v.as_i64().unwrap_or(0).saturating_mul(4);
            let off = if op == Add {
                off.saturating_add(n)
            } else {
                off.saturating_sub(n)
            };
            return Ok(Value::Ptr {
                region: *region,
                off,
            });
        }
        (Value::Ptr { .. } | Value::Null, Value::Ptr { .. } | Value::Null)
            if matches!(op, Eq | Ne) =>
        {
            return Ok(Value::Bool((a == b) == (op == Eq)));
        }
        _ => {}
    }
    let what = |v: &Value| format!("cannot do arithmetic with {}", v.describe());
    let x = a.as_f64().ok_or_else(|| what(a))?;
    let y = b.as_f64().ok_or_else(|| what(b))?;
    let ints =
        matches!(a, Value::Int(_) | Value::Bool(_)) && matches!(b, Value::Int(_) | Value::Bool(_));
    let cmp = |c: bool| Ok(Value::Bool(c));
    match op {
        Lt => return cmp(x < y),
        Le => return cmp(x <= y),
        Gt => return cmp(x > y),
        Ge => return cmp(x >= y),
        Eq => return cmp(x == y),
        Ne => return cmp(x != y),
        _ => {}
    }
    if ints {
        let (i, j) = (a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0));
        let v = match op {
            Add => i.wrapping_add(j),
            Sub => i.wrapping_sub(j),
            Mul => i.wrapping_mul(j),
            Div | Rem if j == 0 => return Err("division by zero".into()),
            Div => i.wrapping_div(j),
            Rem => i.wrapping_rem(j),
            Shl => i.wrapping_shl(j.clamp(0, 63) as u32),
            Shr => i.wrapping_shr(j.clamp(0, 63) as u32),
            BitAnd => i & j,
            BitOr => i | j,
            BitXor => i ^ j,
            _ => return Err("unexpected operator".into()),
        };
        return Ok(Value::Int(v));
    }
    Ok(Value::Float(match op {
        Add => x + y,
        Sub => x - y,
        Mul => x * y,
        Div => x / y,
        _ => return Err("this operator needs whole numbers".into()),
    }))
}
