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

#[derive(Debug)]
struct Event {
    timing: bool,
    /// The marker of the last record, if the event was ever recorded.
    last: Option<OpId>,
}

/// Every live event of the simulated context.
#[derive(Debug, Default)]
pub(super) struct Events {
    next: u32,
    live: BTreeMap<u32, Event>,
}

impl Events {
    fn get(&self, ev: EventId) -> Result<&Event, GpuError> {
        self.live.get(&ev.0).ok_or_else(|| unknown(ev))
    }
}

fn unknown(ev: EventId) -> GpuError {
    GpuError::Invalid(format!("no event {} (destroyed or never created)", ev.0))
}

impl SimGpu {
    pub(super) fn create_event(&mut self, timing: bool) -> EventId {
        self.clock.spend(self.profile.api_call_us);
        self.events.next += 1;
        let id = self.events.next;
        self.events.live.insert(id, Event { timing, last: None });
        self.streams.model.create_event(id);
        EventId(id)
    }

    pub(super) fn destroy_event(&mut self, ev: EventId) -> Result<(), GpuError> {
        let event = self.events.live.remove(&ev.0).ok_or_else(|| unknown(ev))?;
        self.streams.model.destroy_event(ev.0).map_err(refused)?;
        if let Some(id) = event.last {
            self.device.forget_end(id);
        }
        self.clock.spend(self.profile.api_call_us);
        Ok(())
    }

    pub(super) fn record_event(&mut self, ev: EventId, stream: StreamId) -> Result<(), GpuError> {
        self.events.get(ev)?;
        self.clock.spend(self.profile.async_call_us);
        let issued = self.streams.model.record(ev.0, stream.0).map_err(refused)?;
        let work = Work::Marker { keep_end: true };
        let id = self.issue_as(&issued, OpKind::Kernel, "event", 0, None, work)?;
        let event = self.events.live.get_mut(&ev.0).ok_or_else(|| unknown(ev))?;
        if let Some(old) = event.last.replace(id) {
            self.device.forget_end(old);
        }
        Ok(())
    }

    pub(super) fn wait_event(&mut self, stream: StreamId, ev: EventId) -> Result<(), GpuError> {
        self.events.get(ev)?;
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
        self.events.get(ev)?;
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
        let event = self.events.get(ev)?;
        if !event.timing {
            return Err(GpuError::Invalid(format!(
                "event {} was created without timing (CU_EVENT_DISABLE_TIMING); create it with \
                 timing to measure elapsed time",
                ev.0
            )));
        }
        let Some(id) = event.last else {
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
