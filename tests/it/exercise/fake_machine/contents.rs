//! The fake machine's buffer contents, as descriptions: which fill seed, shifted how far,
//! transformed how often. Copies move descriptions, so a 256 MiB buffer costs a few segments.

use cuda_academy::exercise::{TRANSFORM_A, TRANSFORM_B};
use cuda_academy::gpu::fill_pattern_f32;

/// What a byte range holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fill {
    /// Float at byte `o` is transform^t(pattern(seed, (o - origin) / 4)).
    Pattern {
        seed: u32,
        origin: i64,
        t: u8,
    },
    Zero,
    Value(f32),
}

#[derive(Debug, Clone, Copy)]
pub struct Seg {
    pub start: u64,
    pub end: u64,
    pub fill: Fill,
}

/// The float at byte `offset` of a range described by `fill`.
pub fn value(fill: Fill, offset: u64) -> f32 {
    match fill {
        Fill::Zero => 0.0,
        Fill::Value(v) => v,
        Fill::Pattern { seed, origin, t } => {
            let mut x = fill_pattern_f32(seed, ((offset as i64 - origin) / 4) as u64);
            for _ in 0..t {
                x = x * TRANSFORM_A + TRANSFORM_B;
            }
            x
        }
    }
}

/// Replace `[start, end)` of `segs` with `new`.
pub fn put(segs: &mut Vec<Seg>, start: u64, end: u64, new: Vec<Seg>) {
    let mut out = Vec::new();
    for s in segs.drain(..) {
        if s.end <= start || s.start >= end {
            out.push(s);
            continue;
        }
        if s.start < start {
            out.push(Seg { end: start, ..s });
        }
        if s.end > end {
            out.push(Seg { start: end, ..s });
        }
    }
    out.extend(new);
    out.sort_by_key(|s| s.start);
    *segs = out;
}

/// The segments of `[start, start + bytes)`, moved by `shift` bytes and transformed `dt` times.
pub fn carry(segs: &[Seg], start: u64, bytes: u64, shift: i64, dt: u8) -> Vec<Seg> {
    let end = start + bytes;
    segs.iter()
        .filter(|s| s.end > start && s.start < end)
        .map(|s| {
            let fill = match s.fill {
                Fill::Pattern { seed, origin, t } => Fill::Pattern {
                    seed,
                    origin: origin + shift,
                    t: t + dt,
                },
                Fill::Value(v) if dt > 0 => Fill::Value(v * TRANSFORM_A + TRANSFORM_B),
                Fill::Zero if dt > 0 => Fill::Value(TRANSFORM_B),
                f => f,
            };
            Seg {
                start: (s.start.max(start) as i64 + shift) as u64,
                end: (s.end.min(end) as i64 + shift) as u64,
                fill,
            }
        })
        .collect()
}
