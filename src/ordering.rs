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
//! The model's state is defined here; its methods are in `streams.rs` (streams and issuing
//! ops), `events.rs` (records and waits) and `host.rs` (what the host learns).
//!
//! An op is named by its place: the `seq`-th op (from 1) issued to its stream. Stream and
//! event ids are the backend's; a stream id is never reused while its stream is known.

pub mod clock;
mod events;
mod host;
pub mod rules;
mod streams;

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

#[cfg(test)]
mod tests;
