//! Timing one kind of copy, repeated: the building block of the bandwidth experiments.
//!
//! Pinned (and write-combined, registered) copies are timed on the device, from the timeline's
//! start and end of each copy, as event- or CUPTI-based tools do (nvbandwidth, bandwidthTest).
//! Pageable copies are timed with the host stopwatch from the call to the end of the stream
//! sync, as bandwidthTest does: the host's staging copy *is* part of what a pageable copy costs.
//! No timeline is recorded while they are timed (no CUPTI subscriber is attached).

use crate::gpu::{DevBuf, Gpu, GpuError, HostBuf, StreamId};
use crate::report::{HostMemKind, OpKind};

use super::session::{Session, device_ops};

/// Which way a copy goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    H2d,
    D2h,
}

impl Dir {
    /// `h2d` / `d2h`, as in metric names.
    pub fn name(self) -> &'static str {
        match self {
            Dir::H2d => "h2d",
            Dir::D2h => "d2h",
        }
    }

    /// `H2D` / `D2H`, as in labels.
    pub fn label(self) -> &'static str {
        match self {
            Dir::H2d => "H2D",
            Dir::D2h => "D2H",
        }
    }

    fn op_kind(self) -> OpKind {
        match self {
            Dir::H2d => OpKind::H2d,
            Dir::D2h => OpKind::D2h,
        }
    }
}

/// One copy between a host buffer and a device buffer, both from offset 0.
#[derive(Debug, Clone, Copy)]
pub struct CopySpec {
    pub dir: Dir,
    pub stream: StreamId,
    pub host: HostBuf,
    pub dev: DevBuf,
    pub kind: HostMemKind,
    pub bytes: u64,
}

impl CopySpec {
    /// Issue the copy (asynchronous where the driver makes it so).
    pub fn issue(&self, gpu: &mut dyn Gpu) -> Result<(), GpuError> {
        match self.dir {
            Dir::H2d => gpu.copy_h2d_async(self.stream, self.dev, 0, self.host, 0, self.bytes),
            Dir::D2h => gpu.copy_d2h_async(self.stream, self.host, 0, self.dev, 0, self.bytes),
        }
    }

    /// Issue it `reps` times, each followed by a stream sync, and return each copy's time in
    /// microseconds: device time for page-locked memory (one recording for all reps), the host
    /// stopwatch for pageable memory, with nothing recording, because an attached CUPTI
    /// subscriber slows every driver call and the host stopwatch would time that too.
    pub fn time(&self, s: &mut Session, reps: u32) -> Result<Vec<f64>, GpuError> {
        if self.kind == HostMemKind::Pageable {
            return self.host_times(s, reps);
        }
        s.begin()?;
        let host_times = self.host_times(s, reps)?;
        let ops = s.end()?;
        let device: Vec<f64> = device_ops(&ops)
            .filter(|o| o.kind == self.dir.op_kind())
            .map(|o| o.duration_us())
            .collect();
        // A backend that splits copies differently cannot be matched op for op: fall back to
        // the host stopwatch rather than guess.
        Ok(if device.len() == reps as usize {
            device
        } else {
            host_times
        })
    }

    /// Each of `reps` copies timed by the host, from the call to the end of the stream sync.
    fn host_times(&self, s: &mut Session, reps: u32) -> Result<Vec<f64>, GpuError> {
        let mut times = Vec::with_capacity(reps as usize);
        for _ in 0..reps {
            let t0 = s.host_now_us();
            self.issue(&mut **s)?;
            s.stream_sync(self.stream)?;
            times.push(s.host_now_us() - t0);
        }
        Ok(times)
    }
}
