//! Decoding without a GPU: parameter structs built in memory, a stand-in for libcupti whose
//! `cuptiGetStreamId` answers 42 for every stream, and the line each call becomes.

use core::ffi::{c_char, c_void};

use super::*;
use crate::cupti::{BufferCompleted, BufferRequested, CallbackFunc, Cupti};

unsafe extern "C" fn subscribe(_: *mut usize, _: CallbackFunc, _: *mut c_void) -> i32 {
    0
}
unsafe extern "C" fn enable_callback(_: u32, _: usize, _: u32, _: u32) -> i32 {
    0
}
unsafe extern "C" fn register(_: BufferRequested, _: BufferCompleted) -> i32 {
    0
}
unsafe extern "C" fn one_u32(_: u32) -> i32 {
    0
}
unsafe extern "C" fn next(_: *mut u8, _: usize, _: *mut *mut c_void) -> i32 {
    1
}
unsafe extern "C" fn dropped(_: usize, _: u32, _: *mut usize) -> i32 {
    0
}
unsafe extern "C" fn timestamp(_: *mut u64) -> i32 {
    0
}
unsafe extern "C" fn version(_: *mut u32) -> i32 {
    0
}
unsafe extern "C" fn result_string(_: i32, _: *mut *const c_char) -> i32 {
    1
}
unsafe extern "C" fn stream_id(_: usize, _: usize, id: *mut u32) -> i32 {
    // SAFETY: the caller passes a valid out-pointer.
    unsafe { *id = 42 };
    0
}

fn fake_cupti() -> Cupti {
    Cupti {
        subscribe,
        enable_callback,
        register_callbacks: register,
        activity_enable: one_u32,
        get_next_record: next,
        dropped_records: dropped,
        flush_all: one_u32,
        get_timestamp: timestamp,
        get_version: version,
        result_string,
        get_stream_id: stream_id,
        flush_period: None,
        path: "fake".into(),
    }
}

fn callback_data(symbol: *const c_char) -> CallbackData {
    CallbackData {
        callbackSite: crate::ids::API_EXIT,
        functionName: core::ptr::null(),
        functionParams: core::ptr::null(),
        functionReturnValue: core::ptr::null_mut(),
        symbolName: symbol,
        context: 7,
        contextUid: 1,
        correlationData: core::ptr::null_mut(),
        correlationId: 9,
    }
}

/// `params` decoded as `shape`, the fields after `"t":"api"`.
fn decoded<T>(shape: Shape, params: &T, ok: bool, symbol: *const c_char, name: &str) -> String {
    let cupti = fake_cupti();
    let args = Args {
        cupti: &cupti,
        ctx: 7,
        params: (params as *const T).cast(),
        ok,
    };
    let data = callback_data(symbol);
    // SAFETY: params is a T, the shape's struct (each test pairs them).
    let line = unsafe { args.decode(shape, Line::new("api"), &data, name) }.finish();
    line.trim_start_matches("{\"t\":\"api\"")
        .trim_start_matches(',')
        .trim_end_matches("}\n")
        .to_string()
}

#[test]
fn an_async_upload_has_its_addresses_bytes_and_stream_with_its_cupti_id() {
    let p = CopyHtoDAsync {
        dstDevice: 0x7f00,
        srcHost: 0x5500,
        ByteCount: 4096,
        hStream: 0x99,
    };
    assert_eq!(
        decoded(
            Shape::CopyHtoDAsync,
            &p,
            true,
            core::ptr::null(),
            "cuMemcpyHtoDAsync_v2"
        ),
        "\"copy\":\"htod\",\"dst\":32512,\"src\":21760,\"bytes\":4096,\"stream\":153,\"stream_id\":42"
    );
}

#[test]
fn a_launch_ex_reads_its_configuration_and_the_kernel_name() {
    let config = LaunchConfig {
        gridDimX: 8,
        gridDimY: 2,
        gridDimZ: 1,
        blockDimX: 128,
        blockDimY: 1,
        blockDimZ: 1,
        sharedMemBytes: 64,
        hStream: 0,
        attrs: 0,
        numAttrs: 0,
    };
    let p = LaunchEx {
        config: &raw const config,
        f: 5,
        kernelParams: 0,
        extra: 0,
    };
    let name = c"_Z4stepPf";
    assert_eq!(
        decoded(Shape::LaunchEx, &p, true, name.as_ptr(), "cuLaunchKernelEx"),
        "\"func\":5,\"kernel\":\"_Z4stepPf\",\"grid\":[8,2,1],\"block\":[128,1,1],\"shared\":64,\"stream\":0,\"stream_id\":42"
    );
}

#[test]
fn outputs_are_read_only_when_the_call_succeeded() {
    let mut stream: Handle = 0xabc;
    let p = StreamCreate {
        phStream: &raw mut stream,
        Flags: 1,
    };
    assert_eq!(
        decoded(
            Shape::StreamCreate,
            &p,
            true,
            core::ptr::null(),
            "cuStreamCreate"
        ),
        "\"flags\":1,\"stream\":2748,\"stream_id\":42"
    );
    assert_eq!(
        decoded(
            Shape::StreamCreate,
            &p,
            false,
            core::ptr::null(),
            "cuStreamCreate"
        ),
        "\"flags\":1"
    );
    let mut dptr: DevicePtr = 0x1000;
    let p = MemAllocAsync {
        dptr: &raw mut dptr,
        bytesize: 256,
        hStream: 3,
    };
    assert_eq!(
        decoded(
            Shape::MemAllocAsync,
            &p,
            true,
            core::ptr::null(),
            "cuMemAllocAsync"
        ),
        "\"mem\":\"device\",\"bytes\":256,\"ptr\":4096,\"stream\":3,\"stream_id\":42"
    );
}

#[test]
fn a_destroyed_stream_is_not_asked_for_its_id_and_a_2d_memset_has_its_shape() {
    let p = StreamHandle { hStream: 0x10 };
    assert_eq!(
        decoded(
            Shape::StreamHandle,
            &p,
            true,
            core::ptr::null(),
            "cuStreamDestroy_v2"
        ),
        "\"stream\":16"
    );
    assert_eq!(
        decoded(
            Shape::StreamHandle,
            &p,
            true,
            core::ptr::null(),
            "cuStreamSynchronize"
        ),
        "\"stream\":16,\"stream_id\":42"
    );
    let p = Set2D16Async {
        dstDevice: 0x2000,
        dstPitch: 512,
        us: 7,
        Width: 100,
        Height: 3,
        hStream: 0,
    };
    assert_eq!(
        decoded(
            Shape::Set2D16Async,
            &p,
            true,
            core::ptr::null(),
            "cuMemsetD2D16Async"
        ),
        "\"dst\":8192,\"value\":7,\"elem\":2,\"count\":100,\"pitch\":512,\"height\":3,\"stream\":0,\"stream_id\":42"
    );
}

#[test]
fn plain_calls_and_missing_parameters_add_nothing() {
    let p = MemFree { dptr: 1 };
    assert_eq!(
        decoded(
            Shape::Plain,
            &p,
            true,
            core::ptr::null(),
            "cuCtxSynchronize"
        ),
        ""
    );
}
