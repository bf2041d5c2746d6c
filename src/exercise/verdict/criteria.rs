//! Pass criteria: what each kind reads from a run and how it is graded.
//!
//! The kinds on behaviour (`call-on-copied-buffer`, `copies-from`, `issue-order`, `rounds`,
//! `events-time-copies`, `median-of-timed-copies`, `ops-overlap`, `metric-matches-timeline`,
//! `reuse-after-event`, `device-memory-at-most`, `input-stays-pageable`, `pinned-at-most`) read
//! the call log and the timeline, not what the program prints (`verdict/behaviour.rs`,
//! `verdict/timed.rs`, `verdict/repeats.rs`, `verdict/devmem.rs`, `verdict/staging.rs`). Every
//! criterion that reads a `_gbps` figure also fails one faster than the fastest copy the run's
//! timeline measured.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::CheckResult;
use super::behaviour;
use super::facts::{DevOp, Direction, Memory};
use super::passes::Order;
use super::poll::Poll;
use super::timed::{self, Lane, Measured};
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
    /// `metric` is at most `factor` times the reference run's (for times). The reference is
    /// the solution of `exercise` when given (another exercise's program on the same workload,
    /// e.g. the pinned pipeline a staging exercise is held to), else this exercise's.
    MetricAtMostReference {
        metric: String,
        factor: f64,
        #[serde(default)]
        exercise: Option<String>,
    },
    /// The run pinned host memory (`cudaMallocHost`, `cudaHostAlloc`, `cudaHostRegister`) at
    /// most `count` times, counted from the call log (see `verdict/pins.rs`).
    PinsAtMost { count: u32 },
    /// `metric` is at most `fraction` of the sum of `parts` (all from this run).
    MetricBelowSum {
        metric: String,
        parts: Vec<String>,
        fraction: f64,
    },
    /// `call` (`cudaHostRegister`) was made on the host buffer that every copy going
    /// `direction` (`h2d` or `d2h`) used, before the first of them (read from the call log).
    CallOnCopiedBuffer { call: String, direction: Direction },
    /// Copies going `direction` moved at least `min_bytes` in all with host memory of kind
    /// `memory` (`pageable`, `pinned`, `registered`: what the buffer was at the call).
    CopiesFrom {
        direction: Direction,
        memory: Memory,
        min_bytes: u64,
    },
    /// Chunked passes were issued in each order of `orders` (`per-chunk`, `breadth-first`),
    /// one after another in that order; passes are read from the call log's issue order
    /// (see `verdict/passes.rs`).
    IssueOrder { orders: Vec<Order> },
    /// At least `count` rounds ran, each a copy in of `min_bytes` or more, then a copy out of as
    /// much, then a `check_output` that passed.
    Rounds { count: u32, min_bytes: u64 },
    /// `metric` was computed from a `cudaEventElapsedTime` of two events recorded on one
    /// stream, one before and one after copies going `direction` from `memory` memory of
    /// `min_bytes` or more, and agrees within `tolerance_pct` percent with what the timeline
    /// measured for those copies (a `_gbps` metric: their bytes over their span; `_ms`: the span).
    EventsTimeCopies {
        metric: String,
        direction: Direction,
        memory: Memory,
        min_bytes: u64,
        tolerance_pct: f64,
    },
    /// The lanes `a` and `b` (`h2d`, `d2h`, `kernel`, `device`, `host-work`) were busy at the
    /// same time for at least `min_fraction` of the shorter lane's busy time (the timeline,
    /// and the host clock for `host_work`).
    OpsOverlap { a: Lane, b: Lane, min_fraction: f64 },
    /// `metric` agrees within `tolerance_pct` percent (and 10 µs) with what the timeline
    /// measured for `ops` (`device`, `device-and-host-work`, `host-work`, `per-chunk`,
    /// `breadth-first`): a time is the ops' span, a `_gbps` figure their copied bytes over it.
    MetricMatchesTimeline {
        metric: String,
        ops: Measured,
        tolerance_pct: f64,
    },
    /// The buffers `fill_input` wrote were allocated with `malloc` and never page-locked
    /// (`verdict/staging.rs`).
    InputStaysPageable,
    /// The run held at most `bytes` of page-locked host memory at once (`verdict/staging.rs`).
    PinnedAtMost { bytes: u64 },
    /// Host writes to a buffer an async copy read came only after an event recorded behind the
    /// copy said it had finished, and at least `min_reuses` such reuses happened.
    ReuseAfterEvent { min_reuses: u32 },
    /// The most device memory allocated at once was at most `bytes` (see `verdict/devmem.rs`).
    DeviceMemoryAtMost { bytes: u64 },
    /// `metric` is the median (within `tolerance_pct`) of what the timeline measured for at
    /// least `count` copies going `direction` from `memory`, of `min_bytes` or more each, each
    /// timed by its own pair of events, after a warm-up copy (see `verdict/repeats.rs`).
    MedianOfTimedCopies {
        metric: String,
        direction: Direction,
        memory: Memory,
        min_bytes: u64,
        count: u32,
        tolerance_pct: f64,
    },
}

impl Criterion {
    /// The reference run grading needs, if any: `Some(None)` for this exercise's solution,
    /// `Some(Some(id))` for the solution of exercise `id`.
    pub fn reference(&self) -> Option<Option<&str>> {
        match self {
            Criterion::MetricNearReference { .. } | Criterion::MetricAtLeastReference { .. } => {
                Some(None)
            }
            Criterion::MetricAtMostReference { exercise, .. } => Some(exercise.as_deref()),
            _ => None,
        }
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
            Criterion::PinnedAtMost { bytes } => *bytes >= 1,
            Criterion::CallOnCopiedBuffer { call, .. } => call == "cudaHostRegister",
            Criterion::CopiesFrom { min_bytes, .. } => *min_bytes >= 1,
            Criterion::IssueOrder { orders } => !orders.is_empty(),
            Criterion::Rounds { count, .. } => *count >= 1,
            Criterion::EventsTimeCopies {
                tolerance_pct: x,
                min_bytes,
                ..
            } => *x > 0.0 && *x <= 100.0 && *min_bytes >= 1,
            Criterion::MetricMatchesTimeline {
                tolerance_pct: x, ..
            } => *x > 0.0 && *x <= 100.0,
            Criterion::OpsOverlap {
                min_fraction: x, ..
            } => *x > 0.0 && *x <= 1.0,
            Criterion::DeviceMemoryAtMost { bytes } => *bytes >= 1,
            Criterion::MedianOfTimedCopies {
                tolerance_pct: x,
                min_bytes,
                count,
                ..
            } => *x > 0.0 && *x <= 100.0 && *min_bytes >= 1 && *count >= 1,
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
    ops: &[DevOp<'_>],
    hazards: &[Hazard],
    reference: Option<&Result<BTreeMap<String, f64>, String>>,
    poll: &Poll,
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
            compare(out, metric(m), refm(m), m, |x, r| {
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
            compare(out, metric(m), refm(m), m, |x, r| {
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
        Criterion::MetricAtMostReference {
            metric: m,
            factor,
            exercise,
        } => (
            match exercise {
                Some(id) => format!("{m} at most {factor}x {id}'s solution on this machine"),
                None => format!("{m} at most {factor}x this machine's"),
            },
            compare(out, metric(m), refm(m), m, |x, r| {
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
        Criterion::InputStaysPageable => (
            "the input stays pageable".into(),
            super::staging::input_stays_pageable(out),
        ),
        Criterion::PinnedAtMost { bytes } => (
            format!(
                "at most {} page-locked at once",
                crate::units::format_bytes(*bytes)
            ),
            super::staging::pinned_at_most(out, *bytes),
        ),
        Criterion::CallOnCopiedBuffer { call, direction } => (
            format!("`{call}` on the copied buffer"),
            behaviour::call_on_copied_buffer(out, ops, call, *direction, poll),
        ),
        Criterion::CopiesFrom {
            direction,
            memory,
            min_bytes,
        } => (
            format!("{} copies with {} memory", direction.name(), memory.name()),
            behaviour::copies_from(ops, *direction, *memory, *min_bytes),
        ),
        Criterion::IssueOrder { orders } => (
            "issue order".into(),
            behaviour::issue_order(out, ops, orders),
        ),
        Criterion::Rounds { count, min_bytes } => (
            format!("{count} rounds ran"),
            behaviour::rounds(out, ops, *count, *min_bytes),
        ),
        Criterion::EventsTimeCopies {
            metric: m,
            direction,
            memory,
            min_bytes,
            tolerance_pct,
        } => (
            format!("{m} timed by events around the copy"),
            timed::events_time_copies(
                out,
                ops,
                m,
                (*direction, *memory, *min_bytes),
                *tolerance_pct,
                poll,
            ),
        ),
        Criterion::OpsOverlap { a, b, min_fraction } => (
            format!("{} overlap {}", a.name(), b.name()),
            timed::ops_overlap(out, *a, *b, *min_fraction),
        ),
        Criterion::MetricMatchesTimeline {
            metric: m,
            ops: which,
            tolerance_pct,
        } => (
            format!("{m} matches the timeline"),
            timed::metric_matches_timeline(out, ops, m, *which, *tolerance_pct),
        ),
        Criterion::DeviceMemoryAtMost { bytes } => super::devmem::grade(out, *bytes),
        Criterion::MedianOfTimedCopies {
            metric: m,
            direction,
            memory,
            min_bytes,
            count,
            tolerance_pct,
        } => (
            format!("{m}: the median of {count} event-timed copies after a warm-up"),
            super::repeats::median_of_timed_copies(
                out,
                ops,
                m,
                super::repeats::Timed {
                    direction: *direction,
                    memory: *memory,
                    min_bytes: *min_bytes,
                    count: *count,
                },
                *tolerance_pct,
                poll,
            ),
        ),
        Criterion::ReuseAfterEvent { min_reuses } => (
            "buffers reused after an event".into(),
            behaviour::reuse_after_event(out, ops, *min_reuses, poll),
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
                    out,
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
    out: &Outcome,
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
    timed::within_link(out, name, x)?;
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
