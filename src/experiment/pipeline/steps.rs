//! One pipeline configuration as a list of driver calls: which chunk, which stage, which stream,
//! in which order they are issued, for each of the three layouts.
//!
//! `per-chunk` and `breadth-first` put chunk `i` on stream `i % streams` (its upload, kernel and
//! download in stream order) and differ only in the order the calls are made. `by-stage` gives
//! each stage a stream of its own (upload, compute, download) and links a chunk's stages with
//! two events: after chunk `i`'s upload the upload stream records `uploaded`, and the compute
//! stream waits for it before the kernel; after the kernel the compute stream records
//! `computed`, and the download stream waits for it before the download. The two events are
//! re-recorded for every chunk: `cuStreamWaitEvent` waits for the record made last *before the
//! wait was issued* (CUDA Programming Guide, "Events"; driver API `cuStreamWaitEvent`), and every
//! wait is issued right after its record, so one pair serves all chunks (the lead's C program,
//! `/work/prompts/lay.cu`, used a pair per chunk; the dependencies are the same).

use crate::gpu::{EventId, Gpu, GpuError, StreamId};

use super::super::options::IssueOrder;
use super::super::session::Session;
use super::config::{Buffers, Config, TRANSFORM, chunk_range};

/// The streams of the by-stage layout, in the order they are taken from the experiment's.
pub const STAGE_STREAMS: u32 = 3;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Stage {
    H2d,
    Kernel,
    D2h,
    /// `cuEventRecord` of the `uploaded` (0) or `computed` (1) event on the step's stream.
    Signal(usize),
    /// `cuStreamWaitEvent` for the `uploaded` (0) or `computed` (1) event.
    Await(usize),
}

/// One driver call of a configuration.
#[derive(Debug, Clone, Copy)]
pub(super) struct Step {
    pub(super) stage: Stage,
    pub(super) chunk: u32,
    pub(super) stream: StreamId,
}

/// Every call of `cfg` on `streams` (for by-stage: upload, compute, download), in issue order.
pub(super) fn steps(cfg: Config, streams: &[StreamId]) -> Vec<Step> {
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
        IssueOrder::ByStage => by_stage(cfg.chunks, streams),
    }
}

/// By-stage: per chunk, upload, signal, wait, kernel, signal, wait, download (see module docs).
fn by_stage(chunks: u32, streams: &[StreamId]) -> Vec<Step> {
    let lane = |i: usize| streams[i.min(streams.len() - 1)];
    let (up, compute, down) = (lane(0), lane(1), lane(2));
    (0..chunks)
        .flat_map(|chunk| {
            [
                (Stage::H2d, up),
                (Stage::Signal(0), up),
                (Stage::Await(0), compute),
                (Stage::Kernel, compute),
                (Stage::Signal(1), compute),
                (Stage::Await(1), down),
                (Stage::D2h, down),
            ]
            .map(|(stage, stream)| Step {
                stage,
                chunk,
                stream,
            })
        })
        .collect()
}

/// Make one call; `events` are by-stage's `uploaded` and `computed` (unused by the others).
pub(super) fn issue(
    g: &mut dyn Gpu,
    b: &Buffers,
    cfg: Config,
    st: Step,
    events: &[EventId],
) -> Result<(), GpuError> {
    let (off, len) = chunk_range(b.bytes, cfg, st.chunk);
    let event = |i: usize| {
        events.get(i).copied().ok_or_else(|| {
            GpuError::Invalid("the by-stage layout was issued without its events".into())
        })
    };
    match st.stage {
        Stage::H2d => g.copy_h2d_async(st.stream, b.dev, off, b.input, off, len),
        Stage::Kernel => g.launch(st.stream, TRANSFORM, b.dev, off, len),
        Stage::D2h => g.copy_d2h_async(st.stream, b.output, off, b.dev, off, len),
        Stage::Signal(i) => g.event_record(event(i)?, st.stream),
        Stage::Await(i) => g.stream_wait_event(st.stream, event(i)?),
    }
}

/// The call's name on the host lane.
pub(super) fn label(st: Step) -> String {
    let what = match st.stage {
        Stage::H2d => "cuMemcpyHtoDAsync",
        Stage::Kernel => "cuLaunchKernel transform",
        Stage::D2h => "cuMemcpyDtoHAsync",
        Stage::Signal(0) => "cuEventRecord uploaded",
        Stage::Signal(_) => "cuEventRecord computed",
        Stage::Await(0) => "cuStreamWaitEvent uploaded",
        Stage::Await(_) => "cuStreamWaitEvent computed",
    };
    format!("{what} chunk {}", st.chunk)
}

/// Create the events `cfg` needs (none, or by-stage's two), run `f` with them, and destroy them
/// whatever `f` returned (the first error wins). They are made outside any timed span.
pub(super) fn with_events<T>(
    s: &mut Session,
    cfg: Config,
    f: impl FnOnce(&mut Session, &[EventId]) -> Result<T, GpuError>,
) -> Result<T, GpuError> {
    let mut events = Vec::new();
    if cfg.order == IssueOrder::ByStage {
        for _ in 0..2 {
            match s.event_create(false) {
                Ok(e) => events.push(e),
                Err(e) => {
                    let _ = destroy(&mut **s, &events); // the create error is the one to report
                    return Err(e);
                }
            }
        }
    }
    let out = f(s, &events);
    let freed = destroy(&mut **s, &events);
    let out = out?;
    freed.map(|()| out)
}

fn destroy(g: &mut dyn Gpu, events: &[EventId]) -> Result<(), GpuError> {
    let mut first = Ok(());
    for &e in events {
        if let Err(err) = g.event_destroy(e)
            && first.is_ok()
        {
            first = Err(err);
        }
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_orders_differ_only_in_order() {
        let streams = [StreamId(1), StreamId(2)];
        let cfg = Config::equal(2, 3, IssueOrder::PerChunk);
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

    #[test]
    fn by_stage_puts_each_stage_on_its_stream_and_links_them_with_events() {
        let streams = [StreamId(1), StreamId(2), StreamId(3)];
        let list = steps(Config::equal(3, 4, IssueOrder::ByStage), &streams);
        assert_eq!(list.len(), 4 * 7);
        for st in &list {
            let want = match st.stage {
                Stage::H2d | Stage::Signal(0) => StreamId(1),
                Stage::Kernel | Stage::Signal(_) | Stage::Await(0) => StreamId(2),
                Stage::D2h | Stage::Await(_) => StreamId(3),
            };
            assert_eq!(st.stream, want, "{st:?}");
        }
        // Every wait comes right after the record it waits for, and before the stage it guards.
        for w in list.windows(3) {
            if let [a, b, c] = w
                && let Stage::Await(i) = b.stage
            {
                assert_eq!(a.stage, Stage::Signal(i));
                assert_eq!(c.stage, [Stage::Kernel, Stage::D2h][i]);
                assert_eq!((a.chunk, c.chunk), (b.chunk, b.chunk));
            }
        }
    }
}
