//! Pass criteria: what each kind reads from a run and how it is graded.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::CheckResult;
use crate::exercise::hazards::Hazard;
use crate::exercise::interp::Outcome;

/// One pass criterion of an exercise (`[[criteria]]` in `exercise.toml`, tagged by `kind`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Criterion {
    /// `check_output` was called, returned true every time, and the passing checks covered
    /// every byte of the buffer the last device-to-host copy wrote (the program's result).
    OutputCorrect,
    /// The hazard checker found nothing, warnings included.
    NoHazards,
    /// Each metric was reported with `report`.
    MetricsReported { metrics: Vec<String> },
    /// `metric` is within `tolerance_pct` percent of the reference run's.
    MetricNearReference { metric: String, tolerance_pct: f64 },
    /// `metric` is at least `fraction` of the reference run's (for rates).
    MetricAtLeastReference { metric: String, fraction: f64 },
    /// `metric` is at most `factor` times the reference run's (for times).
    MetricAtMostReference { metric: String, factor: f64 },
    /// The run pinned host memory (`cudaMallocHost`, `cudaHostAlloc`, `cudaHostRegister`) at
    /// most `count` times, counted from the call log (see `verdict/pins.rs`).
    PinsAtMost { count: u32 },
    /// `metric` is at most `fraction` of the sum of `parts` (all from this run).
    MetricBelowSum {
        metric: String,
        parts: Vec<String>,
        fraction: f64,
    },
}

impl Criterion {
    /// Whether grading needs the reference run.
    pub(super) fn needs_reference(&self) -> bool {
        matches!(
            self,
            Criterion::MetricNearReference { .. }
                | Criterion::MetricAtLeastReference { .. }
                | Criterion::MetricAtMostReference { .. }
        )
    }

    /// Problems with the criterion's own numbers.
    pub fn validate(&self) -> Result<(), String> {
        let ok = match self {
            Criterion::MetricNearReference {
                tolerance_pct: x, ..
            } => *x > 0.0 && *x <= 100.0,
            Criterion::MetricAtLeastReference { fraction: x, .. }
            | Criterion::MetricBelowSum { fraction: x, .. } => *x > 0.0 && *x <= 1.0,
            Criterion::MetricAtMostReference { factor, .. } => *factor >= 1.0,
            Criterion::MetricsReported { metrics } => !metrics.is_empty(),
            Criterion::PinsAtMost { count } => *count >= 1,
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            Err(format!("criterion {self:?} has numbers out of range"))
        }
    }
}

pub(super) fn grade(
    c: &Criterion,
    out: &Outcome,
    hazards: &[Hazard],
    reference: Option<&Result<BTreeMap<String, f64>, String>>,
) -> CheckResult {
    let metric = |m: &str| out.metrics.get(m).copied();
    let refm = |m: &str| -> Result<f64, String> {
        match reference {
            Some(Ok(r)) => r
                .get(m)
                .copied()
                .ok_or_else(|| format!("the reference run did not report `{m}`")),
            Some(Err(e)) => Err(e.clone()),
            None => Err("no reference run".into()),
        }
    };
    let (name, result): (String, Result<String, String>) = match c {
        Criterion::OutputCorrect => ("output is correct".into(), output_correct(out)),
        Criterion::NoHazards => (
            "no hazards".into(),
            match hazards.first() {
                None => Ok("none found".into()),
                Some(_) => {
                    let shown: Vec<String> = hazards
                        .iter()
                        .take(3)
                        .map(|h| format!("{} (line {})", h.kind.name(), h.line))
                        .collect();
                    let more = hazards.len().saturating_sub(3);
                    let tail = if more > 0 {
                        format!(" and {more} more")
                    } else {
                        String::new()
                    };
                    Err(format!("{}{tail}", shown.join(", ")))
                }
            },
        ),
        Criterion::MetricsReported { metrics } => (format!("reports {}", metrics.join(", ")), {
            let missing: Vec<&str> = metrics
                .iter()
                .map(String::as_str)
                .filter(|m| metric(m).is_none())
                .collect();
            if missing.is_empty() {
                Ok("all reported".into())
            } else {
                Err(format!("not reported: {}", missing.join(", ")))
            }
        }),
        Criterion::MetricNearReference {
            metric: m,
            tolerance_pct,
        } => (
            format!("{m} within {tolerance_pct}% of this machine's"),
            compare(metric(m), refm(m), m, |x, r| {
                (
                    (x - r).abs() / r.abs().max(1e-12) * 100.0 <= *tolerance_pct,
                    format!("{x:.3} vs {r:.3}"),
                )
            }),
        ),
        Criterion::MetricAtLeastReference {
            metric: m,
            fraction,
        } => (
            format!("{m} at least {:.0}% of this machine's", fraction * 100.0),
            compare(metric(m), refm(m), m, |x, r| {
                (
                    x >= fraction * r,
                    format!(
                        "{x:.3}, needs {:.3} ({:.0}% of {r:.3})",
                        fraction * r,
                        fraction * 100.0
                    ),
                )
            }),
        ),
        Criterion::MetricAtMostReference { metric: m, factor } => (
            format!("{m} at most {factor}x this machine's"),
            compare(metric(m), refm(m), m, |x, r| {
                (
                    x <= factor * r,
                    format!(
                        "{x:.3}, needs at most {:.3} ({factor} x {r:.3})",
                        factor * r
                    ),
                )
            }),
        ),
        Criterion::PinsAtMost { count } => super::pins::grade(out, *count),
        Criterion::MetricBelowSum {
            metric: m,
            parts,
            fraction,
        } => (
            format!(
                "{m} at most {:.0}% of {}",
                fraction * 100.0,
                parts.join(" + ")
            ),
            {
                let sum: Option<f64> = parts.iter().map(|p| metric(p)).sum();
                compare(
                    metric(m),
                    sum.ok_or_else(|| format!("not all of {} were reported", parts.join(", "))),
                    m,
                    |x, s| {
                        (
                            x <= fraction * s,
                            format!(
                                "{x:.3}, needs at most {:.3} ({:.0}% of {s:.3})",
                                fraction * s,
                                fraction * 100.0
                            ),
                        )
                    },
                )
            },
        ),
    };
    match result {
        Ok(detail) => CheckResult {
            name,
            passed: true,
            detail,
        },
        Err(detail) => CheckResult {
            name,
            passed: false,
            detail,
        },
    }
}

/// Compare a reported metric with a reference value through `test`, which says pass and why.
fn compare(
    mine: Option<f64>,
    reference: Result<f64, String>,
    name: &str,
    test: impl Fn(f64, f64) -> (bool, String),
) -> Result<String, String> {
    let x = mine.ok_or_else(|| format!("`{name}` was not reported"))?;
    // A time of 0 makes a rate infinite: "fast enough" must not pass on a missing measurement.
    if !x.is_finite() {
        return Err(format!(
            "`{name}` is {x}: was the time it divides by measured?"
        ));
    }
    let r = reference?;
    match test(x, r) {
        (true, d) => Ok(d),
        (false, d) => Err(d),
    }
}

/// `check_output` passed every time and, together, over all of the result buffer.
fn output_correct(out: &Outcome) -> Result<String, String> {
    if out.checks.is_empty() {
        return Err("the program never calls `check_output`".into());
    }
    if let Some(c) = out.checks.iter().find(|c| !c.passed) {
        return Err(format!("`check_output` on line {} returned false", c.line));
    }
    let Some((region, bytes)) = out.output_region else {
        return Ok(format!(
            "`check_output` passed {} time(s)",
            out.checks.len()
        ));
    };
    let mut ranges: Vec<(u64, u64)> = out
        .checks
        .iter()
        .filter(|c| c.range.region == region)
        .map(|c| (c.range.start, c.range.end))
        .collect();
    ranges.sort_unstable();
    let mut covered = 0u64; // bytes from 0 on with no gap
    for (start, end) in ranges {
        if start > covered {
            break;
        }
        covered = covered.max(end);
    }
    let name = out
        .region_names
        .get(&region)
        .cloned()
        .unwrap_or_else(|| "the output buffer".into());
    if covered >= bytes {
        Ok(format!(
            "`check_output` passed {} time(s), over all {bytes} bytes of `{name}`",
            out.checks.len()
        ))
    } else {
        Err(format!(
            "`check_output` checked `{name}` only from byte 0 to {covered} of its {bytes}: the results copied into it must all be checked (e.g. `check_output({name}, n)` with n its number of floats)"
        ))
    }
}
