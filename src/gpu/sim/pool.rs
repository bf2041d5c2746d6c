//! Handles to buffers of one kind (host or device) and the memory they take from a limit.

use std::collections::BTreeMap;

use crate::gpu::GpuError;

/// Buffers of one kind, by handle number, with the bytes they hold in total.
#[derive(Debug)]
pub(super) struct Pool<T> {
    next: u32,
    items: BTreeMap<u32, T>,
    /// Bytes allocated.
    pub(super) used: u64,
    /// Bytes available in all.
    pub(super) total: u64,
    what: &'static str,
    /// Whether `total` limits each buffer rather than all of them together.
    per_buffer: bool,
}

impl<T> Pool<T> {
    pub(super) fn new(what: &'static str, total: u64) -> Pool<T> {
        Pool {
            next: 1,
            items: BTreeMap::new(),
            used: 0,
            total,
            what,
            per_buffer: false,
        }
    }

    /// A pool whose `total` limits each buffer alone, not their sum: the simulated host's
    /// buffers hold no bytes, so a run whose buffers together exceed the profiled host's memory
    /// can still be simulated (the experiment's size check notes that a live run would be
    /// refused); one buffer larger than the whole host is still an error.
    pub(super) fn per_buffer(what: &'static str, total: u64) -> Pool<T> {
        Pool {
            per_buffer: true,
            ..Pool::new(what, total)
        }
    }

    /// Reserve `bytes` or fail with the numbers.
    pub(super) fn reserve(&self, bytes: u64) -> Result<(), GpuError> {
        let free = self.total.saturating_sub(self.used);
        let limit = if self.per_buffer { self.total } else { free };
        if bytes > limit {
            return Err(GpuError::OutOfMemory {
                what: self.what,
                requested: bytes,
                free,
            });
        }
        Ok(())
    }

    /// Add an item of `bytes` (after [`Pool::reserve`]); returns its handle number.
    pub(super) fn insert(&mut self, bytes: u64, item: T) -> u32 {
        let id = self.next;
        self.next += 1;
        self.used += bytes;
        self.items.insert(id, item);
        id
    }

    pub(super) fn get(&self, id: u32) -> Result<&T, GpuError> {
        self.items.get(&id).ok_or_else(|| self.unknown(id))
    }

    pub(super) fn get_mut(&mut self, id: u32) -> Result<&mut T, GpuError> {
        let what = self.what;
        self.items.get_mut(&id).ok_or_else(|| {
            GpuError::Invalid(format!("no {what} buffer {id} (freed or never allocated)"))
        })
    }

    /// Remove an item of `bytes`.
    pub(super) fn remove(&mut self, id: u32, bytes: u64) -> Result<T, GpuError> {
        let item = self.items.remove(&id).ok_or_else(|| self.unknown(id))?;
        self.used = self.used.saturating_sub(bytes);
        Ok(item)
    }

    fn unknown(&self, id: u32) -> GpuError {
        GpuError::Invalid(format!(
            "no {} buffer {id} (freed or never allocated)",
            self.what
        ))
    }
}
