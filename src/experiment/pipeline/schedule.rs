//! One pipeline configuration as a list of driver calls: which chunk, which stage, which stream,
//! in which order they are issued.

use crate::gpu::{DevBuf, Gpu, GpuError, HostBuf, Kernel, StreamId};
use crate::report::{Op, OpKind};

use super::super::options::IssueOrder;
use super::super::session::Session;

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
}

impl Config {
    /// The whole buffer through one stream: the sequential baseline.
    pub const SEQUENTIAL: Config = Config {
        streams: 1,
        chunks: 1,
        order: IssueOrder::PerChunk,
    };

    /// e.g. `3 streams x 32 chunks, breadth-first`.
    pub fn describe(&self) -> String {
        format!(
            "{} streams x {} chunks, {}",
            self.streams,
            self.chunks,
            self.order.name()
        )
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

/// The byte offset and length of chunk `i` of `chunks` over `bytes` (whole `f32`s).
pub fn chunk_range(bytes: u64, chunks: u32, i: u32) -> (u64, u64) {
    let floats = bytes / 4;
    let lo = u64::from(i) * floats / u64::from(chunks);
    let hi = (u64::from(i) + 1) * floats / u64::from(chunks);
    (lo * 4, (hi - lo) * 4)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Stage {
    H2d,
    Kernel,
    D2h,
}

/// One driver call of a configuration.
#[derive(Debug, Clone, Copy)]
struct Step {
    stage: Stage,
    chunk: u32,
    stream: StreamId,
}

fn steps(cfg: Config, streams: &[StreamId]) -> Vec<Step> {
    let on = |chunk: u32, stage| Step {
        stage,
        chunk,
        stream: streams[chunk as usize % streams.len()],
    };
    let stages = [Stage::H2d, Stage::Kernel, Stage::D2h];
    match cfg.order {
        IssueOrder::PerChunk => (0..cfg.chunks)
            .flat_map(|c| stages.map(|st| on(c, st)))
            .collect(),
        IssueOrder::BreadthFirst => stages
            .into_iter()
            .flat_map(|st| (0..cfg.chunks).map(move |c| (c, st)))
            .map(|(c, st)| on(c, st))
            .collect(),
    }
}

fn issue(g: &mut dyn Gpu, b: &Buffers, chunks: u32, st: Step) -> Result<(), GpuError> {
    let (off, len) = chunk_range(b.bytes, chunks, st.chunk);
    match st.stage {
        Stage::H2d => g.copy_h2d_async(st.stream, b.dev, off, b.input, off, len),
        Stage::Kernel => g.launch(st.stream, TRANSFORM, b.dev, off, len),
        Stage::D2h => g.copy_d2h_async(st.stream, b.output, off, b.dev, off, len),
    }
}

fn label(st: Step) -> String {
    let what = match st.stage {
        Stage::H2d => "cuMemcpyHtoDAsync",
        Stage::Kernel => "cuLaunchKernel transform",
        Stage::D2h => "cuMemcpyDtoHAsync",
    };
    format!("{what} chunk {}", st.chunk)
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
    let used = &streams[..(cfg.streams as usize).clamp(1, streams.len())];
    let list = steps(cfg, used);
    let (start, _) = s.call(used[0], "issue", |g| {
        list.iter().try_for_each(|&st| issue(g, b, cfg.chunks, st))
    })?;
    let (_, end) = s.call(StreamId::LEGACY_DEFAULT, "cuCtxSynchronize", |g| {
        g.device_sync()
    })?;
    Ok((end - start) / 1e3)
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
    let used = &streams[..(cfg.streams as usize).clamp(1, streams.len())];
    let list = steps(cfg, used);
    s.begin()?;
    if list.len() <= MAX_HOST_OPS {
        for &st in &list {
            s.call(st.stream, &label(st), |g| issue(g, b, cfg.chunks, st))?;
        }
    } else {
        let name = format!("issue {} calls ({})", list.len(), cfg.order.name());
        s.call(used[0], &name, |g| {
            list.iter().try_for_each(|&st| issue(g, b, cfg.chunks, st))
        })?;
    }
    s.call(StreamId::LEGACY_DEFAULT, "cuCtxSynchronize", |g| {
        g.device_sync()
    })?;
    s.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_buffer_exactly() {
        let bytes = 1000 * 4;
        let mut next = 0;
        for i in 0..7 {
            let (off, len) = chunk_range(bytes, 7, i);
            assert_eq!(off, next);
            assert_eq!(len % 4, 0);
            next = off + len;
        }
        assert_eq!(next, bytes);
    }

    #[test]
    fn issue_orders_differ_only_in_order() {
        let streams = [StreamId(1), StreamId(2)];
        let cfg = Config {
            streams: 2,
            chunks: 3,
            order: IssueOrder::PerChunk,
        };
        let per = steps(cfg, &streams);
        let bf = steps(
            Config {
                order: IssueOrder::BreadthFirst,
                ..cfg
            },
            &streams,
        );
        assert_eq!(per.len(), 9);
        assert_eq!(per[1].stage, Stage::Kernel);
        assert_eq!(bf[1].stage, Stage::H2d);
        assert_eq!(per[3].stream, StreamId(2));
        assert_eq!(bf[3].stage, Stage::Kernel);
    }
}
