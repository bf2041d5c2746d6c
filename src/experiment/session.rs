//! A guard around the backend for one experiment: it remembers every buffer and stream the
//! experiment creates and frees them on every path (success, error, cancel), and it records host
//! API calls on the host lane of the timeline being recorded.

use std::ops::{Deref, DerefMut};

use crate::gpu::{DevBuf, Gpu, GpuError, HostBuf, StreamId, StreamKind};
use crate::report::{HostMemKind, Op, OpKind};

/// The backend plus everything this experiment has allocated.
pub struct Session<'g> {
    gpu: &'g mut dyn Gpu,
    host: Vec<HostBuf>,
    dev: Vec<DevBuf>,
    streams: Vec<StreamId>,
    /// Host-lane ops of the timeline being recorded (`None` when none is).
    host_ops: Option<Vec<Op>>,
}

impl<'g> Session<'g> {
    pub fn new(gpu: &'g mut dyn Gpu) -> Self {
        Session {
            gpu,
            host: Vec::new(),
            dev: Vec::new(),
            streams: Vec::new(),
            host_ops: None,
        }
    }

    /// Allocate a host buffer that is freed when the session ends.
    pub fn host(&mut self, bytes: u64, kind: HostMemKind) -> Result<HostBuf, GpuError> {
        let buf = self.gpu.host_alloc(bytes, kind)?;
        self.host.push(buf);
        Ok(buf)
    }

    /// Allocate a device buffer that is freed when the session ends.
    pub fn device(&mut self, bytes: u64) -> Result<DevBuf, GpuError> {
        let buf = self.gpu.device_alloc(bytes)?;
        self.dev.push(buf);
        Ok(buf)
    }

    /// Create a stream that is destroyed when the session ends.
    pub fn stream(&mut self, kind: StreamKind) -> Result<StreamId, GpuError> {
        let s = self.gpu.stream_create(kind)?;
        self.streams.push(s);
        Ok(s)
    }

    /// Free a host buffer now.
    pub fn free_host(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.host.retain(|b| *b != buf);
        self.gpu.host_free(buf)
    }

    /// Free a device buffer now.
    pub fn free_device(&mut self, buf: DevBuf) -> Result<(), GpuError> {
        self.dev.retain(|b| *b != buf);
        self.gpu.device_free(buf)
    }

    /// Start recording a timeline; host calls made through [`Session::call`] join it.
    pub fn begin(&mut self) -> Result<(), GpuError> {
        self.gpu.timeline_begin()?;
        self.host_ops = Some(Vec::new());
        Ok(())
    }

    /// Stop recording and return device and host ops on one origin, sorted by start.
    pub fn end(&mut self) -> Result<Vec<Op>, GpuError> {
        let host = self.host_ops.take().unwrap_or_default();
        let mut ops = self.gpu.timeline_end()?;
        ops.extend(host);
        ops.sort_by(|a, b| a.start_us.total_cmp(&b.start_us));
        Ok(ops)
    }

    /// Make one host API call, timing it with the host clock; while a timeline is recorded the
    /// call appears on the host lane as `label`. Returns the call's (start, end) in microseconds.
    pub fn call(
        &mut self,
        stream: StreamId,
        label: &str,
        f: impl FnOnce(&mut dyn Gpu) -> Result<(), GpuError>,
    ) -> Result<(f64, f64), GpuError> {
        let t0 = self.gpu.host_now_us();
        f(&mut *self.gpu)?;
        let t1 = self.gpu.host_now_us();
        if let Some(ops) = self.host_ops.as_mut() {
            ops.push(host_op(stream, t0, t1, label));
        }
        Ok((t0, t1))
    }

    /// Free everything still held, reporting the first failure (the rest are still freed).
    pub fn finish(mut self) -> Result<(), GpuError> {
        self.release()
    }

    fn release(&mut self) -> Result<(), GpuError> {
        // Finish queued work first: freeing memory a copy still uses is undefined behaviour.
        let mut first = self.gpu.device_sync().err();
        let mut keep = |r: Result<(), GpuError>| {
            if let Err(e) = r {
                first.get_or_insert(e);
            }
        };
        for s in std::mem::take(&mut self.streams) {
            keep(self.gpu.stream_destroy(s));
        }
        for d in std::mem::take(&mut self.dev) {
            keep(self.gpu.device_free(d));
        }
        for h in std::mem::take(&mut self.host) {
            keep(self.gpu.host_free(h));
        }
        first.map_or(Ok(()), Err)
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        // Error paths: best effort; the error that got us here is the one worth reporting.
        let _ = self.release();
    }
}

impl<'g> Deref for Session<'g> {
    type Target = dyn Gpu + 'g;
    fn deref(&self) -> &Self::Target {
        &*self.gpu
    }
}

impl DerefMut for Session<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut *self.gpu
    }
}

/// A host-lane op: an API call from its issue to its return.
pub fn host_op(stream: StreamId, start_us: f64, end_us: f64, label: &str) -> Op {
    Op {
        stream: stream.0,
        kind: OpKind::Host,
        start_us,
        end_us,
        bytes: 0,
        host_mem: None,
        engine: None,
        start_inferred: false,
        line: None,
        label: label.to_string(),
    }
}

/// Device ops only (copies and kernels), in start order.
pub fn device_ops(ops: &[Op]) -> impl Iterator<Item = &Op> {
    ops.iter().filter(|o| o.kind != OpKind::Host)
}

/// From the first device op's start to the last one's end, in microseconds (0 if none).
pub fn device_span_us(ops: &[Op]) -> f64 {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for o in device_ops(ops) {
        lo = lo.min(o.start_us);
        hi = hi.max(o.end_us);
    }
    if hi > lo { hi - lo } else { 0.0 }
}

/// Whether any two device ops of one stream overlap in time (they must not: streams are in order).
pub fn same_stream_overlap(ops: &[Op]) -> Option<String> {
    let mut dev: Vec<&Op> = device_ops(ops).collect();
    dev.sort_by(|a, b| {
        (a.stream, a.start_us)
            .partial_cmp(&(b.stream, b.start_us))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    dev.windows(2).find_map(|w| {
        let (a, b) = (w[0], w[1]);
        // A small tolerance absorbs timestamp rounding on real hardware.
        (a.stream == b.stream && b.start_us + 0.5 < a.end_us).then(|| {
            format!(
                "stream {}: `{}` starts at {:.1} us before `{}` ends at {:.1} us",
                a.stream, b.label, b.start_us, a.label, a.end_us
            )
        })
    })
}
