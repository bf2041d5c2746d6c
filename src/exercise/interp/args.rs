//! A call's evaluated arguments and the accessors that check them: each says which argument of
//! which call is wrong, so a bad argument is a diagnostic at the call, never a panic.

use super::Res;
use super::eval::stop;
use super::value::{Place, Value};
use crate::exercise::ast::{Expr, Pos};

/// Where an out-parameter that receives a number (`cudaEventElapsedTime`'s `ms`) writes it.
pub(super) enum NumberOut {
    Var(Place),
    /// A float in host memory: the allocation's index and the byte offset.
    Mem(usize, u64),
}

/// A call's evaluated arguments, with the accessors that check them.
pub(super) struct Args<'a> {
    pub name: &'a str,
    pub vals: &'a [Value],
    pub exprs: &'a [Expr],
    pub pos: Pos,
}

impl Args<'_> {
    pub fn at(&self, i: usize) -> Pos {
        self.exprs.get(i).map_or(self.pos, |e| e.pos)
    }
    pub fn arity(&self, min: usize, max: usize) -> Res<()> {
        let n = self.vals.len();
        if n < min || n > max {
            let want = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            return Err(stop(
                self.pos,
                format!("`{}` takes {want} arguments, not {n}", self.name),
            ));
        }
        Ok(())
    }
    /// Argument `i`, or a stop saying how many arguments the call takes: every accessor goes
    /// through here, so a call with too few arguments is a diagnostic, never an index panic.
    pub fn val(&self, i: usize) -> Res<&Value> {
        self.vals.get(i).ok_or_else(|| {
            let want = match crate::exercise::api::arity(self.name) {
                Some((min, max)) if min == max => format!("{min}"),
                Some((min, max)) => format!("{min} to {max}"),
                None => format!("at least {}", i + 1),
            };
            stop(
                self.pos,
                format!(
                    "`{}` takes {want} arguments, not {}",
                    self.name,
                    self.vals.len()
                ),
            )
        })
    }
    pub fn int(&self, i: usize) -> Res<i64> {
        let v = self.val(i)?;
        v.as_i64().ok_or_else(|| {
            let why = match v {
                Value::Float(_) => format!(
                    "argument {} of `{}` is {}, not a finite number: check the division or value that made it",
                    i + 1,
                    self.name,
                    v.describe()
                ),
                _ => format!(
                    "argument {} of `{}` must be a number, not {}",
                    i + 1,
                    self.name,
                    v.describe()
                ),
            };
            stop(self.at(i), why)
        })
    }
    pub fn count(&self, i: usize) -> Res<u64> {
        let v = self.int(i)?;
        u64::try_from(v).map_err(|_| {
            stop(
                self.at(i),
                format!("argument {} of `{}` is negative ({v})", i + 1, self.name),
            )
        })
    }
    pub fn num(&self, i: usize) -> Res<f64> {
        let v = self.val(i)?;
        v.as_f64().ok_or_else(|| {
            stop(
                self.at(i),
                format!(
                    "argument {} of `{}` must be a number, not {}",
                    i + 1,
                    self.name,
                    v.describe()
                ),
            )
        })
    }
    /// A pointer into an allocation: (allocation index, byte offset).
    pub fn ptr(&self, i: usize) -> Res<(usize, u64)> {
        match self.val(i)? {
            Value::Ptr { region, off, .. } if *off >= 0 => Ok((region.0 as usize, *off as u64)),
            Value::Ptr { .. } => Err(stop(
                self.at(i),
                "this pointer points before the start of its allocation",
            )),
            Value::Ref(p) => Err(stop(
                self.at(i),
                format!(
                    "argument {} of `{}` is the address of the variable `{}` (or an array of variables), not memory from an allocation; allocate the buffer: `float *h = (float *)malloc(bytes);` or `cudaMallocHost(&h, bytes);`",
                    i + 1,
                    self.name,
                    p.name
                ),
            )),
            v => Err(stop(
                self.at(i),
                format!(
                    "argument {} of `{}` must be a pointer from an allocation, not {}",
                    i + 1,
                    self.name,
                    v.describe()
                ),
            )),
        }
    }
    /// The variable (or array element) an out-parameter names: `&x`, `&a[i]`, or a pointer
    /// parameter that holds such an address.
    pub fn place(&self, i: usize) -> Res<Place> {
        match self.val(i)? {
            Value::Ref(p) => Ok(p.clone()),
            Value::Ptr { .. } => Err(stop(
                self.at(i),
                format!(
                    "argument {} of `{}` points into an allocation (`&h[i]` of a `malloc`'d buffer), which holds floats here; give it a variable or an array element: `cudaStream_t s; {}(&s, …)`, or `cudaStream_t s[4];` and `&s[i]`",
                    i + 1,
                    self.name,
                    self.name
                ),
            )),
            v => Err(stop(
                self.at(i),
                format!(
                    "argument {} of `{}` must be the address of a variable, e.g. `&x` or `&a[i]`, not {}",
                    i + 1,
                    self.name,
                    v.describe()
                ),
            )),
        }
    }

    /// Where a number an out-parameter receives goes: a variable or array element
    /// ([`Args::place`]), or a float in host memory (`&ms[i]` of a `malloc`'d buffer).
    pub fn number_out(&self, i: usize) -> Res<NumberOut> {
        match self.val(i)? {
            Value::Ptr { region, off, .. } if *off >= 0 => {
                Ok(NumberOut::Mem(region.0 as usize, *off as u64))
            }
            _ => self.place(i).map(NumberOut::Var),
        }
    }
    pub fn str(&self, i: usize) -> Res<&str> {
        match self.val(i)? {
            Value::Str(s) => Ok(s),
            v => Err(stop(
                self.at(i),
                format!(
                    "argument {} of `{}` must be a string, not {}",
                    i + 1,
                    self.name,
                    v.describe()
                ),
            )),
        }
    }
}
