//! The hazard checker: a pure function of the call log. It replays the log through the one
//! ordering model ([`crate::ordering`], the same the simulator schedules by) and compares every
//! access with every operation the model does not order before it: host accesses against
//! device ops the host does not know have completed, and device ops against each other. It
//! never looks at timing, so a race is reported even when this run's timing hid it. What the
//! host may rely on after each call is the rule's `promised` column (`ordering::rules`).

mod device;
mod host;
mod host_funcs;
mod kinds;
mod leaks;
mod messages;

pub use kinds::{CardRef, Hazard, HazardKind};

use std::collections::{BTreeMap, HashMap, HashSet};

use super::interp::{Halt, Halted};
use super::log::{Call, DeviceOp, Entry, HostWait, Range, RegionId};
use crate::ordering::{Issued, LEGACY, Model, OpRef};

/// A device op the host does not yet know has completed.
struct InFlight<'a> {
    issued: Issued,
    line: u32,
    op: &'a DeviceOp,
    /// Its index in the log (a host function's run names its launch by it).
    at: usize,
    /// Its host-side reads are over (the call returned after taking its source).
    source_taken: bool,
    /// For a host function whose body has run: what the body did (`host_funcs.rs`).
    body: Option<host_funcs::Body<'a>>,
}

impl InFlight<'_> {
    fn reads(&self) -> &[Range] {
        match &self.body {
            Some(b) => b.reads,
            None if self.source_taken => &[],
            None => &self.op.reads,
        }
    }

    fn writes(&self) -> &[Range] {
        match &self.body {
            Some(b) => b.writes,
            None => &self.op.writes,
        }
    }
}

/// Check a run's call log. `overlap` marks an exercise about overlap, where work on the legacy
/// default stream is worth a warning.
pub fn check(log: &[Entry], names: &HashMap<RegionId, String>, overlap: bool) -> Vec<Hazard> {
    let never = std::sync::atomic::AtomicBool::new(false);
    check_cancellable(log, names, overlap, &never).unwrap_or_default()
}

/// Log entries between two looks at the clock (the cancel flag is looked at every entry). An
/// entry rescans the operations in flight, so with 60,000 of them 16 entries take a few
/// milliseconds in a debug build: well inside the 100 ms a cancel may take.
const CLOCK_POLL: usize = 16;

/// [`check`], stopping with `None` soon after `cancel` is set (Esc in the editor).
pub fn check_cancellable(
    log: &[Entry],
    names: &HashMap<RegionId, String>,
    overlap: bool,
    cancel: &std::sync::atomic::AtomicBool,
) -> Option<Vec<Hazard>> {
    check_within(log, names, overlap, Halt::cancel_only(cancel)).ok()
}

/// [`check`] as a phase of a check: stops soon after `halt` says so (Esc, or the check's
/// wall-clock limit), with why.
pub fn check_within(
    log: &[Entry],
    names: &HashMap<RegionId, String>,
    overlap: bool,
    halt: Halt,
) -> Result<Vec<Hazard>, Halted> {
    let mut c = Checker {
        log,
        names,
        overlap,
        model: Model::new(),
        stream_numbers: HashMap::new(),
        stream_vars: HashMap::new(),
        record_lines: HashMap::new(),
        in_flight: Vec::new(),
        in_flight_by_stream: BTreeMap::new(),
        touching: HashMap::new(),
        freed_async: HashMap::new(),
        out: Vec::new(),
        seen: HashSet::new(),
    };
    for (i, entry) in log.iter().enumerate() {
        if halt.cancelled() {
            return Err(Halted::Cancelled);
        }
        if i % CLOCK_POLL == 0
            && let Some(why) = halt.halted()
        {
            return Err(why);
        }
        c.entry(i, entry);
    }
    if let Some(why) = halt.halted() {
        return Err(why);
    }
    leaks::leaks(log, names, &mut c);
    c.out.sort_by_key(|h| (h.line, h.other_line));
    Ok(c.out)
}

pub(super) struct Checker<'a> {
    log: &'a [Entry],
    names: &'a HashMap<RegionId, String>,
    overlap: bool,
    model: Model,
    /// Streams numbered from 1 in creation order, for messages.
    stream_numbers: HashMap<u32, usize>,
    /// The variable each stream was created into (`up`): messages name it beside its number,
    /// so "stream 2 (`compute`)" matches both the timeline and the code.
    stream_vars: HashMap<u32, &'a str>,
    /// The line of each event record op. Which record is an event's last is the model's
    /// (`Model::last_record`), as are the per-thread stream and the legacy stream's barrier:
    /// the checker keeps no copy of them (review 2026-12-01b: a copy of the barrier drifted).
    record_lines: HashMap<OpRef, u32>,
    in_flight: Vec<InFlight<'a>>,
    /// Per stream, the indices in `in_flight` of its ops, oldest first: an op is judged only
    /// against other streams' ops, newest first, down to the first one the model orders before
    /// it (all older ones on that stream are too). A single stream of 200,000 copies was a scan
    /// of every op in flight per op: two minutes for one H200 trace (`trace-live.sh`'s
    /// many_copies, 2026-12-02).
    in_flight_by_stream: BTreeMap<u32, Vec<usize>>,
    /// Per allocation, how many ops in flight read or write it: a host access of one no op
    /// touches is answered without a scan (60,000 unsynchronised memsets of one buffer and
    /// then millions of reads of another were a scan per read: review 2026-12-01 R1).
    touching: HashMap<RegionId, usize>,
    /// Allocations freed by `cudaFreeAsync`, with the free's line: any later use is a hazard.
    freed_async: HashMap<RegionId, u32>,
    out: Vec<Hazard>,
    seen: HashSet<(HazardKind, u32, Option<u32>)>,
}

impl<'a> Checker<'a> {
    fn name(&self, r: RegionId) -> String {
        self.names
            .get(&r)
            .cloned()
            .unwrap_or_else(|| format!("allocation #{}", r.0 + 1))
    }

    fn stream_name(&self, s: u32) -> String {
        if s == LEGACY {
            return "the legacy default stream".into();
        }
        if self.model.per_thread_stream() == Some(s) {
            return "the per-thread default stream".into();
        }
        match (self.stream_numbers.get(&s), self.stream_vars.get(&s)) {
            (Some(n), Some(var)) if !var.is_empty() => format!("stream {n} (`{var}`)"),
            (Some(n), _) => format!("stream {n}"),
            _ => "a stream".into(),
        }
    }

    pub(super) fn report(
        &mut self,
        kind: HazardKind,
        line: u32,
        other_line: Option<u32>,
        message: String,
    ) {
        self.report_teaching(kind, line, other_line, message, CardRef::of(kind));
    }

    /// [`Checker::report`] with a card of its own (a leaked stream's is not a leaked buffer's).
    pub(super) fn report_teaching(
        &mut self,
        kind: HazardKind,
        line: u32,
        other_line: Option<u32>,
        message: String,
        teaches: CardRef,
    ) {
        if self.seen.insert((kind, line, other_line)) {
            self.out.push(Hazard {
                kind,
                line,
                other_line,
                message,
                teaches,
            });
        }
    }

    fn entry(&mut self, i: usize, e: &'a Entry) {
        // The interpreter logs only calls the backend accepted, so the model refuses none; a
        // refusal would mean a handle it never saw, which orders nothing.
        match &e.call {
            Call::Device(op) => self.device(i, e.line, op),
            Call::HostFuncRan {
                launch,
                reads,
                writes,
                accesses,
            } => {
                let body = host_funcs::Body {
                    reads,
                    writes,
                    accesses,
                };
                self.host_func_ran(i, *launch, body);
            }
            Call::StreamCreate {
                stream,
                blocking,
                name,
            } => {
                self.model.create_stream(stream.0, *blocking);
                let n = self.stream_numbers.len() + 1;
                self.stream_numbers.entry(stream.0).or_insert(n);
                self.stream_vars.insert(stream.0, name.as_str());
            }
            Call::PerThreadStream { stream } => self.model.create_per_thread_stream(stream.0),
            Call::StreamDestroy { stream } => {
                let _ = self.model.destroy_stream(stream.0);
            }
            Call::EventCreate { event } => self.model.create_event(event.0),
            Call::EventDestroy { event } => {
                let _ = self.model.destroy_event(event.0);
            }
            Call::EventRecord { event, stream } => {
                if let Ok(issued) = self.model.record(event.0, stream.0) {
                    self.record_lines.insert(issued.op, e.line);
                }
            }
            Call::StreamWaitEvent { stream, event } => {
                let _ = self.model.wait_event(stream.0, event.0);
            }
            Call::StreamSync { stream } => {
                let _ = self.model.sync_stream(stream.0);
            }
            Call::EventSync { event } => {
                let _ = self.model.sync_event(event.0);
            }
            Call::DeviceSync => {
                self.model.sync_device();
            }
            Call::StreamQuery { stream, done: true } => {
                let _ = self.model.learn_stream(stream.0);
            }
            Call::EventQuery { event, done: true } => {
                let _ = self.model.learn_event(event.0);
            }
            Call::EventElapsed { start, end } => self.elapsed(e.line, [start.0, end.0]),
            Call::HostRead { range, what } => self.host_access(e.line, range, what, false),
            Call::HostWrite { range, what } => self.host_access(e.line, range, what, true),
            Call::Free { region, call } => self.release(e.line, *region, call.name()),
            Call::Unregister { region } => self.release(e.line, *region, "cudaHostUnregister"),
            // Nothing to order or judge (an allocation and `exit` are the leak check's; an
            // unanswered query teaches the host nothing). Every entry is named: a new one must
            // be placed here.
            Call::Alloc { .. }
            | Call::Register { .. }
            | Call::Exit { .. }
            | Call::StreamQuery { done: false, .. }
            | Call::EventQuery { done: false, .. } => {}
        }
        // Only a call that tells the host something can end an op's flight: skip the rescan
        // otherwise (60,000 async calls never synchronised were a rescan per call).
        if teaches_host(&e.call) {
            self.land_known_done();
        }
    }

    /// Drop the ops the host now knows have completed from the ops in flight.
    fn land_known_done(&mut self) {
        let (model, touching) = (&self.model, &mut self.touching);
        let before = self.in_flight.len();
        self.in_flight.retain(|o| {
            let keep = !model.host_knows_done(o.issued.op);
            if !keep {
                for r in o.regions() {
                    if let Some(n) = touching.get_mut(&r) {
                        *n = n.saturating_sub(1);
                    }
                }
            }
            keep
        });
        if self.in_flight.len() != before {
            self.index_in_flight();
        }
    }

    /// `in_flight_by_stream` anew, after ops left `in_flight`.
    fn index_in_flight(&mut self) {
        self.in_flight_by_stream.clear();
        for (i, o) in self.in_flight.iter().enumerate() {
            self.in_flight_by_stream
                .entry(o.issued.op.stream)
                .or_default()
                .push(i);
        }
    }
}

/// The allocations of `reads` and `writes`, each once.
fn regions(reads: &[Range], writes: &[Range]) -> HashSet<RegionId> {
    reads.iter().chain(writes).map(|r| r.region).collect()
}

impl InFlight<'_> {
    /// The allocations it reads or writes, each once (for `Checker::touching`).
    fn regions(&self) -> HashSet<RegionId> {
        match &self.body {
            Some(b) => regions(b.reads, b.writes),
            None => regions(&self.op.reads, &self.op.writes),
        }
    }
}

/// Whether the host may learn from `call` that device work has finished (a wait, a query that
/// answered done, a call that returns only after its op).
fn teaches_host(call: &Call) -> bool {
    match call {
        Call::Device(op) => matches!(op.host_wait(), HostWait::Staged | HostWait::Completion),
        Call::StreamSync { .. }
        | Call::EventSync { .. }
        | Call::DeviceSync
        | Call::StreamQuery { done: true, .. }
        | Call::EventQuery { done: true, .. } => true,
        Call::Alloc { .. }
        | Call::Free { .. }
        | Call::Register { .. }
        | Call::Unregister { .. }
        | Call::StreamCreate { .. }
        | Call::StreamDestroy { .. }
        | Call::PerThreadStream { .. }
        | Call::EventCreate { .. }
        | Call::EventDestroy { .. }
        | Call::EventRecord { .. }
        | Call::EventElapsed { .. }
        | Call::StreamWaitEvent { .. }
        | Call::StreamQuery { done: false, .. }
        | Call::EventQuery { done: false, .. }
        | Call::HostFuncRan { .. }
        | Call::HostRead { .. }
        | Call::HostWrite { .. }
        // The process ends: the host waits for nothing (nothing runs after it to be judged).
        | Call::Exit { .. } => false,
    }
}
