//! The driver API callback: at a call's entry it notes CUPTI's clock in the call's own
//! correlation slot; at its exit it writes one `api` line with the call's name, correlation id,
//! calling thread, start and end, result, and the arguments read from `functionParams` (valid
//! only inside the callback, so they are taken here): pointers, sizes, streams and their CUPTI
//! ids, events, flags, launch configurations, and what the call returned through its output
//! pointers (a new stream, event or allocation).

use core::ffi::{c_char, c_void};
use std::ffi::CStr;

use crate::cupti::Cupti;
use crate::ids::{self, Shape};
use crate::json::Line;
use crate::layout::*;

/// `CUpti_CallbackFunc`, registered by `cuptiSubscribe`.
///
/// # Safety
/// Called by CUPTI with `data` pointing at a `CUpti_CallbackData` for the driver domain.
pub unsafe extern "C" fn on_api(_user: *mut c_void, domain: u32, cbid: u32, data: *const c_void) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if domain != ids::DOMAIN_DRIVER_API || data.is_null() {
            return;
        }
        let Some(cupti) = crate::CUPTI.get() else {
            return;
        };
        // SAFETY: CUPTI passes a valid CUpti_CallbackData for the driver domain.
        let data = unsafe { &*data.cast::<CallbackData>() };
        match data.callbackSite {
            ids::API_ENTER if !data.correlationData.is_null() => {
                // SAFETY: correlationData is this call's own u64 slot, kept from entry to exit.
                unsafe { *data.correlationData = cupti.now() };
            }
            ids::API_EXIT => {
                // SAFETY: as above; the parameters are valid for the callback's duration.
                let line = unsafe { api_line(cupti, cbid, data) };
                crate::sink::emit(&line);
            }
            _ => {}
        }
    }));
}

/// A C string CUPTI owns, copied (NULL is empty).
///
/// # Safety
/// `text` is NULL or NUL-terminated.
pub unsafe fn c_text(text: *const c_char) -> String {
    if text.is_null() {
        return String::new();
    }
    // SAFETY: the caller's promise.
    unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

/// The calling thread's kernel id (what `ps -L` and a debugger show).
fn thread_id() -> u64 {
    unsafe extern "C" {
        fn syscall(number: core::ffi::c_long, ...) -> core::ffi::c_long;
    }
    #[cfg(target_arch = "x86_64")]
    const SYS_GETTID: core::ffi::c_long = 186;
    #[cfg(not(target_arch = "x86_64"))]
    const SYS_GETTID: core::ffi::c_long = 178;
    // SAFETY: gettid takes no arguments and cannot fail.
    u64::try_from(unsafe { syscall(SYS_GETTID) }).unwrap_or(0)
}

/// # Safety
/// `data` is the callback's data at `CUPTI_API_EXIT`.
unsafe fn api_line(cupti: &Cupti, cbid: u32, data: &CallbackData) -> String {
    let start = if data.correlationData.is_null() {
        0
    } else {
        // SAFETY: written at entry (or zero).
        unsafe { *data.correlationData }
    };
    let end = cupti.now();
    let result = if data.functionReturnValue.is_null() {
        -1
    } else {
        // SAFETY: a driver call's return value is a CUresult (an int).
        i64::from(unsafe { *data.functionReturnValue.cast::<i32>() })
    };
    // SAFETY: functionName is a static C string (or NULL).
    let name = unsafe { c_text(data.functionName) };
    let line = Line::new("api")
        .str("name", &name)
        .u64("cbid", u64::from(cbid))
        .u64("corr", u64::from(data.correlationId))
        .u64("tid", thread_id())
        .u64("start", start)
        .u64("end", end)
        .i64("ret", result)
        .u64("ctx", data.context as u64);
    let Some(shape) = ids::shape_of(cbid) else {
        return line.finish();
    };
    let at = Args {
        cupti,
        ctx: data.context,
        params: data.functionParams,
        ok: result == 0,
    };
    // SAFETY: params has the layout of `shape` (the table in ids.rs, checked by the tests).
    let line = unsafe { at.decode(shape, line, data, &name) };
    line.finish()
}

/// What decoding one call's parameters needs.
struct Args<'a> {
    cupti: &'a Cupti,
    ctx: Handle,
    params: *const c_void,
    /// The call succeeded, so its output pointers hold results.
    ok: bool,
}

impl Args<'_> {
    /// The parameters as `T`.
    ///
    /// # Safety
    /// `params` points at a `T`.
    unsafe fn get<T: Copy>(&self) -> T {
        // SAFETY: the caller's promise; read unaligned since CUPTI promises no alignment.
        unsafe { self.params.cast::<T>().read_unaligned() }
    }

    /// A value the call wrote through `out`, once it succeeded.
    ///
    /// # Safety
    /// `out` is NULL or points at a `T` the call wrote.
    unsafe fn output<T: Copy + Into<u64>>(&self, out: *const T) -> Option<u64> {
        // SAFETY: the caller's promise.
        (self.ok && !out.is_null()).then(|| unsafe { out.read_unaligned() }.into())
    }

    /// `stream` (the handle) and `stream_id` (CUPTI's id, as activity records carry it; not
    /// asked with `CUDA_ACADEMY_TRACE_NO_STREAM_ID` set, should asking ever misbehave).
    fn stream(&self, line: Line, handle: Handle) -> Line {
        let line = line.u64("stream", handle as u64);
        if !crate::ASK_STREAM_IDS.load(std::sync::atomic::Ordering::Relaxed) {
            return line;
        }
        let mut id = 0u32;
        // SAFETY: cuptiGetStreamId reads the two handles and writes one u32.
        let known =
            self.ctx != 0 && unsafe { (self.cupti.get_stream_id)(self.ctx, handle, &mut id) } == 0;
        if known {
            line.u64("stream_id", u64::from(id))
        } else {
            line
        }
    }

    /// # Safety
    /// `params` has the layout of `shape`; `data` is the callback's data.
    unsafe fn decode(&self, shape: Shape, line: Line, data: &CallbackData, name: &str) -> Line {
        if self.params.is_null() {
            return line;
        }
        macro_rules! p {
            ($t:ty) => {
                // SAFETY: the caller's promise that params is a $t.
                unsafe { self.get::<$t>() }
            };
        }
        let copy = |line: Line, kind: &str, dst: u64, src: u64, bytes: usize| {
            line.str("copy", kind)
                .u64("dst", dst)
                .u64("src", src)
                .u64("bytes", bytes as u64)
        };
        let set = |line: Line,
                   dst: u64,
                   value: u64,
                   width: u64,
                   count: usize,
                   pitch: Option<usize>,
                   height: Option<usize>| {
            let line = line
                .u64("dst", dst)
                .u64("value", value)
                .u64("elem", width)
                .u64("count", count as u64);
            match (pitch, height) {
                (Some(pitch), Some(height)) => {
                    line.u64("pitch", pitch as u64).u64("height", height as u64)
                }
                _ => line,
            }
        };
        let dims = |line: Line, g: [u32; 3], b: [u32; 3], shared: u32| {
            // SAFETY: symbolName is the kernel's name on launch callbacks (or NULL).
            let kernel = unsafe { c_text(data.symbolName) };
            line.str("kernel", &kernel)
                .dim3("grid", g.map(u64::from))
                .dim3("block", b.map(u64::from))
                .u64("shared", u64::from(shared))
        };
        match shape {
            Shape::Plain => line,
            Shape::CopyHtoD => {
                let a = p!(CopyHtoD);
                copy(line, "htod", a.dstDevice, a.srcHost as u64, a.ByteCount)
            }
            Shape::CopyHtoDAsync => {
                let a = p!(CopyHtoDAsync);
                self.stream(
                    copy(line, "htod", a.dstDevice, a.srcHost as u64, a.ByteCount),
                    a.hStream,
                )
            }
            Shape::CopyDtoH => {
                let a = p!(CopyDtoH);
                copy(line, "dtoh", a.dstHost as u64, a.srcDevice, a.ByteCount)
            }
            Shape::CopyDtoHAsync => {
                let a = p!(CopyDtoHAsync);
                self.stream(
                    copy(line, "dtoh", a.dstHost as u64, a.srcDevice, a.ByteCount),
                    a.hStream,
                )
            }
            Shape::CopyDtoD => {
                let a = p!(CopyDtoD);
                copy(line, "dtod", a.dstDevice, a.srcDevice, a.ByteCount)
            }
            Shape::CopyDtoDAsync => {
                let a = p!(CopyDtoDAsync);
                self.stream(
                    copy(line, "dtod", a.dstDevice, a.srcDevice, a.ByteCount),
                    a.hStream,
                )
            }
            Shape::CopyUnified => {
                let a = p!(CopyUnified);
                copy(line, "default", a.dst, a.src, a.ByteCount)
            }
            Shape::CopyUnifiedAsync => {
                let a = p!(CopyUnifiedAsync);
                self.stream(copy(line, "default", a.dst, a.src, a.ByteCount), a.hStream)
            }
            Shape::CopyPeer => {
                let a = p!(CopyPeer);
                copy(line, "peer", a.dstDevice, a.srcDevice, a.ByteCount)
                    .u64("dst_ctx", a.dstContext as u64)
                    .u64("src_ctx", a.srcContext as u64)
            }
            Shape::CopyPeerAsync => {
                let a = p!(CopyPeerAsync);
                self.stream(
                    copy(line, "peer", a.dstDevice, a.srcDevice, a.ByteCount)
                        .u64("dst_ctx", a.dstContext as u64)
                        .u64("src_ctx", a.srcContext as u64),
                    a.hStream,
                )
            }
            Shape::CopyDesc => {
                let a = p!(CopyDesc);
                line.str("copy", "descriptor").u64("desc", a.pCopy as u64)
            }
            Shape::CopyDescAsync => {
                let a = p!(CopyDescAsync);
                self.stream(
                    line.str("copy", "descriptor").u64("desc", a.pCopy as u64),
                    a.hStream,
                )
            }
            Shape::CopyBatchAsync => {
                let a = p!(CopyBatchAsync);
                self.stream(
                    line.str("copy", "batch").u64("count", a.count as u64),
                    a.hStream,
                )
            }
            Shape::SetD8 => {
                let a = p!(SetD8);
                set(line, a.dstDevice, a.uc.into(), 1, a.N, None, None)
            }
            Shape::SetD8Async => {
                let a = p!(SetD8Async);
                self.stream(
                    set(line, a.dstDevice, a.uc.into(), 1, a.N, None, None),
                    a.hStream,
                )
            }
            Shape::SetD16 => {
                let a = p!(SetD16);
                set(line, a.dstDevice, a.us.into(), 2, a.N, None, None)
            }
            Shape::SetD16Async => {
                let a = p!(SetD16Async);
                self.stream(
                    set(line, a.dstDevice, a.us.into(), 2, a.N, None, None),
                    a.hStream,
                )
            }
            Shape::SetD32 => {
                let a = p!(SetD32);
                set(line, a.dstDevice, a.ui.into(), 4, a.N, None, None)
            }
            Shape::SetD32Async => {
                let a = p!(SetD32Async);
                self.stream(
                    set(line, a.dstDevice, a.ui.into(), 4, a.N, None, None),
                    a.hStream,
                )
            }
            Shape::Set2D8 => {
                let a = p!(Set2D8);
                set(
                    line,
                    a.dstDevice,
                    a.uc.into(),
                    1,
                    a.Width,
                    Some(a.dstPitch),
                    Some(a.Height),
                )
            }
            Shape::Set2D8Async => {
                let a = p!(Set2D8Async);
                self.stream(
                    set(
                        line,
                        a.dstDevice,
                        a.uc.into(),
                        1,
                        a.Width,
                        Some(a.dstPitch),
                        Some(a.Height),
                    ),
                    a.hStream,
                )
            }
            Shape::Set2D16 => {
                let a = p!(Set2D16);
                set(
                    line,
                    a.dstDevice,
                    a.us.into(),
                    2,
                    a.Width,
                    Some(a.dstPitch),
                    Some(a.Height),
                )
            }
            Shape::Set2D16Async => {
                let a = p!(Set2D16Async);
                self.stream(
                    set(
                        line,
                        a.dstDevice,
                        a.us.into(),
                        2,
                        a.Width,
                        Some(a.dstPitch),
                        Some(a.Height),
                    ),
                    a.hStream,
                )
            }
            Shape::Set2D32 => {
                let a = p!(Set2D32);
                set(
                    line,
                    a.dstDevice,
                    a.ui.into(),
                    4,
                    a.Width,
                    Some(a.dstPitch),
                    Some(a.Height),
                )
            }
            Shape::Set2D32Async => {
                let a = p!(Set2D32Async);
                self.stream(
                    set(
                        line,
                        a.dstDevice,
                        a.ui.into(),
                        4,
                        a.Width,
                        Some(a.dstPitch),
                        Some(a.Height),
                    ),
                    a.hStream,
                )
            }
            Shape::Launch => {
                let a = p!(Launch);
                self.stream(
                    dims(
                        line,
                        [a.gridDimX, a.gridDimY, a.gridDimZ],
                        [a.blockDimX, a.blockDimY, a.blockDimZ],
                        a.sharedMemBytes,
                    )
                    .u64("func", a.f as u64),
                    a.hStream,
                )
            }
            Shape::LaunchCoop => {
                let a = p!(LaunchCoop);
                self.stream(
                    dims(
                        line,
                        [a.gridDimX, a.gridDimY, a.gridDimZ],
                        [a.blockDimX, a.blockDimY, a.blockDimZ],
                        a.sharedMemBytes,
                    )
                    .u64("func", a.f as u64),
                    a.hStream,
                )
            }
            Shape::LaunchEx => {
                let a = p!(LaunchEx);
                let line = line.u64("func", a.f as u64);
                if a.config.is_null() {
                    return line;
                }
                // SAFETY: a non-NULL config points at the caller's CUlaunchConfig for the call.
                let c = unsafe { a.config.read_unaligned() };
                self.stream(
                    dims(
                        line,
                        [c.gridDimX, c.gridDimY, c.gridDimZ],
                        [c.blockDimX, c.blockDimY, c.blockDimZ],
                        c.sharedMemBytes,
                    ),
                    c.hStream,
                )
            }
            Shape::StreamCreate => {
                let a = p!(StreamCreate);
                let line = line.u64("flags", a.Flags.into());
                // SAFETY: phStream is where the call wrote the new stream.
                match unsafe { self.output(a.phStream.cast::<u64>()) } {
                    Some(s) => self.stream(line, s as Handle),
                    None => line,
                }
            }
            Shape::StreamCreatePrio => {
                let a = p!(StreamCreatePrio);
                let line = line
                    .u64("flags", a.flags.into())
                    .i64("priority", a.priority.into());
                // SAFETY: as for cuStreamCreate.
                match unsafe { self.output(a.phStream.cast::<u64>()) } {
                    Some(s) => self.stream(line, s as Handle),
                    None => line,
                }
            }
            Shape::StreamHandle => {
                let a = p!(StreamHandle);
                // The id of a stream being destroyed is no longer asked for.
                if !name.starts_with("cuStreamDestroy") {
                    self.stream(line, a.hStream)
                } else {
                    line.u64("stream", a.hStream as u64)
                }
            }
            Shape::StreamWaitEvent => {
                let a = p!(StreamWaitEvent);
                self.stream(
                    line.u64("event", a.hEvent as u64)
                        .u64("flags", a.Flags.into()),
                    a.hStream,
                )
            }
            Shape::EventCreate => {
                let a = p!(EventCreate);
                let line = line.u64("flags", a.Flags.into());
                // SAFETY: phEvent is where the call wrote the new event.
                match unsafe { self.output(a.phEvent.cast::<u64>()) } {
                    Some(e) => line.u64("event", e),
                    None => line,
                }
            }
            Shape::EventRecord => {
                let a = p!(EventRecord);
                self.stream(line.u64("event", a.hEvent as u64), a.hStream)
            }
            Shape::EventRecordFlags => {
                let a = p!(EventRecordFlags);
                self.stream(
                    line.u64("event", a.hEvent as u64)
                        .u64("flags", a.flags.into()),
                    a.hStream,
                )
            }
            Shape::EventHandle => {
                let a = p!(EventHandle);
                line.u64("event", a.hEvent as u64)
            }
            Shape::CtxSync => {
                let a = p!(CtxSync);
                line.u64("sync_ctx", a.ctx as u64)
            }
            Shape::MemAlloc => {
                let a = p!(MemAlloc);
                // SAFETY: dptr is where the call wrote the allocation.
                let ptr = unsafe { self.output(a.dptr) };
                alloc(line, "device", ptr, a.bytesize)
            }
            Shape::MemAllocPitch => {
                let a = p!(MemAllocPitch);
                // SAFETY: dptr and pPitch are where the call wrote the allocation and its pitch.
                let (ptr, pitch) =
                    unsafe { (self.output(a.dptr), self.output(a.pPitch.cast::<u64>())) };
                let bytes = pitch
                    .map_or(a.WidthInBytes, |p| p as usize)
                    .saturating_mul(a.Height);
                alloc(line, "device", ptr, bytes)
                    .u64("height", a.Height as u64)
                    .u64("pitch", pitch.unwrap_or(0))
            }
            Shape::MemAllocManaged => {
                let a = p!(MemAllocManaged);
                // SAFETY: as for cuMemAlloc.
                let ptr = unsafe { self.output(a.dptr) };
                alloc(line, "managed", ptr, a.bytesize).u64("flags", a.flags.into())
            }
            Shape::MemFree => {
                let a = p!(MemFree);
                line.str("mem", "device").u64("ptr", a.dptr)
            }
            Shape::MemAllocHost => {
                let a = p!(MemAllocHost);
                // SAFETY: pp is where the call wrote the host pointer.
                let ptr = unsafe { self.output(a.pp.cast::<u64>()) };
                alloc(line, "pinned", ptr, a.bytesize)
            }
            Shape::MemHostAlloc => {
                let a = p!(MemHostAlloc);
                // SAFETY: as for cuMemAllocHost.
                let ptr = unsafe { self.output(a.pp.cast::<u64>()) };
                alloc(line, "pinned", ptr, a.bytesize).u64("flags", a.Flags.into())
            }
            Shape::MemFreeHost => {
                let a = p!(MemFreeHost);
                line.str("mem", "pinned").u64("ptr", a.p as u64)
            }
            Shape::MemHostRegister => {
                let a = p!(MemHostRegister);
                line.str("mem", "registered")
                    .u64("ptr", a.p as u64)
                    .u64("bytes", a.bytesize as u64)
                    .u64("flags", a.Flags.into())
            }
            Shape::MemHostUnregister => {
                let a = p!(MemHostUnregister);
                line.str("mem", "registered").u64("ptr", a.p as u64)
            }
            Shape::MemAllocAsync => {
                let a = p!(MemAllocAsync);
                // SAFETY: as for cuMemAlloc.
                let ptr = unsafe { self.output(a.dptr) };
                self.stream(alloc(line, "device", ptr, a.bytesize), a.hStream)
            }
            Shape::MemAllocPoolAsync => {
                let a = p!(MemAllocPoolAsync);
                // SAFETY: as for cuMemAlloc.
                let ptr = unsafe { self.output(a.dptr) };
                self.stream(
                    alloc(line, "device", ptr, a.bytesize).u64("pool", a.pool as u64),
                    a.hStream,
                )
            }
            Shape::MemFreeAsync => {
                let a = p!(MemFreeAsync);
                self.stream(line.str("mem", "device").u64("ptr", a.dptr), a.hStream)
            }
            Shape::HostFunc => {
                let a = p!(HostFunc);
                self.stream(
                    line.u64("host_fn", a.fn_ as u64)
                        .u64("user_data", a.userData as u64),
                    a.hStream,
                )
            }
        }
    }
}

/// An allocation's memory kind, address (when the call succeeded) and size.
fn alloc(line: Line, mem: &str, ptr: Option<u64>, bytes: usize) -> Line {
    let line = line.str("mem", mem).u64("bytes", bytes as u64);
    match ptr {
        Some(ptr) => line.u64("ptr", ptr),
        None => line,
    }
}
