//! `pipeline` (lesson 4): N bytes through H2D, a light kernel and D2H. First sequentially (one
//! stream, the whole buffer), then chunked over several streams in three layouts (chunks round-robin
//! over streams issued per chunk or breadth-first, or one stream per stage linked by events),
//! searching chunks x streams for the fastest configuration. The lower bound comes from measured parts:
//! the longest stage alone, or all bytes in both directions over the measured bidirectional
//! bandwidth, whichever is larger. Sequential and best runs are verified against the host.

use std::collections::HashMap;

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
    check_options(opts)?;
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
    let (b, streams) = buffers(&mut s, bytes, kind, space.max_streams())?;

    let seq = sequential(&mut s, &b, &streams, ctx, &mut report)?;
    ctx.step("both directions at once")?;
    let (bidir, bidir_ops) = bound::bidirectional(&mut s, &b)?;
    // A bound is what the link can do: the fastest try, not the median. On the H200 single
    // tries of both directions at once ranged from 85 to 100 GB/s within one run, and a bound
    // from a slow median came out above the best pipeline (an efficiency over 1).
    let bound_ms = bound::bound_ms(seq.longest_stage_ms, bytes, bidir.max);

    let (best, best_time, times) = search(&mut s, &b, &space, &streams, ctx)?;
    let found = Found {
        best,
        best_time,
        times,
    };
    let others = other_layouts(&mut s, &b, &found, (opts, &streams, ctx), &mut report)?;
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

    put_metrics(&mut report, &seq, &found, (&bidir, bound_ms), &overhead);
    put_params(&mut report, &found);
    report.checks.extend(invariants::checks(
        &overhead.ops,
        found.best_time.median,
        bound_ms,
        seq.time.median,
    ));
    report.timeline = overhead.ops;
    report.other_timelines.extend(others);
    report.other_timelines.push(NamedTimeline {
        name: "sequential".into(),
        ops: seq.ops,
    });
    report.other_timelines.push(NamedTimeline {
        name: "both directions at once".into(),
        ops: bidir_ops,
    });
    Ok(report)
}

/// The input (filled), the output (filled with other data), the device buffer, and
/// `max_streams` non-blocking streams.
fn buffers(
    s: &mut Session,
    bytes: u64,
    kind: HostMemKind,
    max_streams: u32,
) -> Result<(Buffers, Vec<StreamId>), ExperimentError> {
    let b = Buffers {
        input: s.host(bytes, kind)?,
        output: s.host(bytes, kind)?,
        dev: s.device(bytes)?,
        bytes,
    };
    s.host_fill(b.input, 41)?;
    s.host_fill(b.output, 42)?;
    let streams: Vec<StreamId> = (0..max_streams)
        .map(|_| s.stream(StreamKind::NonBlocking))
        .collect::<Result<_, _>>()?;
    Ok((b, streams))
}

/// The options the experiment cannot honour together.
fn check_options(opts: &ExperimentOptions) -> Result<(), ExperimentError> {
    if opts.issue_order == Some(IssueOrder::ByStage)
        && let Some(n) = opts.streams.filter(|&n| n != steps::STAGE_STREAMS)
    {
        return Err(ExperimentError::InvalidOption(format!(
            "--order by-stage always runs on three streams (upload, compute, download), not \
             --streams {n}; drop --streams or pass --streams 3"
        )));
    }
    Ok(())
}

/// The sequential run: its timeline, its times and its longest stage.
struct Sequential {
    ops: Vec<Op>,
    time: Summary,
    longest_stage_ms: f64,
}

/// Runs the whole buffer on one stream (recorded once, timed three times), verifies its output
/// and books each stage's time alone.
fn sequential(
    s: &mut Session,
    b: &Buffers,
    streams: &[StreamId],
    ctx: &RunContext,
    report: &mut Report,
) -> Result<Sequential, ExperimentError> {
    ctx.step(&format!("sequential, {}", format_bytes(b.bytes)))?;
    run_once(s, b, Config::SEQUENTIAL, streams)?; // warm-up: modules load lazily
    let ops = run_once(s, b, Config::SEQUENTIAL, streams)?;
    // Times compared with each other are all taken the same way: host clock, no recording.
    let time = summary(
        &(0..3)
            .map(|_| time_once(s, b, Config::SEQUENTIAL, streams))
            .collect::<Result<Vec<_>, _>>()?,
    );
    report.checks.push(verify::transform_matches(
        &mut **s,
        "sequential output matches the host",
        (b.input, b.output),
        b.bytes,
        TRANSFORM,
    )?);
    let longest_stage_ms = stage_times(report, &ops);
    Ok(Sequential {
        ops,
        time,
        longest_stage_ms,
    })
}

/// What the search found: the best configuration, its re-measured times, and every
/// configuration's single-run time.
struct Found {
    best: Config,
    best_time: Summary,
    times: HashMap<Config, f64>,
}

/// The timelines beside the best one: the best of the other layouts and each layout against
/// per-chunk (unless the learner fixed the layout), and the best against equal chunks.
fn other_layouts(
    s: &mut Session,
    b: &Buffers,
    found: &Found,
    (opts, streams, ctx): (&ExperimentOptions, &[StreamId], &RunContext),
    report: &mut Report,
) -> Result<Vec<NamedTimeline>, ExperimentError> {
    let best = found.best;
    let mut out = Vec::new();
    // The best of the other layouts, unless the learner fixed the layout.
    let runner = orders::runner_up(&found.times, best).filter(|_| opts.issue_order.is_none());
    if let Some(runner) = runner {
        ctx.step(&format!("{}, best other layout", runner.describe()))?;
        out.push(orders::measure_other(
            s,
            b,
            (best, &found.best_time),
            (runner, streams),
            FINAL_REPS,
            report,
        )?);
        // What the panel needs to draw each layout against per-chunk (with the learner's
        // layout fixed, there is one).
        ctx.step("each layout against per-chunk")?;
        let recorded = [best, runner];
        out.extend(orders::record_layouts(
            s,
            b,
            &found.times,
            &recorded,
            (streams, FINAL_REPS),
        )?);
    }
    out.extend(shapes::compare_with_equal(
        s, b, best, streams, FINAL_REPS, report,
    )?);
    Ok(out)
}

/// The run's metrics: the sequential and best times, the bound and what recording cost.
fn put_metrics(
    report: &mut Report,
    seq: &Sequential,
    found: &Found,
    (bidir, bound_ms): (&Summary, f64),
    overhead: &overhead::Overhead,
) {
    let best = found.best;
    let best_ms = found.best_time.median;
    let m = &mut report.metrics;
    put_summary(m, "sequential_ms", &seq.time, 1.0, MS);
    put_summary(m, "best_ms", &found.best_time, 1.0, MS);
    put(m, "best_streams", f64::from(best.streams), STREAMS);
    put(m, "best_chunks", f64::from(best.chunks), CHUNKS);
    // The ends of the best chunks are 1/taper of the others (1: equal chunks).
    put(m, "best_taper", f64::from(best.effective_taper()), TIMES);
    let both = ["sequential_ms", "best_ms"];
    put_derived(m, "speedup", seq.time.median / best_ms, TIMES, &both);
    put_summary(m, "bidirectional_gbps", bidir, 1.0, GBPS);
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
}

/// The best configuration's parameters and the search's grid.
fn put_params(report: &mut Report, found: &Found) {
    let best = found.best;
    report.params.streams = Some(best.streams);
    report.params.chunks = Some(best.chunks);
    report
        .params
        .extra
        .insert("best_order".into(), best.order.name().into());
    report
        .params
        .extra
        .insert("configurations".into(), found.times.len().to_string());
    report.series.extend(grid::series(&found.times));
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
