//! Managed and mapped memory in the model (`unified/costs.rs` says what each step costs).
//!
//! A managed buffer records, per fault block, which side holds it. Residency changes in issue
//! order: a kernel or prefetch issued now is charged for the blocks that lie on the other side
//! after everything issued before it, which is the order the one stream of the `alternatives`
//! experiment runs them in (two streams touching one managed buffer at once are not modelled).
//! A GPU fault is device time inside the kernel; a host fault is host time inside the host's
//! read. `cuMemPrefetchAsync` is a copy on the copy engine of its direction, of the blocks not
//! yet on the target side. Mapped buffers never move; each kernel pass crosses the link.

use super::SimGpu;
use super::contents::Contents;
use super::costs::Dir;
use super::effects::{Effect, Loc};
use super::engines::Work;
use crate::gpu::{
    Access, GpuError, HostView, Operand, Side, StreamId, TRANSFORM_A, TRANSFORM_B, UnifiedBuf,
    UnifiedKind,
};
use crate::report::OpKind;

mod costs;

use costs::Place;

/// One managed or mapped buffer.
#[derive(Debug)]
pub(super) struct UnifiedEntry {
    pub(super) contents: Contents,
    kind: UnifiedKind,
    /// Per fault block, whether the device holds it (always false for mapped memory).
    on_device: Vec<bool>,
}

impl UnifiedEntry {
    /// Move the `blocks` to `side`; how many had to move.
    fn migrate(&mut self, blocks: &[u64], side: Side) -> u64 {
        let want = side == Side::Device;
        let mut moved = 0;
        for &b in blocks {
            if let Some(slot) = self.on_device.get_mut(b as usize)
                && *slot != want
            {
                *slot = want;
                moved += 1;
            }
        }
        moved
    }
}

impl SimGpu {
    fn unified_ready(&self) -> Result<(), GpuError> {
        let missing = costs::missing_fields(&self.profile);
        if missing.is_empty() {
            return Ok(());
        }
        Err(GpuError::Invalid(format!(
            "the profile '{}' has no figures for managed and mapped memory ({}); use the \
             built-in h200 profile or add the fields (assets/profiles/h200.toml has them)",
            crate::sanitize::clean_line(&self.profile.name),
            missing.join(", ")
        )))
    }

    pub(super) fn alloc_unified(
        &mut self,
        bytes: u64,
        kind: UnifiedKind,
    ) -> Result<UnifiedBuf, GpuError> {
        self.unified_ready()?;
        if bytes == 0 {
            return Err(GpuError::Invalid(
                "cannot allocate 0 bytes of managed or mapped memory; ask for at least one byte"
                    .into(),
            ));
        }
        self.unified.reserve(bytes)?;
        let pinned = kind == UnifiedKind::Mapped;
        let cost = if pinned {
            // Mapped memory is pinned memory: cuMemHostAlloc pins every page.
            super::costs::host_alloc_us(&self.profile, crate::report::HostMemKind::Pinned, bytes)
        } else {
            self.profile.device_alloc_us
        };
        self.clock.spend(cost);
        let blocks = bytes.div_ceil(self.profile.managed_fault_bytes.max(4));
        let entry = UnifiedEntry {
            contents: Contents::new(bytes),
            kind,
            on_device: vec![false; usize::try_from(blocks).unwrap_or(0)],
        };
        Ok(UnifiedBuf(self.unified.insert(bytes, entry)))
    }

    pub(super) fn free_unified(&mut self, buf: UnifiedBuf) -> Result<(), GpuError> {
        let len = self.unified.get(buf.0)?.contents.len();
        // cuMemFree and cuMemFreeHost wait for the device first.
        self.sync_device()?;
        self.clock.spend(self.profile.device_free_us);
        self.unified.remove(buf.0, len)?;
        Ok(())
    }

    pub(super) fn prefetch_unified(
        &mut self,
        stream: StreamId,
        buf: UnifiedBuf,
        to: Side,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        let p = &self.profile;
        let all: Vec<u64> = {
            let e = self.unified.get(buf.0)?;
            if e.kind != UnifiedKind::Managed {
                return Err(GpuError::Invalid(
                    "cuMemPrefetchAsync takes managed memory (cudaMallocManaged); mapped memory \
                     stays on the host"
                        .into(),
                ));
            }
            (0..e.on_device.len() as u64).collect()
        };
        let block = p.managed_fault_bytes.max(4);
        let work = Work::Copy {
            dir: match to {
                Side::Device => Dir::H2d,
                Side::Host => Dir::D2h,
            },
            latency_us: p.copy_latency_us,
            bytes_per_us: costs::migrate_bytes_per_us(p),
        };
        let kind = match to {
            Side::Device => OpKind::H2d,
            Side::Host => OpKind::D2h,
        };
        let moved = self.unified.get_mut(buf.0)?.migrate(&all, to) * block;
        self.clock.spend(self.profile.async_call_us);
        self.issue(stream, kind, "prefetch", moved, None, work)?;
        self.apply_finished();
        Ok(())
    }

    /// Where `op` lives for the kernel, after faulting `blocks` of it over if it is managed;
    /// the faults' device time.
    fn place_for_kernel(&mut self, op: Operand, blocks: &[u64]) -> Result<(Place, f64), GpuError> {
        let Operand::Unified(u) = op else {
            return Ok((Place::DeviceMemory, 0.0));
        };
        let e = self.unified.get_mut(u.0)?;
        Ok(match e.kind {
            UnifiedKind::Mapped => (Place::Mapped, 0.0),
            UnifiedKind::Managed => {
                let faults = e.migrate(blocks, Side::Device);
                let p = &self.profile;
                (
                    Place::DeviceMemory,
                    costs::faults_us(p, faults, p.managed_gpu_fault_us),
                )
            }
        })
    }

    fn operand_loc(&self, op: Operand, bytes: u64, what: &str) -> Result<Loc, GpuError> {
        let (len, loc) = match op {
            Operand::Dev(d) => (self.dev.get(d.0)?.len(), Loc::Dev(d, 0)),
            Operand::Unified(u) => (self.unified.get(u.0)?.contents.len(), Loc::Unified(u, 0)),
        };
        if bytes > len {
            return Err(GpuError::Invalid(format!(
                "{what} of {bytes} bytes is larger than its {len}-byte buffer"
            )));
        }
        Ok(loc)
    }

    pub(super) fn strided_kernel(
        &mut self,
        stream: StreamId,
        (src, dst): (Operand, Operand),
        bytes: u64,
        access: Access,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        self.unified_ready()?;
        if access.stride == 0 || access.passes == 0 || src == dst {
            return Err(GpuError::Invalid(
                "the strided kernel needs a stride and a pass count of at least 1, and an \
                 output apart from its input"
                    .into(),
            ));
        }
        let from = self.operand_loc(src, bytes, "strided input")?;
        let to = self.operand_loc(dst, bytes, "strided output")?;
        let blocks = costs::blocks_touched(&self.profile, bytes, access);
        let (src_place, src_faults) = self.place_for_kernel(src, &blocks)?;
        let (dst_place, dst_faults) = self.place_for_kernel(dst, &blocks)?;
        let body = costs::strided_kernel_us(&self.profile, bytes, access, [src_place, dst_place]);
        self.clock.spend(self.profile.launch_call_us);
        let work = Work::Kernel {
            duration_us: body + src_faults + dst_faults,
        };
        let id = self.issue(stream, OpKind::Kernel, "strided", bytes, None, work)?;
        self.defer(
            id,
            Effect::Strided {
                to,
                from,
                bytes,
                stride: access.stride,
                consts: (TRANSFORM_A, TRANSFORM_B),
            },
        );
        Ok(())
    }

    pub(super) fn fill_unified(&mut self, buf: UnifiedBuf, seed: u32) -> Result<(), GpuError> {
        self.catch_up()?;
        let e = self.unified.get_mut(buf.0)?;
        let all: Vec<u64> = (0..e.on_device.len() as u64).collect();
        e.migrate(&all, Side::Host);
        e.contents.fill(seed);
        Ok(())
    }

    pub(super) fn sum_strided(
        &mut self,
        view: HostView,
        bytes: u64,
        stride: u64,
    ) -> Result<f64, GpuError> {
        self.unified_ready()?;
        self.catch_up()?;
        let access = Access {
            stride: stride.max(1),
            passes: 1,
        };
        let blocks = costs::blocks_touched(&self.profile, bytes, access);
        let (sum, faults) = match view {
            HostView::Host(h) => (self.host.get(h.0)?.contents.strided_sum(bytes, stride)?, 0),
            HostView::Unified(u) => {
                let e = self.unified.get_mut(u.0)?;
                let faults = e.migrate(&blocks, Side::Host);
                (e.contents.strided_sum(bytes, stride)?, faults)
            }
        };
        let p = &self.profile;
        let cost = costs::faults_us(p, faults, p.managed_host_fault_us)
            + costs::host_sum_us(p, access.touched(bytes));
        self.clock.spend(cost);
        Ok(sum)
    }
}
