//! Managed and mapped memory on the CUDA backend (see [`crate::gpu::UnifiedKind`]), the strided
//! kernel over them, and the host's fill and checksum of them.
//!
//! `cuMemPrefetchAsync_v2` is the CUDA 13 prototype (a `CUmemLocation` and flags; CUDA 13's
//! headers map `cuMemPrefetchAsync` to it, and probes/alternatives.cu's `cudaMemPrefetchAsync`
//! with a `cudaMemLocation` ran on the H200). A driver without these entry points is told so
//! before the first call ([`symbols::require`]), since cudarc panics on a missing one.
#![allow(unsafe_code)]

use std::ffi::c_void;

use cudarc::driver::sys::{self, CUresult};

use super::CudaGpu;
use super::error::check;
use super::memory::check_range;
use super::symbols::{self, cleanup};
use crate::gpu::{
    Access, GpuError, HostView, Operand, Side, StreamId, TRANSFORM_A, TRANSFORM_B, UnifiedBuf,
    UnifiedKind, fill_pattern_f32,
};

/// One managed or mapped allocation: its device address and the host's.
#[derive(Debug)]
pub struct UnifiedAlloc {
    kind: UnifiedKind,
    /// What kernels are given (for managed memory the same address as `host`).
    dev: sys::CUdeviceptr,
    host: *mut f32,
    bytes: u64,
}

impl UnifiedAlloc {
    fn new(bytes: u64, kind: UnifiedKind) -> Result<UnifiedAlloc, GpuError> {
        symbols::require(symbols::UNIFIED)?;
        let oom = || GpuError::OutOfMemory {
            what: "managed or mapped",
            requested: bytes,
            free: crate::meminfo::available().unwrap_or(0),
        };
        let size = usize::try_from(bytes.max(4)).map_err(|_| oom())?;
        match kind {
            UnifiedKind::Managed => {
                let mut dev: sys::CUdeviceptr = 0;
                let global = sys::CUmemAttach_flags::CU_MEM_ATTACH_GLOBAL as u32;
                // SAFETY: the driver writes the new address into `dev`.
                let rc = unsafe { sys::cuMemAllocManaged(&mut dev, size, global) };
                if rc == CUresult::CUDA_ERROR_OUT_OF_MEMORY {
                    return Err(oom());
                }
                check("cuMemAllocManaged", rc)?;
                Ok(UnifiedAlloc {
                    kind,
                    dev,
                    host: dev as *mut f32,
                    bytes,
                })
            }
            UnifiedKind::Mapped => {
                let mut host: *mut c_void = std::ptr::null_mut();
                // SAFETY: the driver writes the new pointer into `host`.
                let rc =
                    unsafe { sys::cuMemHostAlloc(&mut host, size, sys::CU_MEMHOSTALLOC_DEVICEMAP) };
                if rc == CUresult::CUDA_ERROR_OUT_OF_MEMORY {
                    return Err(oom());
                }
                check("cuMemHostAlloc", rc)?;
                let mut alloc = UnifiedAlloc {
                    kind,
                    dev: 0,
                    host: host.cast(),
                    bytes,
                };
                let mut dev: sys::CUdeviceptr = 0;
                // SAFETY: `host` was just allocated with DEVICEMAP; flags must be 0.
                check("cuMemHostGetDevicePointer", unsafe {
                    sys::cuMemHostGetDevicePointer_v2(&mut dev, host, 0)
                })?;
                alloc.dev = dev;
                Ok(alloc)
            }
        }
    }

    fn floats(&self) -> u64 {
        self.bytes / 4
    }

    /// Float `i`, which the caller has checked is below [`UnifiedAlloc::floats`].
    fn read(&self, i: u64) -> f32 {
        // SAFETY: `i` is in bounds (the caller checks), the allocation is 4-byte aligned (a
        // driver allocation) and lives as long as `self`; volatile, as `memory.rs`'s host reads,
        // so each read really touches the page (for managed memory, that is what faults it back).
        unsafe { self.host.add(i as usize).read_volatile() }
    }

    fn write(&mut self, i: u64, v: f32) {
        // SAFETY: as in `read`.
        unsafe { self.host.add(i as usize).write_volatile(v) }
    }
}

impl Drop for UnifiedAlloc {
    fn drop(&mut self) {
        match self.kind {
            // SAFETY: allocated by cuMemAllocManaged, freed once.
            UnifiedKind::Managed => {
                let dev = self.dev;
                cleanup(c"cuMemFree_v2", || unsafe { sys::cuMemFree_v2(dev) });
            }
            // SAFETY: allocated by cuMemHostAlloc, freed once.
            UnifiedKind::Mapped => {
                let host = self.host.cast::<c_void>();
                cleanup(c"cuMemFreeHost", || unsafe { sys::cuMemFreeHost(host) });
            }
        }
    }
}

impl CudaGpu {
    fn unified(&self, buf: UnifiedBuf) -> Result<&UnifiedAlloc, GpuError> {
        self.unified
            .get(&buf.0)
            .ok_or_else(|| GpuError::Invalid(format!("unknown managed or mapped buffer {}", buf.0)))
    }

    pub(super) fn unified_new(
        &mut self,
        bytes: u64,
        kind: UnifiedKind,
    ) -> Result<UnifiedBuf, GpuError> {
        let alloc = UnifiedAlloc::new(bytes, kind)?;
        let id = self.new_id();
        self.unified.insert(id, alloc);
        Ok(UnifiedBuf(id))
    }

    pub(super) fn unified_drop(&mut self, buf: UnifiedBuf) -> Result<(), GpuError> {
        self.unified(buf)?;
        // The driver frees only after the device is idle; doing it first keeps a kernel still
        // reading the buffer from reading freed memory.
        super::context::synchronize()?;
        self.unified.remove(&buf.0);
        Ok(())
    }

    pub(super) fn prefetch(
        &mut self,
        stream: StreamId,
        buf: UnifiedBuf,
        to: Side,
    ) -> Result<(), GpuError> {
        let s = self.stream(stream)?;
        let u = self.unified(buf)?;
        if u.kind != UnifiedKind::Managed {
            return Err(GpuError::Invalid(
                "cuMemPrefetchAsync takes managed memory (cudaMallocManaged); mapped memory \
                 stays on the host"
                    .into(),
            ));
        }
        let location = match to {
            Side::Device => sys::CUmemLocation {
                type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE,
                id: self.device,
            },
            Side::Host => sys::CUmemLocation {
                type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_HOST,
                id: 0,
            },
        };
        let (dev, bytes) = (u.dev, u.bytes as usize);
        // SAFETY: the symbol is exported (asked at allocation); the range is one whole live
        // managed allocation; `s` is a live stream of this context or null.
        check("cuMemPrefetchAsync", unsafe {
            sys::cuMemPrefetchAsync_v2(dev, bytes, location, 0, s)
        })
    }

    /// The device address of `bytes` of `op` (checked to lie inside it).
    fn operand_ptr(&self, what: &str, op: Operand, bytes: u64) -> Result<u64, GpuError> {
        match op {
            Operand::Dev(d) => self.dev_ptr(what, d, 0, bytes),
            Operand::Unified(u) => {
                let u = self.unified(u)?;
                check_range(what, u.bytes, 0, bytes)?;
                Ok(u.dev)
            }
        }
    }

    pub(super) fn strided(
        &mut self,
        stream: StreamId,
        (src, dst): (Operand, Operand),
        bytes: u64,
        access: Access,
    ) -> Result<(), GpuError> {
        if access.stride == 0 || access.passes == 0 {
            return Err(GpuError::Invalid(
                "the strided kernel needs a stride and a pass count of at least 1".into(),
            ));
        }
        let s = self.stream(stream)?;
        let from = self.operand_ptr("strided input", src, bytes)?;
        let to = self.operand_ptr("strided output", dst, bytes)?;
        let issue_us = self.recorder.now_us();
        self.loaded()?.launch_strided(
            s,
            (from, to),
            (bytes / 4, access),
            (TRANSFORM_A, TRANSFORM_B),
        )?;
        self.note_kernel(stream, "strided", bytes, issue_us)
    }

    pub(super) fn fill_unified(&mut self, buf: UnifiedBuf, seed: u32) -> Result<(), GpuError> {
        let u = self.unified.get_mut(&buf.0).ok_or_else(|| {
            GpuError::Invalid(format!("unknown managed or mapped buffer {}", buf.0))
        })?;
        for i in 0..u.floats() {
            u.write(i, fill_pattern_f32(seed, i));
        }
        Ok(())
    }

    pub(super) fn sum_strided(
        &mut self,
        view: HostView,
        bytes: u64,
        stride: u64,
    ) -> Result<f64, GpuError> {
        let stride = stride.max(1);
        let mut sum = 0.0f64;
        match view {
            HostView::Host(h) => {
                let h = self.host_buf(h)?;
                check_range("checksum", h.bytes, 0, bytes)?;
                for i in (0..(bytes / 4) as usize).step_by(stride as usize) {
                    sum += f64::from(h.read_f32(i).unwrap_or(f32::NAN));
                }
            }
            HostView::Unified(u) => {
                let u = self.unified(u)?;
                check_range("checksum", u.bytes, 0, bytes)?;
                for i in (0..bytes / 4).step_by(stride as usize) {
                    sum += f64::from(u.read(i));
                }
            }
        }
        Ok(sum)
    }
}
