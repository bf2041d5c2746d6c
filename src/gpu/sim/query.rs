//! Polling and stream-ordered allocation for the simulator: `cuStreamQuery`/`cuEventQuery`
//! answer from the device at the host's current time (the ordering model says which ops must
//! have completed), and `cuMemAllocAsync`/`cuMemFreeAsync` take effect in stream order.
//!
//! Each query spends an API call's cost on the host clock, so a polling loop moves time forward
//! and ends when the device catches up, as it does on a GPU.

use super::SimGpu;
use super::effects::Effect;
use super::engines::Work;
use super::scheduler::refused;
use crate::gpu::{DevBuf, EventId, GpuError, StreamId};
use crate::report::OpKind;

impl SimGpu {
    /// Whether every op `stream` must have finished has, at the host's current time; when it
    /// has, the host knows it (the model learns the stream's work is done).
    pub(super) fn query_stream(&mut self, stream: StreamId) -> Result<bool, GpuError> {
        self.clock.spend(self.profile.api_call_us);
        self.device.advance_to(self.clock.now())?;
        let ops = self.streams.model.query_stream(stream.0).map_err(refused)?;
        let done = self
            .streams
            .device_ops(&ops)
            .into_iter()
            .all(|id| self.device.is_done(id));
        if done {
            self.streams.model.learn_stream(stream.0).map_err(refused)?;
        }
        Ok(done)
    }

    /// Whether the event's last record has completed (an event never recorded is complete).
    pub(super) fn query_event(&mut self, ev: EventId) -> Result<bool, GpuError> {
        self.clock.spend(self.profile.api_call_us);
        self.device.advance_to(self.clock.now())?;
        let last = self.streams.model.last_record(ev.0).map_err(refused)?;
        let done = match last {
            None => true,
            Some((op, _)) => self
                .streams
                .device_ops(&[op])
                .into_iter()
                .all(|id| self.device.is_done(id)),
        };
        if done {
            self.streams.model.learn_event(ev.0).map_err(refused)?;
        }
        Ok(done)
    }

    /// Whether the event's last record has completed at the host's current time, for the
    /// caller's bookkeeping (a host function's marker): no host time spent, nothing learnt.
    pub(super) fn event_reached_now(&mut self, ev: EventId) -> Result<bool, GpuError> {
        self.device.advance_to(self.clock.now())?;
        self.apply_finished();
        let last = self.streams.model.last_record(ev.0).map_err(refused)?;
        Ok(match last {
            None => true,
            Some((op, _)) => self
                .streams
                .device_ops(&[op])
                .into_iter()
                .all(|id| self.device.is_done(id)),
        })
    }

    /// `cuMemAllocAsync`: the simulator allocates at once (the contents are unwritten either
    /// way); the call costs an async call, not a `cudaMalloc`.
    pub(super) fn alloc_device_async(
        &mut self,
        stream: StreamId,
        bytes: u64,
    ) -> Result<DevBuf, GpuError> {
        self.streams.check(stream)?;
        self.alloc_device(bytes)
    }

    /// `cuMemFreeAsync`: a marker queued in `stream`; the buffer is released when the marker
    /// ends (in stream order, `effects.rs`), without the host waiting, so work queued before the
    /// free still reads and writes it. The interpreter refuses any later use.
    pub(super) fn free_device_async(
        &mut self,
        stream: StreamId,
        buf: DevBuf,
    ) -> Result<(), GpuError> {
        self.dev.get(buf.0)?;
        self.streams.check(stream)?;
        self.clock.spend(self.profile.async_call_us);
        let work = Work::Marker { keep_end: false };
        let id = self.issue(stream, OpKind::Kernel, "free", 0, None, work)?;
        self.defer(id, Effect::FreeDevice(buf));
        Ok(())
    }
}
