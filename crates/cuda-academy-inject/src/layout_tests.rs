//! Every hand-declared struct and number of this library held to cudarc's generated bindings
//! (the same CUDA version features as the main crate): a layout mistake fails here, without a
//! GPU. `probes/cupti-layout/` prints the same numbers from the real headers on a CUDA machine.
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

/// Same size, and each named field at the same offset with the same size.
macro_rules! layout {
    ($mine:ident, $theirs:path, $($f:ident),+) => {{
        assert_eq!(size_of::<$mine>(), size_of::<$theirs>(), "size of {}", stringify!($mine));
        $(
            assert_eq!(offset_of!($mine, $f), offset_of!($theirs, $f), "{}.{}", stringify!($mine), stringify!($f));
            assert_eq!(field_size(|t: $mine| t.$f), field_size(|t: $theirs| t.$f), "size of {}.{}", stringify!($mine), stringify!($f));
        )+
    }};
}

/// A record head: each field at the same offset with the same size, and no longer than the
/// record it heads.
macro_rules! head {
    ($mine:ident, $theirs:path, $($f:ident),+) => {{
        assert!(size_of::<$mine>() <= size_of::<$theirs>(), "{} is longer than the record", stringify!($mine));
        $(
            assert_eq!(offset_of!($mine, $f), offset_of!($theirs, $f), "{}.{}", stringify!($mine), stringify!($f));
            assert_eq!(field_size(|t: $mine| t.$f), field_size(|t: $theirs| t.$f), "size of {}.{}", stringify!($mine), stringify!($f));
        )+
    }};
}

#[test]
fn callback_data_matches() {
    layout!(
        CallbackData,
        sys::CUpti_CallbackData,
        callbackSite,
        functionName,
        functionParams,
        functionReturnValue,
        symbolName,
        context,
        contextUid,
        correlationData,
        correlationId
    );
    layout!(
        LaunchConfig,
        cudarc::driver::sys::CUlaunchConfig,
        gridDimX,
        gridDimY,
        gridDimZ,
        blockDimX,
        blockDimY,
        blockDimZ,
        sharedMemBytes,
        hStream,
        attrs,
        numAttrs
    );
}

#[test]
fn every_parameter_struct_matches_each_call_that_uses_it() {
    layout!(
        CopyHtoD,
        sys::cuMemcpyHtoD_v2_params_st,
        dstDevice,
        srcHost,
        ByteCount
    );
    layout!(
        CopyHtoD,
        sys::cuMemcpyHtoD_v2_ptds_params_st,
        dstDevice,
        srcHost,
        ByteCount
    );
    layout!(
        CopyHtoDAsync,
        sys::cuMemcpyHtoDAsync_v2_params_st,
        dstDevice,
        srcHost,
        ByteCount,
        hStream
    );
    layout!(
        CopyHtoDAsync,
        sys::cuMemcpyHtoDAsync_v2_ptsz_params_st,
        dstDevice,
        srcHost,
        ByteCount,
        hStream
    );
    layout!(
        CopyDtoH,
        sys::cuMemcpyDtoH_v2_params_st,
        dstHost,
        srcDevice,
        ByteCount
    );
    layout!(
        CopyDtoH,
        sys::cuMemcpyDtoH_v2_ptds_params_st,
        dstHost,
        srcDevice,
        ByteCount
    );
    layout!(
        CopyDtoHAsync,
        sys::cuMemcpyDtoHAsync_v2_params_st,
        dstHost,
        srcDevice,
        ByteCount,
        hStream
    );
    layout!(
        CopyDtoHAsync,
        sys::cuMemcpyDtoHAsync_v2_ptsz_params_st,
        dstHost,
        srcDevice,
        ByteCount,
        hStream
    );
    layout!(
        CopyDtoD,
        sys::cuMemcpyDtoD_v2_params_st,
        dstDevice,
        srcDevice,
        ByteCount
    );
    layout!(
        CopyDtoD,
        sys::cuMemcpyDtoD_v2_ptds_params_st,
        dstDevice,
        srcDevice,
        ByteCount
    );
    layout!(
        CopyDtoDAsync,
        sys::cuMemcpyDtoDAsync_v2_params_st,
        dstDevice,
        srcDevice,
        ByteCount,
        hStream
    );
    layout!(
        CopyDtoDAsync,
        sys::cuMemcpyDtoDAsync_v2_ptsz_params_st,
        dstDevice,
        srcDevice,
        ByteCount,
        hStream
    );
    layout!(CopyUnified, sys::cuMemcpy_params_st, dst, src, ByteCount);
    layout!(
        CopyUnified,
        sys::cuMemcpy_ptds_params_st,
        dst,
        src,
        ByteCount
    );
    layout!(
        CopyUnifiedAsync,
        sys::cuMemcpyAsync_params_st,
        dst,
        src,
        ByteCount,
        hStream
    );
    layout!(
        CopyUnifiedAsync,
        sys::cuMemcpyAsync_ptsz_params_st,
        dst,
        src,
        ByteCount,
        hStream
    );
    layout!(
        CopyPeer,
        sys::cuMemcpyPeer_params_st,
        dstDevice,
        dstContext,
        srcDevice,
        srcContext,
        ByteCount
    );
    layout!(
        CopyPeer,
        sys::cuMemcpyPeer_ptds_params_st,
        dstDevice,
        dstContext,
        srcDevice,
        srcContext,
        ByteCount
    );
    layout!(
        CopyPeerAsync,
        sys::cuMemcpyPeerAsync_params_st,
        dstDevice,
        dstContext,
        srcDevice,
        srcContext,
        ByteCount,
        hStream
    );
    layout!(
        CopyPeerAsync,
        sys::cuMemcpyPeerAsync_ptsz_params_st,
        dstDevice,
        dstContext,
        srcDevice,
        srcContext,
        ByteCount,
        hStream
    );
    layout!(CopyDesc, sys::cuMemcpy2D_v2_params_st, pCopy);
    layout!(CopyDesc, sys::cuMemcpy2D_v2_ptds_params_st, pCopy);
    layout!(CopyDesc, sys::cuMemcpy2DUnaligned_v2_params_st, pCopy);
    layout!(CopyDesc, sys::cuMemcpy2DUnaligned_v2_ptds_params_st, pCopy);
    layout!(CopyDesc, sys::cuMemcpy3D_v2_params_st, pCopy);
    layout!(CopyDesc, sys::cuMemcpy3D_v2_ptds_params_st, pCopy);
    layout!(CopyDesc, sys::cuMemcpy3DPeer_params_st, pCopy);
    layout!(CopyDesc, sys::cuMemcpy3DPeer_ptds_params_st, pCopy);
    layout!(
        CopyDescAsync,
        sys::cuMemcpy2DAsync_v2_params_st,
        pCopy,
        hStream
    );
    layout!(
        CopyDescAsync,
        sys::cuMemcpy2DAsync_v2_ptsz_params_st,
        pCopy,
        hStream
    );
    layout!(
        CopyDescAsync,
        sys::cuMemcpy3DAsync_v2_params_st,
        pCopy,
        hStream
    );
    layout!(
        CopyDescAsync,
        sys::cuMemcpy3DAsync_v2_ptsz_params_st,
        pCopy,
        hStream
    );
    layout!(
        CopyDescAsync,
        sys::cuMemcpy3DPeerAsync_params_st,
        pCopy,
        hStream
    );
    layout!(
        CopyDescAsync,
        sys::cuMemcpy3DPeerAsync_ptsz_params_st,
        pCopy,
        hStream
    );
    layout!(
        CopyBatchAsync,
        sys::cuMemcpyBatchAsync_v2_params_st,
        dsts,
        srcs,
        sizes,
        count,
        attrs,
        attrsIdxs,
        numAttrs,
        hStream
    );
    layout!(
        CopyBatchAsync,
        sys::cuMemcpyBatchAsync_v2_ptsz_params_st,
        dsts,
        srcs,
        sizes,
        count,
        attrs,
        attrsIdxs,
        numAttrs,
        hStream
    );
    layout!(SetD8, sys::cuMemsetD8_v2_params_st, dstDevice, uc, N);
    layout!(SetD8, sys::cuMemsetD8_v2_ptds_params_st, dstDevice, uc, N);
    layout!(
        SetD8Async,
        sys::cuMemsetD8Async_params_st,
        dstDevice,
        uc,
        N,
        hStream
    );
    layout!(
        SetD8Async,
        sys::cuMemsetD8Async_ptsz_params_st,
        dstDevice,
        uc,
        N,
        hStream
    );
    layout!(SetD16, sys::cuMemsetD16_v2_params_st, dstDevice, us, N);
    layout!(SetD16, sys::cuMemsetD16_v2_ptds_params_st, dstDevice, us, N);
    layout!(
        SetD16Async,
        sys::cuMemsetD16Async_params_st,
        dstDevice,
        us,
        N,
        hStream
    );
    layout!(
        SetD16Async,
        sys::cuMemsetD16Async_ptsz_params_st,
        dstDevice,
        us,
        N,
        hStream
    );
    layout!(SetD32, sys::cuMemsetD32_v2_params_st, dstDevice, ui, N);
    layout!(SetD32, sys::cuMemsetD32_v2_ptds_params_st, dstDevice, ui, N);
    layout!(
        SetD32Async,
        sys::cuMemsetD32Async_params_st,
        dstDevice,
        ui,
        N,
        hStream
    );
    layout!(
        SetD32Async,
        sys::cuMemsetD32Async_ptsz_params_st,
        dstDevice,
        ui,
        N,
        hStream
    );
    layout!(
        Set2D8,
        sys::cuMemsetD2D8_v2_params_st,
        dstDevice,
        dstPitch,
        uc,
        Width,
        Height
    );
    layout!(
        Set2D8,
        sys::cuMemsetD2D8_v2_ptds_params_st,
        dstDevice,
        dstPitch,
        uc,
        Width,
        Height
    );
    layout!(
        Set2D8Async,
        sys::cuMemsetD2D8Async_params_st,
        dstDevice,
        dstPitch,
        uc,
        Width,
        Height,
        hStream
    );
    layout!(
        Set2D8Async,
        sys::cuMemsetD2D8Async_ptsz_params_st,
        dstDevice,
        dstPitch,
        uc,
        Width,
        Height,
        hStream
    );
    layout!(
        Set2D16,
        sys::cuMemsetD2D16_v2_params_st,
        dstDevice,
        dstPitch,
        us,
        Width,
        Height
    );
    layout!(
        Set2D16,
        sys::cuMemsetD2D16_v2_ptds_params_st,
        dstDevice,
        dstPitch,
        us,
        Width,
        Height
    );
    layout!(
        Set2D16Async,
        sys::cuMemsetD2D16Async_params_st,
        dstDevice,
        dstPitch,
        us,
        Width,
        Height,
        hStream
    );
    layout!(
        Set2D16Async,
        sys::cuMemsetD2D16Async_ptsz_params_st,
        dstDevice,
        dstPitch,
        us,
        Width,
        Height,
        hStream
    );
    layout!(
        Set2D32,
        sys::cuMemsetD2D32_v2_params_st,
        dstDevice,
        dstPitch,
        ui,
        Width,
        Height
    );
    layout!(
        Set2D32,
        sys::cuMemsetD2D32_v2_ptds_params_st,
        dstDevice,
        dstPitch,
        ui,
        Width,
        Height
    );
    layout!(
        Set2D32Async,
        sys::cuMemsetD2D32Async_params_st,
        dstDevice,
        dstPitch,
        ui,
        Width,
        Height,
        hStream
    );
    layout!(
        Set2D32Async,
        sys::cuMemsetD2D32Async_ptsz_params_st,
        dstDevice,
        dstPitch,
        ui,
        Width,
        Height,
        hStream
    );
    layout!(
        Launch,
        sys::cuLaunchKernel_params_st,
        f,
        gridDimX,
        gridDimY,
        gridDimZ,
        blockDimX,
        blockDimY,
        blockDimZ,
        sharedMemBytes,
        hStream,
        kernelParams,
        extra
    );
    layout!(
        Launch,
        sys::cuLaunchKernel_ptsz_params_st,
        f,
        gridDimX,
        gridDimY,
        gridDimZ,
        blockDimX,
        blockDimY,
        blockDimZ,
        sharedMemBytes,
        hStream,
        kernelParams,
        extra
    );
    layout!(
        LaunchCoop,
        sys::cuLaunchCooperativeKernel_params_st,
        f,
        gridDimX,
        gridDimY,
        gridDimZ,
        blockDimX,
        blockDimY,
        blockDimZ,
        sharedMemBytes,
        hStream,
        kernelParams
    );
    layout!(
        LaunchCoop,
        sys::cuLaunchCooperativeKernel_ptsz_params_st,
        f,
        gridDimX,
        gridDimY,
        gridDimZ,
        blockDimX,
        blockDimY,
        blockDimZ,
        sharedMemBytes,
        hStream,
        kernelParams
    );
    layout!(
        LaunchEx,
        sys::cuLaunchKernelEx_params_st,
        config,
        f,
        kernelParams,
        extra
    );
    layout!(
        LaunchEx,
        sys::cuLaunchKernelEx_ptsz_params_st,
        config,
        f,
        kernelParams,
        extra
    );
    layout!(StreamCreate, sys::cuStreamCreate_params_st, phStream, Flags);
    layout!(
        StreamCreatePrio,
        sys::cuStreamCreateWithPriority_params_st,
        phStream,
        flags,
        priority
    );
    layout!(StreamHandle, sys::cuStreamDestroy_v2_params_st, hStream);
    layout!(StreamHandle, sys::cuStreamSynchronize_params_st, hStream);
    layout!(
        StreamHandle,
        sys::cuStreamSynchronize_ptsz_params_st,
        hStream
    );
    layout!(StreamHandle, sys::cuStreamQuery_params_st, hStream);
    layout!(StreamHandle, sys::cuStreamQuery_ptsz_params_st, hStream);
    layout!(
        StreamWaitEvent,
        sys::cuStreamWaitEvent_params_st,
        hStream,
        hEvent,
        Flags
    );
    layout!(
        StreamWaitEvent,
        sys::cuStreamWaitEvent_ptsz_params_st,
        hStream,
        hEvent,
        Flags
    );
    layout!(EventCreate, sys::cuEventCreate_params_st, phEvent, Flags);
    layout!(EventRecord, sys::cuEventRecord_params_st, hEvent, hStream);
    layout!(
        EventRecord,
        sys::cuEventRecord_ptsz_params_st,
        hEvent,
        hStream
    );
    layout!(
        EventRecordFlags,
        sys::cuEventRecordWithFlags_params_st,
        hEvent,
        hStream,
        flags
    );
    layout!(
        EventRecordFlags,
        sys::cuEventRecordWithFlags_ptsz_params_st,
        hEvent,
        hStream,
        flags
    );
    layout!(EventHandle, sys::cuEventSynchronize_params_st, hEvent);
    layout!(EventHandle, sys::cuEventQuery_params_st, hEvent);
    layout!(EventHandle, sys::cuEventDestroy_v2_params_st, hEvent);
    layout!(CtxSync, sys::cuCtxSynchronize_v2_params_st, ctx);
    layout!(MemAlloc, sys::cuMemAlloc_v2_params_st, dptr, bytesize);
    layout!(
        MemAllocPitch,
        sys::cuMemAllocPitch_v2_params_st,
        dptr,
        pPitch,
        WidthInBytes,
        Height,
        ElementSizeBytes
    );
    layout!(
        MemAllocManaged,
        sys::cuMemAllocManaged_params_st,
        dptr,
        bytesize,
        flags
    );
    layout!(MemFree, sys::cuMemFree_v2_params_st, dptr);
    layout!(MemAllocHost, sys::cuMemAllocHost_v2_params_st, pp, bytesize);
    layout!(
        MemHostAlloc,
        sys::cuMemHostAlloc_params_st,
        pp,
        bytesize,
        Flags
    );
    layout!(MemFreeHost, sys::cuMemFreeHost_params_st, p);
    layout!(
        MemHostRegister,
        sys::cuMemHostRegister_v2_params_st,
        p,
        bytesize,
        Flags
    );
    layout!(MemHostUnregister, sys::cuMemHostUnregister_params_st, p);
    layout!(
        MemAllocAsync,
        sys::cuMemAllocAsync_params_st,
        dptr,
        bytesize,
        hStream
    );
    layout!(
        MemAllocAsync,
        sys::cuMemAllocAsync_ptsz_params_st,
        dptr,
        bytesize,
        hStream
    );
    layout!(
        MemAllocPoolAsync,
        sys::cuMemAllocFromPoolAsync_params_st,
        dptr,
        bytesize,
        pool,
        hStream
    );
    layout!(
        MemAllocPoolAsync,
        sys::cuMemAllocFromPoolAsync_ptsz_params_st,
        dptr,
        bytesize,
        pool,
        hStream
    );
    layout!(MemFreeAsync, sys::cuMemFreeAsync_params_st, dptr, hStream);
    layout!(
        MemFreeAsync,
        sys::cuMemFreeAsync_ptsz_params_st,
        dptr,
        hStream
    );
    layout!(
        HostFunc,
        sys::cuLaunchHostFunc_params_st,
        hStream,
        fn_,
        userData
    );
    layout!(
        HostFunc,
        sys::cuLaunchHostFunc_ptsz_params_st,
        hStream,
        fn_,
        userData
    );
}

#[test]
fn activity_record_heads_match() {
    head!(ActivityHead, sys::CUpti_Activity, kind);
    head!(
        MemcpyHead,
        sys::CUpti_ActivityMemcpy6,
        kind,
        copyKind,
        srcKind,
        dstKind,
        flags,
        bytes,
        start,
        end,
        deviceId,
        contextId,
        streamId,
        correlationId
    );
    head!(
        MemcpyHead,
        sys::CUpti_ActivityMemcpy5,
        kind,
        copyKind,
        srcKind,
        dstKind,
        flags,
        bytes,
        start,
        end,
        deviceId,
        contextId,
        streamId,
        correlationId
    );
    head!(
        MemsetHead,
        sys::CUpti_ActivityMemset4,
        kind,
        value,
        bytes,
        start,
        end,
        deviceId,
        contextId,
        streamId,
        correlationId,
        flags,
        memoryKind
    );
    head!(
        KernelHead,
        sys::CUpti_ActivityKernel10,
        kind,
        cacheConfig,
        sharedMemoryConfig,
        registersPerThread,
        partitionedGlobalCacheRequested,
        partitionedGlobalCacheExecuted,
        start,
        end,
        completed,
        deviceId,
        contextId,
        streamId,
        gridX,
        gridY,
        gridZ,
        blockX,
        blockY,
        blockZ,
        staticSharedMemory,
        dynamicSharedMemory,
        localMemoryPerThread,
        localMemoryTotal,
        correlationId,
        gridId,
        name
    );
    head!(
        KernelHead,
        sys::CUpti_ActivityKernel4,
        kind,
        cacheConfig,
        sharedMemoryConfig,
        registersPerThread,
        partitionedGlobalCacheRequested,
        partitionedGlobalCacheExecuted,
        start,
        end,
        completed,
        deviceId,
        contextId,
        streamId,
        gridX,
        gridY,
        gridZ,
        blockX,
        blockY,
        blockZ,
        staticSharedMemory,
        dynamicSharedMemory,
        localMemoryPerThread,
        localMemoryTotal,
        correlationId,
        gridId,
        name
    );
    head!(
        SyncHead,
        sys::CUpti_ActivitySynchronization2,
        kind,
        type_,
        start,
        end,
        correlationId,
        contextId,
        streamId,
        cudaEventId
    );
    head!(
        SyncHead,
        sys::CUpti_ActivitySynchronization,
        kind,
        type_,
        start,
        end,
        correlationId,
        contextId,
        streamId,
        cudaEventId
    );
    head!(
        CudaEventHead,
        sys::CUpti_ActivityCudaEvent2,
        kind,
        correlationId,
        contextId,
        streamId,
        eventId
    );
    head!(
        CudaEventHead,
        sys::CUpti_ActivityCudaEvent,
        kind,
        correlationId,
        contextId,
        streamId,
        eventId
    );
    head!(
        MarkerHead,
        sys::CUpti_ActivityMarker2,
        kind,
        flags,
        timestamp,
        id,
        objectKind,
        objectId,
        pad,
        name,
        domain
    );
}

#[test]
fn constants_match() {
    use sys::CUpti_ActivityKind as K;
    assert_eq!(ids::KIND_MEMCPY, K::CUPTI_ACTIVITY_KIND_MEMCPY as u32);
    assert_eq!(ids::KIND_MEMSET, K::CUPTI_ACTIVITY_KIND_MEMSET as u32);
    assert_eq!(
        ids::KIND_CONCURRENT_KERNEL,
        K::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL as u32
    );
    assert_eq!(ids::KIND_MARKER, K::CUPTI_ACTIVITY_KIND_MARKER as u32);
    assert_eq!(
        ids::KIND_CUDA_EVENT,
        K::CUPTI_ACTIVITY_KIND_CUDA_EVENT as u32
    );
    assert_eq!(
        ids::KIND_SYNCHRONIZATION,
        K::CUPTI_ACTIVITY_KIND_SYNCHRONIZATION as u32
    );
    assert_eq!(
        ids::DOMAIN_DRIVER_API,
        sys::CUpti_CallbackDomain::CUPTI_CB_DOMAIN_DRIVER_API as u32
    );
    assert_eq!(
        ids::API_ENTER,
        sys::CUpti_ApiCallbackSite::CUPTI_API_ENTER as u32
    );
    assert_eq!(
        ids::API_EXIT,
        sys::CUpti_ApiCallbackSite::CUPTI_API_EXIT as u32
    );
    assert_eq!(ids::SUCCESS, sys::CUptiResult::CUPTI_SUCCESS as i32);
    assert_eq!(
        ids::ERROR_MULTIPLE_SUBSCRIBERS,
        sys::CUptiResult::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED as i32
    );
}

#[test]
fn every_callback_id_is_cuptis_and_appears_once() {
    use sys::CUpti_driver_api_trace_cbid as C;
    let expected = [
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2 as u32,
            Shape::CopyHtoD,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds as u32,
            Shape::CopyHtoD,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2 as u32,
            Shape::CopyHtoDAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz as u32,
            Shape::CopyHtoDAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2 as u32,
            Shape::CopyDtoH,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds as u32,
            Shape::CopyDtoH,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2 as u32,
            Shape::CopyDtoHAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz as u32,
            Shape::CopyDtoHAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2 as u32,
            Shape::CopyDtoD,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds as u32,
            Shape::CopyDtoD,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2 as u32,
            Shape::CopyDtoDAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz as u32,
            Shape::CopyDtoDAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy as u32,
            Shape::CopyUnified,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds as u32,
            Shape::CopyUnified,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync as u32,
            Shape::CopyUnifiedAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz as u32,
            Shape::CopyUnifiedAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer as u32,
            Shape::CopyPeer,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer_ptds as u32,
            Shape::CopyPeer,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync as u32,
            Shape::CopyPeerAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync_ptsz as u32,
            Shape::CopyPeerAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2 as u32,
            Shape::CopyDesc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2_ptds as u32,
            Shape::CopyDesc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2 as u32,
            Shape::CopyDesc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2_ptds as u32,
            Shape::CopyDesc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2 as u32,
            Shape::CopyDesc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2_ptds as u32,
            Shape::CopyDesc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer as u32,
            Shape::CopyDesc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer_ptds as u32,
            Shape::CopyDesc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2 as u32,
            Shape::CopyDescAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2_ptsz as u32,
            Shape::CopyDescAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2 as u32,
            Shape::CopyDescAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2_ptsz as u32,
            Shape::CopyDescAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync as u32,
            Shape::CopyDescAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync_ptsz as u32,
            Shape::CopyDescAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2 as u32,
            Shape::CopyBatchAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2_ptsz as u32,
            Shape::CopyBatchAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2 as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2_ptds as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2 as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2_ptds as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2 as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2_ptds as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2 as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2_ptds as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2 as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2_ptds as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2 as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2_ptsz as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2 as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2_ptsz as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2 as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2_ptsz as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2 as u32,
            Shape::SetD8,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds as u32,
            Shape::SetD8,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async as u32,
            Shape::SetD8Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz as u32,
            Shape::SetD8Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2 as u32,
            Shape::SetD16,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds as u32,
            Shape::SetD16,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async as u32,
            Shape::SetD16Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz as u32,
            Shape::SetD16Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2 as u32,
            Shape::SetD32,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds as u32,
            Shape::SetD32,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async as u32,
            Shape::SetD32Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz as u32,
            Shape::SetD32Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2 as u32,
            Shape::Set2D8,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2_ptds as u32,
            Shape::Set2D8,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async as u32,
            Shape::Set2D8Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async_ptsz as u32,
            Shape::Set2D8Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2 as u32,
            Shape::Set2D16,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2_ptds as u32,
            Shape::Set2D16,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async as u32,
            Shape::Set2D16Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async_ptsz as u32,
            Shape::Set2D16Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2 as u32,
            Shape::Set2D32,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2_ptds as u32,
            Shape::Set2D32,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async as u32,
            Shape::Set2D32Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async_ptsz as u32,
            Shape::Set2D32Async,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel as u32,
            Shape::Launch,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz as u32,
            Shape::Launch,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel as u32,
            Shape::LaunchCoop,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz as u32,
            Shape::LaunchCoop,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx as u32,
            Shape::LaunchEx,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz as u32,
            Shape::LaunchEx,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamCreate as u32,
            Shape::StreamCreate,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamCreateWithPriority as u32,
            Shape::StreamCreatePrio,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2 as u32,
            Shape::StreamHandle,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize as u32,
            Shape::StreamHandle,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz as u32,
            Shape::StreamHandle,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamQuery as u32,
            Shape::StreamHandle,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz as u32,
            Shape::StreamHandle,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent as u32,
            Shape::StreamWaitEvent,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz as u32,
            Shape::StreamWaitEvent,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuEventCreate as u32,
            Shape::EventCreate,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuEventRecord as u32,
            Shape::EventRecord,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz as u32,
            Shape::EventRecord,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags as u32,
            Shape::EventRecordFlags,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz as u32,
            Shape::EventRecordFlags,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize as u32,
            Shape::EventHandle,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuEventQuery as u32,
            Shape::EventHandle,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuEventDestroy_v2 as u32,
            Shape::EventHandle,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize as u32,
            Shape::Plain,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2 as u32,
            Shape::CtxSync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2 as u32,
            Shape::MemAlloc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2 as u32,
            Shape::MemAllocPitch,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged as u32,
            Shape::MemAllocManaged,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2 as u32,
            Shape::MemFree,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2 as u32,
            Shape::MemAllocHost,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc as u32,
            Shape::MemHostAlloc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost as u32,
            Shape::MemFreeHost,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2 as u32,
            Shape::MemHostRegister,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister as u32,
            Shape::MemHostUnregister,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync as u32,
            Shape::MemAllocAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz as u32,
            Shape::MemAllocAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync as u32,
            Shape::MemAllocPoolAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz as u32,
            Shape::MemAllocPoolAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync as u32,
            Shape::MemFreeAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz as u32,
            Shape::MemFreeAsync,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc as u32,
            Shape::HostFunc,
        ),
        (
            C::CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz as u32,
            Shape::HostFunc,
        ),
    ];
    assert_eq!(
        expected.len(),
        ids::DRIVER_CALLS.len(),
        "every call in the table is checked here"
    );
    for (i, (cbid, shape)) in expected.iter().enumerate() {
        assert_eq!(ids::DRIVER_CALLS[i], (*cbid, *shape), "entry {i}");
    }
    let mut seen: Vec<u32> = ids::DRIVER_CALLS.iter().map(|(id, _)| *id).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(
        seen.len(),
        ids::DRIVER_CALLS.len(),
        "a callback id listed twice"
    );
}
