//! Host and device allocations, owned by the backend and freed on drop.
//!
//! Raw driver calls (`cuMemHostAlloc`, `cuMemHostRegister`, `cuMemAlloc`) rather than cudarc's
//! `PinnedHostSlice`/`CudaSlice`: those carry events that make streams wait on each other per
//! buffer, which would hide the very overlap the lessons measure.
#![allow(unsafe_code)]

use std::alloc::Layout;
use std::ffi::c_void;

use cudarc::driver::sys::{self, CUresult};

use super::error::{check, map};
use super::symbols::cleanup;
use crate::gpu::GpuError;
use crate::report::HostMemKind;

/// Where a host buffer's bytes live.
#[derive(Debug)]
enum Storage {
    /// Ordinary heap memory (`alloc_zeroed`: the OS maps zero pages lazily, so first touch still
    /// costs what it costs), 4-byte aligned for `f32` access.
    Heap { ptr: *mut u8, layout: Layout },
    /// `cuMemHostAlloc` memory.
    Driver { ptr: *mut c_void },
}

/// One host buffer.
#[derive(Debug)]
pub struct HostAlloc {
    storage: Storage,
    pub bytes: u64,
    pub kind: HostMemKind,
}

fn host_free_bytes() -> u64 {
    crate::meminfo::available().unwrap_or(0)
}

fn host_oom(requested: u64) -> GpuError {
    GpuError::OutOfMemory {
        what: "host",
        requested,
        free: host_free_bytes(),
    }
}

impl HostAlloc {
    /// Allocate `bytes` of host memory of `kind` (`Registered` = heap + `cuMemHostRegister`).
    pub fn new(bytes: u64, kind: HostMemKind) -> Result<HostAlloc, GpuError> {
        let size = usize::try_from(bytes.max(4)).map_err(|_| host_oom(bytes))?;
        let storage = match kind {
            HostMemKind::Pageable | HostMemKind::Registered => {
                let layout = Layout::from_size_align(size, 4096).map_err(|_| host_oom(bytes))?;
                // SAFETY: `layout` has a non-zero size.
                let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
                if ptr.is_null() {
                    return Err(host_oom(bytes));
                }
                Storage::Heap { ptr, layout }
            }
            HostMemKind::Pinned | HostMemKind::WriteCombined => {
                let flags = if kind == HostMemKind::Pinned {
                    0 // cudaMallocHost: ordinary page-locked memory
                } else {
                    sys::CU_MEMHOSTALLOC_WRITECOMBINED
                };
                let mut ptr: *mut c_void = std::ptr::null_mut();
                // SAFETY: the driver writes the new pointer into `ptr`.
                let rc = unsafe { sys::cuMemHostAlloc(&mut ptr, size, flags) };
                if rc == CUresult::CUDA_ERROR_OUT_OF_MEMORY {
                    return Err(host_oom(bytes));
                }
                check("cuMemHostAlloc", rc)?;
                Storage::Driver { ptr }
            }
        };
        let mut alloc = HostAlloc {
            storage,
            bytes,
            kind: HostMemKind::Pageable,
        };
        if kind == HostMemKind::Registered {
            alloc.register()?;
        } else {
            alloc.kind = kind;
        }
        Ok(alloc)
    }

    /// The first byte.
    pub fn ptr(&self) -> *mut u8 {
        match self.storage {
            Storage::Heap { ptr, .. } => ptr,
            Storage::Driver { ptr } => ptr.cast(),
        }
    }

    /// Page-lock a pageable buffer (`cuMemHostRegister`, flags 0).
    pub fn register(&mut self) -> Result<(), GpuError> {
        if self.kind != HostMemKind::Pageable {
            return Err(GpuError::Invalid(format!(
                "only pageable buffers can be registered (this one is {:?})",
                self.kind
            )));
        }
        let len = self.len_usize();
        // SAFETY: `ptr .. ptr + len` is a live heap allocation owned by `self`.
        let rc = unsafe { sys::cuMemHostRegister_v2(self.ptr().cast(), len, 0) };
        if rc == CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            return Err(host_oom(self.bytes));
        }
        check("cuMemHostRegister", rc)?;
        self.kind = HostMemKind::Registered;
        Ok(())
    }

    /// Undo [`HostAlloc::register`].
    pub fn unregister(&mut self) -> Result<(), GpuError> {
        if self.kind != HostMemKind::Registered {
            return Err(GpuError::Invalid("the buffer is not registered".into()));
        }
        // SAFETY: the pointer was registered by `register`.
        check("cuMemHostUnregister", unsafe {
            sys::cuMemHostUnregister(self.ptr().cast())
        })?;
        self.kind = HostMemKind::Pageable;
        Ok(())
    }

    fn len_usize(&self) -> usize {
        usize::try_from(self.bytes.max(4)).unwrap_or(usize::MAX)
    }

    /// How many whole `f32`s the buffer holds.
    pub fn floats(&self) -> usize {
        (self.bytes / 4) as usize
    }

    /// A raw pointer to float `i`, or `None` past the last whole float. No reference is ever made
    /// to these bytes: see [`HostAlloc::read_f32`].
    fn f32_ptr(&self, i: usize) -> Option<*mut f32> {
        // SAFETY: `i < floats()`, so `i * 4 .. i * 4 + 4` lies inside the allocation.
        (i < self.floats()).then(|| unsafe { self.ptr().cast::<f32>().add(i) })
    }

    /// Float `i`, read once from memory (`None` past the last whole float).
    ///
    /// Device-visible memory (pinned, write-combined, registered) may be written by a copy engine
    /// at this very moment: a learner's racy program (the `fix-the-race` starter) reads `h_out`
    /// while the copy back is in flight, and the interpreter runs it on a live GPU by design. So
    /// the bytes are never covered by a Rust reference (`&[f32]` would promise the compiler they
    /// do not change); each float is one volatile load through a raw pointer.
    pub fn read_f32(&self, i: usize) -> Option<f32> {
        let p = self.f32_ptr(i)?;
        // SAFETY: `p` is in bounds and 4-byte aligned (page-aligned heap memory or a driver
        // allocation, plus a multiple of 4) and the allocation lives as long as `self`. This holds
        // for racy learner code too: the load is volatile through a raw pointer, so the compiler
        // neither caches nor merges it and no aliasing promise is made; a DMA write at the same
        // moment leaves old or new bytes (or a mix across floats), and every bit pattern is a valid
        // `f32`, so the worst a race gives is the wrong value the lesson is about.
        Some(unsafe { p.read_volatile() })
    }

    /// Write float `i` once (volatile, for the reasons of [`HostAlloc::read_f32`]); `false` past
    /// the last whole float.
    pub fn write_f32(&mut self, i: usize, value: f32) -> bool {
        match self.f32_ptr(i) {
            Some(p) => {
                // SAFETY: as in `read_f32`: in bounds, aligned, alive; volatile through a raw
                // pointer, so an upload reading these bytes at the same moment (a learner's
                // `fill_input` during a copy) sees old or new floats, never undefined behaviour
                // in this program.
                unsafe { p.write_volatile(value) };
                true
            }
            None => false,
        }
    }

    /// Zero the bytes after the last whole `f32` (what a fill leaves there on every backend).
    pub fn zero_tail(&mut self) {
        let whole = (self.bytes & !3) as usize;
        for i in whole..self.bytes as usize {
            // SAFETY: `i < self.bytes`, inside the allocation; volatile through a raw pointer, as
            // every host access to device-visible bytes is (see `read_f32`).
            unsafe { self.ptr().add(i).write_volatile(0) };
        }
    }

    /// Write one byte in every 4 KiB page (first touch).
    pub fn touch(&mut self) {
        let len = self.len_usize();
        let p = self.ptr();
        for off in (0..len).step_by(4096) {
            // SAFETY: `off < len`, inside the allocation; volatile so it is not optimised away.
            unsafe { p.add(off).write_volatile(0) };
        }
    }
}

impl Drop for HostAlloc {
    fn drop(&mut self) {
        // Each driver call only when the driver exports it (`symbols::cleanup`): a panic here,
        // during unwinding, would abort.
        if self.kind == HostMemKind::Registered {
            let p = self.ptr();
            // SAFETY: the pointer was registered by `register`; errors are ignored in Drop.
            cleanup(c"cuMemHostUnregister", || unsafe {
                sys::cuMemHostUnregister(p.cast())
            });
        }
        match self.storage {
            // SAFETY: allocated with exactly this layout in `new`, freed once.
            Storage::Heap { ptr, layout } => unsafe { std::alloc::dealloc(ptr, layout) },
            Storage::Driver { ptr } => {
                // SAFETY: allocated by `cuMemHostAlloc`, freed once; errors are ignored in Drop.
                cleanup(c"cuMemFreeHost", || unsafe { sys::cuMemFreeHost(ptr) });
            }
        }
    }
}

/// One device buffer (`cuMemAlloc`).
#[derive(Debug)]
pub struct DevAlloc {
    pub ptr: sys::CUdeviceptr,
    pub bytes: u64,
}

impl DevAlloc {
    /// `cuMemAlloc`; out of memory becomes [`GpuError::OutOfMemory`] with the free amount.
    pub fn new(bytes: u64) -> Result<DevAlloc, GpuError> {
        let size = usize::try_from(bytes.max(4)).map_err(|_| GpuError::OutOfMemory {
            what: "device",
            requested: bytes,
            free: 0,
        })?;
        let mut ptr: sys::CUdeviceptr = 0;
        // SAFETY: the driver writes the new device pointer into `ptr`.
        let rc = unsafe { sys::cuMemAlloc_v2(&mut ptr, size) };
        if rc == CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            let free = super::context::mem_info().map_or(0, |(f, _)| f);
            return Err(GpuError::OutOfMemory {
                what: "device",
                requested: bytes,
                free,
            });
        }
        rc.result().map_err(|e| map("cuMemAlloc", e))?;
        Ok(DevAlloc { ptr, bytes })
    }
}

impl DevAlloc {
    /// `cuMemAllocAsync` from the device's default pool, ordered in `stream`.
    // `stream` is an opaque driver handle handed back to the driver, never dereferenced here.
    #[allow(clippy::not_unsafe_ptr_arg_deref)]
    pub fn new_async(bytes: u64, stream: sys::CUstream) -> Result<DevAlloc, GpuError> {
        let size = usize::try_from(bytes.max(4)).map_err(|_| GpuError::OutOfMemory {
            what: "device",
            requested: bytes,
            free: 0,
        })?;
        let mut ptr: sys::CUdeviceptr = 0;
        // SAFETY: the driver writes the new device pointer into `ptr`; `stream` is live or null.
        let rc = unsafe { sys::cuMemAllocAsync(&mut ptr, size, stream) };
        rc.result().map_err(|e| map("cuMemAllocAsync", e))?;
        Ok(DevAlloc { ptr, bytes })
    }

    /// `cuMemFreeAsync` in `stream`; the allocation is not freed again on drop.
    // `stream` is an opaque driver handle handed back to the driver, never dereferenced here.
    #[allow(clippy::not_unsafe_ptr_arg_deref)]
    pub fn free_async(self, stream: sys::CUstream) -> Result<(), GpuError> {
        let ptr = self.ptr;
        // Freed in stream order below: Drop's synchronous cuMemFree must not run as well.
        std::mem::forget(self);
        // SAFETY: `ptr` came from the driver and is freed once, here.
        let rc = unsafe { sys::cuMemFreeAsync(ptr, stream) };
        rc.result().map_err(|e| map("cuMemFreeAsync", e))
    }
}

impl Drop for DevAlloc {
    fn drop(&mut self) {
        let ptr = self.ptr;
        // SAFETY: allocated by `cuMemAlloc`, freed once; errors are ignored in Drop.
        cleanup(c"cuMemFree_v2", || unsafe { sys::cuMemFree_v2(ptr) });
    }
}

/// Check that `off .. off + bytes` lies inside a buffer of `len` bytes.
pub fn check_range(what: &str, len: u64, off: u64, bytes: u64) -> Result<(), GpuError> {
    match off.checked_add(bytes) {
        Some(end) if end <= len => Ok(()),
        _ => Err(GpuError::Invalid(format!(
            "{what} range {off}..{off}+{bytes} is outside the {len}-byte buffer"
        ))),
    }
}
