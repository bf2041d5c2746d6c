//! `default-stream` (lesson 3): a spin kernel on one stream and a pinned copy on another, with a
//! small kernel on the legacy default stream issued between them. On two non-blocking streams
//! the kernel and the copy overlap; on two blocking streams the legacy default stream's barrier
//! makes them run one after the other. The same three calls run both times; only the streams'
//! flags differ.

use crate::gpu::{DevBuf, Gpu, GpuError, HostBuf, Kernel, StreamId, StreamKind};
use crate::report::{Check, HostMemKind, NamedTimeline, Op, OpKind, Report};

use super::fit::Need;
use super::measure::{CopySpec, Dir};
use super::metrics::{MS, put, put_summary};
use super::options::{KIB, MIB, format_bytes};
use super::session::{Session, device_span_us};
use super::spec::{ExperimentSpec, MetricSpec, Param, Timing};
use super::stats::Summary;
use super::{ExperimentError, ExperimentOptions, RunContext, sized_report};

/// The experiment id.
pub const ID: &str = "default-stream";

/// The registry's declaration (see [`super::registry`]).
pub const SPEC: ExperimentSpec = ExperimentSpec {
    id: ID,
    title: "the legacy default stream against non-blocking streams",
    params: &[Param::Size],
    default_size: DEFAULT_SIZE,
    metrics: &[
        MetricSpec::required(
            "legacy_default_ms",
            MS,
            "legacy default stream",
            Timing::Device,
        ),
        MetricSpec::required("nonblocking_ms", MS, "non-blocking streams", Timing::Device),
        MetricSpec::extra("copy_ms", MS, "the copy alone", Timing::Device),
        MetricSpec::extra("spin_kernel_ms", MS, "the kernel alone", Timing::Device),
    ],
    chart: None,
    opens_on_chart: false,
    headline: |_| "two blocking streams (legacy default)".to_string(),
    words: super::spec::RunWords::NONE,
    run,
};
/// The copy's size by default.
pub const DEFAULT_SIZE: u64 = 64 * MIB;
/// The spin kernel runs over this many bytes of `f32`s (about one wave of threads).
const SPIN_BYTES: u64 = MIB;
/// The legacy-default-stream operation: a transform over this many bytes.
const SMALL_BYTES: u64 = 4 * KIB;
const PROBE_ITERATIONS: u32 = 10_000;
const REPS: usize = 3;

/// What a scenario needs: the copy, the spin buffer and the small buffer.
struct Setup {
    copy: CopySpec,
    spin_buf: DevBuf,
    small_buf: DevBuf,
    spin: Kernel,
}

/// Run the experiment (see the module docs).
pub fn run(
    gpu: &mut dyn Gpu,
    opts: &ExperimentOptions,
    ctx: &RunContext,
) -> Result<Report, ExperimentError> {
    if !gpu.info().kernels_available {
        return Err(GpuError::KernelsUnavailable(
            "the default-stream experiment needs the spin kernel; install NVRTC or use --backend sim".into(),
        )
        .into());
    }
    let need = Need { device: 1, host: 1 };
    let (size, mut report) = sized_report(ID, gpu, opts.size, DEFAULT_SIZE, need)?;
    if report.backend.kind == crate::report::BackendKind::Simulated {
        report.notes.push(
            "The simulator runs one kernel at a time on one compute engine, so the small \
             stream-0 kernel starts when the spin kernel ends even with non-blocking streams; \
             on a GPU with SMs to spare it can start at once."
                .into(),
        );
    }
    let mut s = Session::new(gpu);
    let host: HostBuf = s.host(size, HostMemKind::Pinned)?;
    s.host_fill(host, 31)?;
    let dev = s.device(size)?;
    let (spin_buf, small_buf) = (s.device(SPIN_BYTES)?, s.device(SMALL_BYTES)?);
    let probe = s.stream(StreamKind::NonBlocking)?;
    let copy = CopySpec {
        dir: Dir::H2d,
        stream: probe,
        host,
        dev,
        kind: HostMemKind::Pinned,
        bytes: size,
    };
    let spin = size_spin(&mut s, &copy, spin_buf, ctx, &mut report)?;
    let setup = Setup {
        copy,
        spin_buf,
        small_buf,
        spin,
    };
    for (kind, metric, name) in [
        (
            StreamKind::NonBlocking,
            "nonblocking_ms",
            "two non-blocking streams",
        ),
        (
            StreamKind::Blocking,
            "legacy_default_ms",
            "two blocking streams",
        ),
    ] {
        ctx.step(name)?;
        let ops = scenarios(&mut s, &setup, kind, metric, &mut report)?;
        if kind == StreamKind::Blocking {
            report.timeline = ops;
        } else {
            report.other_timelines.push(NamedTimeline {
                name: name.into(),
                ops,
            });
        }
    }
    s.finish()?;
    Ok(report)
}

/// Times the copy alone, then sizes the spin kernel to take about as long: returns that
/// kernel, with both times and its iterations in the report.
fn size_spin(
    s: &mut Session,
    copy: &CopySpec,
    spin_buf: DevBuf,
    ctx: &RunContext,
    report: &mut Report,
) -> Result<Kernel, ExperimentError> {
    ctx.step(&format!("copy {} alone", format_bytes(copy.bytes)))?;
    copy.issue(&mut **s)?; // warm-up
    let copy_times = Summary::of(&copy.time(s, REPS as u32)?);
    let copy_us = copy_times.map_or(0.0, |t| t.median);
    ctx.step("size the spin kernel to the copy")?;
    let probe = copy.stream;
    let probe_us = kernel_us(
        s,
        probe,
        Kernel::Spin {
            iterations: PROBE_ITERATIONS,
        },
        spin_buf,
    )?;
    let iterations =
        (f64::from(PROBE_ITERATIONS) * copy_us / probe_us.max(1e-3)).clamp(1.0, 1e9) as u32;
    let spin = Kernel::Spin { iterations };
    let spin_us = kernel_us(s, probe, spin, spin_buf)?;
    if let Some(t) = &copy_times {
        put_summary(&mut report.metrics, "copy_ms", t, 1e-3, MS);
    }
    put(&mut report.metrics, "spin_kernel_ms", spin_us / 1e3, MS);
    report
        .params
        .extra
        .insert("spin_iterations".into(), iterations.to_string());
    Ok(spin)
}

/// Runs the scenario `REPS` times on two new streams of `kind`: books their times as
/// `metric` and the overlap check, and returns the last run's timeline.
fn scenarios(
    s: &mut Session,
    setup: &Setup,
    kind: StreamKind,
    metric: &str,
    report: &mut Report,
) -> Result<Vec<Op>, ExperimentError> {
    let streams = (s.stream(kind)?, s.stream(kind)?);
    let mut times = Vec::new();
    let mut ops = Vec::new();
    for _ in 0..REPS {
        ops = scenario(s, setup, streams)?;
        times.push(device_span_us(&ops) / 1e3);
    }
    if let Some(t) = Summary::of(&times) {
        put_summary(&mut report.metrics, metric, &t, 1.0, MS);
    }
    report.checks.push(overlap_check(kind, &ops));
    Ok(ops)
}

/// The device time of one launch of `kernel`, in microseconds.
fn kernel_us(
    s: &mut Session,
    stream: StreamId,
    kernel: Kernel,
    buf: DevBuf,
) -> Result<f64, GpuError> {
    s.launch(stream, kernel, buf, 0, SPIN_BYTES)?; // warm-up: modules load on first launch
    s.stream_sync(stream)?;
    s.begin()?;
    s.launch(stream, kernel, buf, 0, SPIN_BYTES)?;
    s.stream_sync(stream)?;
    let ops = s.end()?;
    Ok(device_span_us(&ops))
}

/// Spin kernel on the first stream, small kernel on the legacy default stream, copy on the
/// second stream, then wait for everything; returns the timeline.
fn scenario(
    s: &mut Session,
    st: &Setup,
    (a, b): (StreamId, StreamId),
) -> Result<Vec<Op>, GpuError> {
    let legacy = StreamId::LEGACY_DEFAULT;
    let small = Kernel::Transform { a: 1.0, b: 0.0 };
    s.begin()?;
    s.call(a, "cuLaunchKernel spin", |g| {
        g.launch(a, st.spin, st.spin_buf, 0, SPIN_BYTES)
    })?;
    s.call(
        legacy,
        "cuLaunchKernel small (legacy default stream)",
        |g| g.launch(legacy, small, st.small_buf, 0, SMALL_BYTES),
    )?;
    let copy = CopySpec {
        stream: b,
        ..st.copy
    };
    s.call(b, "cuMemcpyHtoDAsync pinned", |g| copy.issue(g))?;
    s.call(legacy, "cuCtxSynchronize", |g| g.device_sync())?;
    s.end()
}

/// Non-blocking streams must let the kernel and the copy overlap; blocking ones must not.
fn overlap_check(kind: StreamKind, ops: &[Op]) -> Check {
    // The spin kernel is the kernel that is not on the legacy default stream.
    let kernel = ops
        .iter()
        .find(|o| o.kind == OpKind::Kernel && o.stream != StreamId::LEGACY_DEFAULT.0);
    let copy = ops.iter().find(|o| o.kind == OpKind::H2d);
    let overlap = match (kernel, copy) {
        (Some(k), Some(c)) => (k.end_us.min(c.end_us) - k.start_us.max(c.start_us)).max(0.0),
        _ => 0.0,
    };
    let (name, passed) = match kind {
        StreamKind::NonBlocking => (
            "non-blocking streams: the kernel and the copy overlap",
            overlap > 0.0,
        ),
        StreamKind::Blocking => (
            "blocking streams: the legacy default stream serialises them",
            overlap <= 0.5,
        ),
    };
    Check {
        name: name.into(),
        passed,
        detail: format!("{overlap:.1} us of overlap"),
    }
}
