//! Streams and the dependencies they impose: in-order streams and the legacy default stream.
//!
//! An op waits for the previous op of its stream. An op on the legacy default stream (0) also
//! waits for the last op of every blocking stream, and an op on a blocking stream waits for the
//! last op issued to stream 0; non-blocking streams ignore stream 0 (CUDA driver API,
//! "Stream synchronization behavior").

use std::collections::BTreeMap;

use super::engines::OpId;
use crate::gpu::{GpuError, StreamId, StreamKind};

#[derive(Debug)]
struct StreamState {
    kind: StreamKind,
    last: Option<OpId>,
    /// Destroyed streams stay until their work is pruned: stream 0 must still wait for it.
    alive: bool,
}

/// Every stream of the simulated context.
#[derive(Debug)]
pub(super) struct Streams {
    next: u32,
    legacy_last: Option<OpId>,
    streams: BTreeMap<u32, StreamState>,
}

impl Streams {
    pub(super) fn new() -> Streams {
        Streams {
            next: 1,
            legacy_last: None,
            streams: BTreeMap::new(),
        }
    }

    pub(super) fn create(&mut self, kind: StreamKind) -> StreamId {
        let id = self.next;
        self.next += 1;
        self.streams.insert(
            id,
            StreamState {
                kind,
                last: None,
                alive: true,
            },
        );
        StreamId(id)
    }

    pub(super) fn destroy(&mut self, stream: StreamId) -> Result<(), GpuError> {
        if stream == StreamId::LEGACY_DEFAULT {
            return Err(GpuError::Invalid(
                "the legacy default stream (0) cannot be destroyed".to_string(),
            ));
        }
        self.state_mut(stream)?.alive = false;
        Ok(())
    }

    fn state_mut(&mut self, stream: StreamId) -> Result<&mut StreamState, GpuError> {
        match self.streams.get_mut(&stream.0) {
            Some(s) if s.alive => Ok(s),
            _ => Err(unknown(stream)),
        }
    }

    /// Check that `stream` can take work.
    pub(super) fn check(&self, stream: StreamId) -> Result<(), GpuError> {
        if stream == StreamId::LEGACY_DEFAULT {
            return Ok(());
        }
        match self.streams.get(&stream.0) {
            Some(s) if s.alive => Ok(()),
            _ => Err(unknown(stream)),
        }
    }

    /// What an op issued now to `stream` must wait for; also what syncing `stream` waits for.
    pub(super) fn deps(&self, stream: StreamId) -> Result<Vec<OpId>, GpuError> {
        self.check(stream)?;
        let mut deps: Vec<OpId> = Vec::new();
        if stream == StreamId::LEGACY_DEFAULT {
            deps.extend(self.legacy_last);
            deps.extend(
                self.streams
                    .values()
                    .filter(|s| s.kind == StreamKind::Blocking)
                    .filter_map(|s| s.last),
            );
        } else if let Some(s) = self.streams.get(&stream.0) {
            deps.extend(s.last);
            if s.kind == StreamKind::Blocking {
                deps.extend(self.legacy_last);
            }
        }
        Ok(deps)
    }

    /// Record that op `id` was issued to `stream`.
    pub(super) fn issued(&mut self, stream: StreamId, id: OpId) -> Result<(), GpuError> {
        if stream == StreamId::LEGACY_DEFAULT {
            self.legacy_last = Some(id);
        } else {
            self.state_mut(stream)?.last = Some(id);
        }
        Ok(())
    }

    /// Drop destroyed streams whose work has ended.
    pub(super) fn forget_dead(&mut self, done: impl Fn(OpId) -> bool) {
        self.streams
            .retain(|_, s| s.alive || s.last.is_some_and(|id| !done(id)));
    }
}

fn unknown(stream: StreamId) -> GpuError {
    GpuError::Invalid(format!(
        "no stream {} (destroyed or never created)",
        stream.0
    ))
}

#[cfg(test)]
mod tests {
    use super::Streams;
    use crate::gpu::{StreamId, StreamKind};

    #[test]
    fn the_legacy_stream_links_blocking_streams_only() {
        let mut s = Streams::new();
        let blocking = s.create(StreamKind::Blocking);
        let free = s.create(StreamKind::NonBlocking);
        s.issued(blocking, 1).unwrap();
        s.issued(free, 2).unwrap();
        assert_eq!(s.deps(StreamId::LEGACY_DEFAULT).unwrap(), vec![1]);
        s.issued(StreamId::LEGACY_DEFAULT, 3).unwrap();
        assert_eq!(s.deps(blocking).unwrap(), vec![1, 3]);
        assert_eq!(s.deps(free).unwrap(), vec![2]);
    }

    #[test]
    fn destroyed_streams_take_no_work_but_still_hold_stream_zero() {
        let mut s = Streams::new();
        let a = s.create(StreamKind::Blocking);
        s.issued(a, 7).unwrap();
        s.destroy(a).unwrap();
        assert!(s.deps(a).is_err());
        assert!(s.destroy(a).is_err());
        assert_eq!(s.deps(StreamId::LEGACY_DEFAULT).unwrap(), vec![7]);
        s.forget_dead(|id| id == 7);
        assert!(s.deps(StreamId::LEGACY_DEFAULT).unwrap().is_empty());
        assert!(s.destroy(StreamId::LEGACY_DEFAULT).is_err());
    }
}
