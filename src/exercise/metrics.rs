//! What the figures a program reports with `report(name, value)` are: the value with its unit,
//! a label people read, and the clock that measured it where that is known, the same fields
//! `run --json` gives an experiment's metrics.
//!
//! The unit comes from the name's suffix, the convention every exercise and experiment uses
//! (`total_ms`, `pinned_gbps`), so a metric the learner invents gets one too. The clock is
//! known on the simulator (every figure is the model's); on a live GPU a program may time with
//! `now_ms` (the host's clock) or with events (the device's), and the interpreter does not follow
//! which one a value came from, so it is left out there.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::experiment::metrics::{GBPS, MS, US};
use crate::report::{Clock, TimingSource};

/// One reported figure, as `exercise check --json` gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportedMetric {
    pub value: f64,
    /// Empty when the name's suffix does not say.
    pub unit: String,
    /// The name in words, e.g. `total time` for `total_ms`.
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// Samples behind the value, as in `run --json`: one `report` call is one.
    pub n: u32,
}

/// Name suffix, unit, and what a figure with that unit is.
const SUFFIXES: &[(&str, &str, &str)] = &[
    ("_ms", MS, "time"),
    ("_us", US, "time"),
    ("_gbps", GBPS, "bandwidth"),
];

/// `metrics` (name -> value, as the program reported them) with units, labels and clocks, on a
/// backend whose timeline comes from `timing`.
pub fn describe(
    metrics: &BTreeMap<String, f64>,
    timing: TimingSource,
) -> BTreeMap<String, ReportedMetric> {
    let clock = (timing == TimingSource::Model).then_some(Clock::Model);
    metrics
        .iter()
        .map(|(name, &value)| {
            let (unit, label) = unit_and_label(name);
            let m = ReportedMetric {
                value,
                unit: unit.to_string(),
                label,
                clock,
                n: 1,
            };
            (name.clone(), m)
        })
        .collect()
}

/// The unit a metric's name gives it, and the name in words.
fn unit_and_label(name: &str) -> (&'static str, String) {
    let words = |s: &str| s.replace('_', " ").trim().to_string();
    for (suffix, unit, noun) in SUFFIXES {
        if let Some(stem) = name.strip_suffix(suffix).filter(|s| !s.is_empty()) {
            return (unit, format!("{} {noun}", words(stem)));
        }
    }
    ("", words(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suffix_gives_the_unit_and_the_label_reads_as_words() {
        assert_eq!(unit_and_label("total_ms"), ("ms", "total time".into()));
        assert_eq!(
            unit_and_label("breadth_first_ms"),
            ("ms", "breadth first time".into())
        );
        assert_eq!(
            unit_and_label("pinned_gbps"),
            ("GB/s", "pinned bandwidth".into())
        );
        assert_eq!(unit_and_label("launch_us"), ("us", "launch time".into()));
        assert_eq!(unit_and_label("passes"), ("", "passes".into()));
        // A bare suffix is a name, not a unit.
        assert_eq!(unit_and_label("_ms"), ("", "ms".into()));
    }

    #[test]
    fn the_clock_is_the_model_on_the_simulator_and_unknown_live() {
        let m = BTreeMap::from([("total_ms".to_string(), 2.5)]);
        let sim = describe(&m, TimingSource::Model);
        assert_eq!(sim["total_ms"].clock, Some(Clock::Model));
        assert_eq!((sim["total_ms"].value, sim["total_ms"].n), (2.5, 1));
        for live in [TimingSource::Cupti, TimingSource::Events] {
            assert_eq!(describe(&m, live)["total_ms"].clock, None);
        }
    }
}
