//! `pipeline` (lesson 4): N bytes through H2D, a light kernel and D2H. First sequentially (one
//! stream, the whole buffer), then chunked over several streams in both issue orders, searching
//! chunks x streams for the fastest configuration. The lower bound comes from measured parts:
//! the longest stage alone, or all bytes in both directions over the measured bidirectional
//! bandwidth, whichever is larger. Sequential and best runs are verified against the host.

use std::collections::HashMap;

use crate::gpu::{Gpu, StreamId, StreamKind};
use crate::report::{Check, HostMemKind, NamedTimeline, Op, OpKind, Report, Series};

use super::fit::Need;
use super::metrics::{CHUNKS, GBPS, MS, RATIO, STREAMS, TIMES, put};
use super::options::{MIB, format_bytes};
use super::session::{Session, same_stream_overlap};
use super::stats::median;
use super::{ExperimentError, ExperimentOptions, RunContext, sized_report, verify};

pub mod bound;
pub mod schedule;
pub mod search;

use schedule::{Buffers, Config, TRANSFORM, recorded_wall_ms, run_once, time_once};
use search::{Space, search};

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
    let need = Need { device: 1, host: 2 };
    let (bytes, mut report) = sized_report(ID, gpu, opts.size, DEFAULT_SIZE, need)?;
    let kind = opts.host_mem.unwrap_or(HostMemKind::Pinned);
    let space = Space::new(
        bytes,
        gpu.info().copy_engines,
        (opts.streams, opts.chunks, opts.issue_order),
    );
    report.params.extra.insert(
        "host_mem".into(),
        super::pageable_vs_pinned::kind_name(kind).into(),
    );
    let mut s = Session::new(gpu);
    let b = Buffers {
        input: s.host(bytes, kind)?,
        output: s.host(bytes, kind)?,
        dev: s.device(bytes)?,
        bytes,
    };
    s.host_fill(b.input, 41)?;
    s.host_fill(b.output, 42)?;
    let max_streams = space.streams.iter().copied().max().unwrap_or(1);
    let streams: Vec<StreamId> = (0..max_streams)
        .map(|_| s.stream(StreamKind::NonBlocking))
        .collect::<Result<_, _>>()?;

    ctx.step(&format!("sequential, {}", format_bytes(bytes)))?;
    run_once(&mut s, &b, Config::SEQUENTIAL, &streams)?; // warm-up: modules load lazily
    let seq_ops = run_once(&mut s, &b, Config::SEQUENTIAL, &streams)?;
    // Times compared with each other are all taken the same way: host clock, no recording.
    let sequential_ms = median(
        &(0..3)
            .map(|_| time_once(&mut s, &b, Config::SEQUENTIAL, &streams))
            .collect::<Result<Vec<_>, _>>()?,
    );
    report.checks.push(verify::transform_matches(
        &mut *s,
        "sequential output matches the host",
        (b.input, b.output),
        bytes,
        1,
        TRANSFORM,
    )?);
    let longest_stage_ms = stage_times(&mut report, &seq_ops);

    ctx.step("both directions at once")?;
    s.set_move_data(false); // nothing until the final run is read back
    let (bidir_gbps, bidir_ops) = bound::bidirectional(&mut s, &b)?;
    let bound_ms = bound::bound_ms(longest_stage_ms, bytes, bidir_gbps);

    let (best, best_ms, times) = search(&mut s, &b, &space, &streams, ctx)?;
    ctx.step(&format!("best: {}, verified", best.describe()))?;
    s.set_move_data(true);
    s.host_fill(b.output, 43)?; // so that a chunk the best run skipped cannot pass
    let best_ops = run_once(&mut s, &b, best, &streams)?;
    report.checks.push(verify::transform_matches(
        &mut *s,
        "best configuration's output matches the host",
        (b.input, b.output),
        bytes,
        u64::from(best.chunks),
        TRANSFORM,
    )?);
    s.finish()?;

    let m = &mut report.metrics;
    put(m, "sequential_ms", sequential_ms, MS);
    put(m, "best_ms", best_ms, MS);
    put(m, "best_streams", f64::from(best.streams), STREAMS);
    put(m, "best_chunks", f64::from(best.chunks), CHUNKS);
    put(m, "speedup", sequential_ms / best_ms, TIMES);
    put(m, "bidirectional_gbps", bidir_gbps, GBPS);
    put(m, "bound_ms", bound_ms, MS);
    put(m, "efficiency", bound_ms / best_ms, RATIO);
    // What recording the headline timeline (CUPTI or events) cost that run.
    let recorded_ms = recorded_wall_ms(&best_ops);
    put(m, "recorded_ms", recorded_ms, MS);
    put(
        m,
        "instrumentation_overhead_pct",
        (recorded_ms / best_ms - 1.0) * 100.0,
        "%",
    );
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
    report.series.extend(series(&times));
    report
        .checks
        .extend(invariants(&best_ops, best_ms, bound_ms, sequential_ms));
    report.timeline = best_ops;
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

/// One series per (streams, order): time against chunk count.
fn series(times: &HashMap<Config, f64>) -> Vec<Series> {
    let mut keys: Vec<(u32, &'static str)> =
        times.keys().map(|c| (c.streams, c.order.name())).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .map(|(st, order)| {
            let mut points: Vec<(f64, f64)> = times
                .iter()
                .filter(|(c, _)| c.streams == st && c.order.name() == order)
                .map(|(c, t)| (f64::from(c.chunks), *t))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            Series {
                name: format!("ms_by_chunks_{st}_streams_{order}"),
                x_unit: CHUNKS.into(),
                y_unit: MS.into(),
                points,
            }
        })
        .collect()
}

/// Physics the result must obey (with 2% for measurement noise on real hardware).
fn invariants(best_ops: &[Op], best_ms: f64, bound_ms: f64, sequential_ms: f64) -> Vec<Check> {
    let overlap = same_stream_overlap(best_ops);
    vec![
        Check {
            name: "ops on one stream never overlap".into(),
            passed: overlap.is_none(),
            detail: overlap.unwrap_or_else(|| {
                let n = best_ops.iter().filter(|o| o.kind != OpKind::Host).count();
                format!("{n} device ops of the best run checked")
            }),
        },
        Check {
            name: "best is not faster than the bound".into(),
            passed: best_ms >= bound_ms * 0.98,
            detail: format!("best {best_ms:.3} ms, bound {bound_ms:.3} ms"),
        },
        Check {
            name: "best is not slower than sequential".into(),
            passed: best_ms <= sequential_ms * 1.02,
            detail: format!("best {best_ms:.3} ms, sequential {sequential_ms:.3} ms"),
        },
    ]
}
