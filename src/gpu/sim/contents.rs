//! What a simulated buffer holds, as a description rather than bytes: its byte range is cut
//! into pieces, each "this base (a fill seed, a memset, a host-written float) from this offset,
//! then these kernels". Copies move descriptions, kernels append to them, and a float is computed
//! only when the host reads it, so a 64 GiB buffer costs a few hundred bytes and verification is
//! exact (`compare.rs`).
//!
//! Adjacent pieces that continue each other merge, so a pipeline that copies a buffer in chunks
//! leaves one piece behind, however many chunks it used.

use std::collections::BTreeMap;

use crate::gpu::GpuError;

mod compare;
mod piece;
mod strided;

pub(super) use piece::{Base, Piece};

/// A piece with its buffer range `[start, end)`.
pub(super) type Span = (u64, u64, Piece);

/// The contents of one host or device buffer: pieces covering `[0, len)` without gaps.
#[derive(Debug, Clone)]
pub(super) struct Contents {
    len: u64,
    /// Start -> (end, piece).
    pieces: BTreeMap<u64, (u64, Piece)>,
}

/// Why a kernel over misaligned pieces has no modelled value.
const STRADDLE: &str = "a kernel ran over floats whose bytes came from different writes";
/// Why a misaligned copy of kernel output has no modelled value.
const SHIFTED: &str = "kernel output copied to a different byte alignment";
/// Why the spin kernel's output has no modelled value.
pub(super) const SPUN: &str = "the output of the spin kernel";

impl Contents {
    /// A fresh buffer of `len` bytes, never written.
    pub(super) fn new(len: u64) -> Contents {
        let mut pieces = BTreeMap::new();
        if len > 0 {
            pieces.insert(0, (len, Piece::new(Base::Unwritten, 0)));
        }
        Contents { len, pieces }
    }

    pub(super) fn len(&self) -> u64 {
        self.len
    }

    /// How many pieces describe the buffer.
    #[cfg(test)]
    pub(super) fn piece_count(&self) -> usize {
        self.pieces.len()
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

    /// The pieces over `[start, end)`, clipped to it.
    pub(super) fn slice(&self, start: u64, end: u64) -> Vec<Span> {
        let first = self
            .pieces
            .range(..=start)
            .next_back()
            .map_or(start, |(&s, _)| s);
        self.pieces
            .range(first..end)
            .filter(|&(_, &(e, _))| e > start)
            .map(|(&s, (e, p))| {
                let lo = s.max(start);
                (lo, (*e).min(end), p.advanced(lo - s))
            })
            .collect()
    }

    /// Replace `[start, end)` by `spans` (which cover it exactly), merging with neighbours.
    fn put(&mut self, start: u64, end: u64, spans: Vec<Span>) {
        if start >= end {
            return;
        }
        // The pieces just outside [start, end), clipped to it: they stay, and may merge.
        let left = self
            .pieces
            .range(..start)
            .next_back()
            .map(|(&s, (_, p))| (s, start, p.clone()));
        let right = self
            .pieces
            .range(..=end)
            .next_back()
            .filter(|&(_, &(e, _))| e > end)
            .map(|(&s, (e, p))| (end, *e, p.advanced(end - s)));
        let lo = left.as_ref().map_or(start, |l| l.0);
        let hi = right.as_ref().map_or(end, |r| r.1);
        let gone: Vec<u64> = self.pieces.range(lo..hi).map(|(&s, _)| s).collect();
        for s in gone {
            self.pieces.remove(&s);
        }
        let mut run: Vec<Span> = Vec::with_capacity(spans.len() + 2);
        run.extend(left);
        run.extend(spans);
        run.extend(right);
        for span in coalesce(run) {
            self.pieces.insert(span.0, (span.1, span.2));
        }
    }

    /// Every whole float becomes [`crate::gpu::fill_pattern_f32`] of `seed`, the tail zero.
    pub(super) fn fill(&mut self, seed: u32) {
        let words = self.len & !3;
        let mut spans = vec![(0, words, Piece::new(Base::Fill { seed }, 0))];
        spans.push((words, self.len, Piece::new(Base::Unwritten, 0)));
        spans.retain(|s| s.0 < s.1);
        self.put(0, self.len, spans);
    }

    /// Write `base` (from its stream's start) over `[off, off + bytes)`.
    pub(super) fn write(&mut self, off: u64, bytes: u64, base: Base) {
        self.put(
            off,
            off + bytes,
            vec![(off, off + bytes, Piece::new(base, 0))],
        );
    }

    /// Copy `src[src_off ..][.. bytes]` here at `dst_off`. Kernel output moved to another byte
    /// alignment is no longer modelled (no program here does that).
    pub(super) fn copy_from(&mut self, dst_off: u64, src: &Contents, src_off: u64, bytes: u64) {
        let aligned = dst_off % 4 == src_off % 4;
        let spans = src
            .slice(src_off, src_off + bytes)
            .into_iter()
            .map(|(s, e, p)| {
                let p = if aligned || p.chain.is_empty() {
                    p
                } else {
                    Piece::new(Base::Opaque(SHIFTED), 0)
                };
                (s - src_off + dst_off, e - src_off + dst_off, p)
            })
            .collect();
        self.put(dst_off, dst_off + bytes, spans);
    }

    /// `x = x * a + b` over the floats of `[off, off + bytes)` (both multiples of 4). Floats
    /// assembled from two pieces have no modelled value.
    pub(super) fn transform(&mut self, off: u64, bytes: u64, a: f32, b: f32) {
        let mut spans = Vec::new();
        for (s, e, p) in self.slice(off, off + bytes) {
            let (s4, e4) = (s.next_multiple_of(4), e & !3);
            if matches!(p.base, Base::Opaque(_)) {
                spans.push((s, e, p));
                continue;
            }
            if s4 >= e4 {
                spans.push((s, e, Piece::new(Base::Opaque(STRADDLE), 0)));
                continue;
            }
            if s < s4 {
                spans.push((s, s4, Piece::new(Base::Opaque(STRADDLE), 0)));
            }
            let mut p = p.advanced(s4 - s);
            p.push_step(a, b);
            spans.push((s4, e4, p));
            if e4 < e {
                spans.push((e4, e, Piece::new(Base::Opaque(STRADDLE), 0)));
            }
        }
        self.put(off, off + bytes, spans);
    }

    /// `f32` number `index`, computed from the description.
    pub(super) fn read_f32(&self, index: u64) -> Result<f32, GpuError> {
        let off = index.saturating_mul(4);
        self.check_range("read", off, 4)?;
        let mut raw = [0u8; 4];
        for (s, e, p) in self.slice(off, off + 4) {
            for pos in s..e {
                raw[(pos - off) as usize] = p.byte_at(s, pos)?;
            }
        }
        Ok(f32::from_le_bytes(raw))
    }
}

/// Merge neighbouring spans that continue each other.
fn coalesce(spans: Vec<Span>) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for span in spans {
        if span.0 >= span.1 {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.1 == span.0 && last.2.continued_by(last.1 - last.0, &span.2) => {
                last.1 = span.1;
            }
            _ => out.push(span),
        }
    }
    out
}

#[cfg(test)]
mod tests;
