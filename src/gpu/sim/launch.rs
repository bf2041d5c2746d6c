//! Device work that stays on the device: kernels, memsets and device-to-device copies. Each is
//! modelled on the compute engine (`costs.rs` says how long it takes) and changes the contents
//! of its destination at issue.

use super::SimGpu;
use super::contents::{Base, SPUN};
use super::costs;
use super::engines::Work;
use crate::gpu::{DevBuf, GpuError, Kernel, StreamId, TRANSFORM_A, TRANSFORM_B};
use crate::report::OpKind;

/// Kernels work on whole `f32`s.
fn whole_floats(what: &str, offsets: &[u64], bytes: u64) -> Result<(), GpuError> {
    if offsets.iter().chain([&bytes]).all(|v| v.is_multiple_of(4)) {
        return Ok(());
    }
    Err(GpuError::Invalid(format!(
        "{what} range (offsets {offsets:?}, {bytes} bytes) is not made of whole f32s; use \
         multiples of 4 bytes"
    )))
}

impl SimGpu {
    pub(super) fn launch_kernel(
        &mut self,
        stream: StreamId,
        kernel: Kernel,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        whole_floats("kernel", &[off], bytes)?;
        let dev = self.dev.get_mut(buf.0)?;
        dev.check_range("kernel", off, bytes)?;
        let label = match kernel {
            Kernel::Transform { a, b } => {
                dev.transform(off, bytes, a, b);
                "transform"
            }
            // The spin kernel's values are not modelled: flag them rather than invent them.
            Kernel::Spin { .. } => {
                dev.write(off, bytes, Base::Opaque(SPUN));
                "spin"
            }
        };
        let duration_us = costs::kernel_us(&self.profile, kernel, bytes);
        self.queue_device_work(stream, label, bytes, duration_us, true)
    }

    pub(super) fn transform_into(
        &mut self,
        stream: StreamId,
        (src, src_off): (DevBuf, u64),
        (dst, dst_off): (DevBuf, u64),
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        whole_floats("transform", &[src_off, dst_off], bytes)?;
        let from = self.dev.get(src.0)?;
        from.check_range("transform input", src_off, bytes)?;
        let from = from.clone();
        let to = self.dev.get_mut(dst.0)?;
        to.check_range("transform output", dst_off, bytes)?;
        to.copy_from(dst_off, &from, src_off, bytes);
        to.transform(dst_off, bytes, TRANSFORM_A, TRANSFORM_B);
        let duration_us = costs::kernel_us(&self.profile, Kernel::TRANSFORM, bytes);
        self.queue_device_work(stream, "transform", bytes, duration_us, true)
    }

    pub(super) fn spin_cycles(&mut self, stream: StreamId, cycles: u64) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        let duration_us = costs::spin_cycles_us(&self.profile, cycles);
        self.queue_device_work(stream, "spin", 0, duration_us, true)
    }

    pub(super) fn memset(
        &mut self,
        stream: StreamId,
        (dst, off): (DevBuf, u64),
        bytes: u64,
        byte: u8,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        let to = self.dev.get_mut(dst.0)?;
        to.check_range("memset", off, bytes)?;
        to.write(off, bytes, Base::Memset(byte));
        let duration_us = costs::memset_us(&self.profile, bytes);
        self.queue_device_work(stream, "memset", bytes, duration_us, false)
    }

    pub(super) fn d2d(
        &mut self,
        stream: StreamId,
        (dst, dst_off): (DevBuf, u64),
        (src, src_off): (DevBuf, u64),
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        let from = self.dev.get(src.0)?;
        from.check_range("D2D source", src_off, bytes)?;
        let from = from.clone();
        let to = self.dev.get_mut(dst.0)?;
        to.check_range("D2D destination", dst_off, bytes)?;
        to.copy_from(dst_off, &from, src_off, bytes);
        let duration_us = costs::d2d_us(&self.profile, bytes);
        self.queue_device_work(stream, "d2d", bytes, duration_us, false)
    }

    /// Spend the host cost of the call (a launch or an async call) and queue the op.
    fn queue_device_work(
        &mut self,
        stream: StreamId,
        label: &'static str,
        bytes: u64,
        duration_us: f64,
        launch: bool,
    ) -> Result<(), GpuError> {
        let call_us = if launch {
            self.profile.launch_call_us
        } else {
            self.profile.async_call_us
        };
        self.clock.spend(call_us);
        let work = Work::Kernel { duration_us };
        self.issue(stream, OpKind::Kernel, label, bytes, None, work)?;
        Ok(())
    }
}
