//! Stream-ordered calls beyond copies and launches: `cudaStreamQuery`/`cudaEventQuery`
//! (polling), `cudaLaunchHostFunc`, `cudaMallocAsync`/`cudaFreeAsync`.
//!
//! `cudaLaunchHostFunc` returns at once, as CUDA's does (Runtime API, `cudaLaunchHostFunc`: the
//! function "will be called after currently enqueued work and will block work added after
//! it"). The backend gets a marker event recorded where the function sits in its stream; after
//! every call the interpreter looks at the markers without waiting and runs the body of each
//! function its stream has reached, on the host lane (a bar on the timeline), so its writes to
//! host memory land then and a race with `main`'s own reads shows in the data. An op that
//! touches host memory and is ordered after a function not yet run waits for it first, so it
//! sees what the body wrote. The log holds the launch (a stream-ordered op) and, when the body
//! ran, its accesses ([`Call::HostFuncRan`]), which the checker compares with the device work
//! and with `main`'s accesses.

use super::args::Args;
use super::errors::{INVALID_VALUE, NOT_READY};
use super::eval::stop;
use super::functions::Collected;
use super::value::Value;
use super::{Interp, Region, Res};
use crate::exercise::ast::Elem;
use crate::exercise::ast::Ty;
use crate::exercise::calls::CallId;
use crate::exercise::log::{Call, DeviceOp, DeviceOpKind, Entry, MemKind, RegionId};
use crate::gpu::EventId;
use crate::ordering::OpRef;

/// A `cudaFreeAsync` the backend has not been given yet (see [`Interp::free_async`]).
#[derive(Debug, Clone)]
pub(super) struct FreedAsync {
    region: usize,
    dev: crate::gpu::DevBuf,
    stream: crate::gpu::StreamId,
    /// Its op in the interpreter's ordering model.
    op: Option<OpRef>,
}

/// A host function queued by `cudaLaunchHostFunc` whose body has not run yet.
#[derive(Debug, Clone)]
pub(super) struct PendingHostFunc {
    /// The backend's marker where the function sits in its stream.
    marker: EventId,
    func: String,
    data: Value,
    /// Its op in the interpreter's ordering model.
    op: Option<OpRef>,
    /// The allocation its data pointer points into (none for NULL).
    data_region: Option<RegionId>,
    /// The index of its launch's `Device` entry in the log.
    launch: usize,
    line: u32,
    pos: crate::exercise::ast::Pos,
}

impl PendingHostFunc {
    /// The backend's marker event (released with the run's leftovers if the body never ran).
    pub(super) fn marker(&self) -> EventId {
        self.marker
    }
}

impl Interp<'_> {
    /// `cudaStreamQuery(stream)`: answered from the backend without waiting. A `cudaSuccess`
    /// teaches the host that the stream's work is done only when the program looks at the
    /// answer (a bare `cudaStreamQuery(s);` statement does not: issue 27).
    pub(super) fn stream_query(&mut self, a: &Args) -> Res<Value> {
        let s = self.stream_arg(a, 0)?;
        let r = self.gpu.stream_query(s);
        let answer = self.m(a.pos, a.name, r)?;
        let done = answer && !self.answer_unused;
        if done {
            let r = self.model.learn_stream(s.0);
            self.ordered(a.pos, a.name, r)?;
        }
        self.log_query(Call::StreamQuery { stream: s, done });
        Ok(Value::Int(if answer { 0 } else { NOT_READY }))
    }

    /// `cudaEventQuery(event)`: as [`Interp::stream_query`], for the event's last record.
    pub(super) fn event_query(&mut self, a: &Args) -> Res<Value> {
        let e = self.event_arg(a, 0)?;
        let r = self.gpu.event_query(e);
        let answer = self.m(a.pos, a.name, r)?;
        let done = answer && !self.answer_unused;
        if done {
            let r = self.model.learn_event(e.0);
            self.ordered(a.pos, a.name, r)?;
        }
        self.log_query(Call::EventQuery { event: e, done });
        Ok(Value::Int(if answer { 0 } else { NOT_READY }))
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

    /// `cudaLaunchHostFunc(stream, fn, data)`: checked, then queued. The call returns at once;
    /// the body runs when the stream reaches it ([`Interp::run_reached_host_funcs`]).
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
        // The backend's half: a marker where the function sits in its stream, which completes
        // when the stream reaches it. The host does not wait.
        let r = self.gpu.event_create(false);
        let marker = self.m(a.pos, a.name, r)?;
        let r = self.gpu.event_record(marker, s);
        self.m(a.pos, a.name, r)?;
        self.device_op(
            a,
            DeviceOp::queued(
                s,
                DeviceOpKind::HostFunc,
                format!("cudaLaunchHostFunc({})", f.name),
                vec![],
                vec![],
            ),
        )?;
        let op = self.model.last_op(s.0);
        let launch = self.out.log.len().saturating_sub(1);
        let data_region = match data {
            Value::Ptr { region, .. } => Some(region),
            _ => None,
        };
        self.host_funcs.push(PendingHostFunc {
            marker,
            func: f.name.clone(),
            data,
            op,
            data_region,
            launch,
            line: self.line,
            pos: a.pos,
        });
        self.run_reached_host_funcs(false)?;
        Ok(Value::Int(0))
    }

    /// Run the body of every queued host function whose stream has reached it (all of them
    /// when `all`: the program has ended), in queue order. Each run's accesses go into one
    /// [`Call::HostFuncRan`] entry placed before the entries of the call during which it ran
    /// (so a wait the body ran inside comes after it), never before its launch.
    pub(super) fn run_reached_host_funcs(&mut self, all: bool) -> Res<()> {
        self.run_host_funcs_where(all, |_, _| true)
    }

    /// Before a copy that touches host memory is queued: run every host function it would be
    /// ordered after and whose data it touches, waiting for its stream to reach it, so the copy
    /// sees what the body wrote (the body runs between its stream's earlier work and its later
    /// work). A body reaches host memory only through its data pointer (a host function's only
    /// argument), so a copy of other memory does not wait.
    pub(super) fn run_host_funcs_before(&mut self, op: &DeviceOp) -> Res<()> {
        if self.host_funcs.is_empty()
            || !matches!(op.kind, DeviceOpKind::CopyH2D | DeviceOpKind::CopyD2H)
        {
            return Ok(());
        }
        let stream = op.stream.0;
        let touched: Vec<RegionId> = op
            .reads
            .iter()
            .chain(&op.writes)
            .map(|r| r.region)
            .collect();
        self.run_host_funcs_where(true, |model, p| {
            let reaches = p.data_region.is_some_and(|r| touched.contains(&r));
            reaches && p.op.is_some_and(|o| model.would_order_after(stream, o))
        })
    }

    fn run_host_funcs_where(
        &mut self,
        wait: bool,
        pick: impl Fn(&crate::ordering::Model, &PendingHostFunc) -> bool,
    ) -> Res<()> {
        let mut i = 0;
        let mut at = self.call_log_start;
        while i < self.host_funcs.len() {
            let p = &self.host_funcs[i];
            if !pick(&self.model, p) {
                i += 1;
                continue;
            }
            let marker = p.marker;
            let reached = if wait {
                let r = self.gpu.event_sync(marker);
                self.m(p.pos, "cudaLaunchHostFunc", r)?;
                true
            } else {
                let r = self.gpu.event_reached(marker);
                self.m(p.pos, "cudaLaunchHostFunc", r)?
            };
            if !reached {
                i += 1;
                continue;
            }
            let p = self.host_funcs.remove(i);
            at = at.max(p.launch + 1);
            self.run_host_func(p, at)?;
            at += 1;
        }
        Ok(())
    }

    /// Run one host function's body now, on the host lane.
    fn run_host_func(&mut self, p: PendingHostFunc, at: usize) -> Res<()> {
        let program = self.program;
        let Some(f) = program.function(&p.func) else {
            return Err(stop(p.pos, format!("no function `{}`", p.func)));
        };
        let r = self.gpu.event_destroy(p.marker);
        self.m(p.pos, "cudaLaunchHostFunc", r)?;
        let (line, start_us) = (self.line, self.gpu.host_now_us());
        self.collect = Some(Collected::default());
        let ran = self.invoke(f, vec![p.data], p.pos);
        let got = self.collect.take().unwrap_or_default();
        self.line = line;
        ran?;
        if got.cuda_calls > 0 {
            return Err(stop(
                p.pos,
                format!(
                    "`{}` calls CUDA, which a host function must not do (Runtime API, cudaLaunchHostFunc); record an event or synchronise in `main` instead",
                    f.name
                ),
            ));
        }
        let end_us = self
            .gpu
            .host_now_us()
            .max(start_us + super::HOST_SPAN_MIN_US);
        self.out.host_calls.push(crate::report::Op {
            stream: 0,
            kind: crate::report::OpKind::Host,
            start_us,
            end_us,
            bytes: 0,
            host_mem: None,
            engine: None,
            start_inferred: false,
            line: Some(p.line),
            label: format!("host function {}", f.name),
        });
        let entry = Entry {
            line: p.line,
            call: Call::HostFuncRan {
                launch: p.launch,
                reads: got.reads,
                writes: got.writes,
                accesses: got.accesses,
            },
        };
        let at = at.min(self.out.log.len());
        self.out.log.insert(at, entry);
        Ok(())
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
        if region.freed || self.is_freed_async(r) {
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
        // The backend frees it once the host knows the free has happened
        // ([`Interp::release_freed_async`]): a use queued before then, which the API leaves
        // undefined ("After this API returns, accessing the memory from any subsequent work
        // launched on the GPU ... results in undefined behavior"), runs on memory still there,
        // and the checker reports it with both lines instead of the run stopping.
        let op = self.model.last_op(s.0);
        self.freed_async.push(FreedAsync {
            region: r,
            dev: d,
            stream: s,
            op,
        });
        self.device_bytes -= region.bytes;
        Ok(Value::Int(0))
    }

    /// Whether allocation `r` was freed by a `cudaFreeAsync` the backend has not done yet.
    pub(super) fn is_freed_async(&self, r: usize) -> bool {
        self.freed_async.iter().any(|f| f.region == r)
    }

    /// Hand the backend each `cudaFreeAsync` whose op the host knows has happened, on its own
    /// stream (still alive; one destroyed is freed with the run's leftovers). From then on a
    /// use stops the run, as a use of freed memory does.
    pub(super) fn release_freed_async(&mut self) -> Res<()> {
        let mut i = 0;
        while i < self.freed_async.len() {
            let f = &self.freed_async[i];
            let done = f.op.is_some_and(|o| self.model.host_knows_done(o));
            if !done || self.model.check_stream(f.stream.0).is_err() {
                i += 1;
                continue;
            }
            let f = self.freed_async.remove(i);
            if self.regions[f.region].freed {
                continue;
            }
            let r = self.gpu.device_free_async(f.stream, f.dev);
            self.m(
                crate::exercise::ast::Pos {
                    line: self.line,
                    column: 1,
                },
                "cudaFreeAsync",
                r,
            )?;
            self.regions[f.region].freed = true;
        }
        Ok(())
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
