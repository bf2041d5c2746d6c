//! One pipeline configuration as a list of driver calls: which chunk, which stage, which stream,
//! in which order they are issued.

use crate::gpu::{DevBuf, GpuError, HostBuf, Kernel, StreamId};
use crate::report::{Op, OpKind};

use super::super::options::IssueOrder;
use super::super::session::Session;
use super::steps::{STAGE_STREAMS, issue, label, steps, with_events};

/// The light kernel of the pipeline (exact in `f32` for the fill pattern).
pub const TRANSFORM: Kernel = Kernel::Transform { a: 2.0, b: 1.0 };
/// Above this many calls the host lane shows one op for the whole issue loop, not one per call.
const MAX_HOST_OPS: usize = 48;

/// How the work is split and issued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Config {
    pub streams: u32,
    pub chunks: u32,
    pub order: IssueOrder,
    /// The chunks' shape: 1 = equal chunks; `k` > 1 = the first and the last chunk are `1/k` of
    /// the others, so the fill (the first upload runs alone) and the drain (the last download
    /// runs alone) are shorter than a plain equal-chunk loop's.
    pub taper: u32,
}

impl Config {
    /// The whole buffer through one stream: the sequential baseline.
    pub const SEQUENTIAL: Config = Config::equal(1, 1, IssueOrder::PerChunk);

    /// Equal chunks: what a plain chunk loop does.
    pub const fn equal(streams: u32, chunks: u32, order: IssueOrder) -> Config {
        Config {
            streams,
            chunks,
            order,
            taper: 1,
        }
    }

    /// The taper that applies: none below 3 chunks (every chunk would be an edge).
    pub fn effective_taper(&self) -> u32 {
        if self.chunks >= 3 {
            self.taper.max(1)
        } else {
            1
        }
    }

    /// e.g. `3 streams x 32 chunks, breadth-first` (`, ends 1/4` when tapered).
    pub fn describe(&self) -> String {
        let ends = match self.effective_taper() {
            1 => String::new(),
            k => format!(", ends 1/{k}"),
        };
        format!(
            "{} streams x {} chunks, {}{ends}",
            self.streams,
            self.chunks,
            self.order.name()
        )
    }

    /// The chunk sizes in words, for the report and the screen: `16 chunks of 16 MiB`, or
    /// `first and last 4 MiB, 14 x 17.1 MiB`.
    pub fn chunk_shape(&self, bytes: u64) -> String {
        use super::super::options::format_bytes;
        let (_, edge) = chunk_range(bytes, *self, 0);
        let (_, middle) = chunk_range(bytes, *self, self.chunks / 2);
        match self.effective_taper() {
            1 => format!("{} chunks of {}", self.chunks, format_bytes(middle)),
            _ => format!(
                "first and last {}, {} x {}",
                format_bytes(edge),
                self.chunks - 2,
                format_bytes(middle)
            ),
        }
    }
}

/// The pipeline's buffers: input and output on the host, one device buffer.
#[derive(Debug, Clone, Copy)]
pub struct Buffers {
    pub input: HostBuf,
    pub output: HostBuf,
    pub dev: DevBuf,
    pub bytes: u64,
}

/// The byte offset and length of chunk `i` of `cfg`'s chunks over `bytes` (whole `f32`s):
/// chunk `i` covers the floats from weight `before(i)` to `before(i + 1)` of the total, where
/// every chunk weighs the taper except the two ends, which weigh 1 (exact integer math: the
/// chunks tile the buffer with no gap or overlap).
pub fn chunk_range(bytes: u64, cfg: Config, i: u32) -> (u64, u64) {
    let (n, k) = (
        u64::from(cfg.chunks.max(1)),
        u64::from(cfg.effective_taper()),
    );
    let before = |i: u64| match i {
        0 => 0,
        i if i >= n => 2 + (n - 2) * k,
        i => 1 + (i - 1) * k,
    };
    let floats = bytes / 4;
    let (lo, hi) = if k == 1 {
        (u64::from(i) * floats / n, (u64::from(i) + 1) * floats / n)
    } else {
        // A taper applies from 3 chunks on, so `n - 2` cannot underflow here.
        let total = before(n);
        let at = |i: u64| (u128::from(floats) * u128::from(before(i)) / u128::from(total)) as u64;
        (at(u64::from(i)), at(u64::from(i) + 1))
    };
    (lo * 4, (hi - lo) * 4)
}

/// Issue `cfg` on `streams` (the first `cfg.streams` are used), wait for it, and return its
/// wall time in ms on the host clock, from the first call to the return of the final
/// synchronisation: what a program would see. No timeline is recorded, so the instrumentation
/// (CUPTI or events) costs nothing here; [`run_once`] records one.
pub fn time_once(
    s: &mut Session,
    b: &Buffers,
    cfg: Config,
    streams: &[StreamId],
) -> Result<f64, GpuError> {
    let used = used_streams(cfg, streams)?;
    let list = steps(cfg, used);
    with_events(s, cfg, |s, events| {
        let (start, _) = s.call(used[0], "issue", |g| {
            list.iter().try_for_each(|&st| issue(g, b, cfg, st, events))
        })?;
        let (_, end) = s.call(StreamId::LEGACY_DEFAULT, "cuCtxSynchronize", |g| {
            g.device_sync()
        })?;
        Ok((end - start) / 1e3)
    })
}

/// The streams `cfg` runs on: the first `cfg.streams` of `streams` (by-stage: the first three,
/// upload, compute, download).
fn used_streams(cfg: Config, streams: &[StreamId]) -> Result<&[StreamId], GpuError> {
    let want = if cfg.order == IssueOrder::ByStage {
        STAGE_STREAMS as usize
    } else {
        (cfg.streams as usize).clamp(1, streams.len().max(1))
    };
    streams.get(..want).ok_or_else(|| {
        GpuError::Invalid(format!(
            "{} needs {want} streams, {} were created (an internal error; please report it)",
            cfg.describe(),
            streams.len()
        ))
    })
}

/// The wall time (ms) of a timeline recorded by [`run_once`]: from the first host call's start to
/// the final synchronisation's return, the same span [`time_once`] measures.
pub fn recorded_wall_ms(ops: &[Op]) -> f64 {
    let host = ops.iter().filter(|o| o.kind == OpKind::Host);
    let start = host
        .clone()
        .map(|o| o.start_us)
        .fold(f64::INFINITY, f64::min);
    let end = host.map(|o| o.end_us).fold(f64::NEG_INFINITY, f64::max);
    if end > start {
        (end - start) / 1e3
    } else {
        0.0
    }
}

/// Issue `cfg` on `streams` (the first `cfg.streams` are used), wait for it, and return its
/// timeline (device ops and host calls on one origin).
pub fn run_once(
    s: &mut Session,
    b: &Buffers,
    cfg: Config,
    streams: &[StreamId],
) -> Result<Vec<Op>, GpuError> {
    let used = used_streams(cfg, streams)?;
    let list = steps(cfg, used);
    with_events(s, cfg, |s, events| {
        s.begin()?;
        if list.len() <= MAX_HOST_OPS {
            for &st in &list {
                s.call(st.stream, &label(st), |g| issue(g, b, cfg, st, events))?;
            }
        } else {
            let name = format!("issue {} calls ({})", list.len(), cfg.order.name());
            s.call(used[0], &name, |g| {
                list.iter().try_for_each(|&st| issue(g, b, cfg, st, events))
            })?;
        }
        s.call(StreamId::LEGACY_DEFAULT, "cuCtxSynchronize", |g| {
            g.device_sync()
        })?;
        s.end()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_buffer_exactly() {
        let bytes = 1000 * 4;
        for taper in [1, 2, 4, 8] {
            let cfg = Config {
                taper,
                ..Config::equal(2, 7, IssueOrder::PerChunk)
            };
            let mut next = 0;
            for i in 0..7 {
                let (off, len) = chunk_range(bytes, cfg, i);
                assert_eq!(off, next);
                assert_eq!(len % 4, 0);
                next = off + len;
            }
            assert_eq!(next, bytes);
        }
    }

    #[test]
    fn a_taper_shrinks_the_first_and_last_chunks_only() {
        let mib = 1 << 20;
        let cfg = Config {
            taper: 4,
            ..Config::equal(3, 6, IssueOrder::PerChunk)
        };
        // Weights 1, 4, 4, 4, 4, 1 over 18 MiB: ends of 1 MiB, middles of 4 MiB.
        let sizes: Vec<u64> = (0..6).map(|i| chunk_range(18 * mib, cfg, i).1).collect();
        assert_eq!(sizes, [1, 4, 4, 4, 4, 1].map(|m| m * mib));
        assert_eq!(cfg.chunk_shape(18 * mib), "first and last 1 MiB, 4 x 4 MiB");
        // Two chunks are both ends: a taper cannot apply, the split stays equal.
        let two = Config { chunks: 2, ..cfg };
        assert_eq!(chunk_range(18 * mib, two, 0).1, 9 * mib);
        assert_eq!(two.describe(), "3 streams x 2 chunks, per-chunk");
    }
}
