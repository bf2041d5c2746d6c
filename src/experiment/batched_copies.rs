//! `batched-copies` (lessons 1 and 3): many small pinned host-to-device copies issued as N
//! single `cuMemcpyAsync` calls against one `cuMemcpyBatchAsync` (CUDA 13), over three copy
//! sizes and three counts, on a non-blocking stream. For each point: the host time of the calls
//! alone (what a call costs), and the host time from the first call to the end of the stream
//! synchronisation (what the copies cost end to end); medians after a warm-up. Then the batch's
//! bytes are checked, and the legacy default stream is offered to the call (the Driver API
//! reference says it is refused).
//!
//! probes/batched-copies.cu measures the same sweep with the Runtime API (and what the access
//! orders do with a pageable source, which this experiment leaves to the probe).

use crate::gpu::{BatchCopy, DevBuf, Gpu, GpuError, HostBuf, SrcAccessOrder, StreamId, StreamKind};
use crate::report::{Check, HostMemKind, Report, Series};

use super::fit::Need;
use super::metrics::{GBPS, TIMES, US, put_derived, put_summary};
use super::options::{KIB, MIB, format_bytes};
use super::session::Session;
use super::spec::{self, ExperimentSpec, MetricSpec, Param, Timing};
use super::stats::{Summary, gbps};
use super::{ExperimentError, ExperimentOptions, RunContext, sized_report, verify};

/// The experiment id.
pub const ID: &str = "batched-copies";
/// The largest copy by default; the sweep's sizes are it, a 16th and a 256th of it.
pub const DEFAULT_SIZE: u64 = MIB;
/// How many copies each point issues.
pub const COUNTS: [u64; 3] = [64, 1024, 4096];
/// Timed repetitions per point (after one warm-up) unless `--repetitions` says otherwise.
const REPS: u32 = 3;
/// The headline timeline's point: a few copies, so each single copy is visible beside the batch.
const HEADLINE: (u64, u64) = (64 * KIB, 16);

/// The registry's declaration (see [`super::registry`]).
pub const SPEC: ExperimentSpec = ExperimentSpec {
    id: ID,
    title: "many small copies: single cudaMemcpyAsync calls against one cudaMemcpyBatchAsync",
    params: &[Param::Size],
    default_size: DEFAULT_SIZE,
    metrics: &[
        MetricSpec::required(
            "single_call_us",
            US,
            "one cudaMemcpyAsync call",
            Timing::Host,
        ),
        MetricSpec::required(
            "batch_call_per_copy_us",
            US,
            "batch call, per copy",
            Timing::Host,
        ),
        MetricSpec::required(
            "small_copies_speedup",
            TIMES,
            "batch speed-up, small copies",
            Timing::Host,
        ),
        MetricSpec::extra("batch_call_us", US, "one batch call", Timing::Host),
        MetricSpec::extra(
            "singles_small_gbps",
            GBPS,
            "small copies, singles",
            Timing::Host,
        ),
        MetricSpec::extra(
            "batch_small_gbps",
            GBPS,
            "small copies, batch",
            Timing::Host,
        ),
    ],
    chart: None,
    opens_on_chart: false,
    headline: |_| format!("{} single copies, then one batch", HEADLINE.1),
    words: spec::RunWords::NONE,
    run,
};

/// Single calls or one batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    Singles,
    Batch,
}

impl Method {
    fn key(self) -> &'static str {
        match self {
            Method::Singles => "singles",
            Method::Batch => "batch",
        }
    }
}

/// The buffers every point copies between: `count` copies of `size` bytes lie back to back.
#[derive(Debug, Clone, Copy)]
struct Bufs {
    stream: StreamId,
    host: HostBuf,
    dev: DevBuf,
}

impl Bufs {
    fn copies(&self, size: u64, count: u64) -> Vec<BatchCopy> {
        (0..count)
            .map(|i| BatchCopy {
                dst: self.dev,
                dst_off: i * size,
                src: self.host,
                src_off: i * size,
                bytes: size,
            })
            .collect()
    }
}

/// One issue of a point: `count` copies by `method`.
fn issue(
    gpu: &mut dyn Gpu,
    b: &Bufs,
    method: Method,
    copies: &[BatchCopy],
) -> Result<(), GpuError> {
    match method {
        Method::Singles => copies.iter().try_for_each(|c| {
            gpu.copy_h2d_async(b.stream, c.dst, c.dst_off, c.src, c.src_off, c.bytes)
        }),
        Method::Batch => gpu.copy_h2d_batch_async(b.stream, copies, SrcAccessOrder::Stream),
    }
}

/// (count, value) points of one series.
type Curve = Vec<(f64, f64)>;

/// A point's medians: host time of the calls, and from the first call to the end of the sync.
#[derive(Debug, Clone, Copy)]
struct Point {
    enqueue: Summary,
    end_to_end: Summary,
}

/// Time one point: a warm-up, then `reps` issues each followed by a stream sync.
fn time_point(
    s: &mut Session,
    b: &Bufs,
    method: Method,
    copies: &[BatchCopy],
    reps: u32,
) -> Result<Option<Point>, GpuError> {
    let (mut enqueue, mut end_to_end) = (Vec::new(), Vec::new());
    for rep in 0..=reps {
        let t0 = s.host_now_us();
        issue(&mut **s, b, method, copies)?;
        let t1 = s.host_now_us();
        s.stream_sync(b.stream)?;
        let t2 = s.host_now_us();
        if rep > 0 {
            enqueue.push(t1 - t0);
            end_to_end.push(t2 - t0);
        }
    }
    Ok(Summary::of(&enqueue)
        .zip(Summary::of(&end_to_end))
        .map(|(enqueue, end_to_end)| Point {
            enqueue,
            end_to_end,
        }))
}

/// The sweep's copy sizes for a largest copy of `size` bytes (at least 4 bytes each).
pub fn sizes(size: u64) -> Vec<u64> {
    let mut v: Vec<u64> = [size / 256, size / 16, size]
        .into_iter()
        .map(|s| s.max(4) & !3)
        .collect();
    v.dedup();
    v
}

/// Run the experiment (see the module docs).
pub fn run(
    gpu: &mut dyn Gpu,
    opts: &ExperimentOptions,
    ctx: &RunContext,
) -> Result<Report, ExperimentError> {
    let most = COUNTS[COUNTS.len() - 1];
    let need = Need {
        device: most,
        host: most + 1,
    };
    let (size, mut report) = sized_report(ID, gpu, opts.size, DEFAULT_SIZE, need)?;
    let sizes = sizes(size);
    let reps = opts.repetitions.unwrap_or(REPS).max(1);
    if report.backend.kind == crate::report::BackendKind::Simulated {
        report.notes.push(
            "The built-in h200 profile's batch costs (batch_call_us, batch_per_copy_us, \
             batch_copy_latency_us) come from probes/batched-copies.cu on the H200 (4 KiB \
             copies); the simulator queues a batch's copies one after another once the call \
             returns (the driver may run them in any order)."
                .into(),
        );
    }
    let mut s = Session::new(gpu);
    let stream = s.stream(StreamKind::NonBlocking)?;
    let host = s.host(size * most, HostMemKind::Pinned)?;
    s.host_fill(host, 41)?;
    let dev = s.device(size * most)?;
    let b = Bufs { stream, host, dev };
    sweep(&mut s, &b, &sizes, reps, ctx, &mut report)?;
    speedup(&mut report);
    ctx.step("check the batch's bytes")?;
    report
        .checks
        .push(batch_arrives(&mut s, &b, sizes[0], most)?);
    ctx.step("offer the legacy default stream")?;
    report.checks.push(legacy_refused(&mut s, &b, sizes[0])?);
    ctx.step("timeline: single copies, then one batch")?;
    let (hsize, hcount) = (HEADLINE.0.min(size), HEADLINE.1);
    let copies = b.copies(hsize, hcount);
    s.begin()?;
    s.call(stream, "cuMemcpyHtoDAsync x16", |g| {
        issue(g, &b, Method::Singles, &copies)
    })?;
    s.call(stream, "cuMemcpyBatchAsync (16 copies)", |g| {
        issue(g, &b, Method::Batch, &copies)
    })?;
    s.call(stream, "cuStreamSynchronize", |g| g.stream_sync(stream))?;
    report.timeline = s.end()?;
    report
        .params
        .extra
        .insert("copy_sizes".into(), sizes.len().to_string());
    s.finish()?;
    Ok(report)
}

/// Every size x count x method point: the throughput and call-cost series, and the smallest
/// copies' metrics at the largest count.
fn sweep(
    s: &mut Session,
    b: &Bufs,
    sizes: &[u64],
    reps: u32,
    ctx: &RunContext,
    report: &mut Report,
) -> Result<(), ExperimentError> {
    let most = COUNTS[COUNTS.len() - 1];
    let points = sizes.len() * COUNTS.len();
    let mut step = 0;
    for &bytes in sizes {
        let mut series: Vec<(Method, Curve, Curve)> = Vec::new();
        for method in [Method::Singles, Method::Batch] {
            let (mut rate, mut call) = (Vec::new(), Vec::new());
            for &count in &COUNTS {
                step += 1;
                ctx.step(&format!(
                    "{} x {} {} ({step}/{})",
                    count,
                    format_bytes(bytes),
                    method.key(),
                    points * 2
                ))?;
                let copies = b.copies(bytes, count);
                let Some(p) = time_point(s, b, method, &copies, reps)? else {
                    continue;
                };
                rate.push((count as f64, gbps(bytes * count, p.end_to_end.median)));
                call.push((count as f64, p.enqueue.median / count as f64));
                if bytes == sizes[0] && count == most {
                    small_point_metrics(report, method, &p, bytes * count, count);
                }
            }
            series.push((method, rate, call));
        }
        for (method, rate, call) in series {
            let name = format!("{}_{}", method.key(), bytes);
            report.series.push(Series {
                name: format!("{name}_gbps_by_count"),
                x_unit: "copies".into(),
                y_unit: GBPS.into(),
                points: rate,
            });
            report.series.push(Series {
                name: format!("{name}_call_us_per_copy_by_count"),
                x_unit: "copies".into(),
                y_unit: US.into(),
                points: call,
            });
        }
    }
    Ok(())
}

/// The metrics of the smallest copies at the largest count, where per-call cost matters most.
fn small_point_metrics(report: &mut Report, method: Method, p: &Point, bytes: u64, count: u64) {
    let m = &mut report.metrics;
    let per_copy = 1.0 / count as f64;
    let rate = gbps(bytes, p.end_to_end.median);
    match method {
        Method::Singles => {
            put_summary(m, "single_call_us", &p.enqueue, per_copy, US);
            put_derived(m, "singles_small_gbps", rate, GBPS, &["single_call_us"]);
        }
        Method::Batch => {
            put_summary(m, "batch_call_us", &p.enqueue, 1.0, US);
            put_summary(m, "batch_call_per_copy_us", &p.enqueue, per_copy, US);
            put_derived(m, "batch_small_gbps", rate, GBPS, &["batch_call_us"]);
        }
    }
}

/// Singles' end-to-end time over the batch's, at the small point (their throughputs' ratio).
fn speedup(report: &mut Report) {
    let get = |n: &str| report.metrics.get(n).map(|m| m.value);
    if let (Some(batch), Some(singles)) = (get("batch_small_gbps"), get("singles_small_gbps"))
        && singles > 0.0
    {
        put_derived(
            &mut report.metrics,
            "small_copies_speedup",
            batch / singles,
            TIMES,
            &["batch_small_gbps", "singles_small_gbps"],
        );
    }
}

/// The batch's bytes arrive: the device range first gets other bytes (single copies from a
/// second buffer), then one batch from the source, then the range comes back to a third buffer
/// that must equal the source.
fn batch_arrives(
    s: &mut Session,
    b: &Bufs,
    size: u64,
    count: u64,
) -> Result<Check, ExperimentError> {
    let bytes = size * count;
    let other = s.host(bytes, HostMemKind::Pinned)?;
    s.host_fill(other, 42)?;
    let back = s.host(bytes, HostMemKind::Pinned)?;
    s.copy_h2d_async(b.stream, b.dev, 0, other, 0, bytes)?;
    issue(&mut **s, b, Method::Batch, &b.copies(size, count))?;
    s.copy_d2h_async(b.stream, back, 0, b.dev, 0, bytes)?;
    s.stream_sync(b.stream)?;
    let name = format!(
        "{count} batched copies of {} arrive intact",
        format_bytes(size)
    );
    Ok(verify::copy_matches(&mut **s, &name, b.host, back, bytes)?)
}

/// The legacy default stream is refused with an error (the Driver API reference: "Must not be
/// legacy NULL stream"); on the GPU backend the driver itself answers.
fn legacy_refused(s: &mut Session, b: &Bufs, size: u64) -> Result<Check, ExperimentError> {
    let legacy = Bufs {
        stream: StreamId::LEGACY_DEFAULT,
        ..*b
    };
    let answer = issue(&mut **s, &legacy, Method::Batch, &legacy.copies(size, 4));
    s.device_sync()?;
    let (passed, detail) = match answer {
        Err(GpuError::Driver { message, .. }) => (true, crate::sanitize::clean_line(&message)),
        Err(other) => (false, crate::sanitize::clean_line(&other.to_string())),
        Ok(()) => (false, "the call was accepted".to_string()),
    };
    Ok(Check {
        name: "the legacy default stream is refused".into(),
        passed,
        detail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_sizes_are_whole_floats_from_a_256th_to_the_size() {
        assert_eq!(sizes(MIB), vec![4 * KIB, 64 * KIB, MIB]);
        assert_eq!(sizes(16), vec![4, 16]);
        assert!(sizes(1000).iter().all(|s| s % 4 == 0));
    }
}
