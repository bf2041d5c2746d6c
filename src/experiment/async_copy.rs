//! `async-copy` (lesson 3): how long `cuMemcpyHtoDAsync` takes to return to the host, and how
//! long until the copy is done, from pinned and from pageable memory, at sizes below and above
//! 64 KiB and large; plus a copy-kernel-copy sequence in one stream, verified, whose timeline
//! shows that a stream runs its work in issue order.

use crate::gpu::{DevBuf, Gpu, HostBuf, Kernel, StreamId, StreamKind};
use crate::report::{Check, HostMemKind, OpKind, Report, Series};

use super::fit::Need;
use super::measure::{CopySpec, Dir};
use super::metrics::{US, put_summary};
use super::options::{KIB, MIB, format_bytes};
use super::session::{Session, device_ops};
use super::spec::{self, Chart, ExperimentSpec, MetricSpec, Param, Timing};
use super::stats::{Summary, median};
use super::{ExperimentError, ExperimentOptions, RunContext, sized_report, sweep, verify};

/// The experiment id.
pub const ID: &str = "async-copy";
/// The largest size by default.
pub const DEFAULT_SIZE: u64 = 64 * MIB;

/// The registry's declaration (see [`super::registry`]).
pub const SPEC: ExperimentSpec = ExperimentSpec {
    id: ID,
    title: "when an async copy call returns, against when the copy is done",
    params: &[Param::Size],
    default_size: DEFAULT_SIZE,
    metrics: &[
        MetricSpec::required(
            "async_return_us_pinned",
            US,
            "async returns (pinned)",
            Timing::Host,
        ),
        MetricSpec::required(
            "async_return_us_pageable",
            US,
            "async returns (pageable)",
            Timing::Host,
        ),
        MetricSpec::required(
            "copy_done_us_pinned",
            US,
            "copy done (pinned)",
            Timing::Host,
        ),
        MetricSpec::required(
            "copy_done_us_pageable",
            US,
            "copy done (pageable)",
            Timing::Host,
        ),
    ],
    chart: Some(Chart::AsyncReturnBars),
    opens_on_chart: false,
    headline: spec::this_run,
    words: spec::RunWords::NONE,
    run,
};
/// The kernel of the copy-kernel-copy sequence (exact in `f32` for the fill pattern).
pub const TRANSFORM: Kernel = Kernel::Transform { a: 2.0, b: 1.0 };
const KINDS: [HostMemKind; 2] = [HostMemKind::Pinned, HostMemKind::Pageable];

/// Sizes below, at and above the 64 KiB rule of thumb, the staging-buffer scale, and `largest`.
pub fn sizes(largest: u64) -> Vec<u64> {
    let mut v: Vec<u64> = [4 * KIB, 64 * KIB, 256 * KIB, 4 * MIB]
        .into_iter()
        .filter(|&b| b < largest)
        .collect();
    v.push(largest);
    v
}

/// Run the experiment (see the module docs).
pub fn run(
    gpu: &mut dyn Gpu,
    opts: &ExperimentOptions,
    ctx: &RunContext,
) -> Result<Report, ExperimentError> {
    let need = Need { device: 1, host: 3 };
    let (size, mut report) = sized_report(ID, gpu, opts.size, DEFAULT_SIZE, need)?;
    let sizes = sizes(size);
    let mut s = Session::new(gpu);
    let stream = s.stream(StreamKind::NonBlocking)?;
    let dev = s.device(size)?;
    let mut srcs = Vec::new();
    for (i, kind) in KINDS.into_iter().enumerate() {
        let src = s.host(size, kind)?;
        s.host_fill(src, 21 + i as u32)?;
        srcs.push((kind, src));
        let copy = CopySpec {
            dir: Dir::H2d,
            stream,
            host: src,
            dev,
            kind,
            bytes: size,
        };
        copy.issue(&mut *s)?; // warm-up
        s.stream_sync(stream)?;
        let steps = (i * sizes.len(), 2 * sizes.len());
        let swept = sweep_sizes(&mut s, copy, &sizes, (opts.repetitions, steps), ctx)?;
        put_sweep(&mut report, kind, swept);
    }
    ctx.step("copy, kernel, copy in one stream")?;
    headline(&mut s, &mut report, (stream, dev), &srcs, size)?;
    s.finish()?;
    Ok(report)
}

/// One kind of memory's sweep: the median return and done times (us) by size, and the
/// largest size's samples.
struct Swept {
    ret: Vec<(f64, f64)>,
    done: Vec<(f64, f64)>,
    last: (Option<Summary>, Option<Summary>),
}

/// Times `copy` at each of `sizes`: when the call returned and when the copy was done, from
/// the host clock. `steps` is (steps before this sweep, steps in all), for the progress line.
fn sweep_sizes(
    s: &mut Session,
    copy: CopySpec,
    sizes: &[u64],
    (repetitions, steps): (Option<u32>, (usize, usize)),
    ctx: &RunContext,
) -> Result<Swept, ExperimentError> {
    let mut swept = Swept {
        ret: Vec::new(),
        done: Vec::new(),
        last: (None, None),
    };
    for (j, &bytes) in sizes.iter().enumerate() {
        ctx.step(&format!(
            "{} async copy {} ({}/{})",
            copy.kind.name(),
            format_bytes(bytes),
            steps.0 + j + 1,
            steps.1
        ))?;
        let spec = CopySpec { bytes, ..copy };
        let (mut r, mut d) = (Vec::new(), Vec::new());
        for _ in 0..sweep::repetitions(bytes, repetitions) {
            let t0 = s.host_now_us();
            spec.issue(&mut **s)?;
            let t1 = s.host_now_us();
            s.stream_sync(copy.stream)?;
            r.push(t1 - t0);
            d.push(s.host_now_us() - t0);
        }
        swept.ret.push((bytes as f64, median(&r)));
        swept.done.push((bytes as f64, median(&d)));
        swept.last = (Summary::of(&r), Summary::of(&d));
    }
    Ok(swept)
}

/// A sweep's metrics (the largest size's samples, the last of the sweep) and its series.
fn put_sweep(report: &mut Report, kind: HostMemKind, swept: Swept) {
    let k = kind.key();
    if let (Some(r), Some(d)) = swept.last {
        put_summary(
            &mut report.metrics,
            &format!("async_return_us_{k}"),
            &r,
            1.0,
            US,
        );
        put_summary(
            &mut report.metrics,
            &format!("copy_done_us_{k}"),
            &d,
            1.0,
            US,
        );
    }
    for (name, points) in [("async_return_us", swept.ret), ("copy_done_us", swept.done)] {
        report.series.push(Series {
            name: format!("{name}_{k}_by_size"),
            x_unit: "bytes".into(),
            y_unit: US.into(),
            points,
        });
    }
}

/// The headline timeline: one large async copy from each kind of memory (host lane shows when
/// each call returned), then H2D, kernel, D2H in one stream, verified.
fn headline(
    s: &mut Session,
    report: &mut Report,
    (stream, dev): (StreamId, DevBuf),
    srcs: &[(HostMemKind, HostBuf)],
    size: u64,
) -> Result<(), ExperimentError> {
    let kernels = s.info().kernels_available;
    let out = s.host(size, HostMemKind::Pinned)?;
    s.begin()?;
    for &(kind, src) in srcs {
        let up = CopySpec {
            dir: Dir::H2d,
            stream,
            host: src,
            dev,
            kind,
            bytes: size,
        };
        s.call(
            stream,
            &format!("cuMemcpyHtoDAsync {} returns", kind.name()),
            |g| up.issue(g),
        )?;
        s.call(stream, "cuStreamSynchronize", |g| g.stream_sync(stream))?;
    }
    let (_, input) = srcs[0];
    if kernels {
        let up = CopySpec {
            dir: Dir::H2d,
            stream,
            host: input,
            dev,
            kind: HostMemKind::Pinned,
            bytes: size,
        };
        s.call(stream, "cuMemcpyHtoDAsync", |g| up.issue(g))?;
        s.call(stream, "cuLaunchKernel transform", |g| {
            g.launch(stream, TRANSFORM, dev, 0, size)
        })?;
        s.call(stream, "cuMemcpyDtoHAsync", |g| {
            CopySpec {
                dir: Dir::D2h,
                host: out,
                ..up
            }
            .issue(g)
        })?;
        s.call(stream, "cuStreamSynchronize", |g| g.stream_sync(stream))?;
    }
    report.timeline = s.end()?;
    if !kernels {
        report.notes.push(
            "kernels are unavailable (no NVRTC), so the copy-kernel-copy sequence was skipped"
                .into(),
        );
        return Ok(());
    }
    report.checks.push(verify::transform_matches(
        &mut **s,
        "copy-kernel-copy output matches the host",
        (input, out),
        size,
        TRANSFORM,
    )?);
    report.checks.push(in_order_check(&report.timeline));
    Ok(())
}

/// The last three device ops (H2D, kernel, D2H) must run one after another.
fn in_order_check(ops: &[crate::report::Op]) -> Check {
    let dev: Vec<_> = device_ops(ops).collect();
    let tail = &dev[dev.len().saturating_sub(3)..];
    let kinds: Vec<OpKind> = tail.iter().map(|o| o.kind).collect();
    let ordered = tail.windows(2).all(|w| w[1].start_us + 0.5 >= w[0].end_us);
    Check {
        name: "copy, kernel, copy run in issue order in one stream".into(),
        passed: kinds == [OpKind::H2d, OpKind::Kernel, OpKind::D2h] && ordered,
        detail: tail
            .iter()
            .map(|o| format!("{:?} {:.1}-{:.1} us", o.kind, o.start_us, o.end_us))
            .collect::<Vec<_>>()
            .join(", "),
    }
}
