//! Memory a kernel reads without an explicit copy (issue 30, "alternatives to copying"): managed
//! memory (`cuMemAllocManaged`, pages that migrate to whichever side touches them, or ahead of
//! time with `cuMemPrefetchAsync`) and mapped pinned memory (`cuMemHostAlloc` with
//! `CU_MEMHOSTALLOC_DEVICEMAP`, host pages the kernel reads in place across the link), and the
//! one kernel the `alternatives` experiment runs over either kind or over device memory.

use super::{DevBuf, HostBuf};

/// A managed or mapped buffer, owned by the backend; the host and the device both address it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnifiedBuf(pub u32);

/// Which kind of memory a [`UnifiedBuf`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnifiedKind {
    /// `cuMemAllocManaged(.., CU_MEM_ATTACH_GLOBAL)`: one address, pages migrate on demand.
    Managed,
    /// `cuMemHostAlloc(.., CU_MEMHOSTALLOC_DEVICEMAP)` and `cuMemHostGetDevicePointer`: pinned
    /// host pages that stay on the host; every device access crosses the link.
    Mapped,
}

/// Where `cuMemPrefetchAsync` moves managed pages to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The device of the backend (`CU_MEM_LOCATION_TYPE_DEVICE`).
    Device,
    /// Host memory (`CU_MEM_LOCATION_TYPE_HOST`).
    Host,
}

/// What the strided kernel reads or writes: device memory or a unified buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    Dev(DevBuf),
    Unified(UnifiedBuf),
}

/// A buffer the host reads: host memory or a unified buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostView {
    Host(HostBuf),
    Unified(UnifiedBuf),
}

/// Which floats the strided kernel touches and how often: every `stride`-th float (1 = all),
/// `passes` times over (the result is the same; the reads are what differ).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    pub stride: u64,
    pub passes: u32,
}

impl Access {
    /// The floats of a `bytes`-long buffer this access touches (float 0, `stride`, ...).
    pub fn touched(self, bytes: u64) -> u64 {
        (bytes / 4).div_ceil(self.stride.max(1))
    }
}

/// The sum, in `f64`, of `map(fill_pattern_f32(seed, first + k * stride))` for `k` in
/// `0..count`. The pattern repeats every [`super::FILL_PATTERN_PERIOD`] floats, so at most two
/// cycles of it are evaluated however large `count` is; every term is a multiple of 1/16 below
/// 2^8 in magnitude, so the sum is exact in `f64` in any order (up to 2^40 terms).
pub fn strided_pattern_sum(
    seed: u32,
    (first, count, stride): (u64, u64, u64),
    map: impl Fn(f32) -> f32,
) -> f64 {
    let period = super::FILL_PATTERN_PERIOD;
    let stride = stride.max(1);
    let cycle = period / gcd(stride % period, period);
    let term = |k: u64| f64::from(map(super::fill_pattern_f32(seed, first + k * stride)));
    if count <= 2 * cycle {
        return (0..count).map(term).sum();
    }
    let whole: f64 = (0..cycle).map(term).sum();
    let rest: f64 = (0..count % cycle).map(term).sum();
    whole * (count / cycle) as f64 + rest
}

fn gcd(a: u64, b: u64) -> u64 {
    if a == 0 { b } else { gcd(b % a, a) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::{FILL_PATTERN_PERIOD, fill_pattern_f32};

    #[test]
    fn the_pattern_sum_over_many_cycles_is_the_plain_sum() {
        let double = |x: f32| x * 2.0 + 1.0;
        for stride in [1, 3, 16384] {
            let count = 2 * FILL_PATTERN_PERIOD + 12_345;
            let plain: f64 = (0..count)
                .map(|k| f64::from(double(fill_pattern_f32(7, 5 + k * stride))))
                .sum();
            assert_eq!(strided_pattern_sum(7, (5, count, stride), double), plain);
        }
    }

    #[test]
    fn an_access_touches_every_stride_th_float() {
        let a = Access {
            stride: 4,
            passes: 1,
        };
        assert_eq!(a.touched(64), 4);
        assert_eq!(a.touched(68), 5);
        assert_eq!(
            Access {
                stride: 1,
                passes: 2
            }
            .touched(64),
            16
        );
    }
}
