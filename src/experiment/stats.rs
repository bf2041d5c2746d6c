//! Summaries of repeated measurements: median, interquartile range, minimum.

/// A summary of repeated samples of one quantity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// Interquartile range (q3 - q1): the spread that one outlier cannot inflate.
    pub iqr: f64,
    pub count: usize,
}

impl Summary {
    /// Summarise `samples` (NaNs are dropped); `None` when nothing is left.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        let mut v: Vec<f64> = samples.iter().copied().filter(|x| !x.is_nan()).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        Some(Summary {
            median: quantile(&v, 0.5),
            min: v[0],
            max: v[v.len() - 1],
            iqr: quantile(&v, 0.75) - quantile(&v, 0.25),
            count: v.len(),
        })
    }
}

/// Linear-interpolated quantile of sorted, non-empty data.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let frac = pos - lo as f64;
    sorted[lo] + (sorted[hi] - sorted[lo]) * frac
}

/// The median of `samples`, or 0 when there are none.
pub fn median(samples: &[f64]) -> f64 {
    Summary::of(samples).map_or(0.0, |s| s.median)
}

/// Bytes per microsecond expressed as decimal GB/s (1e9 bytes/s), 0 for a zero time.
pub fn gbps(bytes: u64, micros: f64) -> f64 {
    crate::units::gbps(bytes, micros).unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_iqr_of_odd_and_even_counts() {
        let s = Summary::of(&[5.0, 1.0, 3.0]).unwrap();
        assert_eq!((s.median, s.min, s.max), (3.0, 1.0, 5.0));
        assert_eq!(s.iqr, 2.0);
        let s = Summary::of(&[4.0, 1.0, 2.0, 3.0]).unwrap();
        assert_eq!(s.median, 2.5);
        assert!(Summary::of(&[f64::NAN]).is_none());
    }

    #[test]
    fn gbps_is_decimal() {
        assert!((gbps(1_000_000_000, 1e6) - 1.0).abs() < 1e-12);
        assert_eq!(gbps(10, 0.0), 0.0);
    }
}
