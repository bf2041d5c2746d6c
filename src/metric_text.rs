//! Metrics for people: labels come from the experiment registry (`pinned_h2d_gbps` reads
//! "pinned H2D"), values are printed with sensible precision and a unit that fits their size
//! (`55.1 GB/s`, `8.29 ms` rather than `8294 µs`, `1.84x`, `1 stream`), and each value can say
//! how it was measured (`median of 5 · IQR 0.31 · device-cupti`). Below `app` and `ui`, which
//! both print metrics (`ui::metrics` is this module).

use crate::experiment::registry;
use crate::report::{Clock, Metric};
use crate::timeline::format::format_duration_us;

/// The label of metric `name` (its raw name when the registry does not declare it).
pub fn label(name: &str) -> &str {
    registry::label(name)
}

/// The order `experiment`'s metrics are listed in: the registry's order, then the rest.
pub fn rank(experiment: &str, name: &str) -> usize {
    registry::find(experiment)
        .and_then(|spec| spec.metrics.iter().position(|m| m.name == name))
        .unwrap_or(usize::MAX)
}

/// `value unit` with three significant digits or so: `55.1 GB/s`, `812 µs`, `8.29 ms`, `1.84x`,
/// `3 streams`, `1 stream`.
pub fn format_metric(metric: &Metric) -> String {
    format_in(metric.value, &metric.unit)
}

/// `value` in `unit`, as [`format_metric`] writes it.
pub fn format_in(v: f64, unit: &str) -> String {
    let value = format_value(v);
    match unit {
        "x" => format!("{value}x"),
        "ratio" | "" => value,
        // Times pick the unit that fits them, as the timeline does.
        "us" => format_duration_us(v),
        "ms" => format_duration_us(v * 1e3),
        "streams" | "chunks" if v == 1.0 => format!("1 {}", unit.trim_end_matches('s')),
        unit => format!("{value} {unit}"),
    }
}

/// How a metric was measured, for people: `n=5 · IQR 0.310 GB/s · device-cupti`. The clock is
/// left out when it is `common` to every metric shown (the heading says it once), and a zero
/// spread is not printed. A modelled figure (the simulator's) has neither count nor spread:
/// its repeats are one computation, so an IQR of nanoseconds there is rounding, not variation
/// (review 2026-12-01b).
pub fn provenance(metric: &Metric, common: Option<Clock>) -> String {
    let mut parts = Vec::new();
    let measured = metric.clock != Some(Clock::Model);
    if metric.n > 1 && measured {
        parts.push(format!("n={}", metric.n));
    }
    if let Some(spread) = metric.spread.filter(|s| s.iqr > 0.0 && measured) {
        parts.push(format!("IQR {}", format_in(spread.iqr, &metric.unit)));
    }
    if let Some(clock) = metric.clock.filter(|c| Some(*c) != common) {
        parts.push(clock.name().to_string());
    }
    parts.join(" · ")
}

/// The clock every metric of `metrics` shares, if they all have the same one.
pub fn common_clock<'a>(mut metrics: impl Iterator<Item = &'a Metric>) -> Option<Clock> {
    let first = metrics.next()?.clock?;
    metrics.all(|m| m.clock == Some(first)).then_some(first)
}

/// A number with about three significant digits (whole numbers stay whole).
pub fn format_value(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".to_string();
    }
    let a = v.abs();
    if (v.fract() == 0.0 && a < 1e9) || a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Spread;

    #[test]
    fn values_read_like_a_person_wrote_them() {
        assert_eq!(format_metric(&Metric::new(55.123, "GB/s")), "55.1 GB/s");
        assert_eq!(format_metric(&Metric::new(1.8412, "x")), "1.84x");
        assert_eq!(format_metric(&Metric::new(3.0, "streams")), "3 streams");
        assert_eq!(format_metric(&Metric::new(1.0, "streams")), "1 stream");
        assert_eq!(format_metric(&Metric::new(1.0, "chunks")), "1 chunk");
        assert_eq!(format_metric(&Metric::new(812.4, "us")), "812 µs");
        assert_eq!(format_metric(&Metric::new(8294.0, "us")), "8.29 ms");
        assert_eq!(format_metric(&Metric::new(0.5, "ms")), "500 µs");
        assert_eq!(format_metric(&Metric::new(0.9312, "ratio")), "0.931");
        assert_eq!(label("pinned_h2d_gbps"), "pinned H2D");
        assert_eq!(label("made_up"), "made_up");
    }

    #[test]
    fn provenance_says_clock_count_and_spread() {
        let mut m = Metric::new(55.1, "GB/s").with_samples(
            5,
            Spread {
                min: 54.0,
                max: 56.0,
                iqr: 0.31,
            },
        );
        m.clock = Some(Clock::DeviceCupti);
        assert_eq!(provenance(&m, None), "n=5 · IQR 0.310 GB/s · device-cupti");
        assert_eq!(
            provenance(&m, Some(Clock::DeviceCupti)),
            "n=5 · IQR 0.310 GB/s"
        );
        let mut one = Metric::new(3.0, "streams");
        one.clock = Some(Clock::Model);
        assert_eq!(provenance(&one, None), "model");
        assert_eq!(provenance(&one, Some(Clock::Model)), "");
        // The simulator's repeats are one computation: no count, no spread.
        let mut modelled = m.clone();
        modelled.clock = Some(Clock::Model);
        assert_eq!(provenance(&modelled, None), "model");
        assert_eq!(common_clock([&m, &one].into_iter()), None);
        assert_eq!(common_clock([&one, &one].into_iter()), Some(Clock::Model));
    }
}
