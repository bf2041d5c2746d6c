//! The criteria on what a run reports: `check_output`'s answers, the hazards found, and the
//! metrics the program reported, alone or against a reference run.

use super::{ReferenceRun, timed};
use crate::exercise::hazards::Hazard;
use crate::exercise::interp::Outcome;

/// The reference run, when a criterion needs it.
pub(super) type Reference<'a> = Option<&'a Result<ReferenceRun, String>>;

/// No hazard was found; else the first three, and how many more.
pub(super) fn no_hazards(hazards: &[Hazard]) -> Result<String, String> {
    if hazards.is_empty() {
        return Ok("none found".into());
    }
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

/// Every one of `metrics` was reported.
pub(super) fn all_reported(out: &Outcome, metrics: &[String]) -> Result<String, String> {
    let missing: Vec<&str> = metrics
        .iter()
        .map(String::as_str)
        .filter(|m| !out.metrics.contains_key(*m))
        .collect();
    if missing.is_empty() {
        Ok("all reported".into())
    } else {
        Err(format!("not reported: {}", missing.join(", ")))
    }
}

/// The reference run's value of `m`.
fn reference_of(reference: Reference<'_>, m: &str) -> Result<f64, String> {
    match reference {
        Some(Ok(r)) => r
            .metrics
            .get(m)
            .copied()
            .ok_or_else(|| format!("the reference run did not report `{m}`")),
        Some(Err(e)) => Err(e.clone()),
        None => Err("no reference run".into()),
    }
}

/// `m` within `tolerance_pct` of the reference run's.
pub(super) fn near_reference(
    out: &Outcome,
    reference: Reference<'_>,
    m: &str,
    tolerance_pct: f64,
) -> Result<String, String> {
    compare(out, m, reference_of(reference, m), |x, r| {
        (
            (x - r).abs() / r.abs().max(1e-12) * 100.0 <= tolerance_pct,
            format!("{x:.3} vs {r:.3}"),
        )
    })
}

/// `m` at least `fraction` of the reference run's.
pub(super) fn at_least_reference(
    out: &Outcome,
    reference: Reference<'_>,
    m: &str,
    fraction: f64,
) -> Result<String, String> {
    compare(out, m, reference_of(reference, m), |x, r| {
        (
            x >= fraction * r,
            format!(
                "{x:.3}, needs {:.3} ({:.0}% of {r:.3})",
                fraction * r,
                fraction * 100.0
            ),
        )
    })
}

/// `m` at most `factor` times the reference run's.
pub(super) fn at_most_reference(
    out: &Outcome,
    reference: Reference<'_>,
    m: &str,
    factor: f64,
) -> Result<String, String> {
    compare(out, m, reference_of(reference, m), |x, r| {
        (
            x <= factor * r,
            format!(
                "{x:.3}, needs at most {:.3} ({factor} x {r:.3})",
                factor * r
            ),
        )
    })
}

/// `m` at most `fraction` of the sum of `parts`, all reported by this run.
pub(super) fn below_sum(
    out: &Outcome,
    m: &str,
    parts: &[String],
    fraction: f64,
) -> Result<String, String> {
    let sum: Option<f64> = parts.iter().map(|p| out.metrics.get(p).copied()).sum();
    let sum = sum.ok_or_else(|| format!("not all of {} were reported", parts.join(", ")));
    compare(out, m, sum, |x, s| {
        (
            x <= fraction * s,
            format!(
                "{x:.3}, needs at most {:.3} ({:.0}% of {s:.3})",
                fraction * s,
                fraction * 100.0
            ),
        )
    })
}

/// Compare a reported metric with a reference value through `test`, which says pass and why.
fn compare(
    out: &Outcome,
    name: &str,
    reference: Result<f64, String>,
    test: impl Fn(f64, f64) -> (bool, String),
) -> Result<String, String> {
    let x = out
        .metrics
        .get(name)
        .copied()
        .ok_or_else(|| format!("`{name}` was not reported"))?;
    // A time of 0 makes a rate infinite: "fast enough" must not pass on a missing measurement.
    if !x.is_finite() {
        return Err(format!(
            "`{name}` is {x}: was the time it divides by measured?"
        ));
    }
    timed::within_link(out, name, x)?;
    let r = reference?;
    match test(x, r) {
        (true, d) => Ok(d),
        (false, d) => Err(d),
    }
}

/// `check_output` passed every time, for the task's `spins` passes of `spin(cycles, x, n)`,
/// and, together, over all of the result buffer.
pub(super) fn output_correct(out: &Outcome, spins: u32) -> Result<String, String> {
    if out.checks.is_empty() {
        return Err("the program never calls `check_output`".into());
    }
    if let Some(c) = out.checks.iter().find(|c| c.spins != spins) {
        let write = match spins {
            0 => "`check_output(h, n)`".to_string(),
            s => format!("`check_output(h, n, {s})`"),
        };
        return Err(format!(
            "`check_output` on line {} checks for {} `spin` pass(es); the task's result has been through {spins}: write {write}",
            c.line, c.spins
        ));
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
