//! Where values live: variables (and array elements) and floats in host memory, read and
//! written with the checks and log entries the hazard checker needs.

use super::stop;
use super::value::{Place, Value, convert};
use super::{Interp, Res};
use crate::exercise::ast::{BinOp, Elem, Expr, ExprKind, Pos};
use crate::exercise::log::{MemKind, Range};

/// Where an assignment goes.
pub(super) enum Target {
    Var(Place),
    /// An element in host memory: the allocation's index, the byte offset and its type.
    Mem(usize, u64, Elem),
}

/// The bytes an element behind a pointer to `elem` takes in host memory, or why such a pointer
/// cannot index host memory here.
pub(super) fn elem_size(elem: Elem, pos: Pos) -> Res<i64> {
    match elem {
        Elem::Float | Elem::Int => Ok(4),
        Elem::Other(name) => Err(stop(
            pos,
            format!(
                "a `{name} *` into host memory cannot be indexed here: the checker's host buffers hold 4-byte elements; use `float *` (or `int *`) for buffers, and `{name}` variables or arrays (`{name} a[8];`) for the rest"
            ),
        )),
    }
}

impl Interp<'_> {
    /// What `e` names as an assignment target.
    pub(super) fn target(&mut self, e: &Expr) -> Res<Target> {
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
                // A float subscript is an error in C (nvcc: "expression must have integral or
                // unscoped enum type"), not a truncation (review 2026-12-01b CK9: `h[1.5]`).
                let i = match self.eval(idx)? {
                    Value::Float(x) => {
                        return Err(stop(
                            idx.pos,
                            format!(
                                "an index must be an integer, not a floating-point value ({x}): C refuses a non-integer subscript; cast it with `(int)` if that is what you mean"
                            ),
                        ));
                    }
                    v => v
                        .as_i64()
                        .ok_or_else(|| stop(idx.pos, "an index must be a whole number"))?,
                };
                match self.eval(base)? {
                    // An array, or a pointer to a variable (`&x`, an array passed to a
                    // function): the element `i` places on.
                    Value::Ref(p) => self.element(&p, i, idx.pos).map(Target::Var),
                    Value::Ptr { region, off, elem } => Ok(Target::Mem(
                        region.0 as usize,
                        // Two's complement: a byte before the allocation stays negative
                        // as i64, and `host_float` says how far before (review X24).
                        off.saturating_add(i.saturating_mul(elem_size(elem, base.pos)?)) as u64,
                        elem,
                    )),
                    v => Err(stop(base.pos, format!("cannot index {}", v.describe()))),
                }
            }
            _ => Err(stop(e.pos, "this cannot be assigned to")),
        }
    }

    /// The element `i` places after `p`, checked to be inside its variable (one slot, or an
    /// array's elements).
    pub(super) fn element(&self, p: &Place, i: i64, pos: Pos) -> Res<Place> {
        let len = self
            .scopes
            .get(p.scope)
            .and_then(|s| s.get(&p.name))
            .map_or(0, |v| v.slots.len());
        let at = i.saturating_add(p.index as i64);
        if at < 0 || at as usize >= len {
            let what = if len == 1 {
                format!("`{}`, which is one variable", p.name)
            } else {
                format!("`{}`, which has {len} elements", p.name)
            };
            return Err(stop(pos, format!("index {at} is outside {what}")));
        }
        Ok(Place {
            index: at as usize,
            ..p.clone()
        })
    }

    pub(super) fn read_place(&self, p: &Place, pos: Pos) -> Res<Value> {
        let v = self
            .scopes
            .get(p.scope)
            .and_then(|s| s.get(&p.name))
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

    /// How messages name `p`: the variable, with its index when it is an array (`s[1]`).
    pub(super) fn place_label(&self, p: &Place) -> String {
        let array = self
            .scopes
            .get(p.scope)
            .and_then(|s| s.get(&p.name))
            .is_some_and(|v| v.array);
        if array {
            format!("{}[{}]", p.name, p.index)
        } else {
            p.name.clone()
        }
    }

    pub(super) fn write_place(&mut self, p: &Place, v: Value, pos: Pos) -> Res<()> {
        self.name_region(&v, &p.name);
        // An address kept in a variable must not outlive what it points to: only in a scope
        // as deep as that variable's, or deeper.
        if let Value::Ref(to) = &v
            && to.scope > p.scope
        {
            return Err(stop(
                pos,
                format!(
                    "`{}` would keep the address of `{}` after `{}` ends (it is declared in an inner block); declare `{}` where `{}` is declared, or deeper",
                    p.name, to.name, to.name, p.name, to.name
                ),
            ));
        }
        let var = self
            .scopes
            .get_mut(p.scope)
            .and_then(|s| s.get_mut(&p.name))
            .ok_or_else(|| stop(pos, format!("`{}` is out of scope here", p.name)))?;
        let v = convert(var.ty, v).map_err(|m| stop(pos, format!("`{}`: {m}", p.name)))?;
        if let Some(slot) = var.slots.get_mut(p.index) {
            *slot = v;
        }
        Ok(())
    }

    pub(super) fn assign(&mut self, op: Option<BinOp>, l: &Expr, r: &Expr, pos: Pos) -> Res<Value> {
        let value = match op {
            None => self.eval(r)?,
            Some(op) => self.binary(op, l, r, pos)?,
        };
        match self.target(l)? {
            Target::Var(p) => {
                self.write_place(&p, value, pos)?;
                self.read_place(&p, pos)
            }
            Target::Mem(region, off, elem) => {
                self.host_store_as(region, off, elem, &value, pos)?;
                Ok(value)
            }
        }
    }

    /// A checked host-memory float: the allocation is host memory, alive, and `off` inside it.
    pub(super) fn host_float(&self, region: usize, off: u64, pos: Pos) -> Res<crate::gpu::HostBuf> {
        let r = &self.regions[region];
        // Checked first and named only on a fault: this runs at every element a loop touches,
        // and the name is a look-up, an allocation and a copy (about 7% of a verifying loop in
        // the release profile: BENCHMARKS.md).
        let fault = r.freed
            || r.kind == MemKind::Device
            || (off as i64) < 0
            || !off.is_multiple_of(4)
            || off.saturating_add(4) > r.bytes;
        if !fault {
            return r.host.ok_or_else(|| stop(pos, "host buffer missing"));
        }
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
        // A pointer moved before its allocation (`h - 1`) carries a negative offset, which
        // arrives here wrapped (review 2026-12-01 X24: "byte 18446744073709551615").
        let signed = off as i64;
        if signed < 0 {
            return Err(stop(
                pos,
                format!(
                    "index out of bounds: {} bytes before the start of `{name}`, which has {} bytes",
                    signed.unsigned_abs(),
                    r.bytes
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

    pub(super) fn host_load(
        &mut self,
        region: usize,
        off: u64,
        elem: Elem,
        pos: Pos,
    ) -> Res<Value> {
        let buf = self.host_float(region, off, pos)?;
        // Booked at the line of the access itself, in a statement over several lines.
        self.line = pos.line;
        self.log_host(false, self.range(region, off, 4), "a read");
        let r = self.gpu.host_read_f32(buf, off / 4);
        let x = self.m(pos, "reading host memory", r)?;
        Ok(match elem {
            // An `int` keeps its bits in the 4-byte element, as C stores it.
            Elem::Int => Value::Int(i64::from(x.to_bits() as i32)),
            Elem::Float | Elem::Other(_) => Value::Float(f64::from(x)),
        })
    }

    /// [`Interp::host_store`] through a pointer to `elem`: an `int *` stores the integer's
    /// bits.
    pub(super) fn host_store_as(
        &mut self,
        region: usize,
        off: u64,
        elem: Elem,
        v: &Value,
        pos: Pos,
    ) -> Res<()> {
        if elem != Elem::Int {
            return self.host_store(region, off, v, pos);
        }
        let i = v
            .as_i64()
            .ok_or_else(|| stop(pos, format!("cannot store {} in an `int`", v.describe())))?;
        let bits = f32::from_bits(i as i32 as u32);
        self.host_store(region, off, &Value::Float(f64::from(bits)), pos)
    }

    pub(super) fn host_store(&mut self, region: usize, off: u64, v: &Value, pos: Pos) -> Res<()> {
        let buf = self.host_float(region, off, pos)?;
        let x = v
            .as_f64()
            .ok_or_else(|| stop(pos, format!("cannot store {} in a float", v.describe())))?;
        self.line = pos.line;
        self.log_host(true, self.range(region, off, 4), "a write");
        let r = self.gpu.host_write_f32(buf, off / 4, x as f32);
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
}
