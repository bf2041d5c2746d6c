//! Buffers that hold real bytes, so experiments can verify what the simulated GPU computed.
//!
//! Storage is allocated lazily on the first real write (an untouched 256 MiB buffer costs
//! nothing) and reads of never-written bytes give zeros, as fresh memory usually does. Bytes
//! written while data movement is off are *stale* and cannot be read (see [`super::ranges`]).

use std::collections::BTreeMap;

use super::ranges::RangeSet;
use crate::gpu::{GpuError, fill_pattern_f32};

/// The contents of one host or device buffer.
#[derive(Debug, Default)]
pub(super) struct Bytes {
    len: u64,
    /// Empty until the first real write; then exactly `len` bytes.
    data: Vec<u8>,
    stale: RangeSet,
}

impl Bytes {
    pub(super) fn new(len: u64) -> Bytes {
        Bytes {
            len,
            ..Bytes::default()
        }
    }

    pub(super) fn len(&self) -> u64 {
        self.len
    }

    /// Check that `[off, off + bytes)` lies inside the buffer.
    pub(super) fn check_range(&self, what: &str, off: u64, bytes: u64) -> Result<(), GpuError> {
        match off.checked_add(bytes) {
            Some(end) if end <= self.len => Ok(()),
            _ => Err(GpuError::Invalid(format!(
                "{what} range {off}..{off}+{bytes} is outside its {} byte buffer",
                self.len
            ))),
        }
    }

    fn storage(&mut self) -> Result<&mut [u8], GpuError> {
        if self.data.is_empty() && self.len > 0 {
            let len = usize::try_from(self.len).map_err(|_| {
                GpuError::Invalid(format!(
                    "a {} byte buffer does not fit this host's address space",
                    self.len
                ))
            })?;
            self.data = vec![0; len];
        }
        Ok(&mut self.data)
    }

    /// Mark `[off, off + bytes)` as written without data.
    pub(super) fn mark_stale(&mut self, off: u64, bytes: u64) {
        self.stale.insert(off, off + bytes);
    }

    /// Copy `src[src_off..][..bytes]` into `self[dst_off..]`; stale source bytes stay stale.
    pub(super) fn copy_from(
        &mut self,
        dst_off: u64,
        src: &Bytes,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        let dst = self.storage()?;
        let (d, s, n) = (dst_off as usize, src_off as usize, bytes as usize);
        if src.data.is_empty() {
            dst[d..d + n].fill(0);
        } else {
            dst[d..d + n].copy_from_slice(&src.data[s..s + n]);
        }
        self.stale.remove(dst_off, dst_off + bytes);
        for (a, b) in src.stale.shifted(src_off, src_off + bytes, dst_off) {
            self.stale.insert(a, b);
        }
        Ok(())
    }

    /// `x = x * a + b` over the `f32`s of `[off, off + bytes)`; stale bytes stay stale.
    pub(super) fn transform(
        &mut self,
        off: u64,
        bytes: u64,
        a: f32,
        b: f32,
    ) -> Result<(), GpuError> {
        let data = self.storage()?;
        let (o, n) = (off as usize, bytes as usize);
        for word in data[o..o + n].chunks_exact_mut(4) {
            let x = f32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            let y = crate::gpu::Kernel::transform_host(x, a, b);
            word.copy_from_slice(&y.to_le_bytes());
        }
        Ok(())
    }

    /// Write [`fill_pattern_f32`] over every whole `f32`, zero the tail, clear staleness.
    pub(super) fn fill(&mut self, seed: u32) -> Result<(), GpuError> {
        let data = self.storage()?;
        for (i, word) in data.chunks_mut(4).enumerate() {
            if word.len() == 4 {
                word.copy_from_slice(&fill_pattern_f32(seed, i as u64).to_le_bytes());
            } else {
                word.fill(0);
            }
        }
        self.stale.clear();
        Ok(())
    }

    /// `f32` number `index`, or an error if it is outside the buffer or stale.
    pub(super) fn read_f32(&self, index: u64) -> Result<f32, GpuError> {
        let off = index.saturating_mul(4);
        self.check_range("read", off, 4)?;
        if self.stale.intersects(off, off + 4) {
            return Err(GpuError::Invalid(format!(
                "f32 {index} was written by a copy or kernel while the simulator's data movement \
                 was off (SimGpu::set_move_data(false)); turn it on for the run you verify"
            )));
        }
        if self.data.is_empty() {
            return Ok(0.0);
        }
        let o = off as usize;
        Ok(f32::from_le_bytes([
            self.data[o],
            self.data[o + 1],
            self.data[o + 2],
            self.data[o + 3],
        ]))
    }
}

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
}

impl<T> Pool<T> {
    pub(super) fn new(what: &'static str, total: u64) -> Pool<T> {
        Pool {
            next: 1,
            items: BTreeMap::new(),
            used: 0,
            total,
            what,
        }
    }

    /// Reserve `bytes` or fail with the numbers.
    pub(super) fn reserve(&self, bytes: u64) -> Result<(), GpuError> {
        let free = self.total.saturating_sub(self.used);
        if bytes > free {
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
