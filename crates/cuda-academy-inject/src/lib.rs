//! The CUPTI injection library behind `cuda-academy trace`. CUDA loads it into an unmodified
//! program through `CUDA_INJECTION64_PATH` and calls [`InitializeInjection`] during `cuInit`
//! (NVIDIA's documented mechanism for tools; `LD_PRELOAD` would miss nvcc's statically linked
//! runtime). It subscribes to the driver API callbacks and enables activity records, and streams
//! both to the trace file named by [`TRACE_FILE_ENV`] as JSON lines (`sink`): a `header` line
//! first (format version, this library's version, the driver's and CUPTI's versions, and whether
//! tracing started), then one line per record, and an `end` line from the exit flush.
//!
//! Rules every entry point keeps, because it runs inside someone else's program:
//! - nothing unwinds across the FFI boundary: each `extern "C"` entry catches panics, and the
//!   panic hook writes a `note` line instead of printing;
//! - nothing is printed to the program's stdout or stderr;
//! - it fails open: without libcupti, or with another CUPTI client already subscribed, the
//!   program runs untraced and the header's `status` and `detail` say why.
//!
//! No crate dependencies: `build.rs` of the main crate compiles this file with a bare `rustc`
//! and embeds the result in the `cuda-academy` binary.
// The whole crate is an FFI boundary: dlopen/dlsym, CUPTI's callbacks, raw records.
#![allow(unsafe_code)]

pub mod activity;
pub mod api;
pub mod cupti;
pub mod decode;
pub mod ids;
pub mod json;
pub mod layout;
pub mod params;
pub mod sink;

#[cfg(test)]
mod layout_tests;

use core::ffi::{c_int, c_void};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use cupti::Cupti;
use json::Line;

/// The version of the trace file's layout, in its header; bumped when a field changes meaning
/// or goes away.
pub const FORMAT_VERSION: u64 = 1;

/// The environment variable that names the trace file (set by `cuda-academy trace`).
pub const TRACE_FILE_ENV: &str = "CUDA_ACADEMY_TRACE_FILE";

/// This library's version (the main crate's, passed by `build.rs` to `rustc`).
pub const VERSION: &str = match option_env!("CARGO_PKG_VERSION") {
    Some(v) => v,
    None => "unknown",
};

/// The loaded libcupti, once tracing started.
static CUPTI: OnceLock<Cupti> = OnceLock::new();
/// Whether API records ask CUPTI for each stream's id (`cuptiGetStreamId` inside the callback).
static ASK_STREAM_IDS: AtomicBool = AtomicBool::new(true);
/// `InitializeInjection` ran (CUDA may call it once per process; a second call does nothing).
static STARTED: AtomicBool = AtomicBool::new(false);

/// Called by CUDA during `cuInit` when `CUDA_INJECTION64_PATH` names this library. Returns 1
/// whatever happens: a failure means the program runs untraced, never that it stops.
#[unsafe(no_mangle)]
pub extern "C" fn InitializeInjection() -> c_int {
    let _ = std::panic::catch_unwind(start);
    1
}

/// NVTX's injection entry (`NVTX_INJECTION64_PATH`): handed on to libcupti's own, which turns
/// NVTX ranges and marks into `CUPTI_ACTIVITY_KIND_MARKER` records. 0 (NVTX stays off) when
/// libcupti cannot be loaded.
///
/// # Safety
/// Called by NVTX with its export-table accessor.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn InitializeInjectionNvtx2(get_export_table: *const c_void) -> c_int {
    std::panic::catch_unwind(|| match cupti::nvtx_entry() {
        // SAFETY: libcupti's InitializeInjectionNvtx2 has this very signature.
        Some(entry) => unsafe { entry(get_export_table) },
        None => 0,
    })
    .unwrap_or(0)
}

/// The header line: what was traced and with what.
fn header(status: &str, detail: &str, cupti: Option<&Cupti>) -> String {
    let mut line = Line::new("header")
        .u64("format_version", FORMAT_VERSION)
        .str("tool", "cuda-academy-inject")
        .str("tool_version", VERSION)
        .u64("pid", u64::from(std::process::id()))
        .str("status", status)
        .str("detail", detail);
    if let Some(v) = cupti::driver_version() {
        line = line.i64("driver_version", v.into());
    }
    if let Some(c) = cupti {
        line = line.str("cupti_path", &c.path);
        if let Some(v) = c.version() {
            line = line.u64("cupti_version", v.into());
        }
    }
    line.finish()
}

fn note(text: &str) -> String {
    Line::new("note").str("text", text).finish()
}

/// Open the trace file, load CUPTI, subscribe, enable, and register the exit flush.
fn start() {
    if STARTED.swap(true, Ordering::SeqCst) {
        return;
    }
    let Ok(path) = std::env::var(TRACE_FILE_ENV) else {
        return;
    };
    std::panic::set_hook(Box::new(|info| {
        sink::emit(&note(&format!(
            "the trace library panicked (tracing may be incomplete): {info}"
        )))
    }));
    if sink::open(&path).is_err() {
        // Nowhere to say it: the program runs untraced, and `trace` finds no file.
        return;
    }
    let stop = |status: &str, detail: &str, cupti: Option<&Cupti>| {
        sink::emit(&header(status, detail, cupti));
        if let Some(s) = sink::global().as_mut() {
            let _ = s.flush_through();
        }
    };
    let loaded = match Cupti::load() {
        Ok(c) => c,
        Err(why) => return stop("no_cupti", &why, None),
    };
    let cupti = CUPTI.get_or_init(|| loaded);
    let mut subscriber = 0usize;
    // SAFETY: on_api has CUpti_CallbackFunc's signature; subscriber is written on success.
    let result = unsafe { (cupti.subscribe)(&mut subscriber, api::on_api, core::ptr::null_mut()) };
    if result == ids::ERROR_MULTIPLE_SUBSCRIBERS {
        return stop(
            "another_cupti_client",
            "another CUPTI client already traces this program (Nsight Systems, Nsight Compute, or the program's own CUPTI use); CUPTI allows one at a time",
            Some(cupti),
        );
    }
    if result != ids::SUCCESS {
        return stop(
            "cupti_error",
            &format!("cuptiSubscribe failed: {}", cupti.describe(result)),
            Some(cupti),
        );
    }
    let mut notes = Vec::new();
    let refused = ids::DRIVER_CALLS
        .iter()
        // SAFETY: enabling one callback id of the driver domain on our subscriber.
        .filter(|(cbid, _)| unsafe { (cupti.enable_callback)(1, subscriber, ids::DOMAIN_DRIVER_API, *cbid) } != ids::SUCCESS)
        .count();
    if refused > 0 {
        notes.push(format!(
            "{refused} driver API callbacks were refused by this libcupti (calls it does not know)"
        ));
    }
    // SAFETY: both have the CUPTI buffer callbacks' signatures.
    let registered = unsafe {
        (cupti.register_callbacks)(activity::buffer_requested, activity::buffer_completed)
    };
    if registered != ids::SUCCESS {
        notes.push(format!(
            "no GPU activity recorded: cuptiActivityRegisterCallbacks failed: {}",
            cupti.describe(registered)
        ));
    } else {
        for (kind, name) in ids::ACTIVITY_KINDS {
            // SAFETY: enabling one activity kind.
            let r = unsafe { (cupti.activity_enable)(kind) };
            if r != ids::SUCCESS {
                notes.push(format!(
                    "activity kind {name} not recorded: {}",
                    cupti.describe(r)
                ));
            }
        }
        if let Some(period) = cupti.flush_period {
            // SAFETY: one u32, milliseconds. Records reach the file within a second even if the
            // program is killed later.
            let _ = unsafe { period(1000) };
        }
    }
    unsafe extern "C" {
        fn atexit(callback: extern "C" fn()) -> c_int;
    }
    // SAFETY: at_exit never unwinds, and this library is never unloaded.
    if unsafe { atexit(at_exit) } != 0 {
        notes.push(
            "the exit flush could not be registered: the last records may be missing".to_string(),
        );
    }
    sink::emit(&header("ok", "", Some(cupti)));
    for n in notes {
        sink::emit(&note(&n));
    }
    // On disk at once: a program killed before any other flush still leaves a trace (marked
    // incomplete), never an empty file that reads as "no CUDA activity".
    sink::flush();
}

/// At `exit()` (from any thread): force CUPTI to hand over every buffer, write the `end` line,
/// and write everything after it straight through.
extern "C" fn at_exit() {
    let _ = std::panic::catch_unwind(|| {
        if let Some(cupti) = CUPTI.get() {
            // SAFETY: CUPTI_ACTIVITY_FLAG_FLUSH_FORCED (1): incomplete buffers too.
            let _ = unsafe { (cupti.flush_all)(1) };
        }
        let mut guard = sink::global();
        if let Some(s) = guard.as_mut() {
            let lost = s.lost();
            s.write_line(
                &Line::new("end")
                    .str("reason", "exit")
                    .u64("lost_lines", lost)
                    .finish(),
            );
            let _ = s.flush_through();
        }
    });
}
