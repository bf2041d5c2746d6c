//! Device work that stays on the device: kernels, memsets and device-to-device copies. Each is
//! modelled on the compute engine (`costs.rs` says how long it takes) and changes the contents
//! of its destination when it ends (`effects.rs`).

use super::SimGpu;
use super::contents::{Base, SPUN};
use super::costs;
use super::effects::{Effect, From, Loc};
use super::engines::Work;
use crate::gpu::{DevBuf, GpuError, Kernel, SPIN_ADD, StreamId, TRANSFORM_A, TRANSFORM_B};
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
        self.dev.get(buf.0)?.check_range("kernel", off, bytes)?;
        let to = Loc::Dev(buf, off);
        let (label, effect) = match kernel {
            Kernel::Transform { a, b } => ("transform", Effect::Transform { to, bytes, a, b }),
            // The spin kernel's values are not modelled: flag them rather than invent them.
            Kernel::Spin { .. } => (
                "spin",
                Effect::Write {
                    to,
                    bytes,
                    base: Base::Opaque(SPUN),
                },
            ),
        };
        let duration_us = costs::kernel_us(&self.profile, kernel, bytes);
        let id = self.queue_device_work(stream, label, bytes, duration_us, true)?;
        self.defer(id, effect);
        Ok(())
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
        self.dev
            .get(src.0)?
            .check_range("transform input", src_off, bytes)?;
        self.dev
            .get(dst.0)?
            .check_range("transform output", dst_off, bytes)?;
        let duration_us = costs::kernel_us(&self.profile, Kernel::TRANSFORM, bytes);
        let id = self.queue_device_work(stream, "transform", bytes, duration_us, true)?;
        let effect = Effect::TransformInto {
            to: Loc::Dev(dst, dst_off),
            from: Loc::Dev(src, src_off),
            bytes,
            a: TRANSFORM_A,
            b: TRANSFORM_B,
        };
        self.defer(id, effect);
        Ok(())
    }

    pub(super) fn spin_cycles(&mut self, stream: StreamId, cycles: u64) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        let duration_us = costs::spin_cycles_us(&self.profile, cycles);
        self.queue_device_work(stream, "spin", 0, duration_us, true)?;
        Ok(())
    }

    /// `spin(cycles, x, n)`: the wait, and `x += SPIN_ADD` in place when it ends. The op
    /// lasts the longer of the two (on a GPU the update runs beside the waiting thread).
    pub(super) fn spin_add(
        &mut self,
        stream: StreamId,
        cycles: u64,
        (buf, off): (DevBuf, u64),
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        whole_floats("spin", &[off], bytes)?;
        self.dev.get(buf.0)?.check_range("spin", off, bytes)?;
        let duration_us = costs::spin_cycles_us(&self.profile, cycles).max(costs::kernel_us(
            &self.profile,
            Kernel::TRANSFORM,
            bytes,
        ));
        let id = self.queue_device_work(stream, "spin", bytes, duration_us, true)?;
        let effect = Effect::Transform {
            to: Loc::Dev(buf, off),
            bytes,
            a: 1.0,
            b: SPIN_ADD,
        };
        self.defer(id, effect);
        Ok(())
    }

    pub(super) fn memset(
        &mut self,
        stream: StreamId,
        (dst, off): (DevBuf, u64),
        bytes: u64,
        byte: u8,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        self.dev.get(dst.0)?.check_range("memset", off, bytes)?;
        let duration_us = costs::memset_us(&self.profile, bytes);
        let id = self.queue_device_work(stream, "memset", bytes, duration_us, false)?;
        let effect = Effect::Write {
            to: Loc::Dev(dst, off),
            bytes,
            base: Base::Memset(byte),
        };
        self.defer(id, effect);
        Ok(())
    }

    pub(super) fn d2d(
        &mut self,
        stream: StreamId,
        (dst, dst_off): (DevBuf, u64),
        (src, src_off): (DevBuf, u64),
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.streams.check(stream)?;
        self.dev
            .get(src.0)?
            .check_range("D2D source", src_off, bytes)?;
        self.dev
            .get(dst.0)?
            .check_range("D2D destination", dst_off, bytes)?;
        let duration_us = costs::d2d_us(&self.profile, bytes);
        let id = self.queue_device_work(stream, "d2d", bytes, duration_us, false)?;
        let effect = Effect::Copy {
            to: Loc::Dev(dst, dst_off),
            from: From::Live(Loc::Dev(src, src_off)),
            bytes,
        };
        self.defer(id, effect);
        Ok(())
    }

    /// Spend the host cost of the call (a launch or an async call) and queue the op.
    fn queue_device_work(
        &mut self,
        stream: StreamId,
        label: &'static str,
        bytes: u64,
        duration_us: f64,
        launch: bool,
    ) -> Result<super::engines::OpId, GpuError> {
        let call_us = if launch {
            self.profile.launch_call_us
        } else {
            self.profile.async_call_us
        };
        self.clock.spend(call_us);
        let work = Work::Kernel { duration_us };
        self.issue(stream, OpKind::Kernel, label, bytes, None, work)
    }
}
