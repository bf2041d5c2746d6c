//! [`Driver`] and [`Recording`] for [`CudaGpu`]: each call binds the context, checks for a
//! poisoned context, and issues the plain driver call (see the module docs of `gpu::cuda` for why
//! raw calls). Host access is `host_access.rs`, events `events.rs`.
#![allow(unsafe_code)]

use cudarc::driver::sys::{self, CUstream};

use super::error::check;
use super::memory::{DevAlloc, HostAlloc};
use super::{CudaGpu, context, ops};
use crate::gpu::{
    Access, DevBuf, DeviceInfo, Driver, EventId, Gpu, GpuError, HostBuf, Kernel, Operand,
    Recording, Side, StreamId, StreamKind, UnifiedBuf, UnifiedKind,
};
use crate::report::{HostMemKind, Op, OpKind, TimingSource};

impl Gpu for CudaGpu {
    fn info(&self) -> &DeviceInfo {
        &self.info
    }

    fn bandwidth_notes(&self, gbps: &[(&str, f64)]) -> Vec<String> {
        match &self.props.pci_bus_id {
            Some(bus) => super::pcie::explain::bandwidth_notes(bus, gbps),
            None => Vec::new(),
        }
    }
}

impl Driver for CudaGpu {
    fn host_alloc(&mut self, bytes: u64, kind: HostMemKind) -> Result<HostBuf, GpuError> {
        self.with(|g| {
            let a = HostAlloc::new(bytes, kind)?;
            let id = g.new_id();
            g.host.insert(id, a);
            Ok(HostBuf(id))
        })
    }

    fn host_free(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.with(|g| {
            // A device-visible buffer may still be the source or destination of a copy in flight
            // (a learner's program frees whenever it says). `cuMemFreeHost` waits for it on the
            // drivers measured, but CUDA does not promise that: wait here, as the simulator does,
            // so that no copy engine ever touches freed memory (the SAFETY of `ops::copy`).
            if g.host_buf(buf)?.kind != HostMemKind::Pageable {
                context::synchronize()?;
            }
            g.host.remove(&buf.0);
            Ok(())
        })
    }

    fn host_touch(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.with(|g| {
            g.host_buf(buf)?.touch();
            Ok(())
        })
    }

    fn host_register(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        self.with(|g| g.host_buf(buf)?.register())
    }

    fn host_unregister(&mut self, buf: HostBuf) -> Result<(), GpuError> {
        // As in `host_free`: no copy may still use the bytes once they are pageable again.
        self.with(|g| {
            g.host_buf(buf)?;
            context::synchronize()?;
            g.host_buf(buf)?.unregister()
        })
    }

    fn device_alloc(&mut self, bytes: u64) -> Result<DevBuf, GpuError> {
        self.with(|g| {
            let a = DevAlloc::new(bytes)?;
            let id = g.new_id();
            g.dev.insert(id, a);
            Ok(DevBuf(id))
        })
    }

    fn device_free(&mut self, buf: DevBuf) -> Result<(), GpuError> {
        self.with(|g| {
            g.dev_buf(buf)?;
            g.dev.remove(&buf.0);
            Ok(())
        })
    }

    fn device_alloc_async(&mut self, stream: StreamId, bytes: u64) -> Result<DevBuf, GpuError> {
        self.with(|g| {
            let s = g.stream(stream)?;
            let a = DevAlloc::new_async(bytes, s)?;
            let id = g.new_id();
            g.dev.insert(id, a);
            Ok(DevBuf(id))
        })
    }

    fn device_free_async(&mut self, stream: StreamId, buf: DevBuf) -> Result<(), GpuError> {
        self.with(|g| {
            let s = g.stream(stream)?;
            g.dev_buf(buf)?;
            match g.dev.remove(&buf.0) {
                Some(a) => a.free_async(s),
                None => Ok(()),
            }
        })
    }

    fn stream_query(&mut self, stream: StreamId) -> Result<bool, GpuError> {
        self.with(|g| {
            let s = g.stream(stream)?;
            // SAFETY: `s` is a live stream of this context, or null (legacy default stream).
            let rc = unsafe { sys::cuStreamQuery(s) };
            if rc == sys::CUresult::CUDA_ERROR_NOT_READY {
                return Ok(false);
            }
            check("cuStreamQuery", rc).map(|()| true)
        })
    }

    fn event_query(&mut self, ev: EventId) -> Result<bool, GpuError> {
        self.with(|g| g.query_event(ev))
    }

    fn stream_create(&mut self, kind: StreamKind) -> Result<StreamId, GpuError> {
        self.with(|g| {
            let flags = match kind {
                StreamKind::Blocking => 0, // CU_STREAM_DEFAULT
                StreamKind::NonBlocking => sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32,
            };
            let mut s: CUstream = std::ptr::null_mut();
            // SAFETY: the driver writes a new stream handle into `s`.
            check("cuStreamCreate", unsafe {
                sys::cuStreamCreate(&mut s, flags)
            })?;
            let id = g.new_id();
            g.streams.insert(id, s);
            Ok(StreamId(id))
        })
    }

    fn stream_destroy(&mut self, stream: StreamId) -> Result<(), GpuError> {
        self.with(|g| {
            if stream == StreamId::LEGACY_DEFAULT {
                return Err(GpuError::Invalid(
                    "the legacy default stream cannot be destroyed".into(),
                ));
            }
            let s = g.stream(stream)?;
            g.streams.remove(&stream.0);
            // SAFETY: created by `cuStreamCreate`; removed from the table so destroyed once.
            check("cuStreamDestroy", unsafe { sys::cuStreamDestroy_v2(s) })
        })
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
        self.with(|g| g.copy(OpKind::H2d, stream, dst, dst_off, src, src_off, bytes))
    }

    fn copy_h2d_batch_async(
        &mut self,
        stream: StreamId,
        copies: &[crate::gpu::BatchCopy],
        order: crate::gpu::SrcAccessOrder,
    ) -> Result<(), GpuError> {
        self.with(|g| g.copy_batch(stream, copies, order))
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
        self.with(|g| g.copy(OpKind::D2h, stream, src, src_off, dst, dst_off, bytes))
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
        self.with(|g| g.copy_d2d(stream, (dst, dst_off), (src, src_off), bytes))
    }

    fn memset_async(
        &mut self,
        stream: StreamId,
        dst: DevBuf,
        off: u64,
        bytes: u64,
        byte: u8,
    ) -> Result<(), GpuError> {
        self.with(|g| g.memset(stream, (dst, off), bytes, byte))
    }

    fn launch(
        &mut self,
        stream: StreamId,
        kernel: Kernel,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.with(|g| g.launch_kernel(stream, kernel, buf, off, bytes))
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
        self.with(|g| g.transform_into(stream, (src, src_off), (dst, dst_off), bytes))
    }

    fn launch_spin_cycles(&mut self, stream: StreamId, cycles: u64) -> Result<(), GpuError> {
        self.with(|g| g.spin_cycles(stream, cycles))
    }

    fn launch_spin_add(
        &mut self,
        stream: StreamId,
        cycles: u64,
        buf: DevBuf,
        off: u64,
        bytes: u64,
    ) -> Result<(), GpuError> {
        self.with(|g| g.spin_add(stream, cycles, (buf, off), bytes))
    }

    fn stream_sync(&mut self, stream: StreamId) -> Result<(), GpuError> {
        self.with(|g| {
            let s = g.stream(stream)?;
            // SAFETY: `s` is a live stream of this context, or null (legacy default stream).
            check("cuStreamSynchronize", unsafe {
                sys::cuStreamSynchronize(s)
            })
        })
    }

    fn device_sync(&mut self) -> Result<(), GpuError> {
        self.with(|_| context::synchronize())
    }

    fn event_create(&mut self, timing: bool) -> Result<EventId, GpuError> {
        self.with(|g| g.create_event(timing))
    }

    fn event_destroy(&mut self, ev: EventId) -> Result<(), GpuError> {
        self.with(|g| g.destroy_event(ev))
    }

    fn event_record(&mut self, ev: EventId, stream: StreamId) -> Result<(), GpuError> {
        self.with(|g| g.record_event(ev, stream))
    }

    fn event_sync(&mut self, ev: EventId) -> Result<(), GpuError> {
        self.with(|g| g.sync_event(ev))
    }

    fn event_elapsed_ms(&mut self, start: EventId, end: EventId) -> Result<f32, GpuError> {
        self.with(|g| g.elapsed_ms(start, end))
    }

    fn stream_wait_event(&mut self, stream: StreamId, ev: EventId) -> Result<(), GpuError> {
        self.with(|g| g.wait_event(stream, ev))
    }

    fn unified_alloc(&mut self, bytes: u64, kind: UnifiedKind) -> Result<UnifiedBuf, GpuError> {
        self.with(|g| g.unified_new(bytes, kind))
    }

    fn unified_free(&mut self, buf: UnifiedBuf) -> Result<(), GpuError> {
        self.with(|g| g.unified_drop(buf))
    }

    fn prefetch_async(
        &mut self,
        stream: StreamId,
        buf: UnifiedBuf,
        to: Side,
    ) -> Result<(), GpuError> {
        self.with(|g| g.prefetch(stream, buf, to))
    }

    fn launch_strided(
        &mut self,
        stream: StreamId,
        src: Operand,
        dst: Operand,
        bytes: u64,
        access: Access,
    ) -> Result<(), GpuError> {
        self.with(|g| g.strided(stream, (src, dst), bytes, access))
    }
}

impl Recording for CudaGpu {
    fn host_now_us(&mut self) -> f64 {
        self.recorder.now_us()
    }

    fn host_busy_us(&mut self, us: f64) {
        // A busy wait, as the exercises' `host_work` is: the host is working, not sleeping.
        let until =
            std::time::Instant::now() + std::time::Duration::from_secs_f64(us.max(0.0) / 1e6);
        while std::time::Instant::now() < until {
            std::hint::spin_loop();
        }
    }

    fn run_finished(&mut self) {
        super::cupti::detach();
    }

    fn set_source_line(&mut self, line: Option<u32>) {
        self.recorder.source_line = line;
    }

    fn timeline_begin(&mut self) -> Result<(), GpuError> {
        self.with(|g| {
            context::synchronize()?;
            if g.warm.is_none() && g.recorder.cupti_unavailable.is_none() {
                g.warm = Some((
                    HostAlloc::new(4096, HostMemKind::Pinned)?,
                    DevAlloc::new(4096)?,
                ));
            }
            let streams: Vec<CUstream> = g.streams.values().copied().collect();
            let (warm, kernels) = (&g.warm, &g.kernels);
            g.recorder.begin(g.ctx, || {
                ops::warm_up(warm.as_ref(), kernels.as_ref().ok(), &streams)
            })?;
            if g.recorder.cupti_unavailable.is_some() {
                g.info.backend.timing = TimingSource::Events;
            }
            Ok(())
        })
    }

    fn timeline_end(&mut self) -> Result<Vec<Op>, GpuError> {
        self.with(|g| {
            context::synchronize()?;
            g.recorder.end(g.ctx)
        })
    }
}
