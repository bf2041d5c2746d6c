//! The CUPTI and driver structs this library reads, declared by hand (the library has no crate
//! dependencies, so `build.rs` can compile it with a bare `rustc`), each field as cudarc's
//! generated bindings name it (`cudarc::cupti::sys`, copied from CUPTI's headers). The tests in
//! `layout_tests.rs` hold every size and offset here to those bindings, and
//! `probes/cupti-layout/` prints the same numbers from the real headers on a CUDA machine.
//!
//! Parameter structs (`cu*_params`) are whole: the callback reads them from the pointer CUPTI
//! gives, valid only inside the callback. Activity records are *heads*: only the leading fields,
//! whose offsets have stayed put across record versions (the version follows the libcupti loaded
//! at run time, not the one this was written against), so a newer record is read correctly.
#![allow(non_snake_case, non_camel_case_types)]

use core::ffi::c_void;

/// `CUdeviceptr`.
pub type DevicePtr = u64;
/// Any driver handle (`CUstream`, `CUevent`, `CUfunction`, `CUcontext`, ...) or host pointer
/// that is only recorded, never dereferenced.
pub type Handle = usize;

/// `CUpti_CallbackData`: what every API callback gets.
#[repr(C)]
pub struct CallbackData {
    pub callbackSite: u32,
    pub functionName: *const core::ffi::c_char,
    pub functionParams: *const c_void,
    pub functionReturnValue: *mut c_void,
    pub symbolName: *const core::ffi::c_char,
    pub context: Handle,
    pub contextUid: u32,
    pub correlationData: *mut u64,
    pub correlationId: u32,
}

/// Declares `#[repr(C)]` parameter structs, one line each.
macro_rules! params {
    ($($(#[$doc:meta])* $name:ident { $($field:ident: $ty:ty),* $(,)? })*) => {
        $($(#[$doc])* #[repr(C)] #[derive(Clone, Copy)] pub struct $name { $(pub $field: $ty),* })*
    };
}

params! {
    /// `cuMemcpyHtoD_v2` (and `_ptds`).
    CopyHtoD { dstDevice: DevicePtr, srcHost: Handle, ByteCount: usize }
    /// `cuMemcpyHtoDAsync_v2` (and `_ptsz`).
    CopyHtoDAsync { dstDevice: DevicePtr, srcHost: Handle, ByteCount: usize, hStream: Handle }
    /// `cuMemcpyDtoH_v2`.
    CopyDtoH { dstHost: Handle, srcDevice: DevicePtr, ByteCount: usize }
    /// `cuMemcpyDtoHAsync_v2`.
    CopyDtoHAsync { dstHost: Handle, srcDevice: DevicePtr, ByteCount: usize, hStream: Handle }
    /// `cuMemcpyDtoD_v2`.
    CopyDtoD { dstDevice: DevicePtr, srcDevice: DevicePtr, ByteCount: usize }
    /// `cuMemcpyDtoDAsync_v2`.
    CopyDtoDAsync { dstDevice: DevicePtr, srcDevice: DevicePtr, ByteCount: usize, hStream: Handle }
    /// `cuMemcpy` (unified addressing: either side may be host or device).
    CopyUnified { dst: DevicePtr, src: DevicePtr, ByteCount: usize }
    /// `cuMemcpyAsync`.
    CopyUnifiedAsync { dst: DevicePtr, src: DevicePtr, ByteCount: usize, hStream: Handle }
    /// `cuMemcpyPeer`.
    CopyPeer { dstDevice: DevicePtr, dstContext: Handle, srcDevice: DevicePtr, srcContext: Handle, ByteCount: usize }
    /// `cuMemcpyPeerAsync`.
    CopyPeerAsync { dstDevice: DevicePtr, dstContext: Handle, srcDevice: DevicePtr, srcContext: Handle, ByteCount: usize, hStream: Handle }
    /// `cuMemcpy2D_v2`, `cuMemcpy3D_v2`, `cuMemcpy3DPeer`: a descriptor (not read yet).
    CopyDesc { pCopy: Handle }
    /// Their `Async` forms.
    CopyDescAsync { pCopy: Handle, hStream: Handle }
    /// `cuMemcpyBatchAsync_v2`.
    CopyBatchAsync { dsts: Handle, srcs: Handle, sizes: Handle, count: usize, attrs: Handle, attrsIdxs: Handle, numAttrs: usize, hStream: Handle }
    /// `cuMemsetD8_v2`.
    SetD8 { dstDevice: DevicePtr, uc: u8, N: usize }
    /// `cuMemsetD8Async`.
    SetD8Async { dstDevice: DevicePtr, uc: u8, N: usize, hStream: Handle }
    /// `cuMemsetD16_v2`.
    SetD16 { dstDevice: DevicePtr, us: u16, N: usize }
    /// `cuMemsetD16Async`.
    SetD16Async { dstDevice: DevicePtr, us: u16, N: usize, hStream: Handle }
    /// `cuMemsetD32_v2`.
    SetD32 { dstDevice: DevicePtr, ui: u32, N: usize }
    /// `cuMemsetD32Async`.
    SetD32Async { dstDevice: DevicePtr, ui: u32, N: usize, hStream: Handle }
    /// `cuMemsetD2D8_v2`.
    Set2D8 { dstDevice: DevicePtr, dstPitch: usize, uc: u8, Width: usize, Height: usize }
    /// `cuMemsetD2D8Async`.
    Set2D8Async { dstDevice: DevicePtr, dstPitch: usize, uc: u8, Width: usize, Height: usize, hStream: Handle }
    /// `cuMemsetD2D16_v2`.
    Set2D16 { dstDevice: DevicePtr, dstPitch: usize, us: u16, Width: usize, Height: usize }
    /// `cuMemsetD2D16Async`.
    Set2D16Async { dstDevice: DevicePtr, dstPitch: usize, us: u16, Width: usize, Height: usize, hStream: Handle }
    /// `cuMemsetD2D32_v2`.
    Set2D32 { dstDevice: DevicePtr, dstPitch: usize, ui: u32, Width: usize, Height: usize }
    /// `cuMemsetD2D32Async`.
    Set2D32Async { dstDevice: DevicePtr, dstPitch: usize, ui: u32, Width: usize, Height: usize, hStream: Handle }
    /// `cuLaunchKernel`.
    Launch { f: Handle, gridDimX: u32, gridDimY: u32, gridDimZ: u32, blockDimX: u32, blockDimY: u32, blockDimZ: u32, sharedMemBytes: u32, hStream: Handle, kernelParams: Handle, extra: Handle }
    /// `cuLaunchCooperativeKernel`.
    LaunchCoop { f: Handle, gridDimX: u32, gridDimY: u32, gridDimZ: u32, blockDimX: u32, blockDimY: u32, blockDimZ: u32, sharedMemBytes: u32, hStream: Handle, kernelParams: Handle }
    /// `cuLaunchKernelEx`: the launch configuration behind a pointer.
    LaunchEx { config: *const LaunchConfig, f: Handle, kernelParams: Handle, extra: Handle }
    /// `CUlaunchConfig` (`cudarc::driver::sys`).
    LaunchConfig { gridDimX: u32, gridDimY: u32, gridDimZ: u32, blockDimX: u32, blockDimY: u32, blockDimZ: u32, sharedMemBytes: u32, hStream: Handle, attrs: Handle, numAttrs: u32 }
    /// `cuStreamCreate`: the new stream is written through `phStream`.
    StreamCreate { phStream: *mut Handle, Flags: u32 }
    /// `cuStreamCreateWithPriority`.
    StreamCreatePrio { phStream: *mut Handle, flags: u32, priority: i32 }
    /// `cuStreamDestroy_v2`, `cuStreamSynchronize`, `cuStreamQuery`.
    StreamHandle { hStream: Handle }
    /// `cuStreamWaitEvent`.
    StreamWaitEvent { hStream: Handle, hEvent: Handle, Flags: u32 }
    /// `cuEventCreate`.
    EventCreate { phEvent: *mut Handle, Flags: u32 }
    /// `cuEventRecord`.
    EventRecord { hEvent: Handle, hStream: Handle }
    /// `cuEventRecordWithFlags`.
    EventRecordFlags { hEvent: Handle, hStream: Handle, flags: u32 }
    /// `cuEventSynchronize`, `cuEventQuery`, `cuEventDestroy_v2`.
    EventHandle { hEvent: Handle }
    /// `cuCtxSynchronize_v2`.
    CtxSync { ctx: Handle }
    /// `cuMemAlloc_v2`.
    MemAlloc { dptr: *mut DevicePtr, bytesize: usize }
    /// `cuMemAllocPitch_v2`.
    MemAllocPitch { dptr: *mut DevicePtr, pPitch: *mut usize, WidthInBytes: usize, Height: usize, ElementSizeBytes: u32 }
    /// `cuMemAllocManaged`.
    MemAllocManaged { dptr: *mut DevicePtr, bytesize: usize, flags: u32 }
    /// `cuMemFree_v2`.
    MemFree { dptr: DevicePtr }
    /// `cuMemAllocHost_v2`.
    MemAllocHost { pp: *mut Handle, bytesize: usize }
    /// `cuMemHostAlloc`.
    MemHostAlloc { pp: *mut Handle, bytesize: usize, Flags: u32 }
    /// `cuMemFreeHost`.
    MemFreeHost { p: Handle }
    /// `cuMemHostRegister_v2`.
    MemHostRegister { p: Handle, bytesize: usize, Flags: u32 }
    /// `cuMemHostUnregister`.
    MemHostUnregister { p: Handle }
    /// `cuMemAllocAsync`.
    MemAllocAsync { dptr: *mut DevicePtr, bytesize: usize, hStream: Handle }
    /// `cuMemAllocFromPoolAsync`.
    MemAllocPoolAsync { dptr: *mut DevicePtr, bytesize: usize, pool: Handle, hStream: Handle }
    /// `cuMemFreeAsync`.
    MemFreeAsync { dptr: DevicePtr, hStream: Handle }
    /// `cuLaunchHostFunc`.
    HostFunc { hStream: Handle, fn_: Handle, userData: Handle }
}

/// Every activity record starts with its kind (`CUpti_Activity`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ActivityHead {
    pub kind: u32,
}

/// The leading fields of `CUpti_ActivityMemcpy` (versions 3 to 7).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MemcpyHead {
    pub kind: u32,
    pub copyKind: u8,
    pub srcKind: u8,
    pub dstKind: u8,
    pub flags: u8,
    pub bytes: u64,
    pub start: u64,
    pub end: u64,
    pub deviceId: u32,
    pub contextId: u32,
    pub streamId: u32,
    pub correlationId: u32,
}

/// The leading fields of `CUpti_ActivityMemset` (versions 2 to 4).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MemsetHead {
    pub kind: u32,
    pub value: u32,
    pub bytes: u64,
    pub start: u64,
    pub end: u64,
    pub deviceId: u32,
    pub contextId: u32,
    pub streamId: u32,
    pub correlationId: u32,
    pub flags: u16,
    pub memoryKind: u16,
}

/// The leading fields of `CUpti_ActivityKernel` (versions 4 to 13), through `name`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct KernelHead {
    pub kind: u32,
    pub cacheConfig: u8,
    pub sharedMemoryConfig: u8,
    pub registersPerThread: u16,
    pub partitionedGlobalCacheRequested: u32,
    pub partitionedGlobalCacheExecuted: u32,
    pub start: u64,
    pub end: u64,
    pub completed: u64,
    pub deviceId: u32,
    pub contextId: u32,
    pub streamId: u32,
    pub gridX: i32,
    pub gridY: i32,
    pub gridZ: i32,
    pub blockX: i32,
    pub blockY: i32,
    pub blockZ: i32,
    pub staticSharedMemory: i32,
    pub dynamicSharedMemory: i32,
    pub localMemoryPerThread: u32,
    pub localMemoryTotal: u32,
    pub correlationId: u32,
    pub gridId: i64,
    pub name: *const core::ffi::c_char,
}

/// The leading fields of `CUpti_ActivitySynchronization` (versions 1 and 2).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct SyncHead {
    pub kind: u32,
    pub type_: u32,
    pub start: u64,
    pub end: u64,
    pub correlationId: u32,
    pub contextId: u32,
    pub streamId: u32,
    pub cudaEventId: u32,
}

/// The leading fields of `CUpti_ActivityCudaEvent` (versions 1 and 2).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CudaEventHead {
    pub kind: u32,
    pub correlationId: u32,
    pub contextId: u32,
    pub streamId: u32,
    pub eventId: u32,
}

/// `CUpti_ActivityMarker2` (NVTX marks and ranges), through `domain`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MarkerHead {
    pub kind: u32,
    pub flags: u32,
    pub timestamp: u64,
    pub id: u32,
    pub objectKind: u32,
    /// `CUpti_ActivityObjectKindId`: a 12-byte union (process and thread id, or device ids).
    pub objectId: [u32; 3],
    pub pad: u32,
    pub name: *const core::ffi::c_char,
    pub domain: *const core::ffi::c_char,
}
