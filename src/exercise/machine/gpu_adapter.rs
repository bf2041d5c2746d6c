//! [`Machine`] on `&mut dyn Gpu`: forwards what the `Gpu` trait offers today; the primitives it
//! lacks answer [`MachineError::Missing`] with their contract name. When they land on `Gpu`,
//! each `missing(...)` line below becomes a one-line forward.

use super::{EventId, MResult, Machine, MachineError};
use crate::gpu::{DevBuf, DeviceInfo, Gpu, HostBuf, StreamId, StreamKind, fill_pattern_f32};
use crate::report::{HostMemKind, Op};

/// Floats read per call when checking output: bounded memory whatever the buffer size.
const CHECK_CHUNK: usize = 1 << 16;

/// An exercise machine on a real backend (live GPU or simulator).
pub struct GpuMachine<'a> {
    pub gpu: &'a mut dyn Gpu,
}

fn missing<T>(name: &'static str) -> MResult<T> {
    Err(MachineError::Missing(name))
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
    fn host_write_f32(&mut self, _: HostBuf, _: u64, _: f32) -> MResult<()> {
        missing("host_write_f32")
    }
    fn host_copy(&mut self, _: HostBuf, _: u64, _: HostBuf, _: u64, _: u64) -> MResult<()> {
        missing("host_copy")
    }
    /// Reads the floats back through `host_read_f32s` (a real read of the backend's data).
    fn host_holds_transform_of_fill(
        &mut self,
        buf: HostBuf,
        off: u64,
        bytes: u64,
        seed: u32,
    ) -> MResult<bool> {
        let (first, count) = (off / 4, bytes / 4);
        let mut chunk = vec![0.0f32; CHECK_CHUNK];
        let mut done = 0u64;
        while done < count {
            let len = (count - done).min(CHECK_CHUNK as u64) as usize;
            self.gpu
                .host_read_f32s(buf, first + done, &mut chunk[..len])?;
            for (i, got) in chunk[..len].iter().enumerate() {
                let want = super::super::transform_value(fill_pattern_f32(seed, done + i as u64));
                if got.to_bits() != want.to_bits() {
                    return Ok(false);
                }
            }
            done += len as u64;
        }
        Ok(true)
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
        _: StreamId,
        _: DevBuf,
        _: u64,
        _: DevBuf,
        _: u64,
        _: u64,
    ) -> MResult<()> {
        missing("copy_d2d_async")
    }
    fn memset_async(&mut self, _: StreamId, _: DevBuf, _: u64, _: u64, _: u8) -> MResult<()> {
        missing("memset_async")
    }
    fn launch_transform_into(
        &mut self,
        _: StreamId,
        _: DevBuf,
        _: u64,
        _: DevBuf,
        _: u64,
        _: u64,
    ) -> MResult<()> {
        missing("launch_transform_into")
    }
    fn launch_spin_cycles(&mut self, _: StreamId, _: u64) -> MResult<()> {
        missing("launch_spin_cycles")
    }
    fn event_create(&mut self, _: bool) -> MResult<EventId> {
        missing("event_create")
    }
    fn event_destroy(&mut self, _: EventId) -> MResult<()> {
        missing("event_destroy")
    }
    fn event_record(&mut self, _: EventId, _: StreamId) -> MResult<()> {
        missing("event_record")
    }
    fn event_sync(&mut self, _: EventId) -> MResult<()> {
        missing("event_sync")
    }
    fn event_elapsed_ms(&mut self, _: EventId, _: EventId) -> MResult<f32> {
        missing("event_elapsed_ms")
    }
    fn stream_wait_event(&mut self, _: StreamId, _: EventId) -> MResult<()> {
        missing("stream_wait_event")
    }
    fn host_now_us(&mut self) -> f64 {
        self.gpu.host_now_us()
    }
    fn host_busy_us(&mut self, _: f64) -> MResult<()> {
        missing("host_busy_us")
    }
    fn timeline_begin(&mut self) -> MResult<()> {
        Ok(self.gpu.timeline_begin()?)
    }
    fn timeline_end(&mut self) -> MResult<Vec<Op>> {
        Ok(self.gpu.timeline_end()?)
    }
}
