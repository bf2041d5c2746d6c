//! The engines' mechanics: starting ready ops, sharing the link, firing events.

use super::{COMPUTE, Device, EPS_US, MARKERS, OpId, Phase, Running, Work, stuck};
use crate::gpu::GpuError;
use crate::gpu::sim::costs::Dir;
use crate::report::Op;

impl Device {
    /// On every idle engine, start the next ready op of the stream it served last, else the
    /// earliest-issued queued op whose dependencies have ended.
    pub(super) fn start_ready(&mut self) -> Result<(), GpuError> {
        for e in 0..self.engines.len() {
            if self.engines[e].running.is_some() {
                continue;
            }
            let Some(id) = self.pick(e) else { continue };
            self.engines[e].dequeue(id);
            let now = self.now;
            let last = self.engines[e].last_stream;
            let toll = self.upload_toll(e, id);
            let slot = self.slot_mut(id).ok_or_else(stuck)?;
            let (stream, queue) = (slot.op.stream, slot.queue);
            // The front end's time comes first; the op's own time (and timeline start) after.
            let pacing = slot.op.pacing;
            let switch = if last.is_some_and(|l| l != stream) {
                pacing.switch_us
            } else {
                0.0
            };
            let pre = pacing.op_us + switch + toll;
            slot.start_us = Some(now + pre);
            let phase = match slot.op.work {
                Work::Copy { latency_us, .. } if pre + latency_us > 0.0 => Phase::Latency {
                    until: now + pre + latency_us,
                },
                Work::Copy { .. } => Phase::Transfer {
                    remaining: slot.op.bytes as f64,
                },
                Work::Kernel { duration_us } => Phase::Busy {
                    until: now + pre + duration_us,
                },
                Work::Marker { .. } => Phase::Busy { until: now },
            };
            self.engines[e].running = Some(Running { id, phase });
            self.engines[e].last_stream = Some(stream);
            self.engines[e].last_queue = Some(queue);
        }
        Ok(())
    }

    /// What a download `id` starting on engine `e` pays because an upload is on the link (see
    /// [`super::Pacing::under_upload_us`]); 0 for anything else, with one copy engine, or when
    /// the download is of the stream the engine served last. The last is what one stream per
    /// stage gains on the H200: host-timed, its 32-chunk pipeline ran 2.7% faster than three
    /// streams round-robin, and a toll on every download put it 3-7% too slow (BENCHMARKS.md).
    fn upload_toll(&self, e: usize, id: OpId) -> f64 {
        let Some(slot) = self.slot(id) else {
            return 0.0;
        };
        let download = matches!(slot.op.work, Work::Copy { dir: Dir::D2h, .. });
        let uploading = self.engines[0].running.is_some_and(|r| {
            !matches!(r.phase, Phase::Busy { .. })
                && self
                    .slot(r.id)
                    .is_some_and(|s| matches!(s.op.work, Work::Copy { dir: Dir::H2d, .. }))
        });
        // One stream of downloads pays nothing: the engine stays on its channel. A download
        // of another stream than the engine's last op does.
        let switched = self.engines[e]
            .last_stream
            .is_some_and(|s| s != slot.op.stream);
        if download && uploading && switched && e != 0 {
            slot.op.pacing.under_upload_us
        } else {
            0.0
        }
    }

    /// When op `id` may start: `None` while a dependency runs; otherwise the latest end of its
    /// dependencies, plus the stream wait for one that ran on another engine. Ops pruned long
    /// ago count as ended at time 0.
    fn ready_at(&self, id: OpId) -> Option<f64> {
        let slot = self.slot(id)?;
        let mut at: f64 = 0.0;
        for &d in &slot.op.deps {
            let Some(dep) = self.slot(d) else { continue };
            let end = dep.end_us?;
            // A handoff between engines costs the stream wait once: not between ops counted as
            // one engine, and not again after a marker that stands for no engine (it paid).
            let wait = if dep.wait_engine == slot.wait_engine || dep.wait_engine == MARKERS {
                0.0
            } else {
                slot.op.pacing.stream_wait_us
            };
            at = at.max(end + wait);
        }
        Some(at)
    }

    /// The earliest time an op queued on engine `e` may start (`None` if none may yet).
    pub(super) fn next_ready(&self, e: usize) -> Option<f64> {
        if self.engines[e].running.is_some() {
            return None;
        }
        self.engines[e]
            .heads()
            .into_iter()
            .filter_map(|id| self.ready_at(id))
            .reduce(f64::min)
    }

    /// The op engine `e` starts next, if any is ready.
    fn pick(&self, e: usize) -> Option<OpId> {
        let engine = &self.engines[e];
        let ready = |id: &OpId| {
            self.ready_at(*id)
                .filter(|&t| t <= self.now + EPS_US)
                .and_then(|_| self.slot(*id))
                .map(|s| s.queue)
        };
        let mut first = None;
        for id in engine.heads() {
            let Some(queue) = ready(&id) else { continue };
            if Some(queue) == engine.last_queue {
                return Some(id);
            }
            first = first.or(Some(id));
        }
        first
    }

    fn slot_mut(&mut self, id: OpId) -> Option<&mut super::Slot> {
        id.checked_sub(self.base)
            .and_then(|i| self.slots.get_mut(i as usize))
    }

    /// Bytes per µs of each engine's flowing copy (0 when none). When both directions flow and
    /// their sum exceeds the bidirectional limit, both are scaled by the same factor.
    pub(super) fn rates(&self) -> [f64; 3] {
        let mut rates = [0.0; 3];
        let mut by_dir = [0.0; 2];
        for (e, engine) in self.engines.iter().enumerate() {
            let Some(Running {
                id,
                phase: Phase::Transfer { .. },
            }) = engine.running
            else {
                continue;
            };
            if let Some(Work::Copy {
                dir, bytes_per_us, ..
            }) = self.slot(id).map(|s| s.op.work)
            {
                rates[e] = bytes_per_us;
                by_dir[usize::from(dir == Dir::D2h)] += bytes_per_us;
            }
        }
        let total = by_dir[0] + by_dir[1];
        if by_dir[0] > 0.0 && by_dir[1] > 0.0 && total > self.bidir_bytes_per_us {
            let scale = self.bidir_bytes_per_us / total;
            for r in &mut rates {
                *r *= scale;
            }
        }
        rates
    }

    /// When engine `e`'s running op next changes phase, at the given rates.
    pub(super) fn event_time(&self, e: usize, rates: &[f64; 3]) -> Option<f64> {
        let running = self.engines[e].running?;
        Some(match running.phase {
            Phase::Latency { until } | Phase::Busy { until } => until,
            Phase::Transfer { remaining } if remaining <= 0.0 => self.now,
            Phase::Transfer { remaining } => self.now + remaining / rates[e],
        })
    }

    /// Let bytes flow for `dt` µs.
    pub(super) fn flow(&mut self, dt: f64, rates: &[f64; 3]) {
        for (engine, rate) in self.engines.iter_mut().zip(rates) {
            if let Some(Running {
                phase: Phase::Transfer { remaining },
                ..
            }) = &mut engine.running
            {
                *remaining = (*remaining - rate * dt).max(0.0);
            }
        }
    }

    /// Engine `e`'s event is due now: end a latency phase or end the op.
    pub(super) fn fire(&mut self, e: usize) -> Result<(), GpuError> {
        let Some(running) = self.engines[e].running else {
            return Ok(());
        };
        if let Phase::Latency { .. } = running.phase {
            let bytes = self.slot(running.id).ok_or_else(stuck)?.op.bytes;
            if bytes > 0 {
                self.engines[e].running = Some(Running {
                    id: running.id,
                    phase: Phase::Transfer {
                        remaining: bytes as f64,
                    },
                });
                return Ok(());
            }
        }
        self.engines[e].running = None;
        let now = self.now;
        let slot = self.slot_mut(running.id).ok_or_else(stuck)?;
        slot.end_us = Some(now);
        let keep_end = matches!(slot.op.work, Work::Marker { keep_end: true });
        if slot.op.record && e != MARKERS {
            let op = Op {
                stream: slot.op.stream,
                kind: slot.op.kind,
                start_us: slot.start_us.unwrap_or(now),
                end_us: now,
                bytes: slot.op.bytes,
                host_mem: slot.op.host_mem,
                engine: (e != COMPUTE).then_some(e as u32),
                start_inferred: false,
                line: slot.op.line,
                label: slot.op.label.to_string(),
            };
            self.recorded.push((running.id, op));
        }
        if keep_end {
            self.kept_ends.insert(running.id, now);
        }
        self.finished.push(running.id);
        self.pending = self.pending.saturating_sub(1);
        Ok(())
    }
}
