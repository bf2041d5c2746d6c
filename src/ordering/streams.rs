//! Streams and the ops issued to them: creation (blocking or not), destruction (a destroyed
//! blocking stream still holds the legacy stream until its work is known done), and what a new
//! op waits for (its stream predecessor and the legacy stream's barrier).

use super::{Clock, Issued, LEGACY, Model, OpRef, Refused, Stream};
use std::collections::{BTreeMap, BTreeSet};

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
    pub(super) fn frontier(&self, id: u32) -> Result<(Vec<OpRef>, Clock), Refused> {
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

    pub(super) fn issue_after(
        &mut self,
        id: u32,
        extra: Option<(OpRef, Clock)>,
    ) -> Result<Issued, Refused> {
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

    /// The streams that can take work, the legacy one aside, in id order (the per-thread
    /// stream included once made).
    pub fn live_streams(&self) -> impl Iterator<Item = u32> + '_ {
        self.streams
            .iter()
            .filter(|(id, s)| **id != LEGACY && s.alive)
            .map(|(id, _)| *id)
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
}
