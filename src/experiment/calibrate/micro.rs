//! Targeted measurements the experiments do not make: API call costs, device allocation, and
//! the two kernels' device time against size and iterations.

use crate::gpu::{DevBuf, GpuError, Kernel, StreamId, StreamKind};

use super::super::options::{KIB, MIB};
use super::super::session::{Session, device_span_us};
use super::super::stats::median;

const REPS: usize = 10;

/// What the targeted measurements found.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Micro {
    pub launch_call_us: f64,
    pub sync_call_us: f64,
    pub api_call_us: f64,
    pub device_alloc_us: f64,
    pub device_free_us: f64,
    pub kernel_launch_latency_us: f64,
    pub device_mem_gbps: f64,
    pub spin_ns_per_iteration: f64,
    /// Whether the kernel fields were measured (the backend had kernels) or are the fallback's.
    pub kernels_measured: bool,
}

/// Host time of `f`, median of [`REPS`] runs, in microseconds.
fn host_time(
    s: &mut Session,
    mut f: impl FnMut(&mut Session) -> Result<(), GpuError>,
) -> Result<f64, GpuError> {
    let mut t = Vec::with_capacity(REPS);
    for _ in 0..REPS {
        let t0 = s.host_now_us();
        f(s)?;
        t.push(s.host_now_us() - t0);
    }
    Ok(median(&t))
}

/// Device time of one kernel launch, median of 3, in microseconds.
fn kernel_time(
    s: &mut Session,
    stream: StreamId,
    k: Kernel,
    buf: DevBuf,
    bytes: u64,
) -> Result<f64, GpuError> {
    let mut t = Vec::new();
    for _ in 0..3 {
        s.begin()?;
        s.launch(stream, k, buf, 0, bytes)?;
        s.stream_sync(stream)?;
        t.push(device_span_us(&s.end()?));
    }
    Ok(median(&t))
}

/// Measure everything in [`Micro`] (kernels are skipped, keeping `fallback`'s values, when the
/// backend has none).
pub fn measure(s: &mut Session, fallback: Micro) -> Result<Micro, GpuError> {
    let mut m = fallback;
    let stream = s.stream(StreamKind::NonBlocking)?;
    let (small, large) = (4 * KIB, 64 * MIB);
    let buf = s.device(large)?;
    m.api_call_us = host_time(s, |s| {
        let st = s.stream_create(StreamKind::NonBlocking)?;
        s.stream_destroy(st)
    })? / 2.0;
    let mut allocs = Vec::new();
    let mut frees = Vec::new();
    for _ in 0..REPS {
        let t0 = s.host_now_us();
        let d = s.device_alloc(MIB)?;
        let t1 = s.host_now_us();
        s.device_free(d)?;
        allocs.push(t1 - t0);
        frees.push(s.host_now_us() - t1);
    }
    (m.device_alloc_us, m.device_free_us) = (median(&allocs), median(&frees));
    s.device_sync()?;
    m.sync_call_us = host_time(s, |s| s.stream_sync(stream))?;
    if !s.info().kernels_available {
        return Ok(m);
    }
    let t = Kernel::Transform { a: 1.0, b: 0.0 };
    s.launch(stream, t, buf, 0, small)?; // warm-up: modules load lazily
    s.stream_sync(stream)?;
    m.launch_call_us = host_time(s, |s| s.launch(stream, t, buf, 0, small))?;
    s.stream_sync(stream)?;
    let (d1, d2) = (
        kernel_time(s, stream, t, buf, small)?,
        kernel_time(s, stream, t, buf, large)?,
    );
    let bytes_per_us = 2.0 * (large - small) as f64 / (d2 - d1).max(1e-9);
    m.device_mem_gbps = bytes_per_us / 1e3;
    m.kernel_launch_latency_us = (d1 - 2.0 * small as f64 / bytes_per_us).max(0.0);
    let (i1, i2) = (1_000, 101_000);
    let spin = |iterations| Kernel::Spin { iterations };
    let (s1, s2) = (
        kernel_time(s, stream, spin(i1), buf, MIB)?,
        kernel_time(s, stream, spin(i2), buf, MIB)?,
    );
    m.spin_ns_per_iteration = (s2 - s1) * 1e3 / f64::from(i2 - i1);
    m.kernels_measured = true;
    Ok(m)
}
