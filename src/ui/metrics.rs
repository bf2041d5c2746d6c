//! Metric names for people: the contract names (`pinned_h2d_gbps`) get friendly labels, and
//! values are printed with sensible precision and their unit (`55.1 GB/s`, `1.84x`, `0.93`).

use crate::report::Metric;

/// Friendly labels for the contract metric names; others show their raw name.
const LABELS: &[(&str, &str)] = &[
    ("pinned_h2d_gbps", "pinned H2D"),
    ("pinned_d2h_gbps", "pinned D2H"),
    ("pageable_h2d_gbps", "pageable H2D"),
    ("pageable_d2h_gbps", "pageable D2H"),
    ("pinned_over_pageable", "pinned / pageable"),
    ("pinned_alloc_ms_per_gib", "cudaMallocHost"),
    ("pageable_alloc_ms_per_gib", "malloc + first touch"),
    ("register_ms_per_gib", "cudaHostRegister"),
    ("write_combined_h2d_gbps", "write-combined H2D"),
    ("registered_h2d_gbps", "registered H2D"),
    ("async_return_us_pinned", "async returns (pinned)"),
    ("async_return_us_pageable", "async returns (pageable)"),
    ("copy_done_us_pinned", "copy done (pinned)"),
    ("copy_done_us_pageable", "copy done (pageable)"),
    ("legacy_default_ms", "legacy default stream"),
    ("nonblocking_ms", "non-blocking streams"),
    ("sequential_ms", "sequential"),
    ("best_ms", "best pipeline"),
    ("best_streams", "best streams"),
    ("best_chunks", "best chunks"),
    ("speedup", "speedup"),
    ("bidirectional_gbps", "both directions"),
    ("bound_ms", "lower bound"),
    ("efficiency", "bound / best"),
    ("pinned_h2d_small_copy_us", "small H2D copy, pinned"),
    ("pinned_d2h_small_copy_us", "small D2H copy, pinned"),
    ("pageable_h2d_small_copy_us", "small H2D copy, pageable"),
    ("pageable_d2h_small_copy_us", "small D2H copy, pageable"),
    ("pinned_free_ms_per_gib", "cudaFreeHost"),
    ("pageable_free_ms_per_gib", "free"),
    ("unregister_ms_per_gib", "cudaHostUnregister"),
    ("write_combined_d2h_gbps", "write-combined D2H"),
    ("registered_d2h_gbps", "registered D2H"),
    ("copy_ms", "the copy alone"),
    ("spin_kernel_ms", "the kernel alone"),
    ("h2d_alone_ms", "H2D alone"),
    ("d2h_alone_ms", "D2H alone"),
    ("kernel_alone_ms", "kernel alone"),
    ("recorded_ms", "recorded run (timeline on)"),
    ("instrumentation_overhead_pct", "timeline recording cost"),
];

/// The label of metric `name`.
pub fn label(name: &str) -> &str {
    LABELS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(name, |(_, l)| l)
}

/// The order metrics are listed in: the labelled ones in table order, then the rest by name.
pub fn rank(name: &str) -> usize {
    LABELS
        .iter()
        .position(|(n, _)| *n == name)
        .unwrap_or(LABELS.len())
}

/// `value unit` with three significant digits or so: `55.1 GB/s`, `812 us`, `1.84x`, `3 streams`.
pub fn format_metric(metric: &Metric) -> String {
    let value = format_value(metric.value);
    match metric.unit.as_str() {
        "x" => format!("{value}x"),
        "ratio" | "" => value,
        "us" => format!("{value} µs"),
        unit => format!("{value} {unit}"),
    }
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

    #[test]
    fn values_read_like_a_person_wrote_them() {
        assert_eq!(format_metric(&Metric::new(55.123, "GB/s")), "55.1 GB/s");
        assert_eq!(format_metric(&Metric::new(1.8412, "x")), "1.84x");
        assert_eq!(format_metric(&Metric::new(3.0, "streams")), "3 streams");
        assert_eq!(format_metric(&Metric::new(812.4, "us")), "812 µs");
        assert_eq!(format_metric(&Metric::new(0.9312, "ratio")), "0.931");
        assert_eq!(label("pinned_h2d_gbps"), "pinned H2D");
        assert_eq!(label("made_up"), "made_up");
    }
}
