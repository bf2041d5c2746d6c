//! Every hand-declared struct and number of this library held to cudarc's generated bindings
//! (the same CUDA version features as the main crate): a layout mistake fails here, without a
//! GPU. The same walk writes `probes/cupti-layout/expected.txt`, which the probe there (compiled
//! against the real CUPTI headers on a CUDA machine) must print line for line.
#![allow(clippy::unwrap_used, clippy::panic)]

use core::mem::{offset_of, size_of};

use cudarc::cupti::sys;

use crate::ids::{self, Shape};
use crate::layout::*;

/// The size of a field, read through a closure that is never called (a packed struct's field
/// cannot be borrowed, but it can be named).
fn field_size<T, F>(_: impl Fn(T) -> F) -> usize {
    size_of::<F>()
}

/// The C name of a bindgen path (`sys::cuMemcpy_params_st` -> `cuMemcpy_params_st`).
fn c_name(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path).trim()
}

/// Same size, and each named field at the same offset with the same size; pushes the probe's
/// lines (`NAME size N`, `NAME.FIELD OFFSET SIZE`) from this library's own declaration.
macro_rules! layout {
    ($out:ident; $mine:ident, $theirs:path, $($f:ident),+) => {{
        assert_eq!(size_of::<$mine>(), size_of::<$theirs>(), "size of {}", stringify!($mine));
        let name = c_name(stringify!($theirs));
        $out.push(format!("{name} size {}", size_of::<$mine>()));
        $(
            assert_eq!(offset_of!($mine, $f), offset_of!($theirs, $f), "{}.{}", stringify!($mine), stringify!($f));
            assert_eq!(field_size(|t: $mine| t.$f), field_size(|t: $theirs| t.$f), "size of {}.{}", stringify!($mine), stringify!($f));
            $out.push(format!("{name}.{} {} {}", stringify!($f), offset_of!($mine, $f), field_size(|t: $mine| t.$f)));
        )+
    }};
}

/// A record head: each field at the same offset with the same size, and no longer than the
/// record it heads; pushes `HEAD.FIELD OFFSET SIZE` (the same for every record version).
macro_rules! head {
    ($out:ident; $mine:ident, $theirs:path, $($f:ident),+) => {{
        assert!(size_of::<$mine>() <= size_of::<$theirs>(), "{} is longer than the record", stringify!($mine));
        $(
            assert_eq!(offset_of!($mine, $f), offset_of!($theirs, $f), "{}.{}", stringify!($mine), stringify!($f));
            assert_eq!(field_size(|t: $mine| t.$f), field_size(|t: $theirs| t.$f), "size of {}.{}", stringify!($mine), stringify!($f));
            $out.push(format!("{}.{} {} {}", stringify!($mine), stringify!($f), offset_of!($mine, $f), field_size(|t: $mine| t.$f)));
        )+
    }};
}

fn callback_data(out: &mut Vec<String>) {
    layout!(out; CallbackData, sys::CUpti_CallbackData, callbackSite, functionName, functionParams, functionReturnValue, symbolName, context, contextUid, correlationData, correlationId);
    layout!(out; LaunchConfig, cudarc::driver::sys::CUlaunchConfig, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, attrs, numAttrs);
}

fn parameter_structs(out: &mut Vec<String>) {
    layout!(out; CopyHtoD, sys::cuMemcpyHtoD_v2_params_st, dstDevice, srcHost, ByteCount);
    layout!(out; CopyHtoD, sys::cuMemcpyHtoD_v2_ptds_params_st, dstDevice, srcHost, ByteCount);
    layout!(out; CopyHtoDAsync, sys::cuMemcpyHtoDAsync_v2_params_st, dstDevice, srcHost, ByteCount, hStream);
    layout!(out; CopyHtoDAsync, sys::cuMemcpyHtoDAsync_v2_ptsz_params_st, dstDevice, srcHost, ByteCount, hStream);
    layout!(out; CopyDtoH, sys::cuMemcpyDtoH_v2_params_st, dstHost, srcDevice, ByteCount);
    layout!(out; CopyDtoH, sys::cuMemcpyDtoH_v2_ptds_params_st, dstHost, srcDevice, ByteCount);
    layout!(out; CopyDtoHAsync, sys::cuMemcpyDtoHAsync_v2_params_st, dstHost, srcDevice, ByteCount, hStream);
    layout!(out; CopyDtoHAsync, sys::cuMemcpyDtoHAsync_v2_ptsz_params_st, dstHost, srcDevice, ByteCount, hStream);
    layout!(out; CopyDtoD, sys::cuMemcpyDtoD_v2_params_st, dstDevice, srcDevice, ByteCount);
    layout!(out; CopyDtoD, sys::cuMemcpyDtoD_v2_ptds_params_st, dstDevice, srcDevice, ByteCount);
    layout!(out; CopyDtoDAsync, sys::cuMemcpyDtoDAsync_v2_params_st, dstDevice, srcDevice, ByteCount, hStream);
    layout!(out; CopyDtoDAsync, sys::cuMemcpyDtoDAsync_v2_ptsz_params_st, dstDevice, srcDevice, ByteCount, hStream);
    layout!(out; CopyUnified, sys::cuMemcpy_params_st, dst, src, ByteCount);
    layout!(out; CopyUnified, sys::cuMemcpy_ptds_params_st, dst, src, ByteCount);
    layout!(out; CopyUnifiedAsync, sys::cuMemcpyAsync_params_st, dst, src, ByteCount, hStream);
    layout!(out; CopyUnifiedAsync, sys::cuMemcpyAsync_ptsz_params_st, dst, src, ByteCount, hStream);
    layout!(out; CopyPeer, sys::cuMemcpyPeer_params_st, dstDevice, dstContext, srcDevice, srcContext, ByteCount);
    layout!(out; CopyPeer, sys::cuMemcpyPeer_ptds_params_st, dstDevice, dstContext, srcDevice, srcContext, ByteCount);
    layout!(out; CopyPeerAsync, sys::cuMemcpyPeerAsync_params_st, dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream);
    layout!(out; CopyPeerAsync, sys::cuMemcpyPeerAsync_ptsz_params_st, dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream);
    layout!(out; CopyDesc, sys::cuMemcpy2D_v2_params_st, pCopy);
    layout!(out; CopyDesc, sys::cuMemcpy2D_v2_ptds_params_st, pCopy);
    layout!(out; CopyDesc, sys::cuMemcpy2DUnaligned_v2_params_st, pCopy);
    layout!(out; CopyDesc, sys::cuMemcpy2DUnaligned_v2_ptds_params_st, pCopy);
    layout!(out; CopyDesc, sys::cuMemcpy3D_v2_params_st, pCopy);
    layout!(out; CopyDesc, sys::cuMemcpy3D_v2_ptds_params_st, pCopy);
    layout!(out; CopyDesc, sys::cuMemcpy3DPeer_params_st, pCopy);
    layout!(out; CopyDesc, sys::cuMemcpy3DPeer_ptds_params_st, pCopy);
    layout!(out; CopyDescAsync, sys::cuMemcpy2DAsync_v2_params_st, pCopy, hStream);
    layout!(out; CopyDescAsync, sys::cuMemcpy2DAsync_v2_ptsz_params_st, pCopy, hStream);
    layout!(out; CopyDescAsync, sys::cuMemcpy3DAsync_v2_params_st, pCopy, hStream);
    layout!(out; CopyDescAsync, sys::cuMemcpy3DAsync_v2_ptsz_params_st, pCopy, hStream);
    layout!(out; CopyDescAsync, sys::cuMemcpy3DPeerAsync_params_st, pCopy, hStream);
    layout!(out; CopyDescAsync, sys::cuMemcpy3DPeerAsync_ptsz_params_st, pCopy, hStream);
    layout!(out; CopyBatchAsync, sys::cuMemcpyBatchAsync_v2_params_st, dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, hStream);
    layout!(out; CopyBatchAsync, sys::cuMemcpyBatchAsync_v2_ptsz_params_st, dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, hStream);
    layout!(out; SetD8, sys::cuMemsetD8_v2_params_st, dstDevice, uc, N);
    layout!(out; SetD8, sys::cuMemsetD8_v2_ptds_params_st, dstDevice, uc, N);
    layout!(out; SetD8Async, sys::cuMemsetD8Async_params_st, dstDevice, uc, N, hStream);
    layout!(out; SetD8Async, sys::cuMemsetD8Async_ptsz_params_st, dstDevice, uc, N, hStream);
    layout!(out; SetD16, sys::cuMemsetD16_v2_params_st, dstDevice, us, N);
    layout!(out; SetD16, sys::cuMemsetD16_v2_ptds_params_st, dstDevice, us, N);
    layout!(out; SetD16Async, sys::cuMemsetD16Async_params_st, dstDevice, us, N, hStream);
    layout!(out; SetD16Async, sys::cuMemsetD16Async_ptsz_params_st, dstDevice, us, N, hStream);
    layout!(out; SetD32, sys::cuMemsetD32_v2_params_st, dstDevice, ui, N);
    layout!(out; SetD32, sys::cuMemsetD32_v2_ptds_params_st, dstDevice, ui, N);
    layout!(out; SetD32Async, sys::cuMemsetD32Async_params_st, dstDevice, ui, N, hStream);
    layout!(out; SetD32Async, sys::cuMemsetD32Async_ptsz_params_st, dstDevice, ui, N, hStream);
    layout!(out; Set2D8, sys::cuMemsetD2D8_v2_params_st, dstDevice, dstPitch, uc, Width, Height);
    layout!(out; Set2D8, sys::cuMemsetD2D8_v2_ptds_params_st, dstDevice, dstPitch, uc, Width, Height);
    layout!(out; Set2D8Async, sys::cuMemsetD2D8Async_params_st, dstDevice, dstPitch, uc, Width, Height, hStream);
    layout!(out; Set2D8Async, sys::cuMemsetD2D8Async_ptsz_params_st, dstDevice, dstPitch, uc, Width, Height, hStream);
    layout!(out; Set2D16, sys::cuMemsetD2D16_v2_params_st, dstDevice, dstPitch, us, Width, Height);
    layout!(out; Set2D16, sys::cuMemsetD2D16_v2_ptds_params_st, dstDevice, dstPitch, us, Width, Height);
    layout!(out; Set2D16Async, sys::cuMemsetD2D16Async_params_st, dstDevice, dstPitch, us, Width, Height, hStream);
    layout!(out; Set2D16Async, sys::cuMemsetD2D16Async_ptsz_params_st, dstDevice, dstPitch, us, Width, Height, hStream);
    layout!(out; Set2D32, sys::cuMemsetD2D32_v2_params_st, dstDevice, dstPitch, ui, Width, Height);
    layout!(out; Set2D32, sys::cuMemsetD2D32_v2_ptds_params_st, dstDevice, dstPitch, ui, Width, Height);
    layout!(out; Set2D32Async, sys::cuMemsetD2D32Async_params_st, dstDevice, dstPitch, ui, Width, Height, hStream);
    layout!(out; Set2D32Async, sys::cuMemsetD2D32Async_ptsz_params_st, dstDevice, dstPitch, ui, Width, Height, hStream);
    layout!(out; Launch, sys::cuLaunchKernel_params_st, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
    layout!(out; Launch, sys::cuLaunchKernel_ptsz_params_st, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
    layout!(out; LaunchCoop, sys::cuLaunchCooperativeKernel_params_st, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams);
    layout!(out; LaunchCoop, sys::cuLaunchCooperativeKernel_ptsz_params_st, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams);
    layout!(out; LaunchEx, sys::cuLaunchKernelEx_params_st, config, f, kernelParams, extra);
    layout!(out; LaunchEx, sys::cuLaunchKernelEx_ptsz_params_st, config, f, kernelParams, extra);
    layout!(out; StreamCreate, sys::cuStreamCreate_params_st, phStream, Flags);
    layout!(out; StreamCreatePrio, sys::cuStreamCreateWithPriority_params_st, phStream, flags, priority);
    layout!(out; StreamHandle, sys::cuStreamDestroy_v2_params_st, hStream);
    layout!(out; StreamHandle, sys::cuStreamSynchronize_params_st, hStream);
    layout!(out; StreamHandle, sys::cuStreamSynchronize_ptsz_params_st, hStream);
    layout!(out; StreamHandle, sys::cuStreamQuery_params_st, hStream);
    layout!(out; StreamHandle, sys::cuStreamQuery_ptsz_params_st, hStream);
    layout!(out; StreamWaitEvent, sys::cuStreamWaitEvent_params_st, hStream, hEvent, Flags);
    layout!(out; StreamWaitEvent, sys::cuStreamWaitEvent_ptsz_params_st, hStream, hEvent, Flags);
    layout!(out; EventCreate, sys::cuEventCreate_params_st, phEvent, Flags);
    layout!(out; EventRecord, sys::cuEventRecord_params_st, hEvent, hStream);
    layout!(out; EventRecord, sys::cuEventRecord_ptsz_params_st, hEvent, hStream);
    layout!(out; EventRecordFlags, sys::cuEventRecordWithFlags_params_st, hEvent, hStream, flags);
    layout!(out; EventRecordFlags, sys::cuEventRecordWithFlags_ptsz_params_st, hEvent, hStream, flags);
    layout!(out; EventHandle, sys::cuEventSynchronize_params_st, hEvent);
    layout!(out; EventHandle, sys::cuEventQuery_params_st, hEvent);
    layout!(out; EventHandle, sys::cuEventDestroy_v2_params_st, hEvent);
    layout!(out; CtxSync, sys::cuCtxSynchronize_v2_params_st, ctx);
    layout!(out; MemAlloc, sys::cuMemAlloc_v2_params_st, dptr, bytesize);
    layout!(out; MemAllocPitch, sys::cuMemAllocPitch_v2_params_st, dptr, pPitch, WidthInBytes, Height, ElementSizeBytes);
    layout!(out; MemAllocManaged, sys::cuMemAllocManaged_params_st, dptr, bytesize, flags);
    layout!(out; MemFree, sys::cuMemFree_v2_params_st, dptr);
    layout!(out; MemAllocHost, sys::cuMemAllocHost_v2_params_st, pp, bytesize);
    layout!(out; MemHostAlloc, sys::cuMemHostAlloc_params_st, pp, bytesize, Flags);
    layout!(out; MemFreeHost, sys::cuMemFreeHost_params_st, p);
    layout!(out; MemHostRegister, sys::cuMemHostRegister_v2_params_st, p, bytesize, Flags);
    layout!(out; MemHostUnregister, sys::cuMemHostUnregister_params_st, p);
    layout!(out; MemAllocAsync, sys::cuMemAllocAsync_params_st, dptr, bytesize, hStream);
    layout!(out; MemAllocAsync, sys::cuMemAllocAsync_ptsz_params_st, dptr, bytesize, hStream);
    layout!(out; MemAllocPoolAsync, sys::cuMemAllocFromPoolAsync_params_st, dptr, bytesize, pool, hStream);
    layout!(out; MemAllocPoolAsync, sys::cuMemAllocFromPoolAsync_ptsz_params_st, dptr, bytesize, pool, hStream);
    layout!(out; MemFreeAsync, sys::cuMemFreeAsync_params_st, dptr, hStream);
    layout!(out; MemFreeAsync, sys::cuMemFreeAsync_ptsz_params_st, dptr, hStream);
    layout!(out; HostFunc, sys::cuLaunchHostFunc_params_st, hStream, fn_, userData);
    layout!(out; HostFunc, sys::cuLaunchHostFunc_ptsz_params_st, hStream, fn_, userData);
}

fn record_heads(out: &mut Vec<String>) {
    head!(out; ActivityHead, sys::CUpti_Activity, kind);
    head!(out; MemcpyHead, sys::CUpti_ActivityMemcpy6, kind, copyKind, srcKind, dstKind, flags, bytes, start, end, deviceId, contextId, streamId, correlationId);
    head!(out; MemcpyHead, sys::CUpti_ActivityMemcpy5, kind, copyKind, srcKind, dstKind, flags, bytes, start, end, deviceId, contextId, streamId, correlationId);
    head!(out; MemsetHead, sys::CUpti_ActivityMemset4, kind, value, bytes, start, end, deviceId, contextId, streamId, correlationId, flags, memoryKind);
    head!(out; KernelHead, sys::CUpti_ActivityKernel10, kind, cacheConfig, sharedMemoryConfig, registersPerThread, partitionedGlobalCacheRequested, partitionedGlobalCacheExecuted, start, end, completed, deviceId, contextId, streamId, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, correlationId, gridId, name);
    head!(out; KernelHead, sys::CUpti_ActivityKernel4, kind, cacheConfig, sharedMemoryConfig, registersPerThread, partitionedGlobalCacheRequested, partitionedGlobalCacheExecuted, start, end, completed, deviceId, contextId, streamId, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, correlationId, gridId, name);
    head!(out; SyncHead, sys::CUpti_ActivitySynchronization2, kind, type_, start, end, correlationId, contextId, streamId, cudaEventId);
    head!(out; SyncHead, sys::CUpti_ActivitySynchronization, kind, type_, start, end, correlationId, contextId, streamId, cudaEventId);
    head!(out; CudaEventHead, sys::CUpti_ActivityCudaEvent2, kind, correlationId, contextId, streamId, eventId);
    head!(out; CudaEventHead, sys::CUpti_ActivityCudaEvent, kind, correlationId, contextId, streamId, eventId);
    head!(out; MarkerHead, sys::CUpti_ActivityMarker2, kind, flags, timestamp, id, objectKind, objectId, pad, name, domain);
}

/// The constants the library uses, by their C names, and cudarc's value of each.
fn constants() -> Vec<(&'static str, i64, i64)> {
    use sys::CUpti_ActivityKind as K;
    vec![
        (
            "CUPTI_ACTIVITY_KIND_MEMCPY",
            ids::KIND_MEMCPY.into(),
            K::CUPTI_ACTIVITY_KIND_MEMCPY as i64,
        ),
        (
            "CUPTI_ACTIVITY_KIND_MEMSET",
            ids::KIND_MEMSET.into(),
            K::CUPTI_ACTIVITY_KIND_MEMSET as i64,
        ),
        (
            "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL",
            ids::KIND_CONCURRENT_KERNEL.into(),
            K::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL as i64,
        ),
        (
            "CUPTI_ACTIVITY_KIND_MARKER",
            ids::KIND_MARKER.into(),
            K::CUPTI_ACTIVITY_KIND_MARKER as i64,
        ),
        (
            "CUPTI_ACTIVITY_KIND_CUDA_EVENT",
            ids::KIND_CUDA_EVENT.into(),
            K::CUPTI_ACTIVITY_KIND_CUDA_EVENT as i64,
        ),
        (
            "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
            ids::KIND_SYNCHRONIZATION.into(),
            K::CUPTI_ACTIVITY_KIND_SYNCHRONIZATION as i64,
        ),
        (
            "CUPTI_CB_DOMAIN_DRIVER_API",
            ids::DOMAIN_DRIVER_API.into(),
            sys::CUpti_CallbackDomain::CUPTI_CB_DOMAIN_DRIVER_API as i64,
        ),
        (
            "CUPTI_API_ENTER",
            ids::API_ENTER.into(),
            sys::CUpti_ApiCallbackSite::CUPTI_API_ENTER as i64,
        ),
        (
            "CUPTI_API_EXIT",
            ids::API_EXIT.into(),
            sys::CUpti_ApiCallbackSite::CUPTI_API_EXIT as i64,
        ),
        (
            "CUPTI_SUCCESS",
            ids::SUCCESS.into(),
            sys::CUptiResult::CUPTI_SUCCESS as i64,
        ),
        (
            "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED",
            ids::ERROR_MULTIPLE_SUBSCRIBERS.into(),
            sys::CUptiResult::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED as i64,
        ),
    ]
}

/// Every callback id of the table, by name, as cudarc's bindings number it.
fn callback_ids() -> Vec<(&'static str, u32, Shape)> {
    use sys::CUpti_driver_api_trace_cbid as C;
    vec![
        (
            "cuMemcpyHtoD_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2 as u32,
            Shape::CopyHtoD,
        ),
        (
            "cuMemcpyHtoD_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds as u32,
            Shape::CopyHtoD,
        ),
        (
            "cuMemcpyHtoDAsync_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2 as u32,
            Shape::CopyHtoDAsync,
        ),
        (
            "cuMemcpyHtoDAsync_v2_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz as u32,
            Shape::CopyHtoDAsync,
        ),
        (
            "cuMemcpyDtoH_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2 as u32,
            Shape::CopyDtoH,
        ),
        (
            "cuMemcpyDtoH_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds as u32,
            Shape::CopyDtoH,
        ),
        (
            "cuMemcpyDtoHAsync_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2 as u32,
            Shape::CopyDtoHAsync,
        ),
        (
            "cuMemcpyDtoHAsync_v2_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz as u32,
            Shape::CopyDtoHAsync,
        ),
        (
            "cuMemcpyDtoD_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2 as u32,
            Shape::CopyDtoD,
        ),
        (
            "cuMemcpyDtoD_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds as u32,
            Shape::CopyDtoD,
        ),
        (
            "cuMemcpyDtoDAsync_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2 as u32,
            Shape::CopyDtoDAsync,
        ),
        (
            "cuMemcpyDtoDAsync_v2_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz as u32,
            Shape::CopyDtoDAsync,
        ),
        (
            "cuMemcpy",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy as u32,
            Shape::CopyUnified,
        ),
        (
            "cuMemcpy_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds as u32,
            Shape::CopyUnified,
        ),
        (
            "cuMemcpyAsync",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync as u32,
            Shape::CopyUnifiedAsync,
        ),
        (
            "cuMemcpyAsync_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz as u32,
            Shape::CopyUnifiedAsync,
        ),
        (
            "cuMemcpyPeer",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer as u32,
            Shape::CopyPeer,
        ),
        (
            "cuMemcpyPeer_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer_ptds as u32,
            Shape::CopyPeer,
        ),
        (
            "cuMemcpyPeerAsync",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync as u32,
            Shape::CopyPeerAsync,
        ),
        (
            "cuMemcpyPeerAsync_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync_ptsz as u32,
            Shape::CopyPeerAsync,
        ),
        (
            "cuMemcpy2D_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2 as u32,
            Shape::CopyDesc,
        ),
        (
            "cuMemcpy2D_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2_ptds as u32,
            Shape::CopyDesc,
        ),
        (
            "cuMemcpy2DUnaligned_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2 as u32,
            Shape::CopyDesc,
        ),
        (
            "cuMemcpy2DUnaligned_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2_ptds as u32,
            Shape::CopyDesc,
        ),
        (
            "cuMemcpy3D_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2 as u32,
            Shape::CopyDesc,
        ),
        (
            "cuMemcpy3D_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2_ptds as u32,
            Shape::CopyDesc,
        ),
        (
            "cuMemcpy3DPeer",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer as u32,
            Shape::CopyDesc,
        ),
        (
            "cuMemcpy3DPeer_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer_ptds as u32,
            Shape::CopyDesc,
        ),
        (
            "cuMemcpy2DAsync_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2 as u32,
            Shape::CopyDescAsync,
        ),
        (
            "cuMemcpy2DAsync_v2_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2_ptsz as u32,
            Shape::CopyDescAsync,
        ),
        (
            "cuMemcpy3DAsync_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2 as u32,
            Shape::CopyDescAsync,
        ),
        (
            "cuMemcpy3DAsync_v2_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2_ptsz as u32,
            Shape::CopyDescAsync,
        ),
        (
            "cuMemcpy3DPeerAsync",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync as u32,
            Shape::CopyDescAsync,
        ),
        (
            "cuMemcpy3DPeerAsync_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync_ptsz as u32,
            Shape::CopyDescAsync,
        ),
        (
            "cuMemcpyBatchAsync_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2 as u32,
            Shape::CopyBatchAsync,
        ),
        (
            "cuMemcpyBatchAsync_v2_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2_ptsz as u32,
            Shape::CopyBatchAsync,
        ),
        (
            "cuMemcpyAtoH_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2 as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyAtoH_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2_ptds as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyHtoA_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2 as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyHtoA_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2_ptds as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyAtoD_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2 as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyAtoD_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2_ptds as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyDtoA_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2 as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyDtoA_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2_ptds as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyAtoA_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2 as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyAtoA_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2_ptds as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyHtoAAsync_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2 as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyHtoAAsync_v2_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2_ptsz as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyAtoHAsync_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2 as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpyAtoHAsync_v2_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2_ptsz as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpy3DBatchAsync_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2 as u32,
            Shape::Plain,
        ),
        (
            "cuMemcpy3DBatchAsync_v2_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2_ptsz as u32,
            Shape::Plain,
        ),
        (
            "cuMemsetD8_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2 as u32,
            Shape::SetD8,
        ),
        (
            "cuMemsetD8_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds as u32,
            Shape::SetD8,
        ),
        (
            "cuMemsetD8Async",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async as u32,
            Shape::SetD8Async,
        ),
        (
            "cuMemsetD8Async_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz as u32,
            Shape::SetD8Async,
        ),
        (
            "cuMemsetD16_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2 as u32,
            Shape::SetD16,
        ),
        (
            "cuMemsetD16_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds as u32,
            Shape::SetD16,
        ),
        (
            "cuMemsetD16Async",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async as u32,
            Shape::SetD16Async,
        ),
        (
            "cuMemsetD16Async_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz as u32,
            Shape::SetD16Async,
        ),
        (
            "cuMemsetD32_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2 as u32,
            Shape::SetD32,
        ),
        (
            "cuMemsetD32_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds as u32,
            Shape::SetD32,
        ),
        (
            "cuMemsetD32Async",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async as u32,
            Shape::SetD32Async,
        ),
        (
            "cuMemsetD32Async_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz as u32,
            Shape::SetD32Async,
        ),
        (
            "cuMemsetD2D8_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2 as u32,
            Shape::Set2D8,
        ),
        (
            "cuMemsetD2D8_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2_ptds as u32,
            Shape::Set2D8,
        ),
        (
            "cuMemsetD2D8Async",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async as u32,
            Shape::Set2D8Async,
        ),
        (
            "cuMemsetD2D8Async_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async_ptsz as u32,
            Shape::Set2D8Async,
        ),
        (
            "cuMemsetD2D16_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2 as u32,
            Shape::Set2D16,
        ),
        (
            "cuMemsetD2D16_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2_ptds as u32,
            Shape::Set2D16,
        ),
        (
            "cuMemsetD2D16Async",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async as u32,
            Shape::Set2D16Async,
        ),
        (
            "cuMemsetD2D16Async_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async_ptsz as u32,
            Shape::Set2D16Async,
        ),
        (
            "cuMemsetD2D32_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2 as u32,
            Shape::Set2D32,
        ),
        (
            "cuMemsetD2D32_v2_ptds",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2_ptds as u32,
            Shape::Set2D32,
        ),
        (
            "cuMemsetD2D32Async",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async as u32,
            Shape::Set2D32Async,
        ),
        (
            "cuMemsetD2D32Async_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async_ptsz as u32,
            Shape::Set2D32Async,
        ),
        (
            "cuLaunchKernel",
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel as u32,
            Shape::Launch,
        ),
        (
            "cuLaunchKernel_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz as u32,
            Shape::Launch,
        ),
        (
            "cuLaunchCooperativeKernel",
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel as u32,
            Shape::LaunchCoop,
        ),
        (
            "cuLaunchCooperativeKernel_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz as u32,
            Shape::LaunchCoop,
        ),
        (
            "cuLaunchKernelEx",
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx as u32,
            Shape::LaunchEx,
        ),
        (
            "cuLaunchKernelEx_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz as u32,
            Shape::LaunchEx,
        ),
        (
            "cuStreamCreate",
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamCreate as u32,
            Shape::StreamCreate,
        ),
        (
            "cuStreamCreateWithPriority",
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamCreateWithPriority as u32,
            Shape::StreamCreatePrio,
        ),
        (
            "cuStreamDestroy_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2 as u32,
            Shape::StreamHandle,
        ),
        (
            "cuStreamSynchronize",
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize as u32,
            Shape::StreamHandle,
        ),
        (
            "cuStreamSynchronize_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz as u32,
            Shape::StreamHandle,
        ),
        (
            "cuStreamQuery",
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamQuery as u32,
            Shape::StreamHandle,
        ),
        (
            "cuStreamQuery_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz as u32,
            Shape::StreamHandle,
        ),
        (
            "cuStreamWaitEvent",
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent as u32,
            Shape::StreamWaitEvent,
        ),
        (
            "cuStreamWaitEvent_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz as u32,
            Shape::StreamWaitEvent,
        ),
        (
            "cuEventCreate",
            C::CUPTI_DRIVER_TRACE_CBID_cuEventCreate as u32,
            Shape::EventCreate,
        ),
        (
            "cuEventRecord",
            C::CUPTI_DRIVER_TRACE_CBID_cuEventRecord as u32,
            Shape::EventRecord,
        ),
        (
            "cuEventRecord_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz as u32,
            Shape::EventRecord,
        ),
        (
            "cuEventRecordWithFlags",
            C::CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags as u32,
            Shape::EventRecordFlags,
        ),
        (
            "cuEventRecordWithFlags_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz as u32,
            Shape::EventRecordFlags,
        ),
        (
            "cuEventSynchronize",
            C::CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize as u32,
            Shape::EventHandle,
        ),
        (
            "cuEventQuery",
            C::CUPTI_DRIVER_TRACE_CBID_cuEventQuery as u32,
            Shape::EventHandle,
        ),
        (
            "cuEventDestroy_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuEventDestroy_v2 as u32,
            Shape::EventHandle,
        ),
        (
            "cuCtxSynchronize",
            C::CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize as u32,
            Shape::Plain,
        ),
        (
            "cuCtxSynchronize_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2 as u32,
            Shape::CtxSync,
        ),
        (
            "cuMemAlloc_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2 as u32,
            Shape::MemAlloc,
        ),
        (
            "cuMemAllocPitch_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2 as u32,
            Shape::MemAllocPitch,
        ),
        (
            "cuMemAllocManaged",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged as u32,
            Shape::MemAllocManaged,
        ),
        (
            "cuMemFree_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2 as u32,
            Shape::MemFree,
        ),
        (
            "cuMemAllocHost_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2 as u32,
            Shape::MemAllocHost,
        ),
        (
            "cuMemHostAlloc",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc as u32,
            Shape::MemHostAlloc,
        ),
        (
            "cuMemFreeHost",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost as u32,
            Shape::MemFreeHost,
        ),
        (
            "cuMemHostRegister_v2",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2 as u32,
            Shape::MemHostRegister,
        ),
        (
            "cuMemHostUnregister",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister as u32,
            Shape::MemHostUnregister,
        ),
        (
            "cuMemAllocAsync",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync as u32,
            Shape::MemAllocAsync,
        ),
        (
            "cuMemAllocAsync_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz as u32,
            Shape::MemAllocAsync,
        ),
        (
            "cuMemAllocFromPoolAsync",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync as u32,
            Shape::MemAllocPoolAsync,
        ),
        (
            "cuMemAllocFromPoolAsync_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz as u32,
            Shape::MemAllocPoolAsync,
        ),
        (
            "cuMemFreeAsync",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync as u32,
            Shape::MemFreeAsync,
        ),
        (
            "cuMemFreeAsync_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz as u32,
            Shape::MemFreeAsync,
        ),
        (
            "cuLaunchHostFunc",
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc as u32,
            Shape::HostFunc,
        ),
        (
            "cuLaunchHostFunc_ptsz",
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz as u32,
            Shape::HostFunc,
        ),
    ]
}

#[test]
fn callback_data_matches() {
    callback_data(&mut Vec::new());
}

#[test]
fn every_parameter_struct_matches_each_call_that_uses_it() {
    parameter_structs(&mut Vec::new());
}

#[test]
fn activity_record_heads_match() {
    record_heads(&mut Vec::new());
}

#[test]
fn constants_match() {
    for (name, mine, theirs) in constants() {
        assert_eq!(mine, theirs, "{name}");
    }
}

#[test]
fn every_callback_id_is_cuptis_and_appears_once() {
    let expected: Vec<(u32, Shape)> = callback_ids()
        .into_iter()
        .map(|(_, id, shape)| (id, shape))
        .collect();
    assert_eq!(expected, ids::DRIVER_CALLS, "the table, entry for entry");
    let mut seen: Vec<u32> = ids::DRIVER_CALLS.iter().map(|(id, _)| *id).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(
        seen.len(),
        ids::DRIVER_CALLS.len(),
        "a callback id listed twice"
    );
}

/// The probe's listing: what `probes/cupti-layout/layout.c` prints from the real headers, here
/// from this library's declarations (each head's lines once).
fn listing() -> String {
    let mut out = Vec::new();
    callback_data(&mut out);
    parameter_structs(&mut out);
    let mut heads = Vec::new();
    record_heads(&mut heads);
    let mut seen = std::collections::BTreeSet::new();
    out.extend(heads.into_iter().filter(|l| seen.insert(l.clone())));
    out.extend(
        constants()
            .into_iter()
            .map(|(name, value, _)| format!("const {name} {value}")),
    );
    out.extend(
        callback_ids()
            .into_iter()
            .map(|(name, id, _)| format!("cbid {name} {id}")),
    );
    out.join("\n") + "\n"
}

/// `probes/cupti-layout/expected.txt` is this library's listing; the H200 run diffs the real
/// headers' against it. `UPDATE_LAYOUT=1` rewrites it.
#[test]
fn the_probe_listing_is_current() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../probes/cupti-layout/expected.txt"
    );
    let now = listing();
    if std::env::var_os("UPDATE_LAYOUT").is_some() {
        std::fs::write(path, &now).unwrap();
    }
    let kept = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        kept == now,
        "{path} is out of date: run UPDATE_LAYOUT=1 cargo test -p cuda-academy-inject"
    );
}
