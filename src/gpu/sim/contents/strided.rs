//! The strided kernel's effect on a description (`dst[i] = src[i] * a + b` for every
//! `stride`-th float) and the host's checksum of every `stride`-th float, both exact.

use super::{Base, Contents, Piece};
use crate::gpu::{GpuError, strided_pattern_sum};

impl Contents {
    /// `self[i] = src[i] * a + b` for every `stride`-th of the first `bytes / 4` floats (float
    /// 0 included); the other floats keep what they held. One piece per touched float when the
    /// stride is above 1, so a sparse access leaves as many pieces as it touched floats.
    pub(in crate::gpu::sim) fn transform_strided_from(
        &mut self,
        src: &Contents,
        bytes: u64,
        stride: u64,
        (a, b): (f32, f32),
    ) {
        let floats = bytes / 4;
        if stride <= 1 {
            self.copy_from(0, src, 0, floats * 4);
            self.transform(0, floats * 4, a, b);
            return;
        }
        for i in (0..floats).step_by(stride as usize) {
            self.copy_from(i * 4, src, i * 4, 4);
            self.transform(i * 4, 4, a, b);
        }
    }

    /// The sum, in `f64`, of every `stride`-th of the first `bytes / 4` floats.
    pub(in crate::gpu::sim) fn strided_sum(
        &self,
        bytes: u64,
        stride: u64,
    ) -> Result<f64, GpuError> {
        self.check_range("checksum", 0, bytes)?;
        let stride = stride.max(1);
        let step = stride * 4;
        let mut sum = 0.0;
        for (s, e, p) in self.slice(0, bytes & !3) {
            // The first touched float at or after `s` whose bytes all lie in this span.
            let first = s.div_ceil(step) * step;
            if first + 4 > e {
                continue;
            }
            let count = (e - 4 - first) / step + 1;
            sum += span_sum(&p, s, (first, count, stride))?;
        }
        Ok(sum)
    }
}

/// The sum over one piece (starting at buffer offset `start`) of `count` floats from byte
/// `first` on, `stride` floats apart.
fn span_sum(
    p: &Piece,
    start: u64,
    (first, count, stride): (u64, u64, u64),
) -> Result<f64, GpuError> {
    let k = p.origin + (first - start);
    if let Base::Fill { seed } = p.base
        && k.is_multiple_of(4)
    {
        return Ok(strided_pattern_sum(seed, (k / 4, count, stride), |x| {
            p.apply_chain(x)
        }));
    }
    (0..count)
        .map(|i| p.float_at(start, first + i * stride * 4).map(f64::from))
        .sum()
}
