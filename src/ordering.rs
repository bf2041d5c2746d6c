//! CUDA's ordering rules, in one place: which earlier work an operation waits for, and what
//! the host knows has completed. The simulator's scheduler asks it "what may this op start
//! after?" ([`Issued::direct`]); the exercise checker asks it "is A ordered before B?"
//! ([`Issued::after`], [`Model::host`]). Both read the same state, so they cannot disagree;
//! what they need of it beyond that (the legacy stream's barrier, an event's last record, the
//! per-thread stream) they read through the model's accessors, never a copy. What a call makes
//! the host wait for is the rules table's (`rules.rs`): the checker reads `promised`, the
//! simulator `observed`.
//!
//! The rules (each with its source in `rules.rs` and the README's table):
//! - ops on one stream run in issue order;
//! - the legacy default stream (id 0) is a barrier with every *blocking* stream: an op on it
//!   waits for all earlier work of blocking streams (also of one destroyed while still busy:
//!   probe `probes/ordering.cu`, case `destroyed-busy-fences-legacy`), and an op on a blocking
//!   stream waits for earlier work of the legacy stream; non-blocking streams take no part;
//! - an event record is an op of its stream that captures what that stream's next op would
//!   wait for; a stream's wait on an event makes its later ops wait for the event's *last*
//!   record at the time of the wait call (a wait on an event never recorded orders nothing);
//! - the host learns completion only from what makes it wait: stream, event and device
//!   synchronisation, a query that answered "done", and the calls whose rule says the host
//!   waits for them (`rules.rs`).
//!
//! An op is named by its place: the `seq`-th op (from 1) issued to its stream. Stream and
//! event ids are the backend's; a stream id is never reused while its stream is known.

pub mod clock;
pub mod rules;

use std::collections::{BTreeMap, BTreeSet};

pub use clock::Clock;

/// An op by its place: the `seq`-th op (1-based) issued to `stream`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpRef {
    pub stream: u32,
    pub seq: u64,
}

/// The legacy default stream's id (as `crate::gpu::StreamId::LEGACY_DEFAULT`).
pub const LEGACY: u32 = 0;

/// What issuing an op told the model.
#[derive(Debug, Clone, PartialEq)]
pub struct Issued {
    pub op: OpRef,
    /// The ops it waits for directly: its stream predecessor, the legacy barrier's ops, the
    /// event record a wait names. What a scheduler needs (the rest follows transitively).
    pub direct: Vec<OpRef>,
    /// Everything it is ordered after, transitively (not counting what the host knew).
    pub after: Clock,
}

impl Issued {
    /// Whether `other` is ordered before this op by the device rules alone.
    pub fn is_after(&self, other: OpRef) -> bool {
        self.after.covers(other.stream, other.seq)
    }
}

#[derive(Debug, Clone)]
struct Stream {
    blocking: bool,
    alive: bool,
    /// How many ops were issued to it.
    seq: u64,
    /// What its last op was ordered after, itself included: what its next op waits for.
    tail: Clock,
}

impl Stream {
    fn last(&self, id: u32) -> Option<OpRef> {
        (self.seq > 0).then_some(OpRef {
            stream: id,
            seq: self.seq,
        })
    }
}

#[derive(Debug, Clone, Default)]
struct Event {
    /// The last record and what it captured.
    record: Option<(OpRef, Clock)>,
}

/// Why a call was refused: the handle it names is not (or no longer) there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    UnknownStream(u32),
    UnknownEvent(u32),
    LegacyStream,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::UnknownStream(s) => write!(f, "no stream {s} (destroyed or never created)"),
            Refused::UnknownEvent(e) => write!(f, "no event {e} (destroyed or never created)"),
            Refused::LegacyStream => write!(f, "the legacy default stream (0) cannot be destroyed"),
        }
    }
}

/// The ordering state of one context. See the module documentation.
#[derive(Debug, Clone)]
pub struct Model {
    streams: BTreeMap<u32, Stream>,
    /// The destroyed streams still in `streams` (their work not yet known done): only these
    /// can be forgotten, so a wait looks at them, not at every stream (review 2026-12-01b
    /// CK7: a walk over all streams at every wait made 100,000 creations take 45 s).
    destroyed: BTreeSet<u32>,
    /// Destroyed streams looked at by [`Model::forget_finished`] so far: the work count that
    /// tests bound (one look per destroyed stream per wait, never one per stream).
    forget_looks: u64,
    events: BTreeMap<u32, Event>,
    host: Clock,
    /// The per-thread default stream, once made.
    per_thread: Option<u32>,
}

impl Default for Model {
    fn default() -> Self {
        Model::new()
    }
}

impl Model {
    pub fn new() -> Model {
        let legacy = Stream {
            blocking: true,
            alive: true,
            seq: 0,
            tail: Clock::default(),
        };
        Model {
            streams: BTreeMap::from([(LEGACY, legacy)]),
            destroyed: BTreeSet::new(),
            forget_looks: 0,
            events: BTreeMap::new(),
            host: Clock::default(),
            per_thread: None,
        }
    }

    /// How many destroyed streams waits have looked at (see `forget_looks`).
    pub fn forget_looks(&self) -> u64 {
        self.forget_looks
    }

    /// What the host knows has completed.
    pub fn host(&self) -> &Clock {
        &self.host
    }

    /// Whether the host knows `op` has completed.
    pub fn host_knows_done(&self, op: OpRef) -> bool {
        self.host.covers(op.stream, op.seq)
    }

    /// A new stream `id`: `blocking` for `cudaStreamCreate` (and the per-thread default
    /// stream), false for `cudaStreamNonBlocking`.
    pub fn create_stream(&mut self, id: u32, blocking: bool) {
        self.streams.insert(
            id,
            Stream {
                blocking,
                alive: true,
                seq: 0,
                tail: Clock::default(),
            },
        );
    }

    /// The per-thread default stream `id` (`cudaStreamPerThread`): a blocking stream the
    /// program does not own.
    pub fn create_per_thread_stream(&mut self, id: u32) {
        self.create_stream(id, true);
        self.per_thread = Some(id);
    }

    /// The per-thread default stream, once the program used it.
    pub fn per_thread_stream(&self) -> Option<u32> {
        self.per_thread
    }

    /// The streams the legacy default stream is a barrier with: every blocking stream but
    /// itself, alive or destroyed while the host does not know its work is done.
    pub fn legacy_barrier_streams(&self) -> impl Iterator<Item = u32> + '_ {
        self.streams
            .iter()
            .filter(|(id, s)| **id != LEGACY && s.blocking)
            .map(|(id, _)| *id)
    }

    /// `cudaStreamDestroy`: the stream takes no more work, but its queued work still runs and
    /// a blocking one still holds the legacy stream until the host knows it has finished.
    pub fn destroy_stream(&mut self, id: u32) -> Result<(), Refused> {
        if id == LEGACY {
            return Err(Refused::LegacyStream);
        }
        self.live_stream(id)?;
        if let Some(s) = self.streams.get_mut(&id) {
            s.alive = false;
            self.destroyed.insert(id);
        }
        self.forget_finished();
        Ok(())
    }

    /// Whether `id` can take work.
    pub fn check_stream(&self, id: u32) -> Result<(), Refused> {
        self.live_stream(id).map(|_| ())
    }

    fn live_stream(&self, id: u32) -> Result<&Stream, Refused> {
        match self.streams.get(&id) {
            Some(s) if s.alive => Ok(s),
            _ => Err(Refused::UnknownStream(id)),
        }
    }

    /// The ops a new op on `id` waits for directly, and their transitive clock.
    fn frontier(&self, id: u32) -> Result<(Vec<OpRef>, Clock), Refused> {
        let s = self.live_stream(id)?;
        let mut direct: Vec<OpRef> = s.last(id).into_iter().collect();
        let mut after = s.tail.clone();
        let mut also = |other_id: u32, other: &Stream| {
            if let Some(last) = other.last(other_id)
                && !after.covers(last.stream, last.seq)
            {
                direct.push(last);
            }
            after.join(&other.tail);
        };
        if id == LEGACY {
            for (other_id, other) in &self.streams {
                if *other_id != LEGACY && other.blocking {
                    also(*other_id, other);
                }
            }
        } else if s.blocking
            && let Some(legacy) = self.streams.get(&LEGACY)
        {
            also(LEGACY, legacy);
        }
        Ok((direct, after))
    }

    /// Issue an op (copy, memset, kernel, event record or wait marker) to stream `id`.
    pub fn issue(&mut self, id: u32) -> Result<Issued, Refused> {
        self.issue_after(id, None)
    }

    fn issue_after(&mut self, id: u32, extra: Option<(OpRef, Clock)>) -> Result<Issued, Refused> {
        let (mut direct, mut after) = self.frontier(id)?;
        if let Some((op, clock)) = extra {
            if !after.covers(op.stream, op.seq) {
                direct.push(op);
            }
            after.join(&clock);
        }
        let stream = self
            .streams
            .get_mut(&id)
            .ok_or(Refused::UnknownStream(id))?;
        stream.seq += 1;
        let op = OpRef {
            stream: id,
            seq: stream.seq,
        };
        let mut tail = after.clone();
        tail.cover(id, op.seq);
        stream.tail = tail;
        Ok(Issued { op, direct, after })
    }

    /// A new event `id` (never recorded).
    pub fn create_event(&mut self, id: u32) {
        self.events.insert(id, Event::default());
    }

    pub fn destroy_event(&mut self, id: u32) -> Result<(), Refused> {
        self.events
            .remove(&id)
            .map(|_| ())
            .ok_or(Refused::UnknownEvent(id))
    }

    /// `cudaEventRecord(event, stream)`: an op of `stream` capturing what it is ordered after.
    pub fn record(&mut self, event: u32, stream: u32) -> Result<Issued, Refused> {
        if !self.events.contains_key(&event) {
            return Err(Refused::UnknownEvent(event));
        }
        let issued = self.issue(stream)?;
        let mut captured = issued.after.clone();
        captured.cover(issued.op.stream, issued.op.seq);
        if let Some(e) = self.events.get_mut(&event) {
            e.record = Some((issued.op, captured));
        }
        Ok(issued)
    }

    /// The event's last record and what it captured (`None` if never recorded).
    pub fn last_record(&self, event: u32) -> Result<Option<(OpRef, &Clock)>, Refused> {
        let e = self
            .events
            .get(&event)
            .ok_or(Refused::UnknownEvent(event))?;
        Ok(e.record.as_ref().map(|(op, c)| (*op, c)))
    }

    /// Whether event `id` exists (created and not destroyed).
    pub fn event_exists(&self, id: u32) -> bool {
        self.events.contains_key(&id)
    }

    /// Whether event `id` exists and was recorded at least once.
    pub fn ever_recorded(&self, id: u32) -> bool {
        self.events.get(&id).is_some_and(|e| e.record.is_some())
    }

    /// The streams that can take work, the legacy one aside, in id order (the per-thread
    /// stream included once made).
    pub fn live_streams(&self) -> impl Iterator<Item = u32> + '_ {
        self.streams
            .iter()
            .filter(|(id, s)| **id != LEGACY && s.alive)
            .map(|(id, _)| *id)
    }

    /// The events that exist, in id order.
    pub fn live_events(&self) -> impl Iterator<Item = u32> + '_ {
        self.events.keys().copied()
    }

    /// `cudaStreamWaitEvent(stream, event)`: a marker op of `stream` after the event's last
    /// record, so the stream's later ops wait for it.
    pub fn wait_event(&mut self, stream: u32, event: u32) -> Result<Issued, Refused> {
        let extra = self
            .last_record(event)?
            .map(|(op, clock)| (op, clock.clone()));
        self.issue_after(stream, extra)
    }

    /// What the host waits for in `cudaStreamSynchronize(id)` (for the legacy stream, the
    /// blocking streams' earlier work too: probe case `sync-legacy-waits-blocking`); the host
    /// learns it.
    pub fn sync_stream(&mut self, id: u32) -> Result<Vec<OpRef>, Refused> {
        let (direct, after) = self.frontier(id)?;
        self.learn(&after);
        Ok(direct)
    }

    /// What the host waits for in `cudaEventSynchronize(event)`; the host learns it.
    pub fn sync_event(&mut self, event: u32) -> Result<Option<OpRef>, Refused> {
        let Some((op, clock)) = self.last_record(event)?.map(|(o, c)| (o, c.clone())) else {
            return Ok(None);
        };
        self.learn(&clock);
        Ok(Some(op))
    }

    /// What the host waits for in `cudaDeviceSynchronize`: every stream's last op, destroyed
    /// ones included; the host learns all of it.
    pub fn sync_device(&mut self) -> Vec<OpRef> {
        let mut all = Clock::default();
        let mut last = Vec::new();
        for (id, s) in &self.streams {
            all.join(&s.tail);
            last.extend(s.last(*id));
        }
        self.learn(&all);
        last
    }

    /// The last op issued to stream `id`, if any.
    pub fn last_op(&self, id: u32) -> Option<OpRef> {
        self.streams.get(&id).and_then(|s| s.last(id))
    }

    /// Whether an op issued to stream `id` now would be ordered after `op` (by the device
    /// rules: its stream, the legacy barrier, the waits it made).
    pub fn would_order_after(&self, id: u32, op: OpRef) -> bool {
        self.frontier(id)
            .is_ok_and(|(_, after)| after.covers(op.stream, op.seq))
    }

    /// What `cudaStreamQuery(id)` asks about: the ops that must have completed for it to
    /// answer `cudaSuccess`. Call [`Model::learn_stream`] when it did.
    pub fn query_stream(&self, id: u32) -> Result<Vec<OpRef>, Refused> {
        Ok(self.frontier(id)?.0)
    }

    /// The host saw stream `id` idle (a query answered `cudaSuccess`).
    pub fn learn_stream(&mut self, id: u32) -> Result<(), Refused> {
        let (_, after) = self.frontier(id)?;
        self.learn(&after);
        Ok(())
    }

    /// The host saw event `id` complete (a query answered `cudaSuccess`).
    pub fn learn_event(&mut self, event: u32) -> Result<(), Refused> {
        self.sync_event(event).map(|_| ())
    }

    /// The host waited for `issued` itself (a call whose rule makes the host wait for it).
    pub fn learn_op(&mut self, issued: &Issued) {
        let mut c = issued.after.clone();
        c.cover(issued.op.stream, issued.op.seq);
        self.learn(&c);
    }

    /// The host waited for what `issued` is ordered after, not for the op itself (a
    /// synchronous copy from pageable memory syncs its stream first).
    pub fn learn_before(&mut self, issued: &Issued) {
        self.learn(&issued.after);
    }

    fn learn(&mut self, c: &Clock) {
        self.host.join(c);
        self.forget_finished();
    }

    /// Destroyed streams whose work the host knows is done no longer hold anything.
    fn forget_finished(&mut self) {
        let (host, streams) = (&self.host, &mut self.streams);
        self.forget_looks += self.destroyed.len() as u64;
        self.destroyed.retain(|id| match streams.get(id) {
            // Created again under its old number: alive, no longer destroyed.
            Some(s) if s.alive => false,
            Some(s) if host.covers(*id, s.seq) => {
                streams.remove(id);
                false
            }
            Some(_) => true,
            None => false,
        });
    }
}

#[cfg(test)]
mod tests;
