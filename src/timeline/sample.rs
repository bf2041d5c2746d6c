//! Synthetic timelines shaped like the real experiments, for demos, benchmarks and tests.
//!
//! These are not measurements and never appear as results: the experiments and the simulator
//! produce real reports. The numbers are round figures near the H200 test machine's (55 GB/s per
//! copy direction, a kernel at about 200 GB/s).

use crate::report::{HostMemKind, Op, OpKind};

/// Copy bandwidth of the sample timelines, in bytes per microsecond (55 GB/s).
const COPY_BYTES_PER_US: f64 = 55_000.0;
/// Kernel throughput of the sample timelines, in bytes per microsecond (200 GB/s).
const KERNEL_BYTES_PER_US: f64 = 200_000.0;
/// Per-operation latency, microseconds.
const LATENCY_US: f64 = 2.0;
/// Duration of a host API call, microseconds.
const CALL_US: f64 = 2.9;

/// An op with no bytes, label or engine: the building block of hand-written test timelines.
pub fn op(kind: OpKind, stream: u32, start_us: f64, end_us: f64) -> Op {
    Op {
        stream,
        kind,
        start_us,
        end_us,
        bytes: 0,
        host_mem: None,
        engine: None,
        start_inferred: false,
        line: None,
        label: String::new(),
    }
}

/// A device op of `bytes` on `stream`, with the copy engine the simulator would use (1 for H2D,
/// 2 for D2H) and pinned host memory for copies.
fn device_op(kind: OpKind, stream: u32, start_us: f64, bytes: u64, label: String) -> Op {
    let rate = if kind == OpKind::Kernel {
        KERNEL_BYTES_PER_US
    } else {
        COPY_BYTES_PER_US
    };
    let mut op = op(
        kind,
        stream,
        start_us,
        start_us + LATENCY_US + bytes as f64 / rate,
    );
    op.bytes = bytes;
    op.label = label;
    match kind {
        OpKind::H2d => op.engine = Some(1),
        OpKind::D2h => op.engine = Some(2),
        _ => {}
    }
    if kind != OpKind::Kernel {
        op.host_mem = Some(HostMemKind::Pinned);
    }
    op
}

/// `bytes` in, a kernel, `bytes` out, one after another on stream 1, with the host's calls and
/// its final synchronize on the host lane.
pub fn sequential(bytes: u64) -> Vec<Op> {
    pipeline(1, 1, bytes)
}

/// `bytes` through H2D, a kernel and D2H, cut into `chunks` chunks issued round-robin over
/// `streams` streams (numbered from 1), scheduled on one H2D engine, one compute unit and one
/// D2H engine. Every call the host makes is on the host lane. `streams` and `chunks` of 0 count
/// as 1.
pub fn pipeline(streams: u32, chunks: u32, bytes: u64) -> Vec<Op> {
    let streams = streams.max(1);
    let chunks = chunks.max(1);
    let chunk = bytes / u64::from(chunks);
    let mut stream_free = vec![0.0_f64; streams as usize];
    let (mut h2d_free, mut compute_free, mut d2h_free) = (0.0_f64, 0.0_f64, 0.0_f64);
    let mut host = 0.0_f64;
    let mut ops = Vec::with_capacity(chunks as usize * 6 + 1);
    for i in 0..chunks {
        let slot = (i % streams) as usize;
        let stream = slot as u32 + 1;
        let stages = [
            (OpKind::H2d, &mut h2d_free, "H2D"),
            (OpKind::Kernel, &mut compute_free, "transform"),
            (OpKind::D2h, &mut d2h_free, "D2H"),
        ];
        for (kind, unit_free, name) in stages {
            ops.push(host_call(stream, host, name_of_call(kind)));
            host += CALL_US;
            let start = stream_free[slot].max(*unit_free).max(host);
            let op = device_op(kind, stream, start, chunk, format!("{name} chunk {i}"));
            *unit_free = op.end_us;
            stream_free[slot] = op.end_us;
            ops.push(op);
        }
    }
    let done = stream_free.iter().copied().fold(host, f64::max);
    let mut sync = host_call(0, host, "cudaDeviceSynchronize");
    sync.end_us = done + LATENCY_US;
    ops.push(sync);
    ops
}

fn name_of_call(kind: OpKind) -> &'static str {
    match kind {
        OpKind::H2d => "cuMemcpyHtoDAsync",
        OpKind::D2h => "cuMemcpyDtoHAsync",
        _ => "cuLaunchKernel",
    }
}

fn host_call(stream: u32, start_us: f64, label: &str) -> Op {
    let mut call = op(OpKind::Host, stream, start_us, start_us + CALL_US);
    call.label = label.to_string();
    call
}

/// A bandwidth-vs-size sweep from 4 KiB to `largest` bytes (powers of two): latency plus bytes
/// over `peak_gbps`, as (bytes, GB/s) points.
pub fn bandwidth_sweep(largest: u64, peak_gbps: f64, latency_us: f64) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    let mut size: u64 = 4096;
    while size <= largest.max(4096) {
        let us = latency_us + size as f64 / (peak_gbps * 1e3);
        points.push((size as f64, size as f64 / (us * 1e3)));
        size = size.saturating_mul(2);
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipeline_streams_never_overlap_themselves() {
        let ops = pipeline(3, 8, 64 << 20);
        for stream in 1..=3 {
            let mut on: Vec<&Op> = ops
                .iter()
                .filter(|o| o.stream == stream && o.kind != OpKind::Host)
                .collect();
            on.sort_by(|a, b| a.start_us.total_cmp(&b.start_us));
            assert_eq!(on.len(), 9 - (stream as usize > 2) as usize * 3);
            for pair in on.windows(2) {
                assert!(pair[0].end_us <= pair[1].start_us);
            }
        }
    }

    #[test]
    fn pipelining_is_faster_than_sequential() {
        let end = |ops: &[Op]| ops.iter().map(|o| o.end_us).fold(0.0, f64::max);
        assert!(end(&pipeline(3, 8, 64 << 20)) < 0.7 * end(&sequential(64 << 20)));
    }
}
