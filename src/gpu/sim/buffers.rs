//! Buffers that hold real bytes, so experiments can verify what the simulated GPU computed.
//!
//! Storage is allocated lazily on the first real write (an untouched 256 MiB buffer costs
//! nothing) and reads of never-written bytes give zeros, as fresh memory usually does. Bytes
//! written while data movement is off are *stale* and cannot be read (see [`super::ranges`]).
//! Transform kernels are recorded as pending maps and applied on read ([`super::affine`]).

use std::collections::BTreeMap;

use super::affine::{Map, Maps};
use super::ranges::RangeSet;
use crate::gpu::{FILL_PATTERN_PERIOD, GpuError, fill_pattern_f32};

/// The contents of one host or device buffer.
#[derive(Debug, Default)]
pub(super) struct Bytes {
    len: u64,
    /// Empty until the first real write; then exactly `len` bytes.
    data: Vec<u8>,
    stale: RangeSet,
    /// Transforms not yet applied to `data`.
    maps: Maps,
}

/// Pending maps beyond which a buffer applies them all, so reads stay cheap.
const MAX_MAPS: usize = 256;

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

    /// Copy `src[src_off..][..bytes]` into `self[dst_off..]`; stale source bytes stay stale and
    /// pending transforms travel with the bytes.
    pub(super) fn copy_from(
        &mut self,
        dst_off: u64,
        src: &Bytes,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        let aligned = dst_off % 4 == src_off % 4;
        let dst = self.storage()?;
        let (d, s, n) = (dst_off as usize, src_off as usize, bytes as usize);
        if !aligned && src.maps.intersects(src_off, src_off + bytes) {
            // Maps cannot follow bytes to a new word alignment: apply them to a copy first.
            dst[d..d + n].copy_from_slice(&src.effective(src_off, bytes));
        } else if src.data.is_empty() {
            dst[d..d + n].fill(0);
        } else {
            dst[d..d + n].copy_from_slice(&src.data[s..s + n]);
        }
        self.stale.remove(dst_off, dst_off + bytes);
        for (a, b) in src.stale.shifted(src_off, src_off + bytes, dst_off) {
            self.stale.insert(a, b);
        }
        self.maps.remove(dst_off, dst_off + bytes);
        if aligned {
            for m in src.maps.shifted(src_off, src_off + bytes, dst_off) {
                self.maps.push(m);
            }
            self.limit_maps()?;
        }
        Ok(())
    }

    /// The bytes of `[off, off + bytes)` with every pending map applied.
    fn effective(&self, off: u64, bytes: u64) -> Vec<u8> {
        let lo = off - off % 4;
        let hi = (off + bytes).next_multiple_of(4).min(self.len);
        let mut tmp = vec![0u8; (hi - lo) as usize];
        if !self.data.is_empty() {
            tmp.copy_from_slice(&self.data[lo as usize..hi as usize]);
        }
        for m in self.maps.shifted(lo, hi, 0) {
            apply_map(&mut tmp, &m);
        }
        let skip = (off - lo) as usize;
        tmp[skip..skip + bytes as usize].to_vec()
    }

    /// Apply every pending map once there are too many to scan on each read.
    fn limit_maps(&mut self) -> Result<(), GpuError> {
        if self.maps.len() > MAX_MAPS {
            let maps = self.maps.take();
            let data = self.storage()?;
            for m in &maps {
                apply_map(data, m);
            }
        }
        Ok(())
    }

    /// `x = x * a + b` over the `f32`s of `[off, off + bytes)` (recorded, applied on read).
    pub(super) fn transform(
        &mut self,
        off: u64,
        bytes: u64,
        a: f32,
        b: f32,
    ) -> Result<(), GpuError> {
        self.maps.push(Map {
            start: off,
            end: off + bytes,
            a,
            b,
        });
        self.limit_maps()
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
        self.maps.clear();
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
        let raw = match self.data.get(off as usize..off as usize + 4) {
            Some(w) => f32::from_le_bytes([w[0], w[1], w[2], w[3]]),
            None => 0.0,
        };
        Ok(self.maps.apply(off, raw))
    }
}

/// Apply `m` to the `f32`s of `data` (offsets relative to `data`).
fn apply_map(data: &mut [u8], m: &Map) {
    for word in data[m.start as usize..m.end as usize].chunks_exact_mut(4) {
        let x = f32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        let y = crate::gpu::Kernel::transform_host(x, m.a, m.b);
        word.copy_from_slice(&y.to_le_bytes());
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
    use crate::gpu::{FILL_PATTERN_PERIOD, Kernel, fill_pattern_f32};

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

    fn expect(seed: u32, i: u64, maps: &[(f32, f32)]) -> f32 {
        maps.iter().fold(fill_pattern_f32(seed, i), |x, &(a, b)| {
            Kernel::transform_host(x, a, b)
        })
    }

    #[test]
    fn transforms_apply_in_order_and_travel_with_copies() {
        let mut dev = Bytes::new(64);
        let mut host = Bytes::new(64);
        host.fill(3).unwrap();
        dev.copy_from(0, &host, 0, 64).unwrap();
        dev.transform(0, 32, 2.0, 1.0).unwrap();
        dev.transform(16, 32, 0.5, -4.0).unwrap();
        host.copy_from(0, &dev, 0, 64).unwrap();
        assert_eq!(host.read_f32(0).unwrap(), expect(3, 0, &[(2.0, 1.0)]));
        assert_eq!(
            host.read_f32(5).unwrap(),
            expect(3, 5, &[(2.0, 1.0), (0.5, -4.0)])
        );
        assert_eq!(host.read_f32(9).unwrap(), expect(3, 9, &[(0.5, -4.0)]));
        assert_eq!(host.read_f32(15).unwrap(), fill_pattern_f32(3, 15));
        // Overwriting part of a transformed range drops the map there only.
        let mut fresh = Bytes::new(64);
        fresh.fill(3).unwrap();
        host.copy_from(0, &fresh, 0, 8).unwrap();
        assert_eq!(host.read_f32(1).unwrap(), fill_pattern_f32(3, 1));
        assert_eq!(host.read_f32(2).unwrap(), expect(3, 2, &[(2.0, 1.0)]));
    }

    #[test]
    fn a_misaligned_copy_carries_transformed_values() {
        let mut dev = Bytes::new(64);
        dev.fill(9).unwrap();
        dev.transform(0, 64, 2.0, 0.5).unwrap();
        let mut host = Bytes::new(66);
        host.copy_from(2, &dev, 0, 64).unwrap();
        let mut back = Bytes::new(64);
        back.copy_from(0, &host, 2, 64).unwrap();
        for i in 0..16 {
            assert_eq!(
                back.read_f32(i).unwrap(),
                expect(9, i, &[(2.0, 0.5)]),
                "f32 {i}"
            );
        }
    }

    #[test]
    fn many_transforms_are_applied_eagerly_with_the_same_result() {
        let mut b = Bytes::new(4 * 1024);
        b.fill(4).unwrap();
        for k in 0..(super::MAX_MAPS as u64 + 10) {
            b.transform((k % 1024) * 4, 4, 1.0, 0.25).unwrap();
        }
        assert!(b.maps.len() <= super::MAX_MAPS);
        assert_eq!(b.read_f32(0).unwrap(), expect(4, 0, &[(1.0, 0.25)]));
        assert_eq!(b.read_f32(5).unwrap(), expect(4, 5, &[(1.0, 0.25)]));
        assert_eq!(b.read_f32(1000).unwrap(), fill_pattern_f32(4, 1000));
    }

    #[test]
    fn ranges_are_checked() {
        let b = Bytes::new(16);
        assert!(b.check_range("x", 8, 8).is_ok());
        assert!(b.check_range("x", 9, 8).is_err());
        assert!(b.check_range("x", u64::MAX, 2).is_err());
    }
}
