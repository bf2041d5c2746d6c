//! Events: `cuEventRecord` queues a marker in its stream (no device time; it ends when the work
//! before it has, including the legacy default stream's barrier), `cuStreamWaitEvent` queues a
//! marker that also depends on the event's last record, and `cuEventSynchronize` and
//! `cuEventElapsedTime` read the marker's end (CUDA driver API, "Event Management").
//! What a record captures and a wait orders is the ordering model's ([`crate::ordering`]).

use std::collections::BTreeMap;

use super::SimGpu;
use super::engines::{OpId, Work};
use super::scheduler::refused;
use crate::gpu::{EventId, GpuError, StreamId};
use crate::report::OpKind;

/// The simulated context's events: only what the ordering model does not hold. Which events
/// exist and each one's last record are the model's (`Model::last_record`); the device op of
/// that record is the scheduler's map.
#[derive(Debug, Default)]
pub(super) struct Events {
    next: u32,
    /// Per live event: whether it was created with timing.
    timing: BTreeMap<u32, bool>,
}

impl SimGpu {
    /// The device op of `ev`'s last record, if it was ever recorded (an error if there is no
    /// such event).
    fn last_marker(&self, ev: EventId) -> Result<Option<OpId>, GpuError> {
        let last = self.streams.model.last_record(ev.0).map_err(refused)?;
        Ok(last.and_then(|(op, _)| self.streams.device_op(op)))
    }

    pub(super) fn create_event(&mut self, timing: bool) -> EventId {
        self.clock.spend(self.profile.api_call_us);
        self.events.next += 1;
        let id = self.events.next;
        self.events.timing.insert(id, timing);
        self.streams.model.create_event(id);
        EventId(id)
    }

    pub(super) fn destroy_event(&mut self, ev: EventId) -> Result<(), GpuError> {
        let last = self.last_marker(ev)?;
        self.streams.model.destroy_event(ev.0).map_err(refused)?;
        self.events.timing.remove(&ev.0);
        if let Some(id) = last {
            self.device.forget_end(id);
        }
        self.clock.spend(self.profile.api_call_us);
        Ok(())
    }

    pub(super) fn record_event(&mut self, ev: EventId, stream: StreamId) -> Result<(), GpuError> {
        let old = self.last_marker(ev)?;
        self.clock.spend(self.profile.async_call_us);
        let issued = self.streams.model.record(ev.0, stream.0).map_err(refused)?;
        let work = Work::Marker { keep_end: true };
        self.issue_as(&issued, OpKind::Kernel, "event", 0, None, work)?;
        if let Some(old) = old {
            self.device.forget_end(old);
        }
        Ok(())
    }

    pub(super) fn wait_event(&mut self, stream: StreamId, ev: EventId) -> Result<(), GpuError> {
        self.last_marker(ev)?;
        self.clock.spend(self.profile.async_call_us);
        let issued = self
            .streams
            .model
            .wait_event(stream.0, ev.0)
            .map_err(refused)?;
        let work = Work::Marker { keep_end: false };
        self.issue_as(&issued, OpKind::Kernel, "wait", 0, None, work)?;
        Ok(())
    }

    pub(super) fn sync_event(&mut self, ev: EventId) -> Result<(), GpuError> {
        if let Some(op) = self.streams.model.sync_event(ev.0).map_err(refused)? {
            self.wait_ops(&[op])?;
        }
        self.clock.spend(self.profile.sync_call_us);
        Ok(())
    }

    /// Milliseconds from `start`'s last record to `end`'s, as `cuEventElapsedTime` reports them.
    pub(super) fn elapsed_ms(&mut self, start: EventId, end: EventId) -> Result<f32, GpuError> {
        self.clock.spend(self.profile.api_call_us);
        self.catch_up()?;
        let t0 = self.completed_at(start)?;
        let t1 = self.completed_at(end)?;
        Ok(((t1 - t0) / 1e3) as f32)
    }

    /// When the event's last record completed, or the error the driver gives.
    fn completed_at(&self, ev: EventId) -> Result<f64, GpuError> {
        let last = self.last_marker(ev)?;
        if !self.events.timing.get(&ev.0).copied().unwrap_or(false) {
            return Err(GpuError::Invalid(format!(
                "event {} was created without timing (CU_EVENT_DISABLE_TIMING); create it with \
                 timing to measure elapsed time",
                ev.0
            )));
        }
        let Some(id) = last else {
            return Err(GpuError::Invalid(format!(
                "event {} was never recorded (CUDA_ERROR_INVALID_HANDLE); record it first",
                ev.0
            )));
        };
        self.device.end_of(id).ok_or_else(|| {
            GpuError::Invalid(format!(
                "event {} has not completed yet (CUDA_ERROR_NOT_READY); synchronise on it first",
                ev.0
            ))
        })
    }
}
