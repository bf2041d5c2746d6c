//! [`Machine`] on `&mut dyn Gpu`: every primitive forwards to the backend (the live GPU through
//! cudarc, or the simulator), so an exercise runs on the same driver calls as the experiments.

use super::{EventId, MResult, Machine};
use crate::gpu::{DevBuf, DeviceInfo, Gpu, HostBuf, StreamId, StreamKind};
use crate::report::{HostMemKind, Op};

/// An exercise machine on a real backend (live GPU or simulator).
pub struct GpuMachine<'a> {
    pub gpu: &'a mut dyn Gpu,
}

impl Machine for GpuMachine<'_> {
    fn info(&self) -> &DeviceInfo {
        self.gpu.info()
    }
    fn host_alloc(&mut self, bytes: u64, kind: HostMemKind) -> MResult<HostBuf> {
        Ok(self.gpu.host_alloc(bytes, kind)?)
    }
    fn host_free(&mut self, buf: HostBuf) -> MResult<()> {
        Ok(self.gpu.host_free(buf)?)
    }
    fn host_register(&mut self, buf: HostBuf) -> MResult<()> {
        Ok(self.gpu.host_register(buf)?)
    }
    fn host_unregister(&mut self, buf: HostBuf) -> MResult<()> {
        Ok(self.gpu.host_unregister(buf)?)
    }
    fn host_fill(&mut self, buf: HostBuf, seed: u32) -> MResult<()> {
        Ok(self.gpu.host_fill(buf, seed)?)
    }
    fn host_read_f32(&mut self, buf: HostBuf, index: u64) -> MResult<f32> {
        Ok(self.gpu.host_read_f32(buf, index)?)
    }
    fn host_write_f32(&mut self, buf: HostBuf, index: u64, value: f32) -> MResult<()> {
        Ok(self.gpu.host_write_f32(buf, index, value)?)
    }
    fn host_copy(
        &mut self,
        dst: HostBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()> {
        Ok(self.gpu.host_copy(dst, dst_off, src, src_off, bytes)?)
    }
    /// The backend's exact check: every float on the live GPU, the description on the simulator.
    fn host_holds_transform_of_fill(
        &mut self,
        buf: HostBuf,
        off: u64,
        bytes: u64,
        seed: u32,
    ) -> MResult<bool> {
        Ok(self
            .gpu
            .host_holds_transform_of_fill(buf, off, bytes, seed)?)
    }
    fn device_alloc(&mut self, bytes: u64) -> MResult<DevBuf> {
        Ok(self.gpu.device_alloc(bytes)?)
    }
    fn device_free(&mut self, buf: DevBuf) -> MResult<()> {
        Ok(self.gpu.device_free(buf)?)
    }
    fn stream_create(&mut self, kind: StreamKind) -> MResult<StreamId> {
        Ok(self.gpu.stream_create(kind)?)
    }
    fn stream_destroy(&mut self, stream: StreamId) -> MResult<()> {
        Ok(self.gpu.stream_destroy(stream)?)
    }
    fn stream_sync(&mut self, stream: StreamId) -> MResult<()> {
        Ok(self.gpu.stream_sync(stream)?)
    }
    fn device_sync(&mut self) -> MResult<()> {
        Ok(self.gpu.device_sync()?)
    }
    fn copy_h2d_async(
        &mut self,
        s: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()> {
        Ok(self
            .gpu
            .copy_h2d_async(s, dst, dst_off, src, src_off, bytes)?)
    }
    fn copy_d2h_async(
        &mut self,
        s: StreamId,
        dst: HostBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()> {
        Ok(self
            .gpu
            .copy_d2h_async(s, dst, dst_off, src, src_off, bytes)?)
    }
    fn copy_d2d_async(
        &mut self,
        s: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> MResult<()> {
        Ok(self
            .gpu
            .copy_d2d_async(s, dst, dst_off, src, src_off, bytes)?)
    }
    fn memset_async(
        &mut self,
        s: StreamId,
        dst: DevBuf,
        off: u64,
        bytes: u64,
        byte: u8,
    ) -> MResult<()> {
        Ok(self.gpu.memset_async(s, dst, off, bytes, byte)?)
    }
    fn launch_transform_into(
        &mut self,
        s: StreamId,
        src: DevBuf,
        src_off: u64,
        dst: DevBuf,
        dst_off: u64,
        bytes: u64,
    ) -> MResult<()> {
        Ok(self
            .gpu
            .launch_transform_into(s, src, src_off, dst, dst_off, bytes)?)
    }
    fn launch_spin_cycles(&mut self, s: StreamId, cycles: u64) -> MResult<()> {
        Ok(self.gpu.launch_spin_cycles(s, cycles)?)
    }
    fn event_create(&mut self, timing: bool) -> MResult<EventId> {
        Ok(self.gpu.event_create(timing)?)
    }
    fn event_destroy(&mut self, ev: EventId) -> MResult<()> {
        Ok(self.gpu.event_destroy(ev)?)
    }
    fn event_record(&mut self, ev: EventId, s: StreamId) -> MResult<()> {
        Ok(self.gpu.event_record(ev, s)?)
    }
    fn event_sync(&mut self, ev: EventId) -> MResult<()> {
        Ok(self.gpu.event_sync(ev)?)
    }
    fn event_elapsed_ms(&mut self, start: EventId, end: EventId) -> MResult<f32> {
        Ok(self.gpu.event_elapsed_ms(start, end)?)
    }
    fn stream_wait_event(&mut self, s: StreamId, ev: EventId) -> MResult<()> {
        Ok(self.gpu.stream_wait_event(s, ev)?)
    }
    fn host_now_us(&mut self) -> f64 {
        self.gpu.host_now_us()
    }
    fn host_busy_us(&mut self, us: f64) -> MResult<()> {
        self.gpu.host_busy_us(us);
        Ok(())
    }
    fn timeline_begin(&mut self) -> MResult<()> {
        Ok(self.gpu.timeline_begin()?)
    }
    fn timeline_end(&mut self) -> MResult<Vec<Op>> {
        Ok(self.gpu.timeline_end()?)
    }
}
