//! The learner's events: plain `cuEvent*` calls on events this backend owns (the recorder's own
//! timing events are separate, in `timeline.rs`).
#![allow(unsafe_code)]

use cudarc::driver::sys::{self, CUevent, CUevent_flags};

use super::CudaGpu;
use super::error::check;
use crate::gpu::{EventId, GpuError, StreamId};

impl CudaGpu {
    fn event(&self, ev: EventId) -> Result<CUevent, GpuError> {
        self.events.get(&ev.0).copied().ok_or_else(|| {
            GpuError::Invalid(format!("no event {} (destroyed or never created)", ev.0))
        })
    }

    pub(super) fn create_event(&mut self, timing: bool) -> Result<EventId, GpuError> {
        let flags = if timing {
            CUevent_flags::CU_EVENT_DEFAULT
        } else {
            CUevent_flags::CU_EVENT_DISABLE_TIMING
        };
        let mut e: CUevent = std::ptr::null_mut();
        // SAFETY: the driver writes a new event handle into `e`.
        check("cuEventCreate", unsafe {
            sys::cuEventCreate(&mut e, flags as u32)
        })?;
        let id = self.new_id();
        self.events.insert(id, e);
        Ok(EventId(id))
    }

    pub(super) fn destroy_event(&mut self, ev: EventId) -> Result<(), GpuError> {
        let e = self.event(ev)?;
        self.events.remove(&ev.0);
        // SAFETY: created by `cuEventCreate`; removed from the table so destroyed once.
        check("cuEventDestroy", unsafe { sys::cuEventDestroy_v2(e) })
    }

    pub(super) fn record_event(&mut self, ev: EventId, stream: StreamId) -> Result<(), GpuError> {
        let (e, s) = (self.event(ev)?, self.stream(stream)?);
        // SAFETY: `e` is a live event and `s` a live stream (or null) of this context.
        check("cuEventRecord", unsafe { sys::cuEventRecord(e, s) })
    }

    /// `cuEventQuery`: complete (true) or `CUDA_ERROR_NOT_READY` (false).
    pub(super) fn query_event(&mut self, ev: EventId) -> Result<bool, GpuError> {
        let e = self.event(ev)?;
        // SAFETY: `e` is a live event of this context.
        let rc = unsafe { sys::cuEventQuery(e) };
        if rc == sys::CUresult::CUDA_ERROR_NOT_READY {
            return Ok(false);
        }
        check("cuEventQuery", rc).map(|()| true)
    }

    pub(super) fn sync_event(&mut self, ev: EventId) -> Result<(), GpuError> {
        let e = self.event(ev)?;
        // SAFETY: `e` is a live event of this context.
        check("cuEventSynchronize", unsafe { sys::cuEventSynchronize(e) })
    }

    /// `cuEventElapsedTime` (the exercises' `cudaEventElapsedTime`), under whichever of its
    /// two names the driver exports (a driver before 12.8 has no `_v2`).
    pub(super) fn elapsed_ms(&mut self, start: EventId, end: EventId) -> Result<f32, GpuError> {
        let (a, b) = (self.event(start)?, self.event(end)?);
        // Both are live events of this context (the caller bound it).
        elapsed_between(a, b)
    }

    pub(super) fn wait_event(&mut self, stream: StreamId, ev: EventId) -> Result<(), GpuError> {
        let (e, s) = (self.event(ev)?, self.stream(stream)?);
        // SAFETY: `e` is a live event and `s` a live stream (or null); flags must be 0.
        check("cuStreamWaitEvent", unsafe {
            sys::cuStreamWaitEvent(s, e, 0)
        })
    }
}

/// `cuEventElapsedTime(start, end)` in milliseconds, under whichever of its names the driver
/// exports (`symbols::ELAPSED`): the one call behind the learner's `cudaEventElapsedTime` and
/// the event-timed timeline (`timeline::matching`). Both events must be live events of the
/// current context.
pub(super) fn elapsed_between(start: CUevent, end: CUevent) -> Result<f32, GpuError> {
    let f = super::symbols::elapsed_fn()?;
    let mut ms = 0f32;
    // SAFETY: `f` is the driver's entry point of this C signature; the caller passes two live
    // events of the current context; the driver writes one f32 through a valid pointer.
    check("cuEventElapsedTime", unsafe { f(&mut ms, start, end) })?;
    Ok(ms)
}
