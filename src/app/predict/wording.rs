//! How predictions and quoted values are worded: values with units, closeness bands, the
//! parameters of a run in words, and why a typed value is impossible for its metric.

use crate::experiment::ExperimentOptions;
use crate::experiment::options::format_bytes;
use crate::metric_text::format_metric;
use crate::report::{BackendKind, Metric};

/// How close a prediction came, in the bands every grade names.
pub fn closeness(off_pct: f64) -> &'static str {
    if off_pct <= 10.0 {
        "within 10%"
    } else if off_pct <= 25.0 {
        "within 25%"
    } else if off_pct <= 50.0 {
        "within 50%"
    } else {
        "more than 50% off"
    }
}

/// `value` with `unit` as the screen writes it: `2.50x`, `812 µs`, `55.1 GB/s`.
pub fn format_value_in(value: f64, unit: &str) -> String {
    format_metric(&Metric::new(value, unit))
}

/// `55.1 GB/s`, `8.10 GB/s (size 64 MiB)`, or with the backend that measured it where it is
/// not the one running now (`current`): `55.1 GB/s (simulated)`, `8.10 GB/s (on your GPU;
/// size 64 MiB)`. The status line says once where this screen's figures come from (review
/// 2026-12-01b: "(simulated)" was stamped on every figure).
pub(super) fn quoted(
    metric: &Metric,
    backend: BackendKind,
    current: Option<BackendKind>,
    params: Option<&str>,
) -> String {
    let value = format_metric(metric);
    let other = current.is_some_and(|now| now != backend);
    let stamp = other.then(|| backend_words(backend));
    match (stamp, params) {
        (None, None) => value,
        (Some(s), None) => format!("{value} ({s})"),
        (None, Some(p)) => format!("{value} ({p})"),
        (Some(s), Some(p)) => format!("{value} ({s}; {p})"),
    }
}

/// Where a figure was measured, in words: `simulated`, `on your GPU`.
pub fn backend_words(backend: BackendKind) -> &'static str {
    match backend {
        BackendKind::Simulated => "simulated",
        BackendKind::Cuda => "on your GPU",
    }
}

/// The options a learner set, in words: `size 64 MiB, 1 stream, 16 chunks, pageable memory`.
pub fn describe_options(o: &ExperimentOptions) -> String {
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    if let Some(size) = o.size {
        parts.push(format!("size {}", format_bytes(size)));
    }
    if let Some(s) = o.streams {
        parts.push(plural(s, "stream", "streams"));
    }
    if let Some(c) = o.chunks {
        parts.push(plural(c, "chunk", "chunks"));
    }
    if let Some(m) = o.host_mem {
        parts.push(format!("{} memory", m.name()));
    }
    if let Some(order) = o.issue_order {
        parts.push(format!("{} order", order.name()));
    }
    if let Some(r) = o.repetitions {
        parts.push(plural(r, "repetition", "repetitions"));
    }
    if parts.is_empty() {
        "parameters not recorded".to_string()
    } else {
        parts.join(", ")
    }
}

/// The unit of metric `name`, from the experiments' metric contract.
pub fn metric_unit(name: &str) -> Option<&'static str> {
    crate::experiment::registry::metric(name).map(|(_, spec)| spec.unit)
}

/// Why `value` cannot be a value of a metric in `unit`, if it cannot: every metric is positive,
/// and a ratio (bound / best) is at most 1.
pub fn domain_error(value: f64, unit: &str) -> Option<String> {
    let shown = format_metric(&Metric::new(value, unit));
    if !value.is_finite() {
        return Some("type a number such as 4.5, then Enter".to_string());
    }
    if value <= 0.0 {
        let what = match unit {
            "GB/s" => "a bandwidth",
            "x" => "a speedup",
            "us" | "ms" | "ms/GiB" => "a time",
            _ => "this value",
        };
        return Some(format!("{shown} cannot be right: {what} is more than 0"));
    }
    if unit == "ratio" && value > 1.0 {
        return Some(format!("{shown} cannot be right: this ratio is at most 1"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::HostMemKind;

    #[test]
    fn a_figure_names_its_backend_only_where_another_one_runs_now() {
        let m = Metric::new(55.1, "GB/s");
        let (sim, gpu) = (BackendKind::Simulated, BackendKind::Cuda);
        assert_eq!(quoted(&m, sim, Some(sim), None), "55.1 GB/s");
        assert_eq!(
            quoted(&m, sim, None, Some("size 4 MiB")),
            "55.1 GB/s (size 4 MiB)"
        );
        assert_eq!(quoted(&m, sim, Some(gpu), None), "55.1 GB/s (simulated)");
        assert_eq!(
            quoted(&m, gpu, Some(sim), Some("1 stream")),
            "55.1 GB/s (on your GPU; 1 stream)"
        );
    }

    #[test]
    fn closeness_bands_and_domains() {
        assert_eq!(closeness(9.9), "within 10%");
        assert_eq!(closeness(40.4), "within 50%");
        assert_eq!(closeness(51.0), "more than 50% off");
        assert!(domain_error(-5.0, "GB/s").unwrap().contains("bandwidth"));
        assert!(domain_error(0.0, "x").unwrap().contains("speedup"));
        assert!(domain_error(1.5, "ratio").is_some());
        assert_eq!(domain_error(2.5, "x"), None);
        assert_eq!(metric_unit("speedup"), Some("x"));
        assert_eq!(metric_unit("nope"), None);
    }

    #[test]
    fn options_read_as_words() {
        let o = ExperimentOptions {
            size: Some(64 << 20),
            streams: Some(1),
            chunks: Some(16),
            host_mem: Some(HostMemKind::Pageable),
            ..ExperimentOptions::default()
        };
        assert_eq!(
            describe_options(&o),
            "size 64 MiB, 1 stream, 16 chunks, pageable memory"
        );
    }
}
