//! Exact comparison of two descriptions: where they describe the same thing the values are the
//! same, with no float computed; where they differ, floats are computed to find the first one
//! that differs, and the message says what the range holds instead.

use super::{Base, Contents, Span};
use crate::gpu::{GpuError, Mismatch, same_value};

/// Floats computed at most per comparison where descriptions differ. Enough to find the first
/// differing float of any real bug at once; the rest is decided by the descriptions.
const SCAN_LIMIT: u64 = 1 << 16;

impl Contents {
    /// A buffer of `len` bytes described by `spans` (which cover it).
    pub(in crate::gpu::sim) fn from_spans(len: u64, spans: Vec<Span>) -> Contents {
        let mut c = Contents::new(len);
        for (s, e, p) in spans {
            c.pieces.insert(s, (e, p));
        }
        c
    }

    /// The first float of `[0, len)` where `self` differs from `expected` (same length).
    pub(in crate::gpu::sim) fn first_mismatch(
        &self,
        expected: &Contents,
    ) -> Result<Option<Mismatch>, GpuError> {
        let (want, got) = (expected.slice(0, self.len), self.slice(0, self.len));
        let (mut i, mut j, mut budget) = (0, 0, SCAN_LIMIT);
        while i < want.len() && j < got.len() {
            let (ws, we, wp) = &want[i];
            let (gs, ge, gp) = &got[j];
            let (x, y) = ((*ws).max(*gs), (*we).min(*ge));
            let (w, g) = (wp.advanced(x - ws), gp.advanced(x - gs));
            let opaque = matches!(g.base, Base::Opaque(_));
            if opaque || w.normalized() != g.normalized() {
                let note = format!("there it holds {}; expected {}", g.describe(), w.describe());
                if let Some(m) = self.scan(expected, (x, y), &mut budget, &note)? {
                    return Ok(Some(m));
                }
            }
            if *we == y {
                i += 1;
            }
            if *ge == y {
                j += 1;
            }
        }
        Ok(None)
    }

    /// Compute the floats over bytes `[x, y)` until one differs or the budget runs out; when it
    /// runs out first, the differing descriptions decide.
    fn scan(
        &self,
        expected: &Contents,
        (x, y): (u64, u64),
        budget: &mut u64,
        note: &str,
    ) -> Result<Option<Mismatch>, GpuError> {
        let (first, last) = (x / 4, (y - 1) / 4);
        let mut k = first;
        while k <= last && k * 4 + 4 <= self.len {
            if *budget == 0 {
                let want = expected.read_f32(first)?;
                let note = format!("{note} (the floats computed so far match)");
                return Ok(Some(mismatch(first, want, self.read_f32(first).ok(), note)));
            }
            *budget -= 1;
            let want = expected.read_f32(k)?;
            let got = self.read_f32(k).ok();
            if !got.is_some_and(|g| same_value(want, g)) {
                return Ok(Some(mismatch(k, want, got, note.to_string())));
            }
            k += 1;
        }
        Ok(None)
    }
}

fn mismatch(index: u64, expected: f32, got: Option<f32>, note: String) -> Mismatch {
    Mismatch {
        index,
        expected,
        got,
        note: Some(note),
    }
}
