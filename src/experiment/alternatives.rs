//! `alternatives` (lesson 2): copy, prefetch, or read in place? For the same data and the same
//! kernel (`kernels/strided.cu`, `y = 2x + 1`), the host time from the first call to the host's
//! checksum of the result, four ways: explicit pinned copies in and out around the kernel;
//! managed memory the kernel faults over and the host faults back; managed memory with
//! `cuMemPrefetchAsync` to the GPU before the kernel and back after it; mapped pinned memory the
//! kernel reads and writes in place across the link. Each way for three accesses: every float
//! once, every float four times (data reused on the GPU), one float in 64 KiB (sparse). Medians
//! after a warm-up; every checksum is compared with the host's own sum of the expected values.
//!
//! probes/alternatives.cu measures the same twelve points with the Runtime API
//! (probes/alternatives-h200.txt); this experiment allocates each way's buffers once and fills
//! them again before every run (the probe allocates per run), so managed pages start on the
//! host each time as there.

use crate::gpu::{
    Access, Gpu, GpuError, HostView, Kernel, Operand, Side, StreamId, StreamKind, TRANSFORM_A,
    TRANSFORM_B, UnifiedBuf, UnifiedKind, strided_pattern_sum,
};
use crate::report::{Check, HostMemKind, Report, Series};

use super::fit::Need;
use super::metrics::{MS, TIMES, put_derived, put_summary};
use super::options::{KIB, MIB};
use super::session::Session;
use super::spec::{self, ExperimentSpec, MetricSpec, Param, Timing};
use super::stats::Summary;
use super::{ExperimentError, ExperimentOptions, RunContext, sized_report};

/// The experiment id.
pub const ID: &str = "alternatives";
/// Bytes each way by default (the probe's 64 Mi floats).
pub const DEFAULT_SIZE: u64 = 256 * MIB;
/// Timed repetitions per point (after one warm-up) unless `--repetitions` says otherwise.
const REPS: u32 = 3;
/// The sparse access's stride: one float in 64 KiB.
pub const SPARSE_STRIDE: u64 = 64 * KIB / 4;
/// Seeds of the input and of what the output holds before the kernel.
const SEED_IN: u32 = 30;
const SEED_OUT: u32 = 31;

/// The three accesses, with their metric key and words.
pub const ACCESSES: [(&str, &str, Access); 3] = [
    (
        "once",
        "every float once",
        Access {
            stride: 1,
            passes: 1,
        },
    ),
    (
        "four",
        "every float 4 times",
        Access {
            stride: 1,
            passes: 4,
        },
    ),
    (
        "sparse",
        "one float in 64 KiB",
        Access {
            stride: SPARSE_STRIDE,
            passes: 1,
        },
    ),
];

/// The four ways, with their metric key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    Explicit,
    Managed,
    Prefetch,
    Mapped,
}

impl Way {
    pub const ALL: [Way; 4] = [Way::Explicit, Way::Managed, Way::Prefetch, Way::Mapped];

    pub fn key(self) -> &'static str {
        match self {
            Way::Explicit => "explicit",
            Way::Managed => "managed",
            Way::Prefetch => "prefetch",
            Way::Mapped => "mapped",
        }
    }
}

macro_rules! point {
    ($req:ident, $name:literal, $label:literal) => {
        MetricSpec::$req($name, MS, $label, Timing::Host)
    };
}

/// The registry's declaration (see [`super::registry`]).
pub const SPEC: ExperimentSpec = ExperimentSpec {
    id: ID,
    title: "copy, prefetch, or read in place: explicit copies, managed memory and mapped memory",
    params: &[Param::Size],
    default_size: DEFAULT_SIZE,
    metrics: &[
        point!(required, "explicit_once_ms", "explicit copies, read once"),
        point!(required, "managed_once_ms", "managed, read once"),
        point!(
            required,
            "prefetch_once_ms",
            "managed + prefetch, read once"
        ),
        point!(required, "mapped_once_ms", "mapped, read once"),
        point!(extra, "explicit_four_ms", "explicit copies, read 4 times"),
        point!(extra, "managed_four_ms", "managed, read 4 times"),
        point!(
            extra,
            "prefetch_four_ms",
            "managed + prefetch, read 4 times"
        ),
        point!(extra, "mapped_four_ms", "mapped, read 4 times"),
        point!(required, "explicit_sparse_ms", "explicit copies, sparse"),
        point!(required, "managed_sparse_ms", "managed, sparse"),
        point!(extra, "prefetch_sparse_ms", "managed + prefetch, sparse"),
        point!(required, "mapped_sparse_ms", "mapped, sparse"),
        MetricSpec::extra(
            "prefetch_speedup_once",
            TIMES,
            "prefetch's gain over faults, read once",
            Timing::Host,
        ),
    ],
    chart: None,
    opens_on_chart: false,
    headline: |_| "each way once, reading every float once".to_string(),
    words: spec::RunWords::NONE,
    run,
};

/// One way's buffers: what the kernel reads and writes, and what the host fills and sums.
#[derive(Debug, Clone, Copy)]
struct Bufs {
    src: Operand,
    dst: Operand,
    host_in: HostView,
    host_out: HostView,
}

fn unified(view: HostView) -> Option<UnifiedBuf> {
    match view {
        HostView::Unified(u) => Some(u),
        HostView::Host(_) => None,
    }
}

/// Allocate `way`'s buffers of `bytes` each.
fn alloc(s: &mut Session, way: Way, bytes: u64) -> Result<Bufs, GpuError> {
    Ok(match way {
        Way::Explicit => Bufs {
            src: Operand::Dev(s.device(bytes)?),
            dst: Operand::Dev(s.device(bytes)?),
            host_in: HostView::Host(s.host(bytes, HostMemKind::Pinned)?),
            host_out: HostView::Host(s.host(bytes, HostMemKind::Pinned)?),
        },
        Way::Managed | Way::Prefetch | Way::Mapped => {
            let kind = if way == Way::Mapped {
                UnifiedKind::Mapped
            } else {
                UnifiedKind::Managed
            };
            let a = s.unified_alloc(bytes, kind)?;
            let b = s.unified_alloc(bytes, kind)?;
            Bufs {
                src: Operand::Unified(a),
                dst: Operand::Unified(b),
                host_in: HostView::Unified(a),
                host_out: HostView::Unified(b),
            }
        }
    })
}

fn free(s: &mut Session, b: Bufs) -> Result<(), GpuError> {
    for v in [b.host_in, b.host_out] {
        match v {
            HostView::Unified(u) => s.unified_free(u)?,
            HostView::Host(h) => s.free_host(h)?,
        }
    }
    for op in [b.src, b.dst] {
        if let Operand::Dev(d) = op {
            s.free_device(d)?;
        }
    }
    Ok(())
}

/// The host writes the input and the output before a run (untimed): every page on the host.
fn fill(s: &mut dyn Gpu, b: &Bufs) -> Result<(), GpuError> {
    for (v, seed) in [(b.host_in, SEED_IN), (b.host_out, SEED_OUT)] {
        match v {
            HostView::Host(h) => s.host_fill(h, seed)?,
            HostView::Unified(u) => s.unified_fill(u, seed)?,
        }
    }
    s.device_sync()
}

/// What one timed run gives: µs to the checksum, µs to the end of the stream sync (the device's
/// part, without the host's checksum), and the checksum.
#[derive(Debug, Clone, Copy)]
struct Timed {
    total_us: f64,
    device_us: f64,
    sum: f64,
}

/// One timed run: fill (untimed), then [`run_once`].
fn timed_run(
    s: &mut dyn Gpu,
    (way, b): (Way, &Bufs),
    stream: StreamId,
    (bytes, access): (u64, Access),
) -> Result<Timed, GpuError> {
    fill(s, b)?;
    let t0 = s.host_now_us();
    let (synced_us, sum) = run_once(s, (way, b), stream, (bytes, access))?;
    Ok(Timed {
        total_us: s.host_now_us() - t0,
        device_us: synced_us - t0,
        sum,
    })
}

/// What is timed: the copies or prefetches, the kernel, the sync and the host's checksum; the
/// host clock at the end of the sync, and the checksum.
fn run_once(
    s: &mut dyn Gpu,
    (way, b): (Way, &Bufs),
    stream: StreamId,
    (bytes, access): (u64, Access),
) -> Result<(f64, f64), GpuError> {
    if let (Way::Explicit, HostView::Host(h), Operand::Dev(d)) = (way, b.host_in, b.src) {
        s.copy_h2d_async(stream, d, 0, h, 0, bytes)?;
    }
    if way == Way::Prefetch {
        for u in [b.host_in, b.host_out].into_iter().filter_map(unified) {
            s.prefetch_async(stream, u, Side::Device)?;
        }
    }
    s.launch_strided(stream, b.src, b.dst, bytes, access)?;
    if let (Way::Explicit, HostView::Host(h), Operand::Dev(d)) = (way, b.host_out, b.dst) {
        s.copy_d2h_async(stream, h, 0, d, 0, bytes)?;
    }
    if let (Way::Prefetch, Some(u)) = (way, unified(b.host_out)) {
        s.prefetch_async(stream, u, Side::Host)?;
    }
    s.stream_sync(stream)?;
    let synced = s.host_now_us();
    Ok((
        synced,
        s.host_sum_strided(b.host_out, bytes, access.stride)?,
    ))
}

/// What the checksum must be: the transform of the input at every touched float.
pub fn expected_sum(bytes: u64, stride: u64) -> f64 {
    let touched = (bytes / 4).div_ceil(stride.max(1));
    strided_pattern_sum(SEED_IN, (0, touched, stride), |x| {
        Kernel::transform_host(x, TRANSFORM_A, TRANSFORM_B)
    })
}

/// Run the experiment (see the module docs).
pub fn run(
    gpu: &mut dyn Gpu,
    opts: &ExperimentOptions,
    ctx: &RunContext,
) -> Result<Report, ExperimentError> {
    // The timeline holds every way's buffers at once: two device and two pinned buffers for
    // the copies, four managed (which may sit on either side) and two mapped.
    let need = Need { device: 6, host: 8 };
    let (size, mut report) = sized_report(ID, gpu, opts.size, DEFAULT_SIZE, need)?;
    let bytes = (size & !3).max(4);
    let reps = opts.repetitions.unwrap_or(REPS).max(1);
    let mut s = Session::new(gpu);
    let stream = s.stream(StreamKind::NonBlocking)?;
    let (mut wrong, mut checked) = (Vec::new(), 0u32);
    let mut step = 0;
    for way in Way::ALL {
        let b = alloc(&mut s, way, bytes)?;
        let (mut curve, mut device_curve) = (Vec::new(), Vec::new());
        for (i, (key, words, access)) in ACCESSES.iter().enumerate() {
            step += 1;
            ctx.step(&format!("{}, {words} ({step}/12)", way.key()))?;
            let want = expected_sum(bytes, access.stride);
            let (mut times, mut device) = (Vec::new(), Vec::new());
            for rep in 0..=reps {
                let t = timed_run(&mut *s, (way, &b), stream, (bytes, *access))?;
                checked += 1;
                if t.sum != want {
                    wrong.push(format!("{} {key}: {} (want {want})", way.key(), t.sum));
                }
                if rep > 0 {
                    times.push(t.total_us);
                    device.push(t.device_us);
                }
            }
            if let Some(t) = Summary::of(&times) {
                let name = format!("{}_{key}_ms", way.key());
                put_summary(&mut report.metrics, &name, &t, 1e-3, MS);
                curve.push((i as f64, t.median * 1e-3));
            }
            if let Some(d) = Summary::of(&device) {
                device_curve.push((i as f64, d.median * 1e-3));
            }
        }
        free(&mut s, b)?;
        // The same runs to the end of the stream sync: the device's part without the host's
        // checksum, whose CPU time varies from run to run (BENCHMARKS, "Alternatives to copying").
        for (what, points) in [("ms", curve), ("device_ms", device_curve)] {
            report.series.push(Series {
                name: format!("{}_{what}_by_access", way.key()),
                x_unit: "access (0 once, 1 four times, 2 sparse)".into(),
                y_unit: MS.into(),
                points,
            });
        }
    }
    speedup(&mut report);
    report.checks.push(Check {
        name: "every checksum equals the host's sum of the expected values".into(),
        passed: wrong.is_empty(),
        detail: wrong
            .first()
            .cloned()
            .unwrap_or_else(|| format!("{checked} checksums, 12 points")),
    });
    timeline(&mut s, stream, bytes, ctx, &mut report)?;
    s.finish()?;
    Ok(report)
}

/// The report's timeline: each way once, reading every float once, with every way's buffers
/// made first so that it shows the four runs and no allocation.
fn timeline(
    s: &mut Session,
    stream: StreamId,
    bytes: u64,
    ctx: &RunContext,
    report: &mut Report,
) -> Result<(), ExperimentError> {
    ctx.step("timeline: each way once, reading every float once")?;
    let all = Way::ALL
        .into_iter()
        .map(|way| alloc(s, way, bytes).map(|b| (way, b)))
        .collect::<Result<Vec<_>, _>>()?;
    s.begin()?;
    for (way, b) in &all {
        let (way, b) = (*way, *b);
        fill(&mut **s, &b)?;
        s.call(stream, way.key(), |g| {
            run_once(g, (way, &b), stream, (bytes, ACCESSES[0].2)).map(|_| ())
        })?;
    }
    report.timeline = s.end()?;
    for (_, b) in all {
        free(s, b)?;
    }
    Ok(())
}

/// Managed memory with faults over managed memory with prefetch, reading once.
fn speedup(report: &mut Report) {
    let get = |n: &str| report.metrics.get(n).map(|m| m.value);
    if let (Some(faults), Some(pre)) = (get("managed_once_ms"), get("prefetch_once_ms"))
        && pre > 0.0
    {
        put_derived(
            &mut report.metrics,
            "prefetch_speedup_once",
            faults / pre,
            TIMES,
            &["managed_once_ms", "prefetch_once_ms"],
        );
    }
}
