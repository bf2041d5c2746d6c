//! Recording the device ops issued between `timeline_begin` and `timeline_end`, and giving them
//! device start/end times on one origin shared with the host clock.
//!
//! Preferred source: CUPTI activity records (see `cupti.rs`). Fallback: one CUDA event recorded
//! after each op against an origin event; the end is measured, the start is inferred (the later
//! of the previous op's end in the same stream and the host's issue time) and marked so.
//! Recording costs nothing outside a begin/end pair: the copy and launch paths only check
//! whether a recording is open.
#![allow(unsafe_code)]

use std::time::Instant;

use cudarc::driver::sys::{self, CUcontext, CUevent, CUevent_flags, CUstream};

use super::cupti;
use super::error::check;
use crate::gpu::GpuError;
use crate::report::{HostMemKind, Op, OpKind};

mod matching;
use matching::{from_events, match_records};

/// One op as issued by the host.
#[derive(Debug)]
pub struct Issued {
    pub stream: u32,
    pub kind: OpKind,
    pub bytes: u64,
    pub host_mem: Option<HostMemKind>,
    pub label: &'static str,
    /// Host time just before the call, on the timeline clock.
    pub issue_us: f64,
    /// Events mode: recorded in the op's stream right after it.
    pub end_event: Option<CUevent>,
    /// The learner's line that issued it (exercise checks).
    pub line: Option<u32>,
}

/// Where device times come from while recording.
#[derive(Debug)]
enum Mode {
    Cupti,
    Events { origin: CUevent },
}

/// The host clock: `Instant` from the origin. With CUPTI, the origin's CUPTI timestamp is taken
/// at the same moment, so device times (CUPTI ns) map onto this clock without calling CUPTI
/// for every host reading (and without CUPTI attached outside recordings).
#[derive(Debug, Clone, Copy)]
struct Clock {
    origin: Instant,
    cupti_origin_ns: u64,
}

/// The recorder of one backend.
#[derive(Debug)]
pub struct Recorder {
    clock: Clock,
    mode: Option<Mode>,
    ops: Vec<Issued>,
    /// Timing events, reused across recordings.
    pool: Vec<CUevent>,
    /// Why CUPTI is not used, if it is not.
    pub cupti_unavailable: Option<String>,
    /// Whether the op being issued pushed its tag (popped once it is noted or fails).
    tagged: bool,
    /// The learner's line issuing ops now (`Recording::set_source_line`).
    pub source_line: Option<u32>,
}

impl Recorder {
    /// A recorder; `cupti_unavailable` is `None` when CUPTI may be used.
    pub fn new(cupti_unavailable: Option<String>) -> Recorder {
        Recorder {
            clock: Clock {
                origin: Instant::now(),
                cupti_origin_ns: 0,
            },
            mode: None,
            ops: Vec::new(),
            pool: Vec::new(),
            cupti_unavailable,
            tagged: false,
            source_line: None,
        }
    }

    /// Microseconds since the origin.
    pub fn now_us(&self) -> f64 {
        self.clock.origin.elapsed().as_secs_f64() * 1e6
    }

    /// Called right before an op's driver call while recording: returns the issue time and,
    /// with CUPTI, tags the call with the op's index so that its records find it by
    /// correlation id, whatever records are dropped or added around it.
    pub(crate) fn before_issue(&mut self) -> f64 {
        self.untag(); // a call that failed left its tag
        if let Some(Mode::Cupti) = self.mode {
            self.tagged = cupti::tag(self.ops.len() as u64);
        }
        self.now_us()
    }

    fn untag(&mut self) {
        if std::mem::take(&mut self.tagged) {
            cupti::untag();
        }
    }

    /// Whether a recording is open (the hot path checks this and nothing else).
    pub fn recording(&self) -> bool {
        self.mode.is_some()
    }

    /// Open a recording (the device is idle). Tries CUPTI first, unless it failed before;
    /// `warm_up` issues and waits for a few tiny ops so that CUPTI's lazy set-up happens before
    /// the origin rather than inside the first timed ops.
    pub(crate) fn begin(
        &mut self,
        ctx: CUcontext,
        warm_up: impl FnOnce() -> Result<(), GpuError>,
    ) -> Result<(), GpuError> {
        self.release_pending();
        if self.cupti_unavailable.is_none() {
            match cupti::start(ctx) {
                Ok(()) => {
                    warm_up()?;
                    let origin = cupti::discard().map_err(|m| GpuError::Driver {
                        call: "CUPTI".into(),
                        message: m,
                    })?;
                    self.clock = Clock {
                        origin: Instant::now(),
                        cupti_origin_ns: origin,
                    };
                    self.mode = Some(Mode::Cupti);
                    return Ok(());
                }
                Err(reason) => self.cupti_unavailable = Some(reason),
            }
        }
        let origin = self.event()?;
        // SAFETY: `origin` is a live event; the null stream is the legacy default stream.
        check("cuEventRecord", unsafe {
            sys::cuEventRecord(origin, std::ptr::null_mut())
        })?;
        // SAFETY: as above; waits until the device reaches the origin, then the host clock starts.
        check("cuEventSynchronize", unsafe {
            sys::cuEventSynchronize(origin)
        })?;
        self.clock = Clock {
            origin: Instant::now(),
            cupti_origin_ns: 0,
        };
        self.mode = Some(Mode::Events { origin });
        Ok(())
    }

    /// Note an op issued in `stream` (called right after the issuing call succeeded).
    pub(crate) fn push(&mut self, stream: CUstream, mut op: Issued) -> Result<(), GpuError> {
        self.untag();
        if let Some(Mode::Events { .. }) = self.mode {
            let ev = self.event()?;
            // SAFETY: `ev` is live; `stream` is a live stream of this context (or null).
            check("cuEventRecord", unsafe { sys::cuEventRecord(ev, stream) })?;
            op.end_event = Some(ev);
        }
        self.ops.push(op);
        Ok(())
    }

    /// Close the recording (the caller has synchronised the device) and return the ops.
    pub(crate) fn end(&mut self, ctx: CUcontext) -> Result<Vec<Op>, GpuError> {
        self.untag();
        let issued = std::mem::take(&mut self.ops);
        let ops = match self.mode.take() {
            None => {
                return Err(GpuError::Invalid(
                    "timeline_end without timeline_begin".into(),
                ));
            }
            Some(Mode::Cupti) => {
                let origin = self.clock.cupti_origin_ns;
                let collected = cupti::stop(ctx).map_err(|m| GpuError::Driver {
                    call: "CUPTI".into(),
                    message: m,
                })?;
                match_records(&issued, collected, origin)
            }
            Some(Mode::Events { origin }) => {
                let ops = from_events(&issued, origin);
                self.pool.push(origin);
                ops?
            }
        };
        self.pool.extend(issued.iter().filter_map(|i| i.end_event));
        let mut ops = ops;
        ops.sort_by(|a, b| a.start_us.total_cmp(&b.start_us));
        Ok(ops)
    }

    fn release_pending(&mut self) {
        let evs: Vec<CUevent> = self.ops.drain(..).filter_map(|i| i.end_event).collect();
        self.pool.extend(evs);
        if let Some(Mode::Events { origin }) = self.mode.take() {
            self.pool.push(origin);
        }
    }

    fn event(&mut self) -> Result<CUevent, GpuError> {
        if let Some(e) = self.pool.pop() {
            return Ok(e);
        }
        let mut e: CUevent = std::ptr::null_mut();
        // SAFETY: the driver writes a new event handle (timing enabled) into `e`.
        check("cuEventCreate", unsafe {
            sys::cuEventCreate(&mut e, CUevent_flags::CU_EVENT_DEFAULT as u32)
        })?;
        Ok(e)
    }

    /// Destroy every event and detach CUPTI (the context is current). Never fails.
    pub fn destroy(&mut self) {
        self.release_pending();
        cupti::detach();
        for e in self.pool.drain(..) {
            // SAFETY: created by `cuEventCreate`, destroyed once (only when the driver exports
            // the call: this runs in the backend's Drop).
            super::symbols::cleanup(c"cuEventDestroy_v2", || unsafe {
                sys::cuEventDestroy_v2(e)
            });
        }
    }
}
