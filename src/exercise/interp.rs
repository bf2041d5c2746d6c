//! The interpreter: walks a [`Program`] statement by statement, driving the backend (`&mut dyn
//! Gpu`: the live GPU or the simulator, the same calls the experiments make) for every CUDA call
//! and writing the [`Call`] log the hazard checker reads.
//!
//! Limits keep a learner's mistake from hanging or exhausting anything: a step budget (every
//! statement and expression is a step, and bulk helpers pay for their work), a cap on GPU
//! operations, allocations checked against the device's free memory and a host budget, a
//! wall-clock limit, and a cancellation flag polled as it runs.

mod academy;
mod alloc;
mod args;
mod arith;
mod calls;
mod copies;
mod errors;
mod eval;
mod events;
mod functions;
mod launch;
mod limits;
mod memory;
mod ordered;
mod stmt;
mod streams;
mod value;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicBool;

use super::Diagnostic;
use super::ast::{Pos, Program};
use super::log::{Call, Entry, MemKind, Range, RegionId};
use crate::gpu::{DevBuf, EventId, Gpu, GpuError, HostBuf, StreamId};
use crate::ordering::{Model, Refused};
use crate::report::Op;

pub use errors::CudaError;
pub use limits::{Halt, Halted, Limits};
use value::Scope;
pub use value::Value;

/// What a run produced. `error` is set when the run stopped early; the rest holds what happened
/// up to there.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub log: Vec<Entry>,
    /// `report(name, value)` calls; a name reported twice keeps the last value.
    pub metrics: BTreeMap<String, f64>,
    /// Each `check_output` call: its line, its result and the bytes it checked.
    pub checks: Vec<OutputCheck>,
    /// The host buffer the last device-to-host copy wrote, and its size: where the program's
    /// result is, which `output-correct` wants checked in full.
    pub output_region: Option<(RegionId, u64)>,
    /// CUDA calls that returned an error code; the run went on, as the real program does.
    pub cuda_errors: Vec<CudaError>,
    /// What the program printed (with `printf` and `report`).
    pub output: String,
    pub error: Option<Diagnostic>,
    /// The run stopped because the cancel flag was set (then `error` says where).
    pub cancelled: bool,
    pub timeline: Vec<Op>,
    /// The variable each allocation was first stored in, for messages.
    pub region_names: HashMap<RegionId, String>,
    pub steps: u64,
    /// Each `host_work` call: its line and when it ran on the host clock, which has the
    /// timeline's origin (the host lane the overlap criteria read).
    pub host_work: Vec<HostSpan>,
    /// The program's exit status: `main`'s `return` value, or the code of the `exit(code)`
    /// that ended it (0 when `main` ends without a `return`, as C says).
    pub exit_code: i64,
    /// The line of the `exit` call that ended the run, when one did.
    pub exit_line: Option<u32>,
    /// The line of the `return` that left `main`, when one did.
    pub return_line: Option<u32>,
    /// The last line the program wrote to `stderr` (`fprintf(stderr, …)`), trimmed and at most
    /// [`STDERR_LINE_MAX`] bytes: what a failed error check said, for the verdict.
    pub last_stderr_line: Option<String>,
    /// Each call the host spent at least [`HOST_SPAN_MIN_US`] in (waits, blocking copies,
    /// `host_work`, pinning), as host-lane ops on the timeline's origin, with their lines.
    pub host_calls: Vec<Op>,
    /// Each `spin` launch: the index of its op in `log` and its cycles (the op itself records
    /// no length), for the criteria on the work a run did (`verdict/work.rs`).
    pub spins: Vec<(usize, u64)>,
}

/// How many recent log entries a host access looks back over for one to extend
/// (`Interp::extend_host_access`): the buffers one loop iteration touches.
const HOST_MERGE_WINDOW: usize = 4;

/// The most of a `stderr` line [`Outcome::last_stderr_line`] keeps, in bytes.
pub const STDERR_LINE_MAX: usize = 200;

/// The shortest call drawn on the host lane, in microseconds: shorter ones (a launch, an
/// async copy's issue) would be a dot on every call.
pub const HOST_SPAN_MIN_US: f64 = 20.0;

/// A stretch of host work on the backend's host clock, in microseconds from the timeline's
/// origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HostSpan {
    pub line: u32,
    pub start_us: f64,
    pub end_us: f64,
}

/// One `check_output` call: where, what it answered, which bytes it checked.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputCheck {
    pub line: u32,
    pub passed: bool,
    pub range: Range,
    /// The `spin(cycles, x, n)` passes it asked about (`check_output`'s third argument, 0 when
    /// left out).
    pub spins: u32,
}

/// Why the walk stopped early: where, and what to tell the learner.
#[derive(Debug, Clone)]
pub(crate) struct Stop {
    pub pos: Pos,
    pub message: String,
    /// Stopped by the cancel flag, not by the program.
    pub cancelled: bool,
    /// Ended by the program itself, `exit(code)`: not an error; what ran is judged.
    pub exited: Option<i64>,
}

type Res<T> = Result<T, Stop>;

/// The run stops at `pos` with `message` (a runtime error in the learner's program).
fn stop(pos: Pos, message: impl Into<String>) -> Stop {
    Stop {
        pos,
        message: message.into(),
        cancelled: false,
        exited: None,
    }
}

/// One allocation as the interpreter tracks it.
#[derive(Debug, Clone)]
struct Region {
    kind: MemKind,
    host: Option<HostBuf>,
    dev: Option<DevBuf>,
    bytes: u64,
    registered: bool,
    freed: bool,
}

enum Flow {
    Normal,
    Break,
    Continue,
    Return,
}

/// Run `program` on `gpu`. Whatever it allocates or creates is released before this returns,
/// also when it stops early, so the backend can go on running experiments and exercises.
pub fn run(program: &Program, gpu: &mut dyn Gpu, limits: Limits, cancel: &AtomicBool) -> Outcome {
    run_within(program, gpu, limits, Halt::new(cancel, limits.max_wall))
}

/// [`run`] as one phase of a check: `halt` holds the check's cancel flag and deadline (the
/// wall-clock limit counts from the start of the check, not of this run).
pub fn run_within(program: &Program, gpu: &mut dyn Gpu, limits: Limits, halt: Halt) -> Outcome {
    let mut it = Interp {
        gpu,
        limits,
        halt,
        scopes: vec![Scope::default()],
        regions: Vec::new(),
        model: Model::new(),
        out: Outcome::default(),
        line: 1,
        gpu_ops: 0,
        host_bytes: 0,
        device_bytes: 0,
        array_elements: 0,
        program,
        frame: 0,
        call_depth: 0,
        ret: None,
        collect: None,
        last_error: 0,
        answer_unused: false,
        host_funcs: Vec::new(),
        call_log_start: 0,
        freed_async: Vec::new(),
    };
    if let Err(e) = it.gpu.timeline_begin() {
        it.out.error = Some(Diagnostic::at(1, 1, format!("cannot start recording: {e}")));
        return it.out;
    }
    let ran = it
        .globals(&program.globals)
        .and_then(|()| it.block(&program.main))
        // Host functions still queued run before the program's work is released.
        .and_then(|_| {
            it.call_log_start = it.out.log.len();
            it.run_reached_host_funcs(true)
        });
    match ran {
        Ok(()) => {
            it.out.exit_code = it.ret.take().and_then(|v| v.as_i64()).unwrap_or(0);
        }
        // `exit(code)`: the program ended itself; nothing went wrong in the run.
        Err(Stop {
            exited: Some(code),
            pos,
            ..
        }) => {
            it.out.exit_code = code;
            it.out.exit_line = Some(pos.line);
        }
        Err(stop) => {
            it.out.cancelled = stop.cancelled;
            it.out.error = Some(program.diagnostic(stop.pos, stop.message));
        }
    }
    it.gpu.set_source_line(None);
    it.release_leftovers();
    match it.gpu.timeline_end() {
        Ok(ops) => it.out.timeline = ops,
        Err(e) if it.out.error.is_none() => {
            it.out.error = Some(Diagnostic::at(
                it.line,
                1,
                format!("cannot read the timeline: {e}"),
            ));
        }
        Err(_) => {}
    }
    it.out
}

struct Interp<'a> {
    gpu: &'a mut dyn Gpu,
    limits: Limits,
    /// The check's cancel flag and deadline.
    halt: Halt<'a>,
    scopes: Vec<Scope>,
    regions: Vec<Region>,
    /// The ordering model, driven with every stream, event and device op the backend
    /// accepted: which streams and events are live, which events were ever recorded and the
    /// per-thread stream are its to say, never a copy kept here (review 2026-12-01b §2.2). Its
    /// ids are the backend's (`StreamId.0`, `EventId.0`), as in the checker and the simulator.
    model: Model,
    out: Outcome,
    /// The line of the statement being run, for log entries.
    line: u32,
    gpu_ops: u64,
    host_bytes: u64,
    device_bytes: u64,
    /// Elements of the arrays in scope now (see [`limits::MAX_ARRAY_ELEMENTS`]).
    array_elements: u64,
    /// The program, for calls of its functions.
    program: &'a Program,
    /// The first scope of the function running now (0 in `main`): a function sees only its
    /// own scopes and the file's.
    frame: usize,
    /// Calls of the file's functions under way.
    call_depth: usize,
    /// The value of the last `return`.
    ret: Option<Value>,
    /// Host accesses of a host function being run for `cudaLaunchHostFunc`.
    collect: Option<functions::Collected>,
    /// What `cudaGetLastError` returns.
    last_error: i64,
    /// The statement being run is a bare `cudaStreamQuery(..)`/`cudaEventQuery(..)` whose
    /// answer the program ignores: a `cudaSuccess` then teaches the host nothing.
    answer_unused: bool,
    /// Host functions queued by `cudaLaunchHostFunc` whose stream has not reached them yet
    /// (`ordered.rs`).
    host_funcs: Vec<ordered::PendingHostFunc>,
    /// `cudaFreeAsync`s not yet given to the backend (`ordered.rs`).
    freed_async: Vec<ordered::FreedAsync>,
    /// The log's length when the CUDA call being run began: a host function whose body ran
    /// during it is logged there.
    call_log_start: usize,
}

impl Interp<'_> {
    /// Log a host read (or, `write`, a write) of `range`: extending a recent entry of the
    /// same kind, buffer and line that ends where it starts (a loop over `h[i]`), before
    /// anything is built, since a loop does this at every element.
    fn log_host(&mut self, write: bool, range: Range, what: &'static str) {
        if self.collect.is_none() && self.extend_host_access(write, &range) {
            return;
        }
        let what = what.to_string();
        self.log(if write {
            Call::HostWrite { range, what }
        } else {
            Call::HostRead { range, what }
        });
    }

    /// Extend the entry that `range` continues, looking back over the last
    /// [`HOST_MERGE_WINDOW`] entries while they are host accesses from this line: a verifying
    /// loop (`if (h_out[i] != h_in[i] * 2.0f + 1.0f)`) alternates between buffers, and an entry
    /// an element would be 32 Mi entries over 16 Mi floats (gigabytes of log). Host accesses
    /// with nothing else between them may merge out of order: the checker compares each with
    /// the device work in flight, which no host access changes.
    fn extend_host_access(&mut self, write: bool, range: &Range) -> bool {
        let line = self.line;
        for e in self.out.log.iter_mut().rev().take(HOST_MERGE_WINDOW) {
            if e.line != line {
                return false;
            }
            let Some((r, was_write)) = e.call.host_range_mut() else {
                return false;
            };
            if was_write == write && r.region == range.region && r.end == range.start {
                r.end = range.end;
                return true;
            }
        }
        false
    }

    fn log(&mut self, call: Call) {
        // Inside a host function the accesses belong to its stream-ordered op, not to `main`.
        if let Some(c) = &mut self.collect {
            match call {
                Call::HostRead { range, .. } => return c.read(range, self.line),
                Call::HostWrite { range, .. } => return c.write(range, self.line),
                // A host function's run is logged by the interpreter, never from inside one.
                // `exit` in a host function ends the process as anywhere else.
                Call::Alloc { .. }
                | Call::Free { .. }
                | Call::HostFuncRan { .. }
                | Call::Exit { .. } => {}
                Call::Register { .. }
                | Call::Unregister { .. }
                | Call::StreamCreate { .. }
                | Call::StreamDestroy { .. }
                | Call::PerThreadStream { .. }
                | Call::EventCreate { .. }
                | Call::EventDestroy { .. }
                | Call::Device(_)
                | Call::EventRecord { .. }
                | Call::EventElapsed { .. }
                | Call::StreamWaitEvent { .. }
                | Call::StreamSync { .. }
                | Call::StreamQuery { .. }
                | Call::EventQuery { .. }
                | Call::EventSync { .. }
                | Call::DeviceSync => {
                    c.cuda_calls += 1;
                    return;
                }
            }
        }
        // Neighbouring element accesses from one line merge into one range (loops over `h[i]`).
        if let Call::HostRead { range, .. } | Call::HostWrite { range, .. } = &call
            && self.extend_host_access(matches!(call, Call::HostWrite { .. }), range)
        {
            return;
        }
        self.out.log.push(Entry {
            line: self.line,
            call,
        });
    }

    /// A backend result, with a failure turned into a stop at `pos` naming `what`.
    fn m<T>(&self, pos: Pos, what: &str, r: Result<T, GpuError>) -> Res<T> {
        r.map_err(|e| Stop {
            pos,
            cancelled: e == GpuError::Cancelled,
            exited: None,
            message: format!("{what}: {e}"),
        })
    }

    /// A refusal of the ordering model as a stop at `pos` naming `what`. The interpreter checks
    /// every handle against the model before it calls the backend, so none is expected.
    fn ordered<T>(&self, pos: Pos, what: &str, r: Result<T, Refused>) -> Res<T> {
        r.map_err(|e| stop(pos, format!("{what}: {e}")))
    }

    /// Give back whatever the program left allocated, so the backend is clean for the next run.
    /// Not logged: the leak checker has already seen the program end without it.
    fn release_leftovers(&mut self) {
        let _ = self.gpu.device_sync();
        for r in std::mem::take(&mut self.regions) {
            if r.freed {
                continue;
            }
            if let Some(h) = r.host {
                if r.registered {
                    let _ = self.gpu.host_unregister(h);
                }
                let _ = self.gpu.host_free(h);
            }
            if let Some(d) = r.dev {
                let _ = self.gpu.device_free(d);
            }
        }
        // The program's streams, then the per-thread one (which the program does not own).
        let per_thread = self.model.per_thread_stream();
        let streams: Vec<u32> = (self.model.live_streams())
            .filter(|s| Some(*s) != per_thread)
            .chain(per_thread)
            .collect();
        for s in streams {
            let _ = self.gpu.stream_destroy(StreamId(s));
        }
        let events: Vec<u32> = self.model.live_events().collect();
        for e in events {
            let _ = self.gpu.event_destroy(EventId(e));
        }
        // The markers of host functions a stopped run never ran.
        for p in std::mem::take(&mut self.host_funcs) {
            let _ = self.gpu.event_destroy(p.marker());
        }
        self.model = Model::new();
    }
}
