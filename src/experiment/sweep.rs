//! Size sweeps and repetition counts: small sizes are cheap and noisy, so they get more
//! repetitions; large ones fewer.

use super::options::{KIB, MIB};

/// The smallest size of every bandwidth sweep.
pub const SWEEP_MIN: u64 = 4 * KIB;

/// Sizes from [`SWEEP_MIN`] up to `largest`, by `factor` (2 or 4), always ending at `largest`.
pub fn sizes(largest: u64, factor: u64) -> Vec<u64> {
    let factor = factor.max(2);
    let mut out = Vec::new();
    let mut s = SWEEP_MIN.min(largest);
    while s < largest {
        out.push(s);
        s = s.saturating_mul(factor);
    }
    out.push(largest);
    out
}

/// Timed repetitions for one size (a run of at least about 3 per size keeps the median honest).
pub fn repetitions(bytes: u64, requested: Option<u32>) -> u32 {
    if let Some(r) = requested {
        return r;
    }
    match bytes {
        b if b <= MIB => 20,
        b if b <= 16 * MIB => 10,
        b if b <= 64 * MIB => 5,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_ends_at_the_largest_size() {
        assert_eq!(sizes(64 * KIB, 4), vec![4 * KIB, 16 * KIB, 64 * KIB]);
        assert_eq!(
            sizes(100 * KIB, 4),
            vec![4 * KIB, 16 * KIB, 64 * KIB, 100 * KIB]
        );
        assert_eq!(sizes(1024, 2), vec![1024]);
        assert!(repetitions(256 * MIB, None) < repetitions(4 * KIB, None));
    }
}
