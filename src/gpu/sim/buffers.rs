//! Buffers that hold real bytes, so experiments can verify what the simulated GPU computed.
//!
//! Storage is allocated lazily on the first real write (an untouched 256 MiB buffer costs
//! nothing) and reads of never-written bytes give zeros, as fresh memory usually does. Bytes
//! written while data movement is off are *stale* and cannot be read (see [`super::ranges`]).

use std::collections::BTreeMap;

use super::ranges::RangeSet;
use crate::gpu::{FILL_PATTERN_PERIOD, GpuError, fill_pattern_f32};

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
        let words = data.len() / 4;
        // Compute one period, then double it with memcpy: fast even in a debug build.
        let head = words.min(FILL_PATTERN_PERIOD as usize);
        for (i, word) in data[..head * 4].chunks_exact_mut(4).enumerate() {
            word.copy_from_slice(&fill_pattern_f32(seed, i as u64).to_le_bytes());
        }
        let mut done = head * 4;
        while done < words * 4 {
            let n = (words * 4 - done).min(done);
            data.copy_within(0..n, done);
            done += n;
        }
        data[words * 4..].fill(0);
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

#[cfg(test)]
mod tests {
    use super::Bytes;
    use crate::gpu::{FILL_PATTERN_PERIOD, fill_pattern_f32};

    #[test]
    fn fill_matches_the_pattern_across_periods() {
        let words = FILL_PATTERN_PERIOD * 2 + 1001;
        let mut b = Bytes::new(words * 4 + 3);
        b.fill(5).unwrap();
        let p = FILL_PATTERN_PERIOD;
        for i in [
            0,
            1,
            65_520,
            65_521,
            p - 1,
            p,
            p + 7,
            2 * p + 1000,
            words - 1,
        ] {
            assert_eq!(b.read_f32(i).unwrap(), fill_pattern_f32(5, i), "f32 {i}");
        }
        assert_ne!(
            fill_pattern_f32(5, 7),
            fill_pattern_f32(6, 7),
            "the seed must matter"
        );
        assert!(b.read_f32(words).is_err(), "the 3-byte tail is not an f32");
    }

    #[test]
    fn stale_bytes_follow_copies() {
        let mut src = Bytes::new(64);
        src.fill(1).unwrap();
        src.mark_stale(8, 8);
        let mut dst = Bytes::new(64);
        dst.copy_from(32, &src, 0, 32).unwrap();
        assert!(
            dst.read_f32(8).is_ok(),
            "byte 32.. came from valid bytes 0.."
        );
        assert!(
            dst.read_f32(10).is_err(),
            "bytes 40..48 came from stale bytes 8..16"
        );
        assert_eq!(dst.read_f32(12).unwrap(), fill_pattern_f32(1, 4));
        dst.fill(2).unwrap();
        assert!(dst.read_f32(10).is_ok(), "a fill writes real data");
    }

    #[test]
    fn ranges_are_checked() {
        let b = Bytes::new(16);
        assert!(b.check_range("x", 8, 8).is_ok());
        assert!(b.check_range("x", 9, 8).is_err());
        assert!(b.check_range("x", u64::MAX, 2).is_err());
    }
}
