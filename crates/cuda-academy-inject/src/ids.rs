//! The numbers CUPTI names: activity kinds, the callback domain and sites, the results this
//! library branches on, and the driver API callback ids it asks for, each with the shape of its
//! parameters ([`Shape`], one struct of `layout`). CUPTI only ever appends to these enums, so a
//! value here means the same under every later libcupti; `layout_tests.rs` holds each one to
//! cudarc's bindings.

/// `CUPTI_CB_DOMAIN_DRIVER_API`.
pub const DOMAIN_DRIVER_API: u32 = 1;
/// `CUPTI_API_ENTER`.
pub const API_ENTER: u32 = 0;
/// `CUPTI_API_EXIT`.
pub const API_EXIT: u32 = 1;

/// `CUPTI_SUCCESS`.
pub const SUCCESS: i32 = 0;
/// `CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED`: another CUPTI client (Nsight Systems,
/// Nsight Compute, the program's own CUPTI use) already holds the one subscriber slot.
pub const ERROR_MULTIPLE_SUBSCRIBERS: i32 = 39;

/// `CUPTI_ACTIVITY_KIND_MEMCPY`.
pub const KIND_MEMCPY: u32 = 1;
/// `CUPTI_ACTIVITY_KIND_MEMSET`.
pub const KIND_MEMSET: u32 = 2;
/// `CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL`.
pub const KIND_CONCURRENT_KERNEL: u32 = 10;
/// `CUPTI_ACTIVITY_KIND_MARKER` (NVTX).
pub const KIND_MARKER: u32 = 12;
/// `CUPTI_ACTIVITY_KIND_CUDA_EVENT`.
pub const KIND_CUDA_EVENT: u32 = 36;
/// `CUPTI_ACTIVITY_KIND_SYNCHRONIZATION`.
pub const KIND_SYNCHRONIZATION: u32 = 38;

/// The activity kinds enabled, in order (one that a libcupti refuses is noted in the trace).
pub const ACTIVITY_KINDS: [(u32, &str); 6] = [
    (KIND_MEMCPY, "memcpy"),
    (KIND_MEMSET, "memset"),
    (KIND_CONCURRENT_KERNEL, "concurrent_kernel"),
    (KIND_SYNCHRONIZATION, "synchronization"),
    (KIND_CUDA_EVENT, "cuda_event"),
    (KIND_MARKER, "marker"),
];

/// How a driver call's `functionParams` is laid out: one struct of `layout` each, `Plain` for
/// calls recorded by name only (no arguments, or arguments not read yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Plain,
    CopyHtoD,
    CopyHtoDAsync,
    CopyDtoH,
    CopyDtoHAsync,
    CopyDtoD,
    CopyDtoDAsync,
    CopyUnified,
    CopyUnifiedAsync,
    CopyPeer,
    CopyPeerAsync,
    CopyDesc,
    CopyDescAsync,
    CopyBatchAsync,
    SetD8,
    SetD8Async,
    SetD16,
    SetD16Async,
    SetD32,
    SetD32Async,
    Set2D8,
    Set2D8Async,
    Set2D16,
    Set2D16Async,
    Set2D32,
    Set2D32Async,
    Launch,
    LaunchCoop,
    LaunchEx,
    StreamCreate,
    StreamCreatePrio,
    StreamHandle,
    StreamWaitEvent,
    EventCreate,
    EventRecord,
    EventRecordFlags,
    EventHandle,
    CtxSync,
    MemAlloc,
    MemAllocPitch,
    MemAllocManaged,
    MemFree,
    MemAllocHost,
    MemHostAlloc,
    MemFreeHost,
    MemHostRegister,
    MemHostUnregister,
    MemAllocAsync,
    MemAllocPoolAsync,
    MemFreeAsync,
    HostFunc,
}

/// Every driver API callback id recorded (`CUPTI_DRIVER_TRACE_CBID_*`), with its shape.
pub const DRIVER_CALLS: &[(u32, Shape)] = &[
    (276, Shape::CopyHtoD),          // cuMemcpyHtoD_v2
    (397, Shape::CopyHtoD),          // cuMemcpyHtoD_v2_ptds
    (277, Shape::CopyHtoDAsync),     // cuMemcpyHtoDAsync_v2
    (421, Shape::CopyHtoDAsync),     // cuMemcpyHtoDAsync_v2_ptsz
    (278, Shape::CopyDtoH),          // cuMemcpyDtoH_v2
    (398, Shape::CopyDtoH),          // cuMemcpyDtoH_v2_ptds
    (279, Shape::CopyDtoHAsync),     // cuMemcpyDtoHAsync_v2
    (422, Shape::CopyDtoHAsync),     // cuMemcpyDtoHAsync_v2_ptsz
    (280, Shape::CopyDtoD),          // cuMemcpyDtoD_v2
    (399, Shape::CopyDtoD),          // cuMemcpyDtoD_v2_ptds
    (281, Shape::CopyDtoDAsync),     // cuMemcpyDtoDAsync_v2
    (423, Shape::CopyDtoDAsync),     // cuMemcpyDtoDAsync_v2_ptsz
    (305, Shape::CopyUnified),       // cuMemcpy
    (408, Shape::CopyUnified),       // cuMemcpy_ptds
    (306, Shape::CopyUnifiedAsync),  // cuMemcpyAsync
    (418, Shape::CopyUnifiedAsync),  // cuMemcpyAsync_ptsz
    (318, Shape::CopyPeer),          // cuMemcpyPeer
    (409, Shape::CopyPeer),          // cuMemcpyPeer_ptds
    (319, Shape::CopyPeerAsync),     // cuMemcpyPeerAsync
    (426, Shape::CopyPeerAsync),     // cuMemcpyPeerAsync_ptsz
    (287, Shape::CopyDesc),          // cuMemcpy2D_v2
    (405, Shape::CopyDesc),          // cuMemcpy2D_v2_ptds
    (288, Shape::CopyDesc),          // cuMemcpy2DUnaligned_v2
    (406, Shape::CopyDesc),          // cuMemcpy2DUnaligned_v2_ptds
    (290, Shape::CopyDesc),          // cuMemcpy3D_v2
    (407, Shape::CopyDesc),          // cuMemcpy3D_v2_ptds
    (320, Shape::CopyDesc),          // cuMemcpy3DPeer
    (410, Shape::CopyDesc),          // cuMemcpy3DPeer_ptds
    (289, Shape::CopyDescAsync),     // cuMemcpy2DAsync_v2
    (424, Shape::CopyDescAsync),     // cuMemcpy2DAsync_v2_ptsz
    (291, Shape::CopyDescAsync),     // cuMemcpy3DAsync_v2
    (425, Shape::CopyDescAsync),     // cuMemcpy3DAsync_v2_ptsz
    (321, Shape::CopyDescAsync),     // cuMemcpy3DPeerAsync
    (427, Shape::CopyDescAsync),     // cuMemcpy3DPeerAsync_ptsz
    (796, Shape::CopyBatchAsync),    // cuMemcpyBatchAsync_v2
    (797, Shape::CopyBatchAsync),    // cuMemcpyBatchAsync_v2_ptsz
    (282, Shape::Plain),             // cuMemcpyAtoH_v2
    (403, Shape::Plain),             // cuMemcpyAtoH_v2_ptds
    (292, Shape::Plain),             // cuMemcpyHtoA_v2
    (402, Shape::Plain),             // cuMemcpyHtoA_v2_ptds
    (284, Shape::Plain),             // cuMemcpyAtoD_v2
    (401, Shape::Plain),             // cuMemcpyAtoD_v2_ptds
    (285, Shape::Plain),             // cuMemcpyDtoA_v2
    (400, Shape::Plain),             // cuMemcpyDtoA_v2_ptds
    (286, Shape::Plain),             // cuMemcpyAtoA_v2
    (404, Shape::Plain),             // cuMemcpyAtoA_v2_ptds
    (293, Shape::Plain),             // cuMemcpyHtoAAsync_v2
    (419, Shape::Plain),             // cuMemcpyHtoAAsync_v2_ptsz
    (283, Shape::Plain),             // cuMemcpyAtoHAsync_v2
    (420, Shape::Plain),             // cuMemcpyAtoHAsync_v2_ptsz
    (798, Shape::Plain),             // cuMemcpy3DBatchAsync_v2
    (799, Shape::Plain),             // cuMemcpy3DBatchAsync_v2_ptsz
    (249, Shape::SetD8),             // cuMemsetD8_v2
    (411, Shape::SetD8),             // cuMemsetD8_v2_ptds
    (216, Shape::SetD8Async),        // cuMemsetD8Async
    (428, Shape::SetD8Async),        // cuMemsetD8Async_ptsz
    (250, Shape::SetD16),            // cuMemsetD16_v2
    (412, Shape::SetD16),            // cuMemsetD16_v2_ptds
    (218, Shape::SetD16Async),       // cuMemsetD16Async
    (429, Shape::SetD16Async),       // cuMemsetD16Async_ptsz
    (251, Shape::SetD32),            // cuMemsetD32_v2
    (413, Shape::SetD32),            // cuMemsetD32_v2_ptds
    (220, Shape::SetD32Async),       // cuMemsetD32Async
    (430, Shape::SetD32Async),       // cuMemsetD32Async_ptsz
    (252, Shape::Set2D8),            // cuMemsetD2D8_v2
    (414, Shape::Set2D8),            // cuMemsetD2D8_v2_ptds
    (222, Shape::Set2D8Async),       // cuMemsetD2D8Async
    (431, Shape::Set2D8Async),       // cuMemsetD2D8Async_ptsz
    (253, Shape::Set2D16),           // cuMemsetD2D16_v2
    (415, Shape::Set2D16),           // cuMemsetD2D16_v2_ptds
    (224, Shape::Set2D16Async),      // cuMemsetD2D16Async
    (432, Shape::Set2D16Async),      // cuMemsetD2D16Async_ptsz
    (254, Shape::Set2D32),           // cuMemsetD2D32_v2
    (416, Shape::Set2D32),           // cuMemsetD2D32_v2_ptds
    (226, Shape::Set2D32Async),      // cuMemsetD2D32Async
    (433, Shape::Set2D32Async),      // cuMemsetD2D32Async_ptsz
    (307, Shape::Launch),            // cuLaunchKernel
    (442, Shape::Launch),            // cuLaunchKernel_ptsz
    (477, Shape::LaunchCoop),        // cuLaunchCooperativeKernel
    (478, Shape::LaunchCoop),        // cuLaunchCooperativeKernel_ptsz
    (652, Shape::LaunchEx),          // cuLaunchKernelEx
    (653, Shape::LaunchEx),          // cuLaunchKernelEx_ptsz
    (124, Shape::StreamCreate),      // cuStreamCreate
    (367, Shape::StreamCreatePrio),  // cuStreamCreateWithPriority
    (326, Shape::StreamHandle),      // cuStreamDestroy_v2
    (126, Shape::StreamHandle),      // cuStreamSynchronize
    (440, Shape::StreamHandle),      // cuStreamSynchronize_ptsz
    (125, Shape::StreamHandle),      // cuStreamQuery
    (439, Shape::StreamHandle),      // cuStreamQuery_ptsz
    (295, Shape::StreamWaitEvent),   // cuStreamWaitEvent
    (436, Shape::StreamWaitEvent),   // cuStreamWaitEvent_ptsz
    (118, Shape::EventCreate),       // cuEventCreate
    (119, Shape::EventRecord),       // cuEventRecord
    (441, Shape::EventRecord),       // cuEventRecord_ptsz
    (587, Shape::EventRecordFlags),  // cuEventRecordWithFlags
    (588, Shape::EventRecordFlags),  // cuEventRecordWithFlags_ptsz
    (121, Shape::EventHandle),       // cuEventSynchronize
    (120, Shape::EventHandle),       // cuEventQuery
    (325, Shape::EventHandle),       // cuEventDestroy_v2
    (17, Shape::Plain),              // cuCtxSynchronize
    (800, Shape::CtxSync),           // cuCtxSynchronize_v2
    (243, Shape::MemAlloc),          // cuMemAlloc_v2
    (244, Shape::MemAllocPitch),     // cuMemAllocPitch_v2
    (371, Shape::MemAllocManaged),   // cuMemAllocManaged
    (245, Shape::MemFree),           // cuMemFree_v2
    (294, Shape::MemAllocHost),      // cuMemAllocHost_v2
    (39, Shape::MemHostAlloc),       // cuMemHostAlloc
    (38, Shape::MemFreeHost),        // cuMemFreeHost
    (379, Shape::MemHostRegister),   // cuMemHostRegister_v2
    (302, Shape::MemHostUnregister), // cuMemHostUnregister
    (598, Shape::MemAllocAsync),     // cuMemAllocAsync
    (599, Shape::MemAllocAsync),     // cuMemAllocAsync_ptsz
    (611, Shape::MemAllocPoolAsync), // cuMemAllocFromPoolAsync
    (612, Shape::MemAllocPoolAsync), // cuMemAllocFromPoolAsync_ptsz
    (600, Shape::MemFreeAsync),      // cuMemFreeAsync
    (601, Shape::MemFreeAsync),      // cuMemFreeAsync_ptsz
    (527, Shape::HostFunc),          // cuLaunchHostFunc
    (528, Shape::HostFunc),          // cuLaunchHostFunc_ptsz
];

/// The shape of callback id `cbid`, if it is one this library records.
pub fn shape_of(cbid: u32) -> Option<Shape> {
    DRIVER_CALLS
        .iter()
        .find(|(id, _)| *id == cbid)
        .map(|(_, shape)| *shape)
}
