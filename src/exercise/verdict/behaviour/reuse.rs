//! `reuse-after-event`: a buffer an async copy read is written again by the host only after an
//! event recorded behind that copy said it had finished.
//!
//! One walk over the log: the reads in flight wait in a queue per stream, in issue order, so a
//! wait frees each read once (an event frees a prefix of its stream's queue); a host write
//! looks only at the reads of the buffer it writes.

use std::collections::{HashMap, VecDeque};

use super::super::facts::DevOp;
use super::super::poll::Poll;
use crate::exercise::calls::CallId;
use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, DeviceOpKind, Entry, Range, RegionId};
use crate::gpu::{EventId, StreamId};

/// Every host write to a buffer an async copy read came after an event recorded behind that
/// copy said it had finished (`cudaEventSynchronize`, or `cudaEventQuery` answering
/// `cudaSuccess`); at least `min_reuses` such reuses happened. A reuse after a stream or device
/// synchronisation is safe but does not count: no event said the buffer was free.
pub fn reuse_after_event(
    out: &Outcome,
    ops: &[DevOp<'_>],
    min_reuses: u32,
    poll: &Poll,
) -> Result<String, String> {
    let async_reads: HashMap<usize, &DevOp<'_>> = ops
        .iter()
        .filter(|o| {
            o.op.kind == DeviceOpKind::CopyH2D && o.op.call_id() != Some(CallId::CudaMemcpy)
        })
        .map(|o| (o.idx, o))
        .collect();
    let mut walk = Walk::default();
    for (i, e) in out.log.iter().enumerate() {
        poll.tick()?;
        walk.step(out, i, e, &async_reads, poll)?;
    }
    let reuses = walk.reuses;
    if reuses >= min_reuses {
        Ok(format!(
            "{reuses} reuse(s), each after an event said the buffer was free"
        ))
    } else {
        Err(format!(
            "{reuses} buffer reuse(s) after an event said the buffer was free, needs {min_reuses} (a stream or device synchronisation is safe but is not an event)"
        ))
    }
}

/// Where an async copy's read of host memory stands.
#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    InFlight,
    FreedByEvent,
    FreedBySync,
    /// A host write overlapped it: it is done with.
    Gone,
}

/// An async copy's read of host memory.
struct Read {
    range: Range,
    /// Its index in the log.
    at: usize,
    state: State,
}

/// The walk's state between two entries of the log.
#[derive(Default)]
struct Walk {
    recorded: HashMap<EventId, (usize, StreamId)>,
    reads: Vec<Read>,
    /// Reads still in flight, per stream, in issue order (indices into `reads`).
    in_flight: HashMap<StreamId, VecDeque<usize>>,
    /// Reads not yet overwritten, per buffer.
    by_region: HashMap<RegionId, Vec<usize>>,
    reuses: u32,
}

impl Walk {
    /// Takes entry `i` of the log into account; `Err` at a write that an event did not free.
    fn step(
        &mut self,
        out: &Outcome,
        i: usize,
        e: &Entry,
        async_reads: &HashMap<usize, &DevOp<'_>>,
        poll: &Poll,
    ) -> Result<(), String> {
        match &e.call {
            Call::EventRecord { event, stream } => {
                self.recorded.insert(*event, (i, *stream));
            }
            Call::EventSync { event } | Call::EventQuery { event, done: true } => {
                if let Some(&(at, s)) = self.recorded.get(event) {
                    self.free(s, at, State::FreedByEvent);
                }
            }
            Call::StreamSync { stream } => self.free(*stream, usize::MAX, State::FreedBySync),
            Call::DeviceSync => {
                let streams: Vec<StreamId> = self.in_flight.keys().copied().collect();
                for s in streams {
                    self.free(s, usize::MAX, State::FreedBySync);
                }
                self.in_flight.clear();
            }
            Call::HostWrite { range, .. } => self.host_write(out, e.line, range, poll)?,
            // A host function's writes are judged by the hazard checker, at the body's lines.
            Call::HostFuncRan { .. }
            | Call::Exit { .. }
            | Call::Alloc { .. }
            | Call::Free { .. }
            | Call::Register { .. }
            | Call::Unregister { .. }
            | Call::StreamCreate { .. }
            | Call::StreamDestroy { .. }
            | Call::PerThreadStream { .. }
            | Call::EventCreate { .. }
            | Call::EventDestroy { .. }
            | Call::Device(_)
            | Call::EventElapsed { .. }
            | Call::StreamWaitEvent { .. }
            | Call::StreamQuery { .. }
            | Call::EventQuery { done: false, .. }
            | Call::HostRead { .. } => {
                if let Some(op) = async_reads.get(&i) {
                    self.issue(i, op);
                }
            }
        }
        Ok(())
    }

    /// An async copy at log index `i` starts reading its host buffer.
    fn issue(&mut self, i: usize, op: &DevOp<'_>) {
        let Some(range) = op.op.reads.first() else {
            return;
        };
        let r = self.reads.len();
        self.reads.push(Read {
            range: *range,
            at: i,
            state: State::InFlight,
        });
        self.in_flight.entry(op.op.stream).or_default().push_back(r);
        self.by_region.entry(range.region).or_default().push(r);
    }

    /// Frees the reads of `stream` issued before log index `before`, marking them `to`.
    fn free(&mut self, stream: StreamId, before: usize, to: State) {
        let Some(queue) = self.in_flight.get_mut(&stream) else {
            return;
        };
        while let Some(&r) = queue.front() {
            if self.reads[r].at >= before {
                break;
            }
            queue.pop_front();
            if self.reads[r].state == State::InFlight {
                self.reads[r].state = to;
            }
        }
    }

    /// The host writes `range` on `line`: each read of it must have been freed, and one freed
    /// by an event counts as a reuse.
    fn host_write(
        &mut self,
        out: &Outcome,
        line: u32,
        range: &Range,
        poll: &Poll,
    ) -> Result<(), String> {
        let Some(list) = self.by_region.get_mut(&range.region) else {
            return Ok(());
        };
        for &r in list.iter() {
            poll.tick()?;
            let read = &mut self.reads[r];
            if !read.range.overlaps(range) {
                continue;
            }
            match read.state {
                State::InFlight => {
                    let name = out
                        .region_names
                        .get(&range.region)
                        .cloned()
                        .unwrap_or_else(|| "a buffer".into());
                    return Err(format!(
                        "line {line} writes `{name}` while the copy issued on line {} may still read it: wait for an event recorded after that copy first",
                        out.log[read.at].line
                    ));
                }
                State::FreedByEvent => self.reuses += 1,
                State::FreedBySync | State::Gone => {}
            }
            read.state = State::Gone;
        }
        let reads = &self.reads;
        list.retain(|&r| reads[r].state != State::Gone);
        Ok(())
    }
}
