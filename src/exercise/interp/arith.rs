//! Arithmetic and comparisons with C's rules for the subset.

use super::value::{Place, Value};
use crate::exercise::ast::BinOp;
use crate::exercise::ast::Elem;

/// `a op b` with C's rules for the subset: integers stay integers, anything with a float is a
/// float, and `ptr ± n` moves by `n` floats.
pub(super) fn arith(op: BinOp, a: &Value, b: &Value) -> Result<Value, String> {
    use BinOp::*;
    if let Some(v) = pointer_arith(op, a, b) {
        return v;
    }
    let what = |v: &Value| format!("cannot do arithmetic with {}", v.describe());
    let x = a.as_f64().ok_or_else(|| what(a))?;
    let y = b.as_f64().ok_or_else(|| what(b))?;
    let ints =
        matches!(a, Value::Int(_) | Value::Bool(_)) && matches!(b, Value::Int(_) | Value::Bool(_));
    let cmp = |c: bool| Ok(Value::Bool(c));
    if ints && matches!(op, Lt | Le | Gt | Ge | Eq | Ne) {
        // Whole numbers compare exactly: through f64, 2^53 + 1 equalled 2^53 (review
        // 2026-12-01 X25).
        let (i, j) = (a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0));
        return cmp(match op {
            Lt => i < j,
            Le => i <= j,
            Gt => i > j,
            Ge => i >= j,
            Eq => i == j,
            _ => i != j,
        });
    }
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

/// `a op b` when a pointer is involved (`ptr ± n`, pointer comparisons); `None` otherwise.
fn pointer_arith(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value, String>> {
    use BinOp::*;
    match (a, b) {
        (Value::Ptr { region, off, elem }, v) | (v, Value::Ptr { region, off, elem })
            if matches!(op, Add | Sub) && v.as_i64().is_some() && !matches!(v, Value::Float(_)) =>
        {
            if op == Sub && matches!(a, Value::Int(_) | Value::Bool(_)) {
                return Some(Err("cannot subtract a pointer from a number".into()));
            }
            let size = match elem {
                Elem::Float | Elem::Int => 4,
                Elem::Other(name) => {
                    return Some(Err(format!(
                        "a `{name} *` into host memory cannot move by elements here: the checker's host buffers hold 4-byte elements; use `float *` (or `int *`)"
                    )));
                }
            };
            let n = v.as_i64().unwrap_or(0).saturating_mul(size);
            let off = if op == Add {
                off.saturating_add(n)
            } else {
                off.saturating_sub(n)
            };
            Some(Ok(Value::Ptr {
                region: *region,
                off,
                elem: *elem,
            }))
        }
        // A pointer to a variable or an array element (`times + 1`): moved by elements; the
        // element is checked when it is used.
        (Value::Ref(p), v) | (v, Value::Ref(p))
            if matches!(op, Add | Sub) && matches!(v, Value::Int(_) | Value::Bool(_)) =>
        {
            if op == Sub && matches!(a, Value::Int(_) | Value::Bool(_)) {
                return Some(Err("cannot subtract a pointer from a number".into()));
            }
            let n = v.as_i64().unwrap_or(0);
            let at = if op == Add {
                (p.index as i64).saturating_add(n)
            } else {
                (p.index as i64).saturating_sub(n)
            };
            let Ok(index) = usize::try_from(at) else {
                return Some(Err(format!(
                    "this points {} element(s) before `{}`",
                    -at, p.name
                )));
            };
            Some(Ok(Value::Ref(Place { index, ..p.clone() })))
        }
        (
            Value::Ptr { .. } | Value::Null | Value::Ref(_),
            Value::Ptr { .. } | Value::Null | Value::Ref(_),
        ) if matches!(op, Eq | Ne) => {
            // The same address, whatever type each pointer is declared to point to.
            let at = |v: &Value| match v {
                Value::Ptr { region, off, .. } => Some((region.0, *off)),
                _ => None,
            };
            let same = match (a, b) {
                (Value::Ptr { .. }, Value::Ptr { .. }) => at(a) == at(b),
                _ => a == b,
            };
            Some(Ok(Value::Bool(same == (op == Eq))))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Review 2026-12-01 X25: 2^53 + 1 and 2^53 are different whole numbers.
    #[test]
    fn whole_numbers_compare_exactly() {
        let (a, b) = (
            Value::Int(9_007_199_254_740_993),
            Value::Int(9_007_199_254_740_992),
        );
        assert_eq!(arith(BinOp::Eq, &a, &b).unwrap(), Value::Bool(false));
        assert_eq!(arith(BinOp::Ne, &a, &b).unwrap(), Value::Bool(true));
        assert_eq!(arith(BinOp::Gt, &a, &b).unwrap(), Value::Bool(true));
        assert_eq!(arith(BinOp::Le, &a, &b).unwrap(), Value::Bool(false));
        assert_eq!(arith(BinOp::Lt, &b, &a).unwrap(), Value::Bool(true));
        assert_eq!(arith(BinOp::Ge, &b, &b).unwrap(), Value::Bool(true));
        // A float on either side still compares as a number.
        let half = Value::Float(0.5);
        assert_eq!(
            arith(BinOp::Lt, &Value::Int(0), &half).unwrap(),
            Value::Bool(true)
        );
    }
}
