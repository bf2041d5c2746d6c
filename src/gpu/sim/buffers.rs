//! Buffers that hold real bytes, so experiments can verify what the simulated GPU computed.
//!
//! Storage is allocated lazily on the first real write (an untouched 256 MiB buffer costs
//! nothing) and reads of never-written bytes give zeros, as fresh memory usually does. Bytes
//! written while data movement is off are *stale* and cannot be read (see [`super::ranges`]).
//! Transform kernels are recorded as pending maps and applied on read ([`super::affine`]).

use super::affine::{Map, Maps};
use super::ranges::RangeSet;
use crate::gpu::{FILL_PATTERN_PERIOD, GpuError, fill_pattern_f32};

/// The contents of one host or device buffer.
#[derive(Default)]
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

/// Never prints the bytes themselves (a buffer can hold gigabytes).
impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bytes")
            .field("len", &self.len)
            .field("allocated", &!self.data.is_empty())
            .field("stale", &self.stale)
            .field("pending_maps", &self.maps.len())
            .finish()
    }
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

#[cfg(test)]
mod tests;
