//! Timing one pipeline configuration: issue its steps on the streams, wait, and read the wall
//! time (and, once, the recorded timeline).

use crate::gpu::{GpuError, StreamId};
use crate::report::{Op, OpKind};

use super::super::options::IssueOrder;
use super::super::session::Session;
pub use super::config::{Buffers, Config, TRANSFORM, chunk_range};
use super::steps::{STAGE_STREAMS, issue, label, steps, with_events};

/// Above this many calls the host lane shows one op for the whole issue loop, not one per call.
const MAX_HOST_OPS: usize = 48;

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
