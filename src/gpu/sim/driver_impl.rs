//! [`Driver`] for the simulator: each call spends its host cost from the profile; calls naming a
//! stream queue device work (`issue.rs`, `launch.rs`, `events.rs`), allocation is `memory.rs`.

use super::SimGpu;
use crate::gpu::{
    Access, BatchCopy, DevBuf, Driver, EventId, GpuError, HostBuf, Kernel, Operand, Side,
    SrcAccessOrder, StreamId, StreamKind, UnifiedBuf, UnifiedKind,
};
use crate::report::HostMemKind;

impl Driver for SimGpu {
    fn host_alloc(&mut self, bytes: u64, kind: HostMemKind) -> Result<HostBuf, GpuError> {
        self.alloc_host(bytes, kind)
    }
    fn host_free(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.free_host(buf)
    }
    fn host_touch(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.touch_host(buf)
    }
    fn host_register(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.register_host(buf)
    }
    fn host_unregister(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.unregister_host(buf)
    }
    fn device_alloc(&mut self, bytes: u64) -> Result<DevBuf, GpuError> {
        self.alloc_device(bytes)
    }
    fn device_free(&mut self, buf: DevBuf) -> Result<(), GpuError> {
        self.free_device(buf)
    }
    fn device_alloc_async(&mut self, stream: StreamId, bytes: u64) -> Result<DevBuf, GpuError> {
        self.alloc_device_async(stream, bytes)
    }
    fn device_free_async(&mut self, stream: StreamId, buf: DevBuf) -> Result<(), GpuError> {
        self.free_device_async(stream, buf)
    }
    fn stream_query(&mut self, stream: StreamId) -> Result<bool, GpuError> {
        self.query_stream(stream)
    }
    fn event_query(&mut self, ev: EventId) -> Result<bool, GpuError> {
        self.query_event(ev)
    }
    fn event_reached(&mut self, ev: EventId) -> Result<bool, GpuError> {
        self.event_reached_now(ev)
    }
    fn stream_create(&mut self, kind: StreamKind) -> Result<StreamId, GpuError> {
        self.clock.spend(self.profile.api_call_us);
        Ok(self.streams.create(kind))
    }
    fn stream_destroy(&mut self, stream: StreamId) -> Result<(), GpuError> {
        self.clock.spend(self.profile.api_call_us);
        self.streams.destroy(stream)
    }
    fn copy_h2d_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.h2d(stream, dst, dst_off, src, src_off, bytes)
    }
    fn copy_h2d_batch_async(
        &mut self,
        stream: StreamId,
        copies: &[BatchCopy],
        order: SrcAccessOrder,
    ) -> Result<(), GpuError> {
        self.h2d_batch(stream, copies, order)
    }
    fn copy_d2h_async(
        &mut self,
        stream: StreamId,
        dst: HostBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.d2h(stream, dst, dst_off, src, src_off, bytes)
    }
    fn copy_d2d_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        dst_off: u64,
        src: DevBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.d2d(stream, (dst, dst_off), (src, src_off), bytes)
    }
    fn memset_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        off: u64,
        bytes: u64,
        byte: u8,
    ) -> Result<(), GpuError> {
        self.memset(stream, (dst, off), bytes, byte)
    }
    fn launch(
        &mut self,
        stream: StreamId,
        kernel: Kernel,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.launch_kernel(stream, kernel, buf, off, bytes)
    }
    fn launch_transform_into(
        &mut self,
        stream: StreamId,
        src: DevBuf,
        src_off: u64,
        dst: DevBuf,
        dst_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.transform_into(stream, (src, src_off), (dst, dst_off), bytes)
    }
    fn launch_spin_cycles(&mut self, stream: StreamId, cycles: u64) -> Result<(), GpuError> {
        self.spin_cycles(stream, cycles)
    }
    fn launch_spin_add(
        &mut self,
        stream: StreamId,
        cycles: u64,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.spin_add(stream, cycles, (buf, off), bytes)
    }
    fn stream_sync(&mut self, stream: StreamId) -> Result<(), GpuError> {
        self.sync_stream(stream)
    }
    fn device_sync(&mut self) -> Result<(), GpuError> {
        self.sync_device()
    }
    fn event_create(&mut self, timing: bool) -> Result<EventId, GpuError> {
        Ok(self.create_event(timing))
    }
    fn event_destroy(&mut self, ev: EventId) -> Result<(), GpuError> {
        self.destroy_event(ev)
    }
    fn event_record(&mut self, ev: EventId, stream: StreamId) -> Result<(), GpuError> {
        self.record_event(ev, stream)
    }
    fn event_sync(&mut self, ev: EventId) -> Result<(), GpuError> {
        self.sync_event(ev)
    }
    fn event_elapsed_ms(&mut self, start: EventId, end: EventId) -> Result<f32, GpuError> {
        self.elapsed_ms(start, end)
    }
    fn stream_wait_event(&mut self, stream: StreamId, ev: EventId) -> Result<(), GpuError> {
        self.wait_event(stream, ev)
    }
    fn unified_alloc(&mut self, bytes: u64, kind: UnifiedKind) -> Result<UnifiedBuf, GpuError> {
        self.alloc_unified(bytes, kind)
    }
    fn unified_free(&mut self, buf: UnifiedBuf) -> Result<(), GpuError> {
        self.free_unified(buf)
    }
    fn prefetch_async(
        &mut self,
        stream: StreamId,
        buf: UnifiedBuf,
        to: Side,
    ) -> Result<(), GpuError> {
        self.prefetch_unified(stream, buf, to)
    }
    fn launch_strided(
        &mut self,
        stream: StreamId,
        src: Operand,
        dst: Operand,
        bytes: u64,
        access: Access,
    ) -> Result<(), GpuError> {
        self.strided_kernel(stream, (src, dst), bytes, access)
    }
}
