//! Host-device copies, queueing device work, and synchronisation: the host side of issuing.
//!
//! Each call spends its API cost on the host clock, brings the device up to the host's time,
//! and queues an op behind the ops its stream must wait for. Contents change at issue (see the
//! module documentation of [`super`]).

use super::SimGpu;
use super::costs::{self, Dir};
use super::effects::{Effect, From, Loc};
use super::engines::{DevOp, Pacing, Work};
use super::scheduler::refused;
use crate::gpu::{DevBuf, GpuError, HostBuf, StreamId};
use crate::ordering::rules::{self, Way};
use crate::ordering::{Issued, OpRef};
use crate::report::{HostMemKind, OpKind};

impl SimGpu {
    pub(super) fn h2d(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        let host = self.host.get(src.0)?;
        host.contents.check_range("H2D source", src_off, bytes)?;
        let kind = host.kind;
        self.dev
            .get(dst.0)?
            .check_range("H2D destination", dst_off, bytes)?;
        self.touch_host(src)?;
        self.catch_up()?;
        let src_loc = Loc::Host(src, src_off);
        // The driver takes a pageable source before the call returns (`sim/effects.rs`).
        let from = if kind == HostMemKind::Pageable {
            From::Snapshot(self.snapshot(src_loc, bytes)?)
        } else {
            From::Live(src_loc)
        };
        let effect = Effect::Copy {
            to: Loc::Dev(dst, dst_off),
            from,
            bytes,
        };
        self.issue_copy(stream, Dir::H2d, kind, bytes, effect)
    }

    pub(super) fn d2h(
        &mut self,
        stream: StreamId,
        dst: HostBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        self.dev
            .get(src.0)?
            .check_range("D2H source", src_off, bytes)?;
        let host = self.host.get(dst.0)?;
        host.contents
            .check_range("D2H destination", dst_off, bytes)?;
        let kind = host.kind;
        self.touch_host(dst)?;
        let effect = Effect::Copy {
            to: Loc::Host(dst, dst_off),
            from: From::Live(Loc::Dev(src, src_off)),
            bytes,
        };
        self.issue_copy(stream, Dir::D2h, kind, bytes, effect)
    }

    /// Queue a copy with its effect; the host waits as the copy's rule says the H200 did
    /// (`ordering::rules`: a pageable copy is staged, or waited for).
    fn issue_copy(
        &mut self,
        stream: StreamId,
        dir: Dir,
        kind: HostMemKind,
        bytes: u64,
        effect: Effect,
    ) -> Result<(), GpuError> {
        let work = Work::Copy {
            dir,
            latency_us: costs::copy_latency_us(&self.profile, kind),
            bytes_per_us: costs::copy_bytes_per_us(&self.profile, kind, dir),
        };
        let (op_kind, label, way) = match dir {
            Dir::H2d => (OpKind::H2d, "h2d", Way::HostToDevice),
            Dir::D2h => (OpKind::D2h, "d2h", Way::DeviceToHost),
        };
        // The backend's copy is `cudaMemcpyAsync`; registered memory is pinned.
        let rule = rules::copy(false, way, kind == HostMemKind::Pageable);
        let stall = self.stall(rule.observed, bytes);
        self.clock.spend(self.profile.async_call_us);
        self.stall_before(stall, bytes)?;
        let id = self.issue(stream, op_kind, label, bytes, Some(kind), work)?;
        self.defer(id, effect);
        self.stall_after(stall, id)?;
        self.apply_finished();
        Ok(())
    }

    /// Bring the device to the host's time and queue an op on `stream`.
    pub(super) fn issue(
        &mut self,
        stream: StreamId,
        kind: OpKind,
        label: &'static str,
        bytes: u64,
        host_mem: Option<HostMemKind>,
        work: Work,
    ) -> Result<super::engines::OpId, GpuError> {
        let pacing = Pacing::from_profile(&self.profile);
        self.issue_paced(stream, kind, label, bytes, host_mem, work, pacing)
    }

    /// [`Self::issue`] with the front end's costs given (a batch's later copies skip the per-op
    /// fetch: `batch.rs`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn issue_paced(
        &mut self,
        stream: StreamId,
        kind: OpKind,
        label: &'static str,
        bytes: u64,
        host_mem: Option<HostMemKind>,
        work: Work,
        pacing: Pacing,
    ) -> Result<super::engines::OpId, GpuError> {
        let issued = self.streams.model.issue(stream.0).map_err(refused)?;
        self.queue_issued(&issued, kind, label, bytes, host_mem, work, pacing)
    }

    /// Queue on the device the op the ordering model has just issued (its direct dependencies
    /// become the device op's).
    pub(super) fn issue_as(
        &mut self,
        issued: &Issued,
        kind: OpKind,
        label: &'static str,
        bytes: u64,
        host_mem: Option<HostMemKind>,
        work: Work,
    ) -> Result<super::engines::OpId, GpuError> {
        let pacing = Pacing::from_profile(&self.profile);
        self.queue_issued(issued, kind, label, bytes, host_mem, work, pacing)
    }

    #[allow(clippy::too_many_arguments)]
    fn queue_issued(
        &mut self,
        issued: &Issued,
        kind: OpKind,
        label: &'static str,
        bytes: u64,
        host_mem: Option<HostMemKind>,
        work: Work,
        pacing: Pacing,
    ) -> Result<super::engines::OpId, GpuError> {
        self.device.advance_to(self.clock.now())?;
        self.apply_finished();
        // The stream predecessor comes first: the engines read a marker's engine from it.
        let deps = self.streams.device_ops(&issued.direct);
        let id = self.device.issue(DevOp {
            stream: issued.op.stream,
            kind,
            bytes,
            host_mem,
            label,
            work,
            deps,
            // Markers take no time and have no lane: they stay off the timeline.
            record: self.recording && !matches!(work, Work::Marker { .. }),
            pacing,
            line: self.source_line,
        });
        self.streams.issued(issued, id);
        Ok(id)
    }

    /// Wait on the host clock for the device ops behind `ops`.
    pub(super) fn wait_ops(&mut self, ops: &[OpRef]) -> Result<(), GpuError> {
        let ids = self.streams.device_ops(ops);
        if let Some(end) = self.device.wait_for(&ids)? {
            self.clock.wait_until(end);
        }
        self.apply_finished();
        Ok(())
    }

    pub(super) fn sync_stream(&mut self, stream: StreamId) -> Result<(), GpuError> {
        let ops = self.streams.model.sync_stream(stream.0).map_err(refused)?;
        self.wait_ops(&ops)?;
        self.clock.spend(self.profile.sync_call_us);
        Ok(())
    }

    pub(super) fn sync_device(&mut self) -> Result<(), GpuError> {
        let end = self.device.wait_idle()?;
        self.clock.wait_until(end);
        self.apply_finished();
        self.clock.spend(self.profile.sync_call_us);
        self.streams.model.sync_device();
        Ok(())
    }
}
