//! `pageable-vs-pinned` (lesson 1): H2D and D2H bandwidth from pageable and pinned host memory
//! over a size sweep, with warm-up, repetitions, median and spread, and the data verified.

use crate::gpu::{Gpu, StreamKind};
use crate::report::{HostMemKind, Report, Series};

use super::fit::Need;
use super::measure::{CopySpec, Dir};
use super::metrics::{GBPS, US, put_summary};
use super::options::{MIB, format_bytes};
use super::session::Session;
use super::spec::{self, Chart, ExperimentSpec, MetricSpec, Param, Timing};
use super::stats::{Summary, gbps};
use super::{ExperimentError, ExperimentOptions, RunContext, sized_report, sweep, verify};

/// The experiment id.
pub const ID: &str = "pageable-vs-pinned";
/// The largest size of the default sweep.
pub const DEFAULT_SIZE: u64 = 256 * MIB;

/// The registry's declaration (see [`super::registry`]).
pub const SPEC: ExperimentSpec = ExperimentSpec {
    id: ID,
    title: "H2D and D2H bandwidth from pageable and pinned memory over a size sweep",
    params: &[Param::Size],
    default_size: DEFAULT_SIZE,
    metrics: &[
        MetricSpec::required("pinned_h2d_gbps", GBPS, "pinned H2D", Timing::Device),
        MetricSpec::required("pinned_d2h_gbps", GBPS, "pinned D2H", Timing::Device),
        MetricSpec::required("pageable_h2d_gbps", GBPS, "pageable H2D", Timing::Host),
        MetricSpec::required("pageable_d2h_gbps", GBPS, "pageable D2H", Timing::Host),
        MetricSpec::extra(
            "pinned_h2d_small_copy_us",
            US,
            "small H2D copy, pinned",
            Timing::Device,
        ),
        MetricSpec::extra(
            "pinned_d2h_small_copy_us",
            US,
            "small D2H copy, pinned",
            Timing::Device,
        ),
        MetricSpec::extra(
            "pageable_h2d_small_copy_us",
            US,
            "small H2D copy, pageable",
            Timing::Host,
        ),
        MetricSpec::extra(
            "pageable_d2h_small_copy_us",
            US,
            "small D2H copy, pageable",
            Timing::Host,
        ),
    ],
    chart: Some(Chart::BandwidthBySize),
    opens_on_chart: true,
    headline: spec::this_run,
    words: spec::RunWords::NONE,
    run,
};
const KINDS: [HostMemKind; 2] = [HostMemKind::Pinned, HostMemKind::Pageable];

/// Run the experiment (see the module docs).
pub fn run(
    gpu: &mut dyn Gpu,
    opts: &ExperimentOptions,
    ctx: &RunContext,
) -> Result<Report, ExperimentError> {
    let need = Need { device: 1, host: 4 };
    let (size, mut report) = sized_report(ID, gpu, opts.size, DEFAULT_SIZE, need)?;
    let sizes = sweep::sizes(size, 4);
    report
        .params
        .extra
        .insert("sizes".into(), sizes.len().to_string());

    let mut s = Session::new(gpu);
    let stream = s.stream(StreamKind::NonBlocking)?;
    let dev = s.device(size)?;
    let total = KINDS.len() * 2 * sizes.len();
    let mut step = 0;
    let mut bufs = Vec::new();
    for kind in KINDS {
        let src = s.host(size, kind)?;
        let dst = s.host(size, kind)?;
        // Filling writes every page, so first-touch page faults stay out of the timings (the
        // warm-up copy touches `dst`). Each kind gets its own data so a mix-up shows.
        s.host_fill(src, 1 + bufs.len() as u32)?;
        bufs.push((kind, src, dst));
        for dir in [Dir::H2d, Dir::D2h] {
            let host = if dir == Dir::H2d { src } else { dst };
            let at = |bytes| CopySpec {
                dir,
                stream,
                host,
                dev,
                kind,
                bytes,
            };
            ctx.step(&format!("warm-up {} {}", kind.name(), dir.label()))?;
            at(size).issue(&mut *s)?;
            s.stream_sync(stream)?;
            let mut points = Vec::new();
            for &bytes in &sizes {
                step += 1;
                let phase = format!(
                    "{} {} {} ({step}/{total})",
                    kind.name(),
                    dir.label(),
                    format_bytes(bytes)
                );
                ctx.step(&phase)?;
                let times = at(bytes).time(&mut s, sweep::repetitions(bytes, opts.repetitions))?;
                let rates: Vec<f64> = times.iter().map(|&t| gbps(bytes, t)).collect();
                let (Some(rate), Some(time)) = (Summary::of(&rates), Summary::of(&times)) else {
                    continue;
                };
                points.push((bytes as f64, rate.median));
                let name = format!("{}_{}", kind.key(), dir.name());
                if bytes == sizes[0] {
                    let name = format!("{name}_small_copy_us");
                    put_summary(&mut report.metrics, &name, &time, 1.0, US);
                }
                if bytes == size {
                    let name = format!("{name}_gbps");
                    put_summary(&mut report.metrics, &name, &rate, 1.0, GBPS);
                }
            }
            report.series.push(Series {
                name: format!("{}_{}_gbps_by_size", kind.key(), dir.name()),
                x_unit: "bytes".into(),
                y_unit: GBPS.into(),
                points,
            });
        }
    }
    ctx.step("round trip and verification")?;
    headline(&mut s, &mut report, stream, dev, &bufs, size)?;
    s.finish()?;
    Ok(report)
}

/// One kind's host buffers: its kind, the source and the destination of its round trip.
type Bufs = (HostMemKind, crate::gpu::HostBuf, crate::gpu::HostBuf);

/// The headline timeline: each kind's full-size round trip on one origin, then the data check.
fn headline(
    s: &mut Session,
    report: &mut Report,
    stream: crate::gpu::StreamId,
    dev: crate::gpu::DevBuf,
    bufs: &[Bufs],
    size: u64,
) -> Result<(), ExperimentError> {
    poison(s, stream, dev, bufs, size)?;
    s.begin()?;
    for &(kind, src, dst) in bufs {
        let up = CopySpec {
            dir: Dir::H2d,
            stream,
            host: src,
            dev,
            kind,
            bytes: size,
        };
        let down = CopySpec {
            dir: Dir::D2h,
            host: dst,
            ..up
        };
        let k = kind.name();
        // Lesson 1 is about plain cudaMemcpy, which the driver does as an async copy
        // (cuMemcpyHtoDAsync / DtoHAsync) and a wait (cuStreamSynchronize): label them so.
        let copy = format!("cudaMemcpy {k}");
        let wait = "cudaMemcpy waits";
        s.call(stream, &copy, |g| up.issue(g))?;
        s.call(stream, wait, |g| g.stream_sync(stream))?;
        s.call(stream, &copy, |g| down.issue(g))?;
        s.call(stream, wait, |g| g.stream_sync(stream))?;
    }
    report.timeline = s.end()?;
    for &(kind, src, dst) in bufs {
        let name = format!(
            "{} round trip of {} matches",
            kind.name(),
            format_bytes(size)
        );
        report
            .checks
            .push(verify::copy_matches(&mut **s, &name, src, dst, size)?);
    }
    faster_checks(report, size);
    Ok(())
}

/// Puts the other kind's data in each destination first, so that a round trip that did
/// nothing cannot pass the check.
fn poison(
    s: &mut Session,
    stream: crate::gpu::StreamId,
    dev: crate::gpu::DevBuf,
    bufs: &[Bufs],
    size: u64,
) -> Result<(), ExperimentError> {
    for (i, &(kind, _, dst)) in bufs.iter().enumerate() {
        let (other_kind, other, _) = bufs[(i + 1) % bufs.len()];
        let up = CopySpec {
            dir: Dir::H2d,
            stream,
            host: other,
            dev,
            kind: other_kind,
            bytes: size,
        };
        up.issue(&mut **s)?;
        CopySpec {
            dir: Dir::D2h,
            host: dst,
            kind,
            ..up
        }
        .issue(&mut **s)?;
    }
    Ok(())
}

/// "Pinned faster than pageable" in each direction, from the full-size metrics.
fn faster_checks(report: &mut Report, size: u64) {
    for dir in ["h2d", "d2h"] {
        let get = |k: &str| {
            report
                .metrics
                .get(&format!("{k}_{dir}_gbps"))
                .map(|m| m.value)
        };
        if let (Some(p), Some(q)) = (get("pinned"), get("pageable")) {
            report.checks.push(crate::report::Check {
                name: format!(
                    "pinned {dir} faster than pageable at {}",
                    format_bytes(size)
                ),
                passed: p > q,
                detail: format!("{p:.1} vs {q:.1} GB/s"),
            });
        }
    }
}
