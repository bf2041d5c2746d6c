//! Calls that allocate, free and move memory, and kernel launches.

use super::eval::stop;
use super::value::{Place, Value};
use super::{Interp, Region, Res};
use crate::exercise::ast::{Expr, Pos};
use crate::exercise::log::{Call, DeviceOp, DeviceOpKind, MemKind, Range, RegionId};
use crate::gpu::StreamId;
use crate::report::HostMemKind;

/// A call's evaluated arguments, with the accessors that check them.
pub(super) struct Args<'a> {
    pub name: &'a str,
    pub vals: &'a [Value],
    pub exprs: &'a [Expr],
    pub pos: Pos,
}

impl Args<'_> {
    fn at(&self, i: usize) -> Pos {
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
    pub fn int(&self, i: usize) -> Res<i64> {
        self.vals[i].as_i64().ok_or_else(|| {
            stop(
                self.at(i),
                format!(
                    "argument {} of `{}` must be a number, not {}",
                    i + 1,
                    self.name,
                    self.vals[i].describe()
                ),
            )
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
        self.vals[i].as_f64().ok_or_else(|| {
            stop(
                self.at(i),
                format!(
                    "argument {} of `{}` must be a number, not {}",
                    i + 1,
                    self.name,
                    self.vals[i].describe()
                ),
            )
        })
    }
    /// A pointer into an allocation: (allocation index, byte offset).
    pub fn ptr(&self, i: usize) -> Res<(usize, u64)> {
        match &self.vals[i] {
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
        match &self.vals[i] {
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
        match &self.vals[i] {
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
        let mut vals = Vec::with_capacity(exprs.len());
        for e in exprs {
            vals.push(self.eval(e)?);
        }
        let a = Args {
            name,
            vals: &vals,
            exprs,
            pos,
        };
        match name {
            "malloc" => {
                a.arity(1, 1)?;
                let r = self.alloc(&a, MemKind::Pageable, a.count(0)?, HostMemKind::Pageable)?;
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
                let (kind, host_kind) = match name {
                    "cudaMalloc" => (MemKind::Device, HostMemKind::Pinned),
                    "cudaHostAlloc" if a.int(2)? & 4 != 0 => {
                        (MemKind::Pinned, HostMemKind::WriteCombined)
                    }
                    _ => (MemKind::Pinned, HostMemKind::Pinned),
                };
                let r = self.alloc(&a, kind, bytes, host_kind)?;
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
            "free" | "cudaFree" | "cudaFreeHost" => self.free(&a),
            "cudaHostRegister" | "cudaHostUnregister" => self.register(&a),
            "cudaMemcpy" | "cudaMemcpyAsync" => self.memcpy_cuda(&a),
            "memcpy" => self.memcpy_host(&a),
            "cudaMemset" | "cudaMemsetAsync" => self.memset(&a),
            _ => self.helper(&a),
        }
    }

    fn alloc(&mut self, a: &Args, kind: MemKind, bytes: u64, host_kind: HostMemKind) -> Res<usize> {
        self.gpu_op(a.pos)?;
        if bytes == 0 {
            return Err(stop(
                a.pos,
                format!("`{}` of 0 bytes: is the size right?", a.name),
            ));
        }
        let device = kind == MemKind::Device;
        let (used, limit, what) = if device {
            (
                self.device_bytes,
                self.machine.info().free_mem,
                "the device's free memory",
            )
        } else {
            (
                self.host_bytes,
                self.limits.max_host_bytes,
                "the host memory an exercise may use",
            )
        };
        if used.saturating_add(bytes) > limit {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` of {bytes} bytes is more than {what} ({} bytes left): is the size right?",
                    a.name,
                    limit.saturating_sub(used)
                ),
            ));
        }
        let (host, dev) = if device {
            let r = self.machine.device_alloc(bytes);
            (None, Some(self.m(a.pos, a.name, r)?))
        } else {
            let r = self.machine.host_alloc(bytes, host_kind);
            (Some(self.m(a.pos, a.name, r)?), None)
        };
        if device {
            self.device_bytes += bytes;
        } else {
            self.host_bytes += bytes;
        }
        self.regions.push(Region {
            kind,
            host,
            dev,
            bytes,
            registered: false,
            freed: false,
        });
        let region = RegionId(self.regions.len() as u32 - 1);
        self.log(Call::Alloc {
            region,
            kind,
            bytes,
            name: a.name.to_string(),
        });
        Ok(region.0 as usize)
    }

    fn free(&mut self, a: &Args) -> Res<Value> {
        a.arity(1, 1)?;
        if matches!(a.vals[0], Value::Null) {
            return Ok(Value::Int(0));
        }
        let (r, off) = a.ptr(0)?;
        let name = self.region_name(r);
        let region = self.regions[r].clone();
        let want = match region.kind {
            MemKind::Pageable => "free",
            MemKind::Pinned => "cudaFreeHost",
            MemKind::Device => "cudaFree",
        };
        if region.freed {
            return Err(stop(a.pos, format!("`{name}` is freed twice")));
        }
        if off != 0 {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` needs the pointer the allocation returned, not `{name}` plus an offset",
                    a.name
                ),
            ));
        }
        if a.name != want {
            return Err(stop(
                a.pos,
                format!("`{name}` must be released with `{want}`, not `{}`", a.name),
            ));
        }
        let call = match a.name {
            "free" => "free",
            "cudaFree" => "cudaFree",
            _ => "cudaFreeHost",
        };
        self.log(Call::Free {
            region: RegionId(r as u32),
            call,
        });
        let result = match (region.host, region.dev) {
            (Some(h), _) => self.machine.host_free(h),
            (_, Some(d)) => self.machine.device_free(d),
            _ => Ok(()),
        };
        self.m(a.pos, a.name, result)?;
        if region.kind == MemKind::Device {
            self.device_bytes -= region.bytes;
        } else {
            self.host_bytes -= region.bytes;
        }
        self.regions[r].freed = true;
        Ok(Value::Int(0))
    }

    fn register(&mut self, a: &Args) -> Res<Value> {
        let on = a.name == "cudaHostRegister";
        a.arity(if on { 3 } else { 1 }, if on { 3 } else { 1 })?;
        let (r, off) = a.ptr(0)?;
        let name = self.region_name(r);
        let region = self.regions[r].clone();
        if region.kind != MemKind::Pageable || region.freed {
            return Err(stop(
                a.pos,
                format!("`{}` takes live `malloc` memory; `{name}` is not", a.name),
            ));
        }
        if on && (off != 0 || a.count(1)? != region.bytes) {
            return Err(stop(
                a.pos,
                format!(
                    "registering part of an allocation is not supported here; register all of `{name}` ({} bytes)",
                    region.bytes
                ),
            ));
        }
        if region.registered == on {
            let state = if on {
                "already registered"
            } else {
                "not registered"
            };
            return Err(stop(a.pos, format!("`{name}` is {state}")));
        }
        let h = region
            .host
            .ok_or_else(|| stop(a.pos, "host buffer missing"))?;
        let region_id = RegionId(r as u32);
        let result = if on {
            self.log(Call::Register { region: region_id });
            self.machine.host_register(h)
        } else {
            self.log(Call::Unregister { region: region_id });
            self.machine.host_unregister(h)
        };
        self.m(a.pos, a.name, result)?;
        self.regions[r].registered = on;
        Ok(Value::Int(0))
    }

    /// Check that `bytes` from `off` lie inside live allocation `r`; returns its range.
    pub(super) fn span(&self, a: &Args, r: usize, off: u64, bytes: u64) -> Res<Range> {
        let region = &self.regions[r];
        let name = self.region_name(r);
        if region.freed {
            return Err(stop(
                a.pos,
                format!("`{}` uses `{name}` after it was freed", a.name),
            ));
        }
        if off.saturating_add(bytes) > region.bytes {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` of {bytes} bytes at byte {off} runs past the end of `{name}` ({} bytes)",
                    a.name, region.bytes
                ),
            ));
        }
        Ok(self.range(r, off, bytes))
    }

    /// The stream argument `i` (absent means the legacy default stream), checked to be alive.
    pub(super) fn stream_arg(&self, a: &Args, i: usize) -> Res<StreamId> {
        let s = match a.vals.get(i) {
            None | Some(Value::Int(0) | Value::Null) => StreamId::LEGACY_DEFAULT,
            Some(Value::Stream(s)) => *s,
            Some(v) => {
                return Err(stop(
                    a.at(i),
                    format!(
                        "argument {} of `{}` must be a stream, not {}",
                        i + 1,
                        a.name,
                        v.describe()
                    ),
                ));
            }
        };
        if s != StreamId::LEGACY_DEFAULT && !self.streams.contains(&s) {
            return Err(stop(
                a.at(i),
                "this stream was destroyed (or never created)",
            ));
        }
        Ok(s)
    }

    fn memcpy_cuda(&mut self, a: &Args) -> Res<Value> {
        let sync = a.name == "cudaMemcpy";
        if sync {
            a.arity(4, 4)?
        } else {
            a.arity(4, 5)?
        }
        let ((dr, doff), (sr, soff), bytes, kind) = (a.ptr(0)?, a.ptr(1)?, a.count(2)?, a.int(3)?);
        let stream = if sync {
            StreamId::LEGACY_DEFAULT
        } else {
            self.stream_arg(a, 4)?
        };
        let (dst, src) = (
            self.span(a, dr, doff, bytes)?,
            self.span(a, sr, soff, bytes)?,
        );
        let (d_dev, s_dev) = (
            self.regions[dr].kind == MemKind::Device,
            self.regions[sr].kind == MemKind::Device,
        );
        let (op, expected) = match (s_dev, d_dev) {
            (false, true) => (DeviceOpKind::CopyH2D, 1),
            (true, false) => (DeviceOpKind::CopyD2H, 2),
            (true, true) => (DeviceOpKind::CopyD2D, 3),
            (false, false) => return self.memcpy_host(a),
        };
        if kind != expected && kind != 4 {
            return Err(stop(
                a.at(3),
                format!(
                    "the copy kind does not match the pointers: this copy goes {}",
                    ["", "host to device", "device to host", "device to device"][expected as usize]
                ),
            ));
        }
        let host_side = if s_dev { dr } else { sr };
        let pageable = !(s_dev && d_dev)
            && self.regions[host_side].kind == MemKind::Pageable
            && !self.regions[host_side].registered;
        self.device_op(
            a,
            DeviceOp {
                stream,
                kind: op,
                call: a.name.to_string(),
                reads: vec![src],
                writes: vec![dst],
                synchronous: sync,
                pageable_async: !sync && pageable,
            },
        )?;
        let (dst_h, dst_d) = (self.regions[dr].host, self.regions[dr].dev);
        let (src_h, src_d) = (self.regions[sr].host, self.regions[sr].dev);
        let result = match op {
            DeviceOpKind::CopyH2D => match (dst_d, src_h) {
                (Some(dd), Some(hs)) => self
                    .machine
                    .copy_h2d_async(stream, dd, doff, hs, soff, bytes),
                _ => Ok(()),
            },
            DeviceOpKind::CopyD2H => match (dst_h, src_d) {
                (Some(hd), Some(ds)) => self
                    .machine
                    .copy_d2h_async(stream, hd, doff, ds, soff, bytes),
                _ => Ok(()),
            },
            _ => match (dst_d, src_d) {
                (Some(dd), Some(ds)) => self
                    .machine
                    .copy_d2d_async(stream, dd, doff, ds, soff, bytes),
                _ => Ok(()),
            },
        };
        self.m(a.pos, a.name, result)?;
        if sync {
            let r = self.machine.stream_sync(StreamId::LEGACY_DEFAULT);
            self.m(a.pos, a.name, r)?;
        }
        Ok(Value::Int(0))
    }

    /// `memcpy` (or `cudaMemcpy` between two host buffers): a host read and a host write.
    fn memcpy_host(&mut self, a: &Args) -> Res<Value> {
        if a.name == "cudaMemcpyAsync" {
            return Err(stop(
                a.pos,
                "`cudaMemcpyAsync` between two host buffers is not supported here; use `memcpy`",
            ));
        }
        let ((dr, doff), (sr, soff), bytes) = (a.ptr(0)?, a.ptr(1)?, a.count(2)?);
        let (dst, src) = (
            self.span(a, dr, doff, bytes)?,
            self.span(a, sr, soff, bytes)?,
        );
        if self.regions[dr].kind == MemKind::Device || self.regions[sr].kind == MemKind::Device {
            return Err(stop(
                a.pos,
                "`memcpy` cannot reach device memory; use `cudaMemcpy`",
            ));
        }
        self.log(Call::HostRead {
            range: src,
            what: a.name.to_string(),
        });
        self.log(Call::HostWrite {
            range: dst,
            what: a.name.to_string(),
        });
        let (Some(hd), Some(hs)) = (self.regions[dr].host, self.regions[sr].host) else {
            return Err(stop(a.pos, "host buffer missing"));
        };
        let r = self.machine.host_copy(hd, doff, hs, soff, bytes);
        self.m(a.pos, a.name, r)?;
        Ok(Value::Int(0))
    }

    fn memset(&mut self, a: &Args) -> Res<Value> {
        let sync = a.name == "cudaMemset";
        if sync {
            a.arity(3, 3)?
        } else {
            a.arity(3, 4)?
        }
        let ((r, off), byte, bytes) = (a.ptr(0)?, a.int(1)?, a.count(2)?);
        let stream = if sync {
            StreamId::LEGACY_DEFAULT
        } else {
            self.stream_arg(a, 3)?
        };
        let range = self.span(a, r, off, bytes)?;
        let Some(d) = self.regions[r].dev else {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` sets device memory; `{}` is host memory",
                    a.name,
                    self.region_name(r)
                ),
            ));
        };
        self.device_op(
            a,
            DeviceOp {
                stream,
                kind: DeviceOpKind::Memset,
                call: a.name.to_string(),
                reads: vec![],
                writes: vec![range],
                synchronous: sync,
                pageable_async: false,
            },
        )?;
        let result = self.machine.memset_async(stream, d, off, bytes, byte as u8);
        self.m(a.pos, a.name, result)?;
        if sync {
            let r = self.machine.stream_sync(StreamId::LEGACY_DEFAULT);
            self.m(a.pos, a.name, r)?;
        }
        Ok(Value::Int(0))
    }

    pub(super) fn device_op(&mut self, a: &Args, op: DeviceOp) -> Res<()> {
        self.gpu_op(a.pos)?;
        self.log(Call::Device(op));
        Ok(())
    }

    pub(super) fn launch(
        &mut self,
        kernel: &str,
        config: &[Expr],
        exprs: &[Expr],
        pos: Pos,
    ) -> Res<Value> {
        let mut cfg = Vec::new();
        for e in config {
            cfg.push(self.eval(e)?);
        }
        let c = Args {
            name: kernel,
            vals: &cfg,
            exprs: config,
            pos,
        };
        if !(2..=4).contains(&cfg.len()) {
            return Err(stop(
                pos,
                "a launch takes `<<<grid, block>>>`, optionally with shared memory bytes and a stream",
            ));
        }
        let (grid, block) = (c.int(0)?, c.int(1)?);
        if grid < 1 || !(1..=1024).contains(&block) {
            return Err(stop(
                pos,
                format!(
                    "`<<<{grid}, {block}>>>`: the grid needs at least 1 block and a block 1 to 1024 threads"
                ),
            ));
        }
        let stream = self.stream_arg(&c, 3)?;
        let mut vals = Vec::new();
        for e in exprs {
            vals.push(self.eval(e)?);
        }
        let a = Args {
            name: kernel,
            vals: &vals,
            exprs,
            pos,
        };
        let call = format!("{kernel}<<<…>>>");
        if kernel == "spin" {
            a.arity(1, 1)?;
            let cycles = a.count(0)?;
            self.device_op(
                &a,
                DeviceOp {
                    stream,
                    kind: DeviceOpKind::Kernel,
                    call,
                    reads: vec![],
                    writes: vec![],
                    synchronous: false,
                    pageable_async: false,
                },
            )?;
            let r = self.machine.launch_spin_cycles(stream, cycles);
            self.m(pos, "spin", r)?;
            return Ok(Value::Void);
        }
        a.arity(3, 3)?;
        let ((ir, ioff), (or, ooff), n) = (a.ptr(0)?, a.ptr(1)?, a.count(2)?);
        let bytes = n.saturating_mul(4);
        let (src, dst) = (
            self.span(&a, ir, ioff, bytes)?,
            self.span(&a, or, ooff, bytes)?,
        );
        let (Some(ds), Some(dd)) = (self.regions[ir].dev, self.regions[or].dev) else {
            return Err(stop(
                pos,
                "`transform` runs on the GPU: its `in` and `out` must be device memory (from `cudaMalloc`)",
            ));
        };
        self.device_op(
            &a,
            DeviceOp {
                stream,
                kind: DeviceOpKind::Kernel,
                call,
                reads: vec![src],
                writes: vec![dst],
                synchronous: false,
                pageable_async: false,
            },
        )?;
        let r = self
            .machine
            .launch_transform_into(stream, ds, ioff, dd, ooff, bytes);
        self.m(pos, "transform", r)?;
        Ok(Value::Void)
    }
}
