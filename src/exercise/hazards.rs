//! The hazard checker: a pure function of the call log. It orders every operation by
//! happens-before (stream order, events, synchronising calls, the legacy default stream's
//! implicit barriers) with vector clocks, never by timing, so a race is reported even when this
//! run's timing happened to hide it.

mod clock;
mod leaks;

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::log::{Call, DeviceOp, Entry, Range, RegionId};
use crate::gpu::StreamId;
use clock::Clock;

/// What kind of mistake a hazard is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HazardKind {
    /// The host reads memory an async copy or kernel may still be writing.
    ReadBeforeSync,
    /// The host writes memory an async operation may still be reading (or writing).
    WriteWhileInFlight,
    /// Memory is freed or unregistered while an operation may still use it.
    FreeWhileInFlight,
    /// `cudaMemcpyAsync` from or to pageable memory (a warning).
    PageableAsync,
    /// Work on the legacy default stream in an exercise about overlap (a warning).
    DefaultStream,
    /// Memory, a registration, a stream or an event still held at the end.
    Leak,
}

impl HazardKind {
    /// The name shown and used in JSON, e.g. `read-before-sync`.
    pub fn name(self) -> &'static str {
        match self {
            HazardKind::ReadBeforeSync => "read-before-sync",
            HazardKind::WriteWhileInFlight => "write-while-in-flight",
            HazardKind::FreeWhileInFlight => "free-while-in-flight",
            HazardKind::PageableAsync => "pageable-async",
            HazardKind::DefaultStream => "default-stream",
            HazardKind::Leak => "leak",
        }
    }

    /// Warnings point at slow code; the others at wrong code.
    pub fn is_warning(self) -> bool {
        matches!(self, HazardKind::PageableAsync | HazardKind::DefaultStream)
    }
}

/// One hazard: its kind, the line of the access, the line of the operation it races with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hazard {
    pub kind: HazardKind,
    pub line: u32,
    pub other_line: Option<u32>,
    pub message: String,
}

/// An operation queued on a stream: which one, its place in the stream, and what it touches.
struct InFlight<'a> {
    stream: u32,
    seq: u64,
    line: u32,
    op: &'a DeviceOp,
}

/// Check a run's call log. `overlap` marks an exercise about overlap, where work on the legacy
/// default stream is worth a warning.
pub fn check(log: &[Entry], names: &HashMap<RegionId, String>, overlap: bool) -> Vec<Hazard> {
    let mut c = Checker {
        names,
        overlap,
        host: Clock::default(),
        tails: HashMap::new(),
        seqs: HashMap::new(),
        blocking: HashMap::new(),
        events: HashMap::new(),
        records: HashMap::new(),
        in_flight: Vec::new(),
        out: Vec::new(),
        seen: HashSet::new(),
    };
    for entry in log {
        c.entry(entry);
    }
    leaks::leaks(log, names, &mut c);
    c.out.sort_by_key(|h| (h.line, h.other_line));
    c.out
}

pub(super) struct Checker<'a> {
    names: &'a HashMap<RegionId, String>,
    overlap: bool,
    /// Everything the host knows has completed.
    host: Clock,
    /// Per stream: everything an operation queued next on it would wait for.
    tails: HashMap<u32, Clock>,
    seqs: HashMap<u32, u64>,
    /// Live created streams: whether each is blocking (synchronises with the legacy stream).
    blocking: HashMap<u32, bool>,
    events: HashMap<u32, Clock>,
    /// Per event: the stream it was last recorded on, its place there, and the line.
    records: HashMap<u32, (u32, u64, u32)>,
    in_flight: Vec<InFlight<'a>>,
    out: Vec<Hazard>,
    seen: HashSet<(HazardKind, u32, Option<u32>)>,
}

const LEGACY: u32 = StreamId::LEGACY_DEFAULT.0;

impl<'a> Checker<'a> {
    fn name(&self, r: RegionId) -> String {
        self.names
            .get(&r)
            .cloned()
            .unwrap_or_else(|| format!("allocation #{}", r.0 + 1))
    }

    pub(super) fn report(
        &mut self,
        kind: HazardKind,
        line: u32,
        other_line: Option<u32>,
        message: String,
    ) {
        if self.seen.insert((kind, line, other_line)) {
            self.out.push(Hazard {
                kind,
                line,
                other_line,
                message,
            });
        }
    }

    /// What work queued on `s` now waits for: the stream's own order plus the legacy default
    /// stream's implicit barriers with blocking streams.
    fn waits_for(&self, s: u32) -> Clock {
        let mut c = self.tails.get(&s).cloned().unwrap_or_default();
        if s == LEGACY {
            for (other, blocking) in &self.blocking {
                if *blocking {
                    c.join(self.tails.get(other));
                }
            }
        } else if self.blocking.get(&s) == Some(&true) {
            c.join(self.tails.get(&LEGACY));
        }
        c
    }

    fn entry(&mut self, e: &'a Entry) {
        match &e.call {
            Call::Device(op) => self.device(e.line, op),
            Call::StreamCreate { stream, blocking } => {
                self.blocking.insert(stream.0, *blocking);
            }
            Call::StreamDestroy { stream } => {
                self.blocking.remove(&stream.0);
            }
            Call::EventRecord { event, stream } => {
                // A record is an operation of its stream: it completes after what came before.
                let s = stream.0;
                let mut c = self.waits_for(s);
                let seq = self.seqs.entry(s).or_default();
                *seq += 1;
                c.set(s, *seq);
                self.records.insert(event.0, (s, *seq, e.line));
                self.tails.insert(s, c.clone());
                self.events.insert(event.0, c);
            }
            Call::EventElapsed { start, end } => self.elapsed(e.line, [start.0, end.0]),
            Call::StreamWaitEvent { stream, event } => {
                let ev = self.events.get(&event.0).cloned();
                self.tails.entry(stream.0).or_default().join(ev.as_ref());
            }
            Call::StreamSync { stream } => {
                let c = self.tails.get(&stream.0).cloned();
                self.host.join(c.as_ref());
            }
            Call::EventSync { event } => {
                let c = self.events.get(&event.0).cloned();
                self.host.join(c.as_ref());
            }
            Call::DeviceSync => {
                let all: Vec<Clock> = self.tails.values().cloned().collect();
                for c in &all {
                    self.host.join(Some(c));
                }
            }
            Call::HostRead { range, what } => self.host_access(e.line, range, what, false),
            Call::HostWrite { range, what } => self.host_access(e.line, range, what, true),
            Call::Free { region, call } => self.release(e.line, *region, call),
            Call::Unregister { region } => self.release(e.line, *region, "cudaHostUnregister"),
            _ => {}
        }
        let host = &self.host;
        self.in_flight.retain(|o| host.get(o.stream) < o.seq);
    }

    fn device(&mut self, line: u32, op: &'a DeviceOp) {
        let s = op.stream.0;
        let mut clock = self.waits_for(s);
        let seq = self.seqs.entry(s).or_default();
        *seq += 1;
        clock.set(s, *seq);
        let seq = *seq;
        if op.synchronous {
            self.host.join(Some(&clock));
        }
        self.tails.insert(s, clock);
        if op.pageable_async {
            let host_range = if op.kind == super::log::DeviceOpKind::CopyH2D {
                op.reads.first()
            } else {
                op.writes.first()
            };
            let name = host_range.map(|r| self.name(r.region)).unwrap_or_default();
            self.report(
                HazardKind::PageableAsync,
                line,
                None,
                format!("`{}` with pageable memory `{name}`: the driver stages it through its own pinned buffer, so the call blocks the host and the copy cannot overlap other work; pin `{name}` (cudaMallocHost or cudaHostRegister)", op.call),
            );
        }
        if self.overlap && s == LEGACY && self.blocking.values().any(|b| *b) {
            self.report(
                HazardKind::DefaultStream,
                line,
                None,
                format!("`{}` on the legacy default stream waits for, and holds up, every blocking stream; use a stream made with cudaStreamNonBlocking", op.call),
            );
        }
        self.in_flight.push(InFlight {
            stream: s,
            seq,
            line,
            op,
        });
    }

    /// `cudaEventElapsedTime` on an event the host does not know has completed: CUDA answers
    /// cudaErrorNotReady, and a program that ignores it times nothing.
    fn elapsed(&mut self, line: u32, events: [u32; 2]) {
        for ev in events {
            if let Some(&(s, seq, rec_line)) = self.records.get(&ev)
                && self.host.get(s) < seq
            {
                self.report(
                    HazardKind::ReadBeforeSync,
                    line,
                    Some(rec_line),
                    format!("`cudaEventElapsedTime` reads the event recorded on line {rec_line} before it is known to have happened (CUDA answers cudaErrorNotReady); call `cudaEventSynchronize` on it first"),
                );
            }
        }
    }

    fn host_access(&mut self, line: u32, range: &Range, what: &str, write: bool) {
        let mut found = Vec::new();
        for o in &self.in_flight {
            let op_writes = o.op.writes.iter().any(|r| r.overlaps(range));
            let op_reads = o.op.reads.iter().any(|r| r.overlaps(range));
            // A host write conflicts with any use; a host read only with a device write.
            if op_writes || (write && op_reads) {
                found.push((o.line, o.op.call.clone(), op_writes));
            }
        }
        let name = self.name(range.region);
        for (other, call, op_writes) in found {
            let (kind, message) = if write {
                let doing = if op_writes { "writing" } else { "reading" };
                (
                    HazardKind::WriteWhileInFlight,
                    format!(
                        "{what} of `{name}` while the `{call}` on line {other} may still be {doing} it; wait for it first (cudaStreamSynchronize or an event)"
                    ),
                )
            } else {
                (
                    HazardKind::ReadBeforeSync,
                    format!(
                        "{what} of `{name}` before the `{call}` on line {other} is known to have finished writing it; synchronise first (cudaStreamSynchronize, cudaEventSynchronize or cudaDeviceSynchronize)"
                    ),
                )
            };
            self.report(kind, line, Some(other), message);
        }
    }

    fn release(&mut self, line: u32, region: RegionId, call: &str) {
        let users: Vec<(u32, String)> = self
            .in_flight
            .iter()
            .filter(|o| {
                o.op.reads
                    .iter()
                    .chain(&o.op.writes)
                    .any(|r| r.region == region)
            })
            .map(|o| (o.line, o.op.call.clone()))
            .collect();
        let name = self.name(region);
        for (other, op) in users {
            self.report(HazardKind::FreeWhileInFlight, line, Some(other), format!("`{call}` of `{name}` while the `{op}` on line {other} may still use it; synchronise before releasing memory"));
        }
    }
}
