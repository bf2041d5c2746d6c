//! What the host waits for when a call returns, as the rules table records the H200 did it
//! (`Rule::observed` in [`crate::ordering::rules`]): the simulator asks the table and waits so,
//! and codes no wait of its own. A stall is taken in two halves around the op it belongs to:
//! staging is host work before the op is queued, a wait for the op needs the op queued.

use super::SimGpu;
use super::costs;
use super::engines::OpId;
use crate::gpu::GpuError;
use crate::ordering::rules::{Observed, Stall};

impl SimGpu {
    /// What `observed` makes the host wait for at a call moving `bytes`.
    pub(super) fn stall(&self, observed: Observed, bytes: u64) -> Stall {
        observed.stall(bytes, self.profile.pageable_async_h2d_max_bytes)
    }

    /// The half of `stall` before the op is queued: staging the source, or waiting for the
    /// whole device (a free waits before it frees).
    pub(super) fn stall_before(&mut self, stall: Stall, bytes: u64) -> Result<(), GpuError> {
        match stall {
            Stall::Staging => {
                let us = costs::pageable_staging_us(&self.profile, bytes);
                self.clock.spend(us);
                Ok(())
            }
            Stall::Device => self.sync_device(),
            Stall::None | Stall::Op => Ok(()),
        }
    }

    /// The half of `stall` after op `id` is queued: waiting for the op to complete.
    pub(super) fn stall_after(&mut self, stall: Stall, id: OpId) -> Result<(), GpuError> {
        match stall {
            Stall::Op => {
                if let Some(end) = self.device.wait_for(&[id])? {
                    self.clock.wait_until(end);
                }
                Ok(())
            }
            Stall::None | Stall::Staging | Stall::Device => Ok(()),
        }
    }
}
