//! Pass criteria: what each kind reads from a run and how it is graded.
//!
//! The kinds on behaviour (`call-on-copied-buffer`, `copies-from`, `issue-order`, `rounds`,
//! `events-time-copies`, `median-of-timed-copies`, `ops-overlap`, `metric-matches-timeline`,
//! `reuse-after-event`, `device-memory-at-most`, `input-stays-pageable`, `pinned-at-most`,
//! `same-work`, `staging-slots`) read the call log and the timeline, not what the program prints
//! (`verdict/behaviour.rs`, `verdict/timed.rs`, `verdict/repeats.rs`, `verdict/devmem.rs`,
//! `verdict/staging.rs`, `verdict/work.rs`, `verdict/ring.rs`); `checks-errors` reads the program's tree
//! (`verdict/errcheck.rs`): whether a call's returned error is tested is in the code, not in
//! what one run did. Every criterion that reads a `_gbps` figure also fails one faster than the
//! fastest copy the run's timeline measured.
//!
//! Before any criterion, every verdict has `runs to the end` (`verdict/ending.rs`): it fails a
//! run that stopped early and a program whose exit status is not 0 (`exit(1)` from a `CHECK`
//! macro, `return 1` from `main`), naming the status, the line and the last `stderr` line, and
//! saying plainly when a CUDA call had failed before it (the error check fired because that
//! call failed). A non-zero status fails because in C it is the program saying it failed, and
//! the native check fails it too. The criteria below are still graded on what ran, so the
//! verdict of an `exit` stays whole; what the program held when it called `exit` is no leak
//! (the system frees it), while a `main` that returns holding memory still leaks it.

use serde::Deserialize;

use super::CheckResult;
use super::behaviour;
use super::facts::{DevOp, Direction, Memory};
use super::passes::Order;
use super::poll::Poll;
use super::reported::{self, Reference};
use super::timed::{self, Lane, Measured};
use crate::exercise::ast::Program;
use crate::exercise::hazards::Hazard;
use crate::exercise::interp::Outcome;

/// What grading reads of one run: its outcome, its device ops, its hazards and its program.
pub(super) struct Run<'a> {
    pub out: &'a Outcome,
    pub ops: &'a [DevOp<'a>],
    pub hazards: &'a [Hazard],
    pub program: &'a Program,
}

/// One pass criterion of an exercise (`[[criteria]]` in `exercise.toml`, tagged by `kind`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Criterion {
    /// `check_output` was called, returned true every time, and the passing checks covered
    /// every byte of the buffer the last device-to-host copy wrote (the program's result).
    /// With `spins`, the result is the task's only after that many passes of `spin(cycles, x,
    /// n)` over each float, and every check must ask for them (`check_output(h, n, spins)`):
    /// the spin's work is then in the data, so an order it needs shows in the output.
    OutputCorrect {
        #[serde(default)]
        spins: u32,
    },
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
    /// With `every_copy`, the pair also brackets every copy going `direction` that the run made
    /// (none left outside the timed region, untimed).
    EventsTimeCopies {
        metric: String,
        direction: Direction,
        memory: Memory,
        min_bytes: u64,
        tolerance_pct: f64,
        #[serde(default)]
        every_copy: bool,
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
    /// The run did at least the work of the exercise's solution run in the same check: bytes
    /// each way, `transform`'s floats, `spin`'s cycles, `host_work`'s time (see `verdict/work.rs`).
    SameWork,
    /// The error every call in `calls` returns is tested (compared or branched on, directly, in
    /// a variable, or in a function of the file such as a `CHECK` helper), and each is called
    /// (see `verdict/errcheck.rs`).
    ChecksErrors { calls: Vec<String> },
    /// At least `min_slots` page-locked buffers that uploads read had an upload in flight (issued,
    /// not yet known finished by the host) at once: a staging ring that lets the host stage
    /// ahead (see `verdict/ring.rs`).
    StagingSlots { min_slots: u32 },
}

impl Criterion {
    /// The reference run grading needs, if any: `Some(None)` for this exercise's solution,
    /// `Some(Some(id))` for the solution of exercise `id`.
    pub fn reference(&self) -> Option<Option<&str>> {
        match self {
            Criterion::MetricNearReference { .. }
            | Criterion::MetricAtLeastReference { .. }
            | Criterion::SameWork => Some(None),
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
            Criterion::ChecksErrors { calls } => {
                !calls.is_empty() && calls.iter().all(|c| crate::exercise::api::is_call(c))
            }
            Criterion::PinsAtMost { count } => *count >= 1,
            Criterion::StagingSlots { min_slots } => *min_slots >= 1,
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

/// Grade one criterion on a run: its name in the verdict, and whether and why it passed.
pub(super) fn grade(
    c: &Criterion,
    run: &Run<'_>,
    reference: Reference<'_>,
    poll: &Poll,
) -> CheckResult {
    let result = judge(c, run, reference, poll);
    CheckResult {
        name: c.title(),
        passed: result.is_ok(),
        detail: match result {
            Ok(detail) | Err(detail) => detail,
        },
    }
}

impl Criterion {
    /// The criterion's name in the verdict.
    pub fn title(&self) -> String {
        match self {
            Criterion::OutputCorrect { .. } => "output is correct".into(),
            Criterion::NoHazards => "no hazards".into(),
            Criterion::MetricsReported { metrics } => format!("reports {}", metrics.join(", ")),
            Criterion::MetricNearReference {
                metric,
                tolerance_pct,
            } => format!("{metric} within {tolerance_pct}% of this machine's"),
            Criterion::MetricAtLeastReference { metric, fraction } => {
                format!(
                    "{metric} at least {:.0}% of this machine's",
                    fraction * 100.0
                )
            }
            Criterion::MetricAtMostReference {
                metric,
                factor,
                exercise,
            } => match exercise {
                Some(id) => format!("{metric} at most {factor}x {id}'s solution on this machine"),
                None => format!("{metric} at most {factor}x this machine's"),
            },
            Criterion::MetricBelowSum {
                metric,
                parts,
                fraction,
            } => format!(
                "{metric} at most {:.0}% of {}",
                fraction * 100.0,
                parts.join(" + ")
            ),
            Criterion::PinsAtMost { count } => super::pins::title(*count),
            Criterion::InputStaysPageable => "the input stays pageable".into(),
            Criterion::PinnedAtMost { bytes } => format!(
                "at most {} page-locked at once",
                crate::units::format_bytes(*bytes)
            ),
            Criterion::DeviceMemoryAtMost { bytes } => format!(
                "device memory at most {}",
                crate::units::format_bytes(*bytes)
            ),
            Criterion::CallOnCopiedBuffer { call, .. } => format!("`{call}` on the copied buffer"),
            Criterion::CopiesFrom {
                direction, memory, ..
            } => format!("{} copies with {} memory", direction.name(), memory.name()),
            Criterion::IssueOrder { .. } => "issue order".into(),
            Criterion::Rounds { count, .. } => format!("{count} rounds ran"),
            Criterion::EventsTimeCopies { metric, .. } => {
                format!("{metric} timed by events around the copy")
            }
            Criterion::OpsOverlap { a, b, .. } => format!("{} overlap {}", a.name(), b.name()),
            Criterion::MetricMatchesTimeline { metric, .. } => {
                format!("{metric} matches the timeline")
            }
            Criterion::MedianOfTimedCopies { metric, count, .. } => {
                format!("{metric}: the median of {count} event-timed copies after a warm-up")
            }
            Criterion::ReuseAfterEvent { .. } => "buffers reused after an event".into(),
            Criterion::SameWork => "does the task's work".into(),
            Criterion::StagingSlots { .. } => "staging slots in flight".into(),
            Criterion::ChecksErrors { calls } => {
                format!("checks the errors of {}", calls.join(", "))
            }
        }
    }
}

/// Whether the run meets `c`, and why: the detail, passed or not. Two families: what the run
/// reported (its checks, hazards and figures) and what it did (the log and the timeline).
fn judge(
    c: &Criterion,
    run: &Run<'_>,
    reference: Reference<'_>,
    poll: &Poll,
) -> Result<String, String> {
    match c {
        Criterion::OutputCorrect { .. }
        | Criterion::NoHazards
        | Criterion::MetricsReported { .. }
        | Criterion::MetricNearReference { .. }
        | Criterion::MetricAtLeastReference { .. }
        | Criterion::MetricAtMostReference { .. }
        | Criterion::MetricBelowSum { .. }
        | Criterion::ChecksErrors { .. } => judge_reported(c, run, reference),
        Criterion::PinsAtMost { .. }
        | Criterion::InputStaysPageable
        | Criterion::PinnedAtMost { .. }
        | Criterion::DeviceMemoryAtMost { .. }
        | Criterion::CallOnCopiedBuffer { .. }
        | Criterion::CopiesFrom { .. }
        | Criterion::IssueOrder { .. }
        | Criterion::Rounds { .. }
        | Criterion::ReuseAfterEvent { .. }
        | Criterion::SameWork
        | Criterion::StagingSlots { .. } => judge_behaviour(c, run, reference, poll),
        Criterion::EventsTimeCopies { .. }
        | Criterion::OpsOverlap { .. }
        | Criterion::MetricMatchesTimeline { .. }
        | Criterion::MedianOfTimedCopies { .. } => judge_timed(c, run, poll),
    }
}

/// Why a criterion reached a family that does not grade it (`judge` routes every kind).
fn not_here(c: &Criterion) -> Result<String, String> {
    Err(format!(
        "internal: `{}` was routed to the wrong grader",
        c.title()
    ))
}

/// The criteria on what the run reported and on the program's text.
fn judge_reported(
    c: &Criterion,
    run: &Run<'_>,
    reference: Reference<'_>,
) -> Result<String, String> {
    let out = run.out;
    match c {
        Criterion::OutputCorrect { spins } => reported::output_correct(out, *spins),
        Criterion::NoHazards => reported::no_hazards(run.hazards),
        Criterion::MetricsReported { metrics } => reported::all_reported(out, metrics),
        Criterion::MetricNearReference {
            metric,
            tolerance_pct,
        } => reported::near_reference(out, reference, metric, *tolerance_pct),
        Criterion::MetricAtLeastReference { metric, fraction } => {
            reported::at_least_reference(out, reference, metric, *fraction)
        }
        Criterion::MetricAtMostReference { metric, factor, .. } => {
            reported::at_most_reference(out, reference, metric, *factor)
        }
        Criterion::MetricBelowSum {
            metric,
            parts,
            fraction,
        } => reported::below_sum(out, metric, parts, *fraction),
        Criterion::ChecksErrors { calls } => super::errcheck::checks_errors(run.program, calls),
        _ => not_here(c),
    }
}

/// The criteria on what the run did, read from its call log.
fn judge_behaviour(
    c: &Criterion,
    run: &Run<'_>,
    reference: Reference<'_>,
    poll: &Poll,
) -> Result<String, String> {
    let (out, ops) = (run.out, run.ops);
    match c {
        Criterion::PinsAtMost { count } => super::pins::grade(out, *count),
        Criterion::InputStaysPageable => super::staging::input_stays_pageable(out),
        Criterion::PinnedAtMost { bytes } => super::staging::pinned_at_most(out, *bytes),
        Criterion::DeviceMemoryAtMost { bytes } => super::devmem::grade(out, *bytes),
        Criterion::CallOnCopiedBuffer { call, direction } => {
            behaviour::call_on_copied_buffer(out, ops, call, *direction, poll)
        }
        Criterion::CopiesFrom {
            direction,
            memory,
            min_bytes,
        } => behaviour::copies_from(ops, *direction, *memory, *min_bytes),
        Criterion::IssueOrder { orders } => behaviour::issue_order(out, ops, orders),
        Criterion::Rounds { count, min_bytes } => behaviour::rounds(out, ops, *count, *min_bytes),
        Criterion::ReuseAfterEvent { min_reuses } => {
            behaviour::reuse_after_event(out, ops, *min_reuses, poll)
        }
        Criterion::SameWork => super::work::same_work(out, ops, reference),
        Criterion::StagingSlots { min_slots } => super::ring::staging_slots(out, ops, *min_slots),
        _ => not_here(c),
    }
}

/// The criteria on time: events around copies, overlap, figures held to the timeline.
fn judge_timed(c: &Criterion, run: &Run<'_>, poll: &Poll) -> Result<String, String> {
    let (out, ops) = (run.out, run.ops);
    match c {
        Criterion::EventsTimeCopies {
            metric,
            direction,
            memory,
            min_bytes,
            tolerance_pct,
            every_copy,
        } => timed::events_time_copies(
            out,
            ops,
            metric,
            timed::Copies {
                dir: *direction,
                mem: *memory,
                min_bytes: *min_bytes,
                every_copy: *every_copy,
            },
            *tolerance_pct,
            poll,
        ),
        Criterion::OpsOverlap { a, b, min_fraction } => {
            timed::ops_overlap(out, *a, *b, *min_fraction)
        }
        Criterion::MetricMatchesTimeline {
            metric,
            ops: which,
            tolerance_pct,
        } => timed::metric_matches_timeline(out, ops, metric, *which, *tolerance_pct),
        Criterion::MedianOfTimedCopies {
            metric,
            direction,
            memory,
            min_bytes,
            count,
            tolerance_pct,
        } => super::repeats::median_of_timed_copies(
            out,
            ops,
            metric,
            super::repeats::Timed {
                direction: *direction,
                memory: *memory,
                min_bytes: *min_bytes,
                count: *count,
            },
            *tolerance_pct,
            poll,
        ),
        _ => not_here(c),
    }
}
