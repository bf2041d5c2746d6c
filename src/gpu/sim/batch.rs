//! `cuMemcpyBatchAsync` in the model: one call's host cost for the whole batch, then each copy
//! queued on the stream as its own device op (the engines serve them one after another, which is
//! one of the orders the driver may choose: copies in a batch have no order among themselves).
//!
//! The source access order decides when the source is read: at the call under
//! `DuringApiCall` (the host waits until the batch has run, the plainest reading of "all
//! accesses must be complete before the API call returns"), when the copy runs under `Stream`
//! and `Any` (`Any` allows later reads too; reading at run time is one of its outcomes). A
//! pageable source is refused: what the driver does with one under each order is what
//! probes/batched-copies.cu asks the H200, and the model waits for its answer.

use super::SimGpu;
use super::costs::{self, Dir};
use super::effects::{Effect, From, Loc};
use super::engines::{Pacing, Work};
use crate::gpu::{BatchCopy, GpuError, LEGACY_STREAM_REFUSED, SrcAccessOrder, StreamId};
use crate::report::{HostMemKind, OpKind};

impl SimGpu {
    pub(super) fn h2d_batch(
        &mut self,
        stream: StreamId,
        copies: &[BatchCopy],
        order: SrcAccessOrder,
    ) -> Result<(), GpuError> {
        const CALL: &str = "cuMemcpyBatchAsync";
        self.streams.check(stream)?;
        if stream == StreamId::LEGACY_DEFAULT {
            self.clock.spend(self.profile.api_call_us);
            return Err(GpuError::Driver {
                call: CALL.into(),
                message: LEGACY_STREAM_REFUSED.into(),
            });
        }
        if copies.is_empty() {
            return Err(GpuError::Invalid(
                "a batched copy needs at least one copy".into(),
            ));
        }
        let kinds = self.batch_sources(copies)?;
        let p = &self.profile;
        let call_us = p.batch_call_us + p.batch_per_copy_us * copies.len() as f64;
        for c in copies {
            self.touch_host(c.src)?;
        }
        self.catch_up()?;
        self.clock.spend(call_us);
        let mut ids = Vec::with_capacity(copies.len());
        for (c, kind) in copies.iter().zip(kinds) {
            let src = Loc::Host(c.src, c.src_off);
            let from = match order {
                SrcAccessOrder::DuringApiCall => From::Snapshot(self.snapshot(src, c.bytes)?),
                SrcAccessOrder::Stream | SrcAccessOrder::Any => From::Live(src),
            };
            let work = Work::Copy {
                dir: Dir::H2d,
                latency_us: self.profile.batch_copy_latency_us,
                bytes_per_us: costs::copy_bytes_per_us(&self.profile, kind, Dir::H2d),
            };
            // One submission: the front end fetches the batch once, so only its first copy
            // pays the per-op cost (probes/batched-copies-h200.txt: 4096 copies of 4 KiB end
            // 310 us after the call, each 0.002-0.019 us more than its bytes).
            let mut pacing = Pacing::from_profile(&self.profile);
            if !ids.is_empty() {
                pacing.op_us = 0.0;
            }
            let id = self.issue_paced(
                stream,
                OpKind::H2d,
                "h2d batch",
                c.bytes,
                Some(kind),
                work,
                pacing,
            )?;
            self.defer(
                id,
                Effect::Copy {
                    to: Loc::Dev(c.dst, c.dst_off),
                    from,
                    bytes: c.bytes,
                },
            );
            ids.push(id);
        }
        if order == SrcAccessOrder::DuringApiCall
            && let Some(end) = self.device.wait_for(&ids)?
        {
            self.clock.wait_until(end);
        }
        self.apply_finished();
        Ok(())
    }
}

impl SimGpu {
    /// Each copy's source memory kind, every range checked inside its allocation; a pageable
    /// source is refused (not modelled).
    fn batch_sources(&self, copies: &[BatchCopy]) -> Result<Vec<HostMemKind>, GpuError> {
        let mut kinds = Vec::with_capacity(copies.len());
        for c in copies {
            let host = self.host.get(c.src.0)?;
            host.contents
                .check_range("batched H2D source", c.src_off, c.bytes)?;
            if host.kind == HostMemKind::Pageable {
                return Err(GpuError::Invalid(
                    "the simulator does not model batched copies from pageable memory yet \
                     (what the driver does is owed to probes/batched-copies.cu on the H200); \
                     use pinned memory (cudaMallocHost) or the GPU backend"
                        .into(),
                ));
            }
            kinds.push(host.kind);
            self.dev
                .get(c.dst.0)?
                .check_range("batched H2D destination", c.dst_off, c.bytes)?;
        }
        Ok(kinds)
    }
}
