//! Grading: parse the learner's file, run it, check it for hazards, and hold the run against the
//! exercise's criteria. Criteria read what the program did (its `check_output` results, its
//! reported metrics, its hazards), never its text. Criteria that compare with "this machine"
//! run the exercise's solution on the same machine in the same process as the reference.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::catalog::Exercise;
use super::hazards::{self, Hazard};
use super::interp::{self, Limits, Outcome};
use super::machine::Machine;
use super::{Diagnostic, parse};
use crate::report::Op;

/// One pass criterion of an exercise (`[[criteria]]` in `exercise.toml`, tagged by `kind`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Criterion {
    /// `check_output` was called and returned true every time.
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
    /// `metric` is at most `fraction` of the sum of `parts` (all from this run).
    MetricBelowSum {
        metric: String,
        parts: Vec<String>,
        fraction: f64,
    },
}

impl Criterion {
    /// Whether grading needs the reference run.
    fn needs_reference(&self) -> bool {
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
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            Err(format!("criterion {self:?} has numbers out of range"))
        }
    }
}

/// One graded criterion.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckResult {
    pub name: String,
    pub passed: bool,
    pub detail: String,
}

/// Everything a check found.
#[derive(Debug, Clone, Default)]
pub struct Verdict {
    pub passed: bool,
    pub checks: Vec<CheckResult>,
    pub diagnostics: Vec<Diagnostic>,
    pub hazards: Vec<Hazard>,
    pub metrics: BTreeMap<String, f64>,
    pub timeline: Vec<Op>,
    pub output: String,
}

impl Verdict {
    /// One line: passed, or the first thing that failed.
    pub fn summary(&self, id: &str) -> String {
        if self.passed {
            return format!("{id}: passed ({} checks)", self.checks.len());
        }
        let failed = self.checks.iter().filter(|c| !c.passed).count();
        format!(
            "{id}: not yet: {failed} of {} checks failed",
            self.checks.len()
        )
    }
}

/// Check `source` against `ex` on `machine`.
pub fn check(
    ex: &Exercise,
    source: &str,
    machine: &mut dyn Machine,
    limits: Limits,
    cancel: &AtomicBool,
) -> Verdict {
    let mut v = Verdict::default();
    let program = match parse::parse(source) {
        Ok(p) => p,
        Err(diags) => {
            v.checks.push(failed(
                "parses",
                format!(
                    "{} problem(s) in the file, first: {}",
                    diags.len(),
                    diags[0]
                ),
            ));
            v.diagnostics = diags;
            return v;
        }
    };
    let outcome = interp::run(&program, machine, limits, cancel);
    v.metrics = outcome.metrics.clone();
    v.timeline = outcome.timeline.clone();
    v.output = outcome.output.clone();
    if let Some(err) = &outcome.error {
        v.checks.push(failed("runs to the end", err.to_string()));
        v.diagnostics.push(err.clone());
        return v;
    }
    v.checks.push(CheckResult {
        name: "runs to the end".into(),
        passed: true,
        detail: format!("{} steps", outcome.steps),
    });
    v.hazards = hazards::check(&outcome.log, &outcome.region_names, ex.overlap);
    let reference = ex
        .criteria
        .iter()
        .any(Criterion::needs_reference)
        .then(|| reference_run(ex, machine, limits, cancel));
    for c in &ex.criteria {
        v.checks
            .push(grade(c, &outcome, &v.hazards, reference.as_ref()));
    }
    v.passed = v.checks.iter().all(|c| c.passed);
    v
}

/// The solution, run on the same machine: what "this machine" reaches.
fn reference_run(
    ex: &Exercise,
    machine: &mut dyn Machine,
    limits: Limits,
    cancel: &AtomicBool,
) -> Result<BTreeMap<String, f64>, String> {
    let program = parse::parse(ex.solution)
        .map_err(|d| format!("the reference solution does not parse: {}", d[0]))?;
    let out = interp::run(&program, machine, limits, cancel);
    match out.error {
        Some(e) => Err(format!(
            "the reference run (the exercise's solution) failed: {e}"
        )),
        None => Ok(out.metrics),
    }
}

fn failed(name: &str, detail: String) -> CheckResult {
    CheckResult {
        name: name.into(),
        passed: false,
        detail,
    }
}

fn grade(
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
        Criterion::OutputCorrect => (
            "output is correct".into(),
            match out.output_checks.iter().find(|(_, ok)| !ok) {
                _ if out.output_checks.is_empty() => {
                    Err("the program never calls `check_output`".into())
                }
                Some((line, _)) => Err(format!("`check_output` on line {line} returned false")),
                None => Ok(format!(
                    "`check_output` passed {} time(s)",
                    out.output_checks.len()
                )),
            },
        ),
        Criterion::NoHazards => (
            "no hazards".into(),
            match hazards.first() {
                None => Ok("none found".into()),
                Some(h) => Err(format!(
                    "{} hazard(s); first: {} on line {}",
                    hazards.len(),
                    h.kind.name(),
                    h.line
                )),
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
    let r = reference?;
    match test(x, r) {
        (true, d) => Ok(d),
        (false, d) => Err(d),
    }
}
