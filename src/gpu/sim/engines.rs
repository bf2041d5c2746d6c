//! The device: copy engines and a compute engine on the device clock, with a fluid model of
//! the PCIe link.
//!
//! Each engine runs one op at a time. When idle it keeps serving the stream it served last if
//! that stream's next op is ready for it, and otherwise starts the earliest-issued ready op of
//! its queue. (Hopper feeds each engine from one hardware queue per stream and drains a queue
//! until it blocks: a copy queued behind another stream's blocked op does not wait for it, as it
//! did on Fermi, and a stream whose copies were issued back to back has them served back to
//! back. On the H200 that made breadth-first issue 20-50% slower than per-chunk issue, measured
//! 2026-11-29 over 2-4 streams and 8-64 chunks, and this rule reproduces it.) A copy first waits its fixed latency, then its
//! bytes flow at its bandwidth; while an H2D and a D2H copy flow together their rates are scaled
//! so the total stays within the bidirectional limit, and the rates are recomputed whenever the
//! set of flowing copies changes. Time moves only from event to event, so results are exact and
//! deterministic.

use std::collections::{HashMap, VecDeque};

use super::costs::Dir;
use crate::gpu::GpuError;
use crate::report::{HostMemKind, Op, OpKind};

/// An op's number, in issue order.
pub(super) type OpId = u64;

/// What an op does to the engine that runs it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Work {
    Copy {
        dir: Dir,
        latency_us: f64,
        bytes_per_us: f64,
    },
    Kernel {
        duration_us: f64,
    },
    /// An event record or a stream's wait for one: no engine time, it ends as soon as its
    /// dependencies have. With `keep_end` its end time is kept after pruning (for
    /// `event_elapsed_ms`) until [`Device::forget_end`].
    Marker {
        keep_end: bool,
    },
}

/// A copy or kernel as issued by the host.
#[derive(Debug, Clone)]
pub(super) struct DevOp {
    pub(super) stream: u32,
    pub(super) kind: OpKind,
    pub(super) bytes: u64,
    pub(super) host_mem: Option<HostMemKind>,
    pub(super) label: &'static str,
    pub(super) work: Work,
    /// Ops that must end before this one starts (its stream, the legacy default stream).
    pub(super) deps: Vec<OpId>,
    /// Whether it goes on the timeline being recorded.
    pub(super) record: bool,
    /// The front end's per-op costs (see [`Pacing`]).
    pub(super) pacing: Pacing,
    /// The learner's line that issued it (exercise checks).
    pub(super) line: Option<u32>,
}

/// What it costs the device to move from one op to the next, beyond the op's own work. All
/// are measured on the H200 by `calibrate` from host-timed runs (issue 10 §2): many small
/// chunks cost more than their bytes because of these.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Pacing {
    /// Engine time before every op (the front end fetching it), idle on the timeline.
    pub(super) op_us: f64,
    /// When the op's stream predecessor ran on another engine, the op starts at least this long
    /// after that predecessor ended (the stream's wait is a semaphore the next engine's channel
    /// polls). The engine is free meanwhile: other streams' ops may run.
    pub(super) stream_wait_us: f64,
    /// Extra engine time when the engine last ran an op of another stream (a channel switch).
    pub(super) switch_us: f64,
    /// Extra engine time before a download starts while an upload's bytes flow, when the
    /// download engine last ran another stream's op (see `Device::upload_toll`).
    pub(super) under_upload_us: f64,
}

impl Pacing {
    /// The device front end's per-op costs, from the profile. (Here, beside the type, rather
    /// than in `costs.rs`, which `engines` reads: issue 20's `costs` <-> `engines` circle.)
    pub(super) fn from_profile(p: &crate::gpu::profile::Profile) -> Pacing {
        Pacing {
            op_us: p.op_overhead_us,
            stream_wait_us: p.stream_wait_us,
            switch_us: p.engine_switch_us,
            under_upload_us: p.download_under_upload_us,
        }
    }
}

#[derive(Debug)]
struct Slot {
    op: DevOp,
    /// The hardware queue it waits in on that engine (see [`CopyQueues`]).
    queue: u32,
    /// The engine it counts as for [`Pacing::stream_wait_us`]: the one that runs it, or for a marker (an
    /// event record or wait, which takes no engine) the one of the op it follows in its stream,
    /// so a chain copy, record, copy on one stream stays on the copy engine and pays no stream
    /// wait, while a wait for another engine's event pays it once ([`Device::marker_engine`]).
    wait_engine: usize,
    start_us: Option<f64>,
    end_us: Option<f64>,
}

#[derive(Debug, Clone, Copy)]
enum Phase {
    Latency { until: f64 },
    Transfer { remaining: f64 },
    Busy { until: f64 },
}

#[derive(Debug, Clone, Copy)]
struct Running {
    id: OpId,
    phase: Phase,
}

#[derive(Debug, Default)]
struct Engine {
    /// The ops waiting for it: one FIFO per stream, in issue order (see [`Engine::heads`]).
    queue: Vec<(u32, VecDeque<OpId>)>,
    running: Option<Running>,
    /// The stream of the op it ran last (a switch to another stream costs `switch_us`).
    last_stream: Option<u32>,
    /// The hardware queue of the op it ran last: it keeps serving that queue while it can.
    last_queue: Option<u32>,
}

impl Engine {
    fn enqueue(&mut self, stream: u32, id: OpId) {
        match self.queue.iter_mut().find(|(s, _)| *s == stream) {
            Some((_, fifo)) => fifo.push_back(id),
            None => self.queue.push((stream, VecDeque::from([id]))),
        }
    }

    /// The first waiting op of each stream, earliest issued first. Only these can be ready: a
    /// later op of a stream waits, directly or through the ops between, for the earlier one,
    /// which has not started. So a step asks one op per stream when it may start, not every
    /// op waiting (review 2026-12-01 NM2: 4,096 chunks issued by stage took minutes).
    fn heads(&self) -> Vec<OpId> {
        let mut heads: Vec<OpId> = self
            .queue
            .iter()
            .filter_map(|(_, fifo)| fifo.front().copied())
            .collect();
        heads.sort_unstable();
        heads
    }

    /// Take `id`, a head, off its stream's FIFO.
    fn dequeue(&mut self, id: OpId) {
        if let Some(i) = self.queue.iter().position(|(_, f)| f.front() == Some(&id)) {
            self.queue[i].1.pop_front();
            if self.queue[i].1.is_empty() {
                self.queue.remove(i);
            }
        }
    }
}

/// Which hardware queue a copy waits in. With `per_direction` = 0 every stream has its own
/// queue. Otherwise the driver spreads a direction's copies round-robin, in issue order, over
/// as many copy engines as there are streams issuing copies (at most `per_direction`), counted
/// from the last time the device was idle: with 3 streams each stream keeps one engine, with 5
/// a stream's copies rotate over all four (seen in the H200's CUPTI engine ids, 2026-12-01).
#[derive(Debug, Default)]
struct CopyQueues {
    per_direction: u32,
    /// Per direction: copies issued and the streams that issued them, since the device was idle.
    issued: [u32; 2],
    streams: [Vec<u32>; 2],
}

impl CopyQueues {
    fn queue_of(&mut self, dir: Dir, stream: u32) -> u32 {
        if self.per_direction == 0 {
            return stream;
        }
        let d = usize::from(dir == Dir::D2h);
        if !self.streams[d].contains(&stream) {
            self.streams[d].push(stream);
        }
        let engines = (self.streams[d].len() as u32).min(self.per_direction);
        let k = self.issued[d];
        self.issued[d] += 1;
        k % engines
    }

    fn reset(&mut self) {
        self.issued = [0; 2];
        self.streams = Default::default();
    }
}

/// Two events closer than this (µs) happen together.
const EPS_US: f64 = 1e-6;

/// The simulated device.
#[derive(Debug)]
pub(super) struct Device {
    now: f64,
    /// Id of `slots[0]`; every op below it has ended.
    base: OpId,
    slots: Vec<Slot>,
    /// Slots whose op has not ended: kept so that "is the device idle?" is one comparison, not
    /// a walk over every slot since the last pruning (with 60,000 queued memsets that walk,
    /// once per issue, made a check run for minutes: review 2026-12-01 R1).
    pending: usize,
    /// H2D copy engine, D2H copy engine (the same one if the GPU has one), compute, and a
    /// pseudo-engine for markers (which take no time).
    engines: [Engine; 4],
    d2h_engine: usize,
    copy_queues: CopyQueues,
    bidir_bytes_per_us: f64,
    recorded: Vec<(OpId, Op)>,
    /// Ops that ended since the last [`Device::take_finished`], in the order they ended.
    finished: Vec<OpId>,
    /// End times of ended markers issued with `keep_end`.
    kept_ends: HashMap<OpId, f64>,
}

const COMPUTE: usize = 2;
const MARKERS: usize = 3;

impl Device {
    pub(super) fn new(copy_engines: u32, bidir_bytes_per_us: f64) -> Device {
        Device {
            now: 0.0,
            base: 0,
            slots: Vec::new(),
            pending: 0,
            engines: Default::default(),
            d2h_engine: if copy_engines >= 2 { 1 } else { 0 },
            copy_queues: CopyQueues::default(),
            bidir_bytes_per_us,
            recorded: Vec::new(),
            finished: Vec::new(),
            kept_ends: HashMap::new(),
        }
    }

    /// Spread copies over `per_direction` copy engines' queues (see [`CopyQueues`]).
    pub(super) fn with_copy_queues(mut self, per_direction: u32) -> Device {
        self.copy_queues.per_direction = per_direction;
        self
    }

    fn engine_of(&self, work: &Work) -> usize {
        match work {
            Work::Copy { dir: Dir::H2d, .. } => 0,
            Work::Copy { dir: Dir::D2h, .. } => self.d2h_engine,
            Work::Kernel { .. } => COMPUTE,
            Work::Marker { .. } => MARKERS,
        }
    }

    /// Queue `op` at the current device time; returns its id.
    pub(super) fn issue(&mut self, op: DevOp) -> OpId {
        let id = self.base + self.slots.len() as OpId;
        let engine = self.engine_of(&op.work);
        if self.pending == 0 {
            self.copy_queues.reset(); // idle: the driver starts its round-robin afresh
        }
        let queue = match op.work {
            Work::Copy { dir, .. } => self.copy_queues.queue_of(dir, op.stream),
            _ => op.stream,
        };
        let wait_engine = match op.work {
            Work::Marker { .. } => self.marker_engine(&op),
            _ => engine,
        };
        self.engines[engine].enqueue(op.stream, id);
        self.pending += 1;
        self.slots.push(Slot {
            op,
            queue,
            wait_engine,
            start_us: None,
            end_us: None,
        });
        id
    }

    /// A marker counts as the engine of the op before it in its stream (its first dependency,
    /// when that is of the same stream and still known), else as no engine ([`MARKERS`]).
    fn marker_engine(&self, op: &DevOp) -> usize {
        op.deps
            .first()
            .and_then(|&d| self.slot(d))
            .filter(|d| d.op.stream == op.stream)
            .map_or(MARKERS, |d| d.wait_engine)
    }

    fn slot(&self, id: OpId) -> Option<&Slot> {
        id.checked_sub(self.base)
            .and_then(|i| self.slots.get(i as usize))
    }

    /// Whether op `id` has ended (ops before the last pruning all have).
    pub(super) fn is_done(&self, id: OpId) -> bool {
        self.slot(id).is_none_or(|s| s.end_us.is_some())
    }

    /// Run the device until `t` (µs); the clock never goes back.
    pub(super) fn advance_to(&mut self, t: f64) -> Result<(), GpuError> {
        while self.step(Some(t))? {}
        self.now = self.now.max(t);
        Ok(())
    }

    /// Run until every op in `ids` has ended; returns the latest end (or `None` if all had
    /// ended long ago).
    pub(super) fn wait_for(&mut self, ids: &[OpId]) -> Result<Option<f64>, GpuError> {
        while !ids.iter().all(|&id| self.is_done(id)) {
            if !self.step(None)? {
                return Err(stuck());
            }
        }
        let end = ids
            .iter()
            .filter_map(|&id| self.slot(id).and_then(|s| s.end_us))
            .reduce(f64::max);
        self.prune();
        Ok(end)
    }

    /// Run until every op has ended; returns the device time then.
    pub(super) fn wait_idle(&mut self) -> Result<f64, GpuError> {
        while self.pending > 0 {
            if !self.step(None)? {
                return Err(stuck());
            }
        }
        let end = self
            .slots
            .iter()
            .filter_map(|s| s.end_us)
            .fold(0.0, f64::max);
        self.prune();
        Ok(end)
    }

    /// When op `id` ended: from its slot, or kept for a marker issued with `keep_end`.
    pub(super) fn end_of(&self, id: OpId) -> Option<f64> {
        self.slot(id)
            .and_then(|s| s.end_us)
            .or_else(|| self.kept_ends.get(&id).copied())
    }

    /// Stop keeping the end time of marker `id`.
    pub(super) fn forget_end(&mut self, id: OpId) {
        self.kept_ends.remove(&id);
    }

    /// The ops that ended since the last call, in the order they ended (their effects on
    /// contents are applied then: see `sim/effects.rs`).
    pub(super) fn take_finished(&mut self) -> Vec<OpId> {
        std::mem::take(&mut self.finished)
    }

    /// Recorded ops (absolute times) since the last call, with their ids.
    pub(super) fn take_recorded(&mut self) -> Vec<(OpId, Op)> {
        std::mem::take(&mut self.recorded)
    }

    /// Forget ended ops once nothing is pending, so long sweeps stay small.
    fn prune(&mut self) {
        if self.pending == 0 {
            self.base += self.slots.len() as OpId;
            self.slots.clear();
        }
    }

    /// Start what can start, then move to the next event if it is not after `limit`.
    /// Returns false when nothing runs or the next event is after `limit`.
    fn step(&mut self, limit: Option<f64>) -> Result<bool, GpuError> {
        self.start_ready()?;
        let rates = self.rates();
        let times: Vec<Option<f64>> = (0..self.engines.len())
            .map(|e| {
                let wake = self.next_ready(e).filter(|&t| t > self.now + EPS_US);
                self.event_time(e, &rates).or(wake)
            })
            .collect();
        let Some(next) = times.iter().flatten().copied().reduce(f64::min) else {
            return Ok(false);
        };
        if let Some(limit) = limit.filter(|&l| next > l) {
            self.flow(limit - self.now, &rates);
            self.now = limit;
            return Ok(false);
        }
        self.flow(next - self.now, &rates);
        self.now = next;
        let mut fired = false;
        for (e, t) in times.iter().enumerate() {
            if t.is_some_and(|t| t <= next + EPS_US) {
                self.fire(e)?;
                fired = true;
            }
        }
        // Only a profile that skipped validation (a NaN rate) can leave nothing due.
        if !fired {
            return Err(stuck());
        }
        Ok(true)
    }
}

fn stuck() -> GpuError {
    GpuError::Invalid(
        "the simulator has ops that can never start (an internal error); please report it"
            .to_string(),
    )
}

mod flow;

#[cfg(test)]
mod tests;
