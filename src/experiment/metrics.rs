//! Metric units, and the helpers experiments record metrics with. Which metrics each experiment
//! reports (names, units, labels, clocks) is declared in [`super::registry`].

use std::collections::BTreeMap;

use crate::report::{Metric, Spread};

use super::stats::Summary;

/// Decimal gigabytes per second (1e9 bytes/s), as bandwidthTest and nvbandwidth print.
pub const GBPS: &str = "GB/s";
/// Milliseconds per GiB of host memory.
pub const MS_PER_GIB: &str = "ms/GiB";
/// Microseconds.
pub const US: &str = "us";
/// Milliseconds.
pub const MS: &str = "ms";
/// A count of streams.
pub const STREAMS: &str = "streams";
/// A count of chunks.
pub const CHUNKS: &str = "chunks";
/// A ratio of two times (`speedup`: sequential / best).
pub const TIMES: &str = "x";
/// A fraction from 0 to 1 (`efficiency`: bound / best).
pub const RATIO: &str = "ratio";

/// Insert `name = value unit`.
pub fn put(metrics: &mut BTreeMap<String, Metric>, name: &str, value: f64, unit: &str) {
    metrics.insert(name.to_string(), Metric::new(value, unit));
}

/// Insert `name` as the median of `samples` (scaled by `scale`, e.g. 1e-3 for µs to ms), with
/// the sample count and spread.
pub fn put_summary(
    metrics: &mut BTreeMap<String, Metric>,
    name: &str,
    samples: &Summary,
    scale: f64,
    unit: &str,
) {
    let spread = Spread {
        min: samples.min * scale,
        max: samples.max * scale,
        iqr: samples.iqr * scale,
    };
    let n = u32::try_from(samples.count).unwrap_or(u32::MAX);
    let metric = Metric::new(samples.median * scale, unit).with_samples(n, spread);
    metrics.insert(name.to_string(), metric);
}

/// Insert a value derived from other metrics (a ratio, a bound): `n` is the fewest samples of
/// its inputs, and it has no spread of its own.
pub fn put_derived(
    metrics: &mut BTreeMap<String, Metric>,
    name: &str,
    value: f64,
    unit: &str,
    inputs: &[&str],
) {
    let n = inputs
        .iter()
        .filter_map(|i| metrics.get(*i).map(|m| m.n))
        .min()
        .unwrap_or(1);
    let mut metric = Metric::new(value, unit);
    metric.n = n;
    metrics.insert(name.to_string(), metric);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_keep_count_and_spread_and_derived_values_take_the_fewest_samples() {
        let mut m = BTreeMap::new();
        let s = Summary::of(&[1000.0, 2000.0, 4000.0]).expect("samples");
        put_summary(&mut m, "a_ms", &s, 1e-3, MS);
        assert_eq!(m["a_ms"].value, 2.0);
        assert_eq!(m["a_ms"].n, 3);
        let spread = m["a_ms"].spread.expect("three samples have a spread");
        assert_eq!((spread.min, spread.max), (1.0, 4.0));
        put(&mut m, "b_ms", 1.0, MS);
        assert!(m["b_ms"].spread.is_none());
        put_derived(&mut m, "ratio", 2.0, TIMES, &["a_ms", "b_ms"]);
        assert_eq!(m["ratio"].n, 1);
        let one = Summary::of(&[5.0]).expect("one sample");
        put_summary(&mut m, "c", &one, 1.0, MS);
        assert!(m["c"].spread.is_none(), "one sample has no spread");
    }
}
