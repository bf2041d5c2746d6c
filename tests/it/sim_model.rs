//! The simulator's physics and contract, through the public `Gpu` interface only.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used, clippy::panic)]

use cuda_academy::gpu::fill_pattern_f32;
use cuda_academy::gpu::profile::{Profile, ProfileError};
use cuda_academy::gpu::sim::SimGpu;
use cuda_academy::gpu::{
    DevBuf, Driver, EventId, Expect, Gpu, GpuError, HostAccess, HostBuf, Kernel, Recording,
    StreamId, StreamKind,
};
use cuda_academy::report::{BackendKind, HostMemKind, Op, OpKind, TimingSource};

pub const MIB: u64 = 1 << 20;

#[path = "sim_model/data.rs"]
mod data;
#[path = "sim_model/events.rs"]
mod events;
#[path = "sim_model/profile.rs"]
mod profile;
#[path = "sim_model/streams.rs"]
mod streams;
#[path = "sim_model/timing.rs"]
mod timing;

pub fn h200() -> Profile {
    Profile::builtin("h200").unwrap()
}

pub fn sim() -> SimGpu {
    SimGpu::new(h200(), "test".to_string())
}

/// `bytes` through H2D, a transform and D2H, chunked over `streams` streams (per-chunk order).
pub fn pipeline(
    gpu: &mut SimGpu,
    bytes: u64,
    streams: u32,
    chunks: u64,
) -> (Vec<Op>, HostBuf, HostBuf) {
    let src = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dst = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dev = gpu.device_alloc(bytes).unwrap();
    gpu.host_fill(src, 7).unwrap();
    let ids: Vec<StreamId> = (0..streams)
        .map(|_| gpu.stream_create(StreamKind::NonBlocking).unwrap())
        .collect();
    gpu.timeline_begin().unwrap();
    let chunk = bytes / chunks;
    for c in 0..chunks {
        let s = ids[(c % u64::from(streams)) as usize];
        let off = c * chunk;
        gpu.copy_h2d_async(s, dev, off, src, off, chunk).unwrap();
        gpu.launch(s, Kernel::Transform { a: 2.0, b: 1.0 }, dev, off, chunk)
            .unwrap();
        gpu.copy_d2h_async(s, dst, off, dev, off, chunk).unwrap();
    }
    let ops = gpu.timeline_end().unwrap();
    (ops, src, dst)
}

/// The same work issued breadth-first: every upload, then every kernel, then every download.
pub fn pipeline_breadth_first(gpu: &mut SimGpu, bytes: u64, streams: u32, chunks: u64) -> Vec<Op> {
    let src = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dst = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dev = gpu.device_alloc(bytes).unwrap();
    let ids: Vec<StreamId> = (0..streams)
        .map(|_| gpu.stream_create(StreamKind::NonBlocking).unwrap())
        .collect();
    let chunk = bytes / chunks;
    let stream = |c: u64| ids[(c % u64::from(streams)) as usize];
    gpu.timeline_begin().unwrap();
    for c in 0..chunks {
        gpu.copy_h2d_async(stream(c), dev, c * chunk, src, c * chunk, chunk)
            .unwrap();
    }
    for c in 0..chunks {
        let k = Kernel::Transform { a: 2.0, b: 1.0 };
        gpu.launch(stream(c), k, dev, c * chunk, chunk).unwrap();
    }
    for c in 0..chunks {
        gpu.copy_d2h_async(stream(c), dst, c * chunk, dev, c * chunk, chunk)
            .unwrap();
    }
    gpu.timeline_end().unwrap()
}

pub fn gbps(bytes: u64, us: f64) -> f64 {
    bytes as f64 / us / 1e3
}

/// Host time of one synchronous-looking copy: issue, then sync the stream.
pub fn timed_copy(gpu: &mut SimGpu, kind: HostMemKind, dir: OpKind, bytes: u64) -> f64 {
    let host = gpu.host_alloc(bytes, kind).unwrap();
    gpu.host_touch(host).unwrap();
    let dev = gpu.device_alloc(bytes).unwrap();
    let s = gpu.stream_create(StreamKind::NonBlocking).unwrap();
    let t0 = gpu.host_now_us();
    match dir {
        OpKind::H2d => gpu.copy_h2d_async(s, dev, 0, host, 0, bytes).unwrap(),
        _ => gpu.copy_d2h_async(s, host, 0, dev, 0, bytes).unwrap(),
    }
    gpu.stream_sync(s).unwrap();
    gpu.host_now_us() - t0
}

pub fn ops_span(ops: &[Op]) -> f64 {
    let start = ops.iter().map(|o| o.start_us).fold(f64::INFINITY, f64::min);
    let end = ops.iter().map(|o| o.end_us).fold(0.0, f64::max);
    end - start
}

pub fn roundtrip(gpu: &mut SimGpu, bytes: u64, kernel: Option<Kernel>) -> (HostBuf, HostBuf) {
    let src = gpu.host_alloc(bytes, HostMemKind::Pinned).unwrap();
    let dst = gpu.host_alloc(bytes, HostMemKind::Pageable).unwrap();
    let dev: DevBuf = gpu.device_alloc(bytes).unwrap();
    gpu.host_fill(src, 42).unwrap();
    let s = gpu.stream_create(StreamKind::Blocking).unwrap();
    gpu.copy_h2d_async(s, dev, 0, src, 0, bytes).unwrap();
    if let Some(k) = kernel {
        gpu.launch(s, k, dev, 0, bytes).unwrap();
    }
    gpu.copy_d2h_async(s, dst, 0, dev, 0, bytes).unwrap();
    gpu.stream_sync(s).unwrap();
    (src, dst)
}
