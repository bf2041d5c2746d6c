//! `pinned-alloc` (lesson 2): what page-locked memory costs to get. Allocating pinned memory
//! (`cuMemHostAlloc`), pageable memory including its first touch, and registering an existing
//! buffer (`cuMemHostRegister`), each per GiB; then copy bandwidth from pinned, write-combined,
//! registered and pageable memory, verified.

use crate::gpu::{DevBuf, Gpu, HostBuf, StreamId, StreamKind};
use crate::report::{HostMemKind, Params, Report, Series};

use super::fit::{Free, Need, fit_size};
use super::measure::{CopySpec, Dir};
use super::metrics::{GBPS, MS_PER_GIB, put_summary};
use super::options::{GIB, MIB, format_bytes};
use super::session::Session;
use super::spec::{self, Chart, ExperimentSpec, MetricSpec, Param, Timing};
use super::stats::{Summary, gbps, median};
use super::{ExperimentError, ExperimentOptions, RunContext, new_report, verify};

/// The experiment id.
pub const ID: &str = "pinned-alloc";

/// The registry's declaration (see [`super::registry`]).
pub const SPEC: ExperimentSpec = ExperimentSpec {
    id: ID,
    title: "what pinning host memory costs, and what each kind of host memory copies at",
    params: &[Param::Size],
    default_size: DEFAULT_SIZE,
    metrics: &[
        MetricSpec::required(
            "pinned_alloc_ms_per_gib",
            MS_PER_GIB,
            "cudaMallocHost",
            Timing::Host,
        ),
        MetricSpec::required(
            "pageable_alloc_ms_per_gib",
            MS_PER_GIB,
            "malloc + first touch",
            Timing::Host,
        ),
        MetricSpec::required(
            "register_ms_per_gib",
            MS_PER_GIB,
            "cudaHostRegister",
            Timing::Host,
        ),
        MetricSpec::required(
            "write_combined_h2d_gbps",
            GBPS,
            "write-combined H2D",
            Timing::Device,
        ),
        MetricSpec::extra(
            "pinned_free_ms_per_gib",
            MS_PER_GIB,
            "cudaFreeHost",
            Timing::Host,
        ),
        MetricSpec::extra("pageable_free_ms_per_gib", MS_PER_GIB, "free", Timing::Host),
        MetricSpec::extra(
            "unregister_ms_per_gib",
            MS_PER_GIB,
            "cudaHostUnregister",
            Timing::Host,
        ),
        MetricSpec::extra("pinned_h2d_gbps", GBPS, "pinned H2D", Timing::Device),
        MetricSpec::extra("pinned_d2h_gbps", GBPS, "pinned D2H", Timing::Device),
        MetricSpec::extra(
            "write_combined_d2h_gbps",
            GBPS,
            "write-combined D2H",
            Timing::Device,
        ),
        MetricSpec::extra(
            "registered_h2d_gbps",
            GBPS,
            "registered H2D",
            Timing::Device,
        ),
        MetricSpec::extra(
            "registered_d2h_gbps",
            GBPS,
            "registered D2H",
            Timing::Device,
        ),
        MetricSpec::extra("pageable_h2d_gbps", GBPS, "pageable H2D", Timing::Host),
        MetricSpec::extra("pageable_d2h_gbps", GBPS, "pageable D2H", Timing::Host),
    ],
    chart: Some(Chart::HostMemoryBars),
    opens_on_chart: true,
    headline: spec::this_run,
    words: spec::RunWords::NONE,
    run,
};
/// The default allocation size.
pub const DEFAULT_SIZE: u64 = 256 * MIB;
/// The largest copy of the bandwidth part.
pub const COPY_SIZE: u64 = 64 * MIB;
const REPS: u32 = 3;
const BW_KINDS: [HostMemKind; 4] = [
    HostMemKind::Pinned,
    HostMemKind::WriteCombined,
    HostMemKind::Registered,
    HostMemKind::Pageable,
];

/// One allocation cycle's host times in milliseconds: (name, time).
type Cycle = Vec<(&'static str, f64)>;

/// Run the experiment (see the module docs).
pub fn run(
    gpu: &mut dyn Gpu,
    opts: &ExperimentOptions,
    ctx: &RunContext,
) -> Result<Report, ExperimentError> {
    // One allocation of `size` is held at a time; the copies need their own, smaller buffers.
    let host_only = Need { device: 0, host: 1 };
    let (size, size_note) = fit_size(
        opts.size,
        DEFAULT_SIZE,
        host_only,
        Free::now(u64::MAX, gpu.info().holds_host_bytes),
    )?;
    let copies = Need { device: 1, host: 5 };
    let (copy, note) = fit_size(
        None,
        COPY_SIZE.min(size),
        copies,
        Free::now(gpu.info().free_mem, gpu.info().holds_host_bytes),
    )?;
    let mut params = Params {
        size,
        ..Params::default()
    };
    params.extra.insert("copy_size".into(), copy.to_string());
    params.extra.insert("repetitions".into(), REPS.to_string());
    let mut report = new_report(ID, gpu, params);
    report.notes.extend(size_note);
    report.notes.extend(note);
    report.notes.push(
        "allocation metrics time the allocation only (pageable: malloc plus first touch); \
         freeing is reported separately"
            .into(),
    );
    let mut s = Session::new(gpu);
    alloc_sweep(
        &mut s,
        &mut report,
        size,
        opts.repetitions.unwrap_or(REPS),
        ctx,
    )?;
    bandwidth(&mut s, &mut report, copy, ctx)?;
    s.finish()?;
    Ok(report)
}

/// Laps of the host clock, in milliseconds.
struct Laps {
    last: f64,
    out: Cycle,
}

impl Laps {
    fn lap(&mut self, s: &mut Session, name: &'static str) {
        let now = s.host_now_us();
        self.out.push((name, (now - self.last) / 1e3));
        self.last = now;
    }
}

/// One allocate/touch/register/free cycle of each kind at `bytes`, timed with the host clock.
fn cycle(s: &mut Session, bytes: u64) -> Result<Cycle, ExperimentError> {
    let mut l = Laps {
        last: s.host_now_us(),
        out: Vec::new(),
    };
    let h = s.host(bytes, HostMemKind::Pinned)?;
    l.lap(s, "pinned_alloc");
    s.free_host(h)?;
    l.lap(s, "pinned_free");
    let h = s.host(bytes, HostMemKind::Pageable)?;
    s.host_touch(h)?;
    l.lap(s, "pageable_alloc");
    s.host_register(h)?;
    l.lap(s, "register");
    s.host_unregister(h)?;
    l.lap(s, "unregister");
    s.free_host(h)?;
    l.lap(s, "pageable_free");
    Ok(l.out)
}

/// Allocation costs at a quarter, a sixteenth and all of `size`: series by size, and per-GiB
/// metrics at `size`.
fn alloc_sweep(
    s: &mut Session,
    report: &mut Report,
    size: u64,
    reps: u32,
    ctx: &RunContext,
) -> Result<(), ExperimentError> {
    let sizes: Vec<u64> = [size / 16, size / 4, size]
        .into_iter()
        .map(|b| b.max(4096) / 4 * 4)
        .collect();
    let mut series: Vec<Series> = Vec::new();
    for (i, &bytes) in sizes.iter().enumerate() {
        let mut samples: Vec<Cycle> = Vec::new();
        for r in 0..reps {
            ctx.step(&format!(
                "allocate {} ({}/{})",
                format_bytes(bytes),
                i as u32 * reps + r + 1,
                reps * 3
            ))?;
            samples.push(cycle(s, bytes)?);
        }
        let names: Vec<&str> = samples[0].iter().map(|(n, _)| *n).collect();
        for (j, name) in names.into_iter().enumerate() {
            let laps: Vec<f64> = samples.iter().map(|c| c[j].1).collect();
            let ms = median(&laps);
            match series
                .iter_mut()
                .find(|x| x.name == format!("{name}_ms_by_size"))
            {
                Some(x) => x.points.push((bytes as f64, ms)),
                None => series.push(Series {
                    name: format!("{name}_ms_by_size"),
                    x_unit: "bytes".into(),
                    y_unit: "ms".into(),
                    points: vec![(bytes as f64, ms)],
                }),
            }
            if let (true, Some(laps)) = (bytes == size, Summary::of(&laps)) {
                let per_gib = 1.0 / (bytes as f64 / GIB as f64);
                let name = format!("{name}_ms_per_gib");
                put_summary(&mut report.metrics, &name, &laps, per_gib, MS_PER_GIB);
            }
        }
    }
    report.series.extend(series);
    Ok(())
}

/// H2D and D2H bandwidth from each kind of host memory; the headline timeline shows one H2D of
/// each; every kind's round trip is verified.
fn bandwidth(
    s: &mut Session,
    report: &mut Report,
    copy: u64,
    ctx: &RunContext,
) -> Result<(), ExperimentError> {
    let stream = s.stream(StreamKind::NonBlocking)?;
    let dev = s.device(copy)?;
    let check = s.host(copy, HostMemKind::Pinned)?;
    let mut bufs = Vec::new();
    for (i, kind) in BW_KINDS.into_iter().enumerate() {
        ctx.step(&format!(
            "{} copies of {} ({}/{})",
            kind.name(),
            format_bytes(copy),
            i + 1,
            BW_KINDS.len()
        ))?;
        let host = s.host(copy, kind)?;
        s.host_fill(host, 11 + i as u32)?;
        bufs.push((kind, host));
        for dir in [Dir::H2d, Dir::D2h] {
            let spec = CopySpec {
                dir,
                stream,
                host,
                dev,
                kind,
                bytes: copy,
            };
            spec.issue(&mut **s)?; // warm-up
            s.stream_sync(stream)?;
            let times = spec.time(s, 5)?;
            let rates: Vec<f64> = times.iter().map(|&t| gbps(copy, t)).collect();
            if let Some(r) = Summary::of(&rates) {
                let name = format!("{}_{}_gbps", kind.key(), dir.name());
                put_summary(&mut report.metrics, &name, &r, 1.0, GBPS);
            }
        }
    }
    headline(s, report, (stream, dev, check), &bufs, copy)
}

fn headline(
    s: &mut Session,
    report: &mut Report,
    (stream, dev, check): (StreamId, DevBuf, HostBuf),
    bufs: &[(HostMemKind, HostBuf)],
    copy: u64,
) -> Result<(), ExperimentError> {
    // The timed D2H copies overwrote the sources: give each its own data again.
    for (i, &(_, host)) in bufs.iter().enumerate() {
        s.host_fill(host, 11 + i as u32)?;
    }
    s.begin()?;
    for &(kind, host) in bufs {
        let up = CopySpec {
            dir: Dir::H2d,
            stream,
            host,
            dev,
            kind,
            bytes: copy,
        };
        s.call(stream, &format!("cuMemcpyHtoDAsync {}", kind.name()), |g| {
            up.issue(g)
        })?;
        s.call(stream, "cuStreamSynchronize", |g| g.stream_sync(stream))?;
    }
    report.timeline = s.end()?;
    for &(kind, host) in bufs {
        s.host_fill(check, 99)?;
        let up = CopySpec {
            dir: Dir::H2d,
            stream,
            host,
            dev,
            kind,
            bytes: copy,
        };
        let down = CopySpec {
            dir: Dir::D2h,
            host: check,
            kind: HostMemKind::Pinned,
            ..up
        };
        up.issue(&mut **s)?;
        down.issue(&mut **s)?;
        s.stream_sync(stream)?;
        let name = format!("copy from {} memory matches", kind.name());
        report
            .checks
            .push(verify::copy_matches(&mut **s, &name, host, check, copy)?);
    }
    Ok(())
}
