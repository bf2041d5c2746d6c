//! `pipeline` (lesson 4): N bytes through H2D, a light kernel and D2H. First sequentially (one
//! stream, the whole buffer), then chunked over several streams in three layouts (chunks round-robin
//! over streams issued per chunk or breadth-first, or one stream per stage linked by events),
//! searching chunks x streams for the fastest configuration. The lower bound comes from measured parts:
//! the longest stage alone, or all bytes in both directions over the measured bidirectional
//! bandwidth, whichever is larger. Sequential and best runs are verified against the host.

use crate::gpu::{Gpu, StreamId, StreamKind};
use crate::report::{HostMemKind, NamedTimeline, Op, OpKind, Report};

use super::fit::Need;
use super::metrics::{CHUNKS, GBPS, MS, RATIO, STREAMS, TIMES, put, put_derived, put_summary};
use super::options::{IssueOrder, MIB, format_bytes};
use super::session::Session;
use super::stats::Summary;
use super::{ExperimentError, ExperimentOptions, RunContext, sized_report, verify};

pub mod bound;
pub mod config;
pub mod grid;
pub mod invariants;
pub mod orders;
pub mod overhead;
pub mod schedule;
pub mod search;
pub mod shapes;
mod spec;
pub(crate) mod steps;

use schedule::{Buffers, Config, TRANSFORM, run_once, time_once};
use search::{FINAL_REPS, Space, search};

pub use orders::{OrderResult, order_result};
pub use spec::{SPEC, shape};

/// The experiment id.
pub const ID: &str = "pipeline";
/// Bytes through the pipeline by default.
pub const DEFAULT_SIZE: u64 = 256 * MIB;

/// Run the experiment (see the module docs).
pub fn run(
    gpu: &mut dyn Gpu,
    opts: &ExperimentOptions,
    ctx: &RunContext,
) -> Result<Report, ExperimentError> {
    if opts.issue_order == Some(IssueOrder::ByStage)
        && let Some(n) = opts.streams.filter(|&n| n != steps::STAGE_STREAMS)
    {
        return Err(ExperimentError::InvalidOption(format!(
            "--order by-stage always runs on three streams (upload, compute, download), not \
             --streams {n}; drop --streams or pass --streams 3"
        )));
    }
    let need = Need { device: 1, host: 2 };
    let (bytes, mut report) = sized_report(ID, gpu, opts.size, DEFAULT_SIZE, need)?;
    let kind = opts.host_mem.unwrap_or(HostMemKind::Pinned);
    let space = Space::new(
        bytes,
        gpu.info().copy_engines,
        (opts.streams, opts.chunks, opts.issue_order),
    );
    report
        .params
        .extra
        .insert("host_mem".into(), kind.name().into());
    let mut s = Session::new(gpu);
    let b = Buffers {
        input: s.host(bytes, kind)?,
        output: s.host(bytes, kind)?,
        dev: s.device(bytes)?,
        bytes,
    };
    s.host_fill(b.input, 41)?;
    s.host_fill(b.output, 42)?;
    let max_streams = space.max_streams();
    let streams: Vec<StreamId> = (0..max_streams)
        .map(|_| s.stream(StreamKind::NonBlocking))
        .collect::<Result<_, _>>()?;

    ctx.step(&format!("sequential, {}", format_bytes(bytes)))?;
    run_once(&mut s, &b, Config::SEQUENTIAL, &streams)?; // warm-up: modules load lazily
    let seq_ops = run_once(&mut s, &b, Config::SEQUENTIAL, &streams)?;
    // Times compared with each other are all taken the same way: host clock, no recording.
    let sequential = summary(
        &(0..3)
            .map(|_| time_once(&mut s, &b, Config::SEQUENTIAL, &streams))
            .collect::<Result<Vec<_>, _>>()?,
    );
    let sequential_ms = sequential.median;
    report.checks.push(verify::transform_matches(
        &mut *s,
        "sequential output matches the host",
        (b.input, b.output),
        bytes,
        TRANSFORM,
    )?);
    let longest_stage_ms = stage_times(&mut report, &seq_ops);

    ctx.step("both directions at once")?;
    let (bidir, bidir_ops) = bound::bidirectional(&mut s, &b)?;
    // A bound is what the link can do: the fastest try, not the median. On the H200 single
    // tries of both directions at once ranged from 85 to 100 GB/s within one run, and a bound
    // from a slow median came out above the best pipeline (an efficiency over 1).
    let bidir_gbps = bidir.max;
    let bound_ms = bound::bound_ms(longest_stage_ms, bytes, bidir_gbps);

    let (best, best_time, times) = search(&mut s, &b, &space, &streams, ctx)?;
    let best_ms = best_time.median;
    // The best of the other layouts, unless the learner fixed the layout.
    let runner = orders::runner_up(&times, best).filter(|_| opts.issue_order.is_none());
    let other_order = match runner {
        Some(runner) => {
            ctx.step(&format!("{}, best other layout", runner.describe()))?;
            let found = (best, &best_time);
            Some(orders::measure_other(
                &mut s,
                &b,
                found,
                (runner, &streams),
                FINAL_REPS,
                &mut report,
            )?)
        }
        None => None,
    };
    // What the panel needs to draw each layout against per-chunk (with the learner's layout
    // fixed, there is one).
    let layouts = match runner {
        Some(runner) => {
            ctx.step("each layout against per-chunk")?;
            let recorded = [best, runner];
            orders::record_layouts(&mut s, &b, &times, &recorded, (&streams, FINAL_REPS))?
        }
        None => Vec::new(),
    };
    let equal = shapes::compare_with_equal(&mut s, &b, best, &streams, FINAL_REPS, &mut report)?;
    ctx.step(&format!("best: {}, verified", best.describe()))?;
    // Recorded and unrecorded runs of the best configuration in turn; the output is refilled
    // before the last (recorded) one so that a chunk that run skipped cannot pass.
    let overhead = overhead::measure(&mut s, &b, best, &streams, |s| {
        Ok(s.host_fill(b.output, 43)?)
    })?;
    report.checks.push(verify::transform_matches(
        &mut *s,
        "best configuration's output matches the host",
        (b.input, b.output),
        bytes,
        TRANSFORM,
    )?);
    s.finish()?;

    let m = &mut report.metrics;
    put_summary(m, "sequential_ms", &sequential, 1.0, MS);
    put_summary(m, "best_ms", &best_time, 1.0, MS);
    put(m, "best_streams", f64::from(best.streams), STREAMS);
    put(m, "best_chunks", f64::from(best.chunks), CHUNKS);
    // The ends of the best chunks are 1/taper of the others (1: equal chunks).
    put(m, "best_taper", f64::from(best.effective_taper()), TIMES);
    let both = ["sequential_ms", "best_ms"];
    put_derived(m, "speedup", sequential_ms / best_ms, TIMES, &both);
    put_summary(m, "bidirectional_gbps", &bidir, 1.0, GBPS);
    put_derived(m, "bound_ms", bound_ms, MS, &["bidirectional_gbps"]);
    let both = ["bound_ms", "best_ms"];
    put_derived(m, "efficiency", bound_ms / best_ms, RATIO, &both);
    // What recording the headline timeline (CUPTI or events) costs: recorded against fresh
    // unrecorded runs of the same configuration (see `overhead`).
    put_summary(m, "recorded_ms", &overhead.recorded, 1.0, MS);
    put_summary(m, "unrecorded_ms", &overhead.unrecorded, 1.0, MS);
    let both = ["recorded_ms", "unrecorded_ms"];
    put_derived(
        m,
        "instrumentation_overhead_pct",
        overhead.pct(),
        "%",
        &both,
    );
    report.notes.extend(overhead.note());
    let best_ops = overhead.ops;
    report.params.streams = Some(best.streams);
    report.params.chunks = Some(best.chunks);
    report
        .params
        .extra
        .insert("best_order".into(), best.order.name().into());
    report
        .params
        .extra
        .insert("configurations".into(), times.len().to_string());
    report.series.extend(grid::series(&times));
    report.checks.extend(invariants::checks(
        &best_ops,
        best_ms,
        bound_ms,
        sequential_ms,
    ));
    report.timeline = best_ops;
    report.other_timelines.extend(other_order);
    report.other_timelines.extend(layouts);
    report.other_timelines.extend(equal);
    report.other_timelines.push(NamedTimeline {
        name: "sequential".into(),
        ops: seq_ops,
    });
    report.other_timelines.push(NamedTimeline {
        name: "both directions at once".into(),
        ops: bidir_ops,
    });
    Ok(report)
}

/// Each stage's time alone (from the sequential run) as metrics; returns the longest, in ms.
fn stage_times(report: &mut Report, ops: &[Op]) -> f64 {
    let mut longest: f64 = 0.0;
    for (kind, name) in [
        (OpKind::H2d, "h2d_alone_ms"),
        (OpKind::Kernel, "kernel_alone_ms"),
        (OpKind::D2h, "d2h_alone_ms"),
    ] {
        let ms: f64 = ops
            .iter()
            .filter(|o| o.kind == kind)
            .map(Op::duration_us)
            .sum::<f64>()
            / 1e3;
        put(&mut report.metrics, name, ms, MS);
        longest = longest.max(ms);
    }
    longest
}

/// The summary of samples that are known to be there (a run always takes some).
fn summary(samples: &[f64]) -> Summary {
    Summary::of(samples).unwrap_or(Summary {
        median: f64::NAN,
        min: f64::NAN,
        max: f64::NAN,
        iqr: f64::NAN,
        count: 0,
    })
}
