//! The driver API callback: at a call's entry it notes CUPTI's clock in the call's own
//! correlation slot; at its exit it writes one `api` line with the call's name, correlation id,
//! calling thread, start and end, result, and the arguments read from `functionParams` (valid
//! only inside the callback, so they are taken here): pointers, sizes, streams and their CUPTI
//! ids, events, flags, launch configurations, and what the call returned through its output
//! pointers (a new stream, event or allocation).

use core::ffi::{c_char, c_void};
use std::ffi::CStr;

use crate::cupti::Cupti;
use crate::ids;
use crate::json::Line;
use crate::layout::*;

/// `CUpti_CallbackFunc`, registered by `cuptiSubscribe`.
///
/// # Safety
/// Called by CUPTI with `data` pointing at a `CUpti_CallbackData` for the driver domain.
pub unsafe extern "C" fn on_api(_user: *mut c_void, domain: u32, cbid: u32, data: *const c_void) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // The library's own parameter query (`params`) is not the program's call.
        if domain != ids::DOMAIN_DRIVER_API || data.is_null() || crate::params::querying() {
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

/// What decoding one call's parameters needs (`decode.rs`).
pub struct Args<'a> {
    pub cupti: &'a Cupti,
    pub ctx: Handle,
    pub params: *const c_void,
    /// The call succeeded, so its output pointers hold results.
    pub ok: bool,
}

impl Args<'_> {
    /// The parameters as `T`.
    ///
    /// # Safety
    /// `params` points at a `T`.
    pub unsafe fn get<T: Copy>(&self) -> T {
        // SAFETY: the caller's promise; read unaligned since CUPTI promises no alignment.
        unsafe { self.params.cast::<T>().read_unaligned() }
    }

    /// A value the call wrote through `out`, once it succeeded.
    ///
    /// # Safety
    /// `out` is NULL or points at a `T` the call wrote.
    pub unsafe fn output<T: Copy + Into<u64>>(&self, out: *const T) -> Option<u64> {
        // SAFETY: the caller's promise.
        (self.ok && !out.is_null()).then(|| unsafe { out.read_unaligned() }.into())
    }

    /// `stream` (the handle) and `stream_id` (CUPTI's id, as activity records carry it; not
    /// asked with `CUDA_ACADEMY_TRACE_NO_STREAM_ID` set, should asking ever misbehave).
    pub fn stream(&self, line: Line, handle: Handle) -> Line {
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
}
