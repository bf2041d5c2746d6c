//! Allocation, first touch, pinning and freeing, charged to the host clock.
//!
//! Freeing pinned or registered memory, unregistering and freeing device memory wait as the
//! rules table records the H200 did (`ordering::rules::release`: for the whole device, as
//! `cuMemFreeHost`, `cuMemHostUnregister` and `cuMemFree` did); libc's `free` waits for nothing.

use super::contents::Contents;
use super::{HostEntry, SimGpu, costs};
use crate::gpu::{DevBuf, GpuError, HostBuf};
use crate::ordering::rules;
use crate::report::HostMemKind;

fn nonzero(bytes: u64, what: &str) -> Result<(), GpuError> {
    if bytes == 0 {
        return Err(GpuError::Invalid(format!(
            "cannot allocate 0 bytes of {what} memory; ask for at least one byte"
        )));
    }
    Ok(())
}

impl SimGpu {
    pub(super) fn alloc_host(
        &mut self,
        bytes: u64,
        kind: HostMemKind,
    ) -> Result<HostBuf, GpuError> {
        nonzero(bytes, "host")?;
        self.host.reserve(bytes)?;
        let p = &self.profile;
        let mut cost = costs::host_alloc_us(p, kind, bytes);
        if kind == HostMemKind::Registered {
            // cuMemHostRegister faults every page in before locking it.
            cost += costs::first_touch_us(p, bytes) + costs::register_us(p, bytes);
        }
        self.clock.spend(cost);
        let entry = HostEntry {
            contents: Contents::new(bytes),
            kind,
            // Pinned pages are resident from the start; pageable ones on first touch.
            touched: kind != HostMemKind::Pageable,
        };
        Ok(HostBuf(self.host.insert(bytes, entry)))
    }

    pub(super) fn free_host(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        let entry = self.host.get(buf.0)?;
        let (kind, len, touched) = (entry.kind, entry.contents.len(), entry.touched);
        // Pinned (or still registered) memory goes back through cuMemFreeHost.
        let stall = self.stall(rules::release(kind != HostMemKind::Pageable), len);
        self.stall_before(stall, len)?;
        let cost = costs::host_free_us(&self.profile, kind, len, touched);
        self.clock.spend(cost);
        self.host.remove(buf.0, len)?;
        Ok(())
    }

    pub(super) fn touch_host(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        let entry = self.host.get_mut(buf.0)?;
        if !entry.touched {
            entry.touched = true;
            let len = entry.contents.len();
            self.clock.spend(costs::first_touch_us(&self.profile, len));
        }
        Ok(())
    }

    pub(super) fn register_host(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        let entry = self.host.get_mut(buf.0)?;
        if entry.kind != HostMemKind::Pageable {
            return Err(GpuError::Invalid(format!(
                "host buffer {} is {:?} memory; only pageable memory can be registered",
                buf.0, entry.kind
            )));
        }
        let len = entry.contents.len();
        let mut cost = costs::register_us(&self.profile, len);
        if !entry.touched {
            cost += costs::first_touch_us(&self.profile, len);
        }
        entry.kind = HostMemKind::Registered;
        entry.touched = true;
        self.clock.spend(cost);
        Ok(())
    }

    pub(super) fn unregister_host(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        let entry = self.host.get(buf.0)?;
        if entry.kind != HostMemKind::Registered {
            return Err(GpuError::Invalid(format!(
                "host buffer {} is {:?} memory, not registered; register it first",
                buf.0, entry.kind
            )));
        }
        let len = entry.contents.len();
        let stall = self.stall(rules::release(true), len);
        self.stall_before(stall, len)?;
        self.clock.spend(costs::unregister_us(&self.profile, len));
        self.host.get_mut(buf.0)?.kind = HostMemKind::Pageable;
        Ok(())
    }

    pub(super) fn fill_host(&mut self, buf: HostBuf, seed: u32) -> Result<(), GpuError> {
        // Writing every page is a first touch for fresh pageable memory.
        self.touch_host(buf)?;
        self.host.get_mut(buf.0)?.contents.fill(seed);
        Ok(())
    }

    pub(super) fn alloc_device(&mut self, bytes: u64) -> Result<DevBuf, GpuError> {
        nonzero(bytes, "device")?;
        self.dev.reserve(bytes)?;
        self.clock.spend(self.profile.device_alloc_us);
        let id = self.dev.insert(bytes, Contents::new(bytes));
        self.info.free_mem = self.dev.total - self.dev.used;
        Ok(DevBuf(id))
    }

    pub(super) fn free_device(&mut self, buf: DevBuf) -> Result<(), GpuError> {
        let len = self.dev.get(buf.0)?.len();
        let stall = self.stall(rules::release(true), len);
        self.stall_before(stall, len)?;
        self.clock.spend(self.profile.device_free_us);
        self.dev.remove(buf.0, len)?;
        self.info.free_mem = self.dev.total - self.dev.used;
        Ok(())
    }
}
