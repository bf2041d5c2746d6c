//! Calls that allocate, free and move memory, and kernel launches; NVTX annotations in `nvtx`.

mod nvtx;

use super::eval::stop;
use super::value::{Place, Value};
use super::{Interp, Res};
use crate::exercise::ast::{Expr, Pos};
use crate::exercise::log::{MemKind, RegionId};
use crate::report::HostMemKind;

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
            Value::Ptr { region, off } if *off >= 0 => Ok((region.0 as usize, *off as u64)),
            Value::Ptr { .. } => Err(stop(
                self.at(i),
                "this pointer points before the start of its allocation",
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
    pub fn place(&self, i: usize) -> Res<Place> {
        match self.val(i)? {
            Value::Ref(p) => Ok(p.clone()),
            _ => Err(stop(
                self.at(i),
                format!(
                    "argument {} of `{}` must be the address of a variable, e.g. `&x`",
                    i + 1,
                    self.name
                ),
            )),
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

impl Interp<'_> {
    pub(super) fn call(&mut self, name: &str, exprs: &[Expr], pos: Pos) -> Res<Value> {
        let program = self.program;
        if let Some(f) = program.function(name) {
            return self.call_function(f, exprs, pos);
        }
        let mut vals = Vec::with_capacity(exprs.len());
        for e in exprs {
            vals.push(self.eval(e)?);
        }
        // A statement over several lines books the call where the call is written.
        self.line = pos.line;
        let a = Args {
            name,
            vals: &vals,
            exprs,
            pos,
        };
        let start_us = self.gpu.host_now_us();
        let result = self.builtin(&a);
        self.book_host_time(name, start_us);
        result
    }

    /// A call the host spent time in (a wait, a blocking copy, `host_work`) goes on the
    /// timeline's host lane, with its line; calls that return at once are left off (on a real
    /// GPU every call takes a few microseconds). A host function's body runs in stream order,
    /// not on the host's time line.
    fn book_host_time(&mut self, name: &str, start_us: f64) {
        let end_us = self.gpu.host_now_us();
        if self.collect.is_some() || end_us - start_us < super::HOST_SPAN_MIN_US {
            return;
        }
        self.out.host_calls.push(crate::report::Op {
            stream: 0,
            kind: crate::report::OpKind::Host,
            start_us,
            end_us,
            bytes: 0,
            host_mem: None,
            engine: None,
            start_inferred: false,
            line: Some(self.line),
            label: name.to_string(),
        });
    }

    /// The built-in functions and CUDA calls.
    fn builtin(&mut self, a: &Args) -> Res<Value> {
        let (name, pos) = (a.name, a.pos);
        match name {
            "malloc" => {
                a.arity(1, 1)?;
                let r = self.alloc(a, MemKind::Pageable, a.count(0)?, HostMemKind::Pageable)?;
                Ok(Value::Ptr {
                    region: RegionId(r as u32),
                    off: 0,
                })
            }
            "cudaMalloc" | "cudaMallocHost" | "cudaHostAlloc" => {
                a.arity(
                    if name == "cudaHostAlloc" { 3 } else { 2 },
                    if name == "cudaHostAlloc" { 3 } else { 2 },
                )?;
                let place = a.place(0)?;
                let bytes = a.count(1)?;
                // Flags are an `unsigned int`: a bit outside Portable (1), Mapped (2) and
                // WriteCombined (4) is cudaErrorInvalidValue, as the Runtime API documents
                // (review 2026-12-01b CK17: 0xFFFFFFFF and -1 returned cudaSuccess).
                if name == "cudaHostAlloc" {
                    let flags = a.int(2)? as u32;
                    if flags & !7 != 0 {
                        return Ok(self.cuda_error(
                            name,
                            super::errors::INVALID_VALUE,
                            format!("flags {flags:#x} have bits other than cudaHostAllocPortable (1), cudaHostAllocMapped (2) and cudaHostAllocWriteCombined (4); nothing was allocated"),
                        ));
                    }
                }
                let (kind, host_kind) = match name {
                    "cudaMalloc" => (MemKind::Device, HostMemKind::Pinned),
                    "cudaHostAlloc" if a.int(2)? & 4 != 0 => {
                        (MemKind::Pinned, HostMemKind::WriteCombined)
                    }
                    _ => (MemKind::Pinned, HostMemKind::Pinned),
                };
                let r = self.alloc(a, kind, bytes, host_kind)?;
                self.out
                    .region_names
                    .entry(RegionId(r as u32))
                    .or_insert_with(|| place.name.clone());
                self.write_place(
                    &place,
                    Value::Ptr {
                        region: RegionId(r as u32),
                        off: 0,
                    },
                    pos,
                )?;
                Ok(Value::Int(0))
            }
            "free" | "cudaFree" | "cudaFreeHost" => self.free(a),
            "cudaHostRegister" | "cudaHostUnregister" => self.register(a),
            "cudaMemcpy" | "cudaMemcpyAsync" => self.memcpy_cuda(a),
            "memcpy" => {
                a.arity(3, 3)?;
                self.memcpy_host(a)
            }
            "cudaStreamQuery" | "cudaEventQuery" | "cudaLaunchHostFunc" | "cudaMallocAsync"
            | "cudaFreeAsync" => self.ordered(a),
            "dim3" => {
                a.arity(1, 3)?;
                let mut d = [1i64; 3];
                for (i, x) in d.iter_mut().enumerate().take(a.vals.len()) {
                    *x = a.int(i)?;
                    if *x < 1 {
                        return Err(stop(
                            a.at(i),
                            format!("a dim3's sizes are at least 1, not {x}"),
                        ));
                    }
                }
                Ok(Value::Dim3(d))
            }
            "cudaMemset" | "cudaMemsetAsync" => self.memset(a),
            _ if nvtx::is_nvtx(name) => self.nvtx(a),
            _ => self.helper(a),
        }
    }
}
