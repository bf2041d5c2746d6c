//! Stream-ordered calls beyond copies and launches: `cudaStreamQuery`/`cudaEventQuery`
//! (polling), `cudaLaunchHostFunc`, `cudaMallocAsync`/`cudaFreeAsync`.
//!
//! `cudaLaunchHostFunc` runs the host function's body at the call, after waiting for its stream
//! on the backend: that is when the function would run (after the work queued before it), so
//! what it reads is right; the host timeline shows that wait, which the real program does not
//! have. Its host accesses become the reads and writes of one stream-ordered op in the log, so
//! the checker compares them with the device work and with `main`'s accesses.

use super::args::Args;
use super::errors::{INVALID_VALUE, NOT_READY};
use super::eval::stop;
use super::functions::Collected;
use super::value::Value;
use super::{Interp, Region, Res};
use crate::exercise::ast::Elem;
use crate::exercise::ast::Ty;
use crate::exercise::calls::CallId;
use crate::exercise::log::{Call, DeviceOp, DeviceOpKind, MemKind, RegionId};

impl Interp<'_> {
    /// `cudaStreamQuery(stream)`: answered from the backend without waiting.
    pub(super) fn stream_query(&mut self, a: &Args) -> Res<Value> {
        let s = self.stream_arg(a, 0)?;
        let r = self.gpu.stream_query(s);
        let done = self.m(a.pos, a.name, r)?;
        if done {
            let r = self.model.learn_stream(s.0);
            self.ordered(a.pos, a.name, r)?;
        }
        self.log_query(Call::StreamQuery { stream: s, done });
        Ok(Value::Int(if done { 0 } else { NOT_READY }))
    }

    /// `cudaEventQuery(event)`: answered from the backend without waiting.
    pub(super) fn event_query(&mut self, a: &Args) -> Res<Value> {
        let e = self.event_arg(a, 0)?;
        let r = self.gpu.event_query(e);
        let done = self.m(a.pos, a.name, r)?;
        if done {
            let r = self.model.learn_event(e.0);
            self.ordered(a.pos, a.name, r)?;
        }
        self.log_query(Call::EventQuery { event: e, done });
        Ok(Value::Int(if done { 0 } else { NOT_READY }))
    }

    /// `cudaMallocAsync(&ptr, bytes, stream)`.
    pub(super) fn malloc_async(&mut self, a: &Args) -> Res<Value> {
        let place = a.place(0)?;
        let bytes = a.count(1)?;
        let s = self.stream_arg(a, 2)?;
        let r = self.alloc_device_ordered(a, bytes, s)?;
        let region = RegionId(r as u32);
        self.out
            .region_names
            .entry(region)
            .or_insert_with(|| place.name.clone());
        let whole = self.range(r, 0, bytes);
        // An allocation like any other for the leak check (released by cudaFreeAsync).
        self.log(Call::Alloc {
            region,
            kind: MemKind::Device,
            bytes,
            call: CallId::CudaMallocAsync,
        });
        self.device_op(
            a,
            DeviceOp::queued(
                s,
                DeviceOpKind::AllocAsync,
                a.name.to_string(),
                vec![],
                vec![whole],
            ),
        )?;
        self.write_place(
            &place,
            Value::Ptr {
                region,
                off: 0,
                elem: Elem::Float,
            },
            a.pos,
        )?;
        Ok(Value::Int(0))
    }

    /// Log a query, once for a run of unanswered polls of the same thing on one line (a
    /// polling loop would otherwise log thousands).
    fn log_query(&mut self, call: Call) {
        if let Some(last) = self.out.log.last()
            && last.line == self.line
            && last.call == call
            && matches!(
                call,
                Call::StreamQuery { done: false, .. } | Call::EventQuery { done: false, .. }
            )
        {
            return;
        }
        self.log(call);
    }

    /// `cudaLaunchHostFunc(stream, fn, data)`.
    pub(super) fn host_func(&mut self, a: &Args) -> Res<Value> {
        let s = self.stream_arg(a, 0)?;
        let program = self.program;
        let f = match a.val(1)? {
            Value::Func(name) => program.function(name),
            _ => None,
        };
        let shape = "a host function is `void CUDART_CB name(void *data)`, defined in this file";
        let Some(f) = f else {
            return Err(stop(
                a.at(1),
                format!("argument 2 of `cudaLaunchHostFunc` must be a function: {shape}"),
            ));
        };
        if f.ret.is_some() || f.params.len() != 1 || !matches!(f.params[0].1, Ty::Ptr(_)) {
            return Err(stop(
                a.at(1),
                format!("`{}` cannot be a host function: {shape}", f.name),
            ));
        }
        if self.collect.is_some() {
            return Err(stop(
                a.pos,
                "a host function must not call `cudaLaunchHostFunc` (host functions make no CUDA calls)",
            ));
        }
        let data = a.val(2)?.clone();
        if !matches!(data, Value::Ptr { .. } | Value::Null) {
            return Err(stop(
                a.at(2),
                format!(
                    "argument 3 of `cudaLaunchHostFunc` must be a pointer (or NULL), not {}",
                    data.describe()
                ),
            ));
        }
        // The body runs when the stream reaches it: wait for the stream's work here.
        let r = self.gpu.stream_sync(s);
        self.m(a.pos, a.name, r)?;
        self.collect = Some(Collected::default());
        let ran = self.invoke(f, vec![data], a.pos);
        let got = self.collect.take().unwrap_or_default();
        ran?;
        if got.cuda_calls > 0 {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` calls CUDA, which a host function must not do (Runtime API, cudaLaunchHostFunc); record an event or synchronise in `main` instead",
                    f.name
                ),
            ));
        }
        self.device_op(
            a,
            DeviceOp {
                stream: s,
                kind: DeviceOpKind::HostFunc,
                call: format!("cudaLaunchHostFunc({})", f.name),
                reads: got.reads,
                writes: got.writes,
                rule: None,
                pageable_async: false,
                body_accesses: got.accesses,
            },
        )?;
        Ok(Value::Int(0))
    }

    /// `cudaFreeAsync(ptr, stream)`.
    pub(super) fn free_async(&mut self, a: &Args) -> Res<Value> {
        if matches!(a.val(0)?, Value::Null) {
            return Ok(Value::Int(0));
        }
        let (r, off) = a.ptr(0)?;
        let s = self.stream_arg(a, 1)?;
        let name = self.region_name(r);
        let region = self.regions[r].clone();
        if region.freed {
            return Err(stop(a.pos, format!("`{name}` is freed twice")));
        }
        let Some(d) = region.dev else {
            return Ok(self.cuda_error(
                a.name,
                INVALID_VALUE,
                format!("`{name}` is host memory; `cudaFreeAsync` frees device memory (it stays allocated)"),
            ));
        };
        if off != 0 {
            return Err(stop(
                a.pos,
                format!(
                    "`cudaFreeAsync` needs the pointer the allocation returned, not `{name}` plus an offset"
                ),
            ));
        }
        let whole = self.range(r, 0, region.bytes);
        self.device_op(
            a,
            DeviceOp::queued(
                s,
                DeviceOpKind::FreeAsync,
                a.name.to_string(),
                vec![],
                vec![whole],
            ),
        )?;
        let res = self.gpu.device_free_async(s, d);
        self.m(a.pos, a.name, res)?;
        self.device_bytes -= region.bytes;
        self.regions[r].freed = true;
        Ok(Value::Int(0))
    }

    /// `cudaMallocAsync`'s allocation: checked against the device's free memory like
    /// `cudaMalloc`, not logged as an `Alloc` (its coming into being is the stream-ordered op
    /// the caller logs, and `cudaFreeAsync` is an op, not a `Free`).
    fn alloc_device_ordered(
        &mut self,
        a: &Args,
        bytes: u64,
        s: crate::gpu::StreamId,
    ) -> Res<usize> {
        if bytes == 0 {
            return Err(stop(
                a.pos,
                "`cudaMallocAsync` of 0 bytes: is the size right?",
            ));
        }
        let limit = self.gpu.info().free_mem;
        if self.device_bytes.saturating_add(bytes) > limit {
            return Err(stop(
                a.pos,
                format!(
                    "`cudaMallocAsync` of {bytes} bytes is more than the device's free memory ({} bytes left): is the size right?",
                    limit.saturating_sub(self.device_bytes)
                ),
            ));
        }
        let r = self.gpu.device_alloc_async(s, bytes);
        let dev = self.m(a.pos, a.name, r)?;
        self.device_bytes += bytes;
        self.regions.push(Region {
            kind: MemKind::Device,
            host: None,
            dev: Some(dev),
            bytes,
            registered: false,
            freed: false,
        });
        Ok(self.regions.len() - 1)
    }
}
