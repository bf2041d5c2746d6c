//! CUPTI activity records: the real device start and end of every copy and kernel, and the copy
//! channel that ran each copy.
//!
//! An event recorded before a copy fires when its stream reaches it, not when a copy engine starts
//! the copy, so a copy queued behind another stream's copy would seem to overlap it. CUPTI's
//! records carry the device's own timestamps, which is what the timeline must show.
//!
//! Records are read by field offset rather than through one versioned bindgen struct, because the
//! record version follows the libcupti that is loaded at run time, not the one cudarc was built
//! against; the leading fields we read have kept their offsets across versions (checked by a
//! test against the bindings).
#![allow(unsafe_code)]

use std::alloc::Layout;
use std::sync::{Mutex, OnceLock};

use cudarc::cupti::result::{CuptiError, activity};
use cudarc::cupti::sys::{self, CUpti_ActivityKind};
use cudarc::driver::sys::CUcontext;

/// What a record describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecKind {
    H2d,
    D2h,
    /// Device-to-device and other copies: not issued by the backend, ignored.
    OtherCopy,
    Kernel,
}

/// One activity record, reduced to what the timeline needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub kind: RecKind,
    pub bytes: u64,
    pub start_ns: u64,
    pub end_ns: u64,
    /// The driver API call that issued it; increases in issue order.
    pub correlation: u32,
    /// The copy channel (copies only, where CUPTI reports one).
    pub channel: Option<u32>,
}

const BUFFER_BYTES: usize = 1 << 20;
/// Activity buffers, kept for reuse (addresses: raw pointers are not `Send`). A fresh buffer
/// costs page faults when CUPTI first writes it: a few hundred microseconds inside the first
/// timed call after a flush, seen on an H200. Reused buffers have their pages already.
static POOL: Mutex<Vec<usize>> = Mutex::new(Vec::new());
static RECORDS: Mutex<Vec<Record>> = Mutex::new(Vec::new());
/// (correlation id, external id) pairs from external-correlation records.
static LINKS: Mutex<Vec<(u32, u64)>> = Mutex::new(Vec::new());
static ATTACHED: Mutex<bool> = Mutex::new(false);

mod parse;
pub use parse::offsets;
use parse::{Parsed, parse};
static PRESENT: OnceLock<Result<(), String>> = OnceLock::new();

fn layout() -> Option<Layout> {
    Layout::from_size_align(BUFFER_BYTES, 8).ok()
}

fn err(call: &str, e: CuptiError) -> String {
    format!("{call} failed: {e}")
}

/// Whether CUPTI can be used: the library loads (probed once, without initialising CUPTI, so
/// a backend that never records a timeline pays nothing for it). Setting
/// `CUDA_ACADEMY_NO_CUPTI` turns it off (to use, or test, the event fallback).
pub fn available() -> Result<(), String> {
    PRESENT
        .get_or_init(|| {
            if std::env::var_os("CUDA_ACADEMY_NO_CUPTI").is_some() {
                return Err("CUPTI disabled by CUDA_ACADEMY_NO_CUPTI".into());
            }
            // SAFETY: only tries `dlopen` on candidate names; never panics.
            if !unsafe { sys::is_culib_present() } {
                return Err(
                    "libcupti.so could not be loaded (it ships with the CUDA toolkit; \
                            put its folder on LD_LIBRARY_PATH)"
                        .into(),
                );
            }
            let gone: Vec<&str> = CALLS
                .iter()
                .filter(|n| !exported(n))
                .filter_map(|n| n.to_str().ok())
                .collect();
            if !gone.is_empty() {
                return Err(format!(
                    "the loaded libcupti lacks {} (it is older than, or incomplete for, the \
                     CUDA 13.0 CUPTI this build uses; install the toolkit's CUPTI)",
                    gone.join(", ")
                ));
            }
            Ok(())
        })
        .clone()
}

/// Every CUPTI entry point used here: a libcupti lacking one is not used (cudarc would panic
/// at the first call of a missing one), so timelines fall back to events.
const CALLS: &[&std::ffi::CStr] = &[
    c"cuptiActivityRegisterCallbacks",
    c"cuptiFinalize",
    c"cuptiGetTimestamp",
    c"cuptiGetResultString",
    c"cuptiActivityPushExternalCorrelationId",
    c"cuptiActivityPopExternalCorrelationId",
    c"cuptiActivityEnable",
    c"cuptiActivityEnableContext",
    c"cuptiActivityDisable",
    c"cuptiActivityDisableContext",
    c"cuptiActivityFlushAll",
    c"cuptiActivityGetNextRecord",
];

/// Whether the libcupti cudarc loads exports `name` (a `dlsym`; nothing is called).
fn exported(name: &std::ffi::CStr) -> bool {
    crate::gpu::quiet::catch_quietly(|| {
        // SAFETY: `culib` is the library cudarc loads (it panics, caught here, when none
        // loads); `get` only looks the name up.
        unsafe {
            sys::culib()
                .get::<unsafe extern "C" fn()>(name.to_bytes_with_nul())
                .is_ok()
        }
    })
    .unwrap_or(false)
}

/// Measurement switches for the instrumentation's cost (issue 10 §4), read once from
/// `CUDA_ACADEMY_CUPTI` (comma-separated): `attach-once` keeps CUPTI attached from the first
/// recording to the end of the run, `no-tags` issues ops without their external-correlation
/// tag (records are then matched by position). Unset: CUPTI is finalised after every recording
/// and every op is tagged. Detaching after each recording is the default because it measured
/// cheaper: on the H200 (2026-12-01, medians of 9 pipeline runs) the recorded run cost 1.4%
/// more than the timed runs when CUPTI was detached after each recording and 8.4% when it
/// stayed attached (BENCHMARKS.md).
#[derive(Debug, Clone, Copy, Default)]
pub struct Tuning {
    pub detach_each: bool,
    pub no_tags: bool,
}

/// The variable that holds the [`Tuning`] switches.
pub const TUNING_ENV: &str = "CUDA_ACADEMY_CUPTI";

/// The words [`TUNING_ENV`] accepts (the [`Tuning`] switches), in the order the help lists them.
pub const TUNING_WORDS: [&str; 2] = ["attach-once", "no-tags"];

fn tuning_parts() -> Vec<String> {
    let var = std::env::var_os(TUNING_ENV).unwrap_or_default();
    var.to_string_lossy()
        .split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// The switches in effect (see [`Tuning`]).
pub fn tuning() -> Tuning {
    static TUNING: OnceLock<Tuning> = OnceLock::new();
    *TUNING.get_or_init(|| {
        let parts = tuning_parts();
        let has = |w: &str| parts.iter().any(|p| p == w);
        Tuning {
            detach_each: !has(TUNING_WORDS[0]),
            no_tags: has(TUNING_WORDS[1]),
        }
    })
}

/// What to say about the parts of [`TUNING_ENV`] that are none of [`TUNING_WORDS`] (they are
/// ignored, so the measurement meant is not made): `None` when every part is known. The values
/// are outside text; the caller sanitises the line before printing it.
pub fn tuning_warning() -> Option<String> {
    let unknown: Vec<String> = tuning_parts()
        .into_iter()
        .filter(|p| !TUNING_WORDS.contains(&p.as_str()))
        .map(|p| format!("`{}`", crate::sanitize::truncate(&p, 60)))
        .collect();
    if unknown.is_empty() {
        return None;
    }
    Some(format!(
        "{TUNING_ENV}: unknown setting {} (ignored); the accepted values are {} \
         (comma-separated), or leave it unset",
        unknown.join(", "),
        TUNING_WORDS
            .iter()
            .map(|w| format!("`{w}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// Register the activity buffer callbacks (this attaches CUPTI to the process), once per run:
/// recordings after the first only enable the activity kinds again, and [`stop`] disables them,
/// so no record is taken outside a recording. [`detach`] (`cuptiFinalize`) runs when the
/// experiment run is over (`Recording::run_finished`) and when the backend closes, so another
/// experiment's unrecorded timings never run with CUPTI attached. By default (see [`Tuning`]) it
/// is detached after every recording instead. Attached CUPTI once slowed driver calls (a 64 MiB pinned
/// `cuMemcpyHtoDAsync` returned after 14 µs instead of 8 µs on an H200, with activities
/// enabled); BENCHMARKS.md has what attach-once costs the unrecorded runs.
fn attach() -> Result<(), String> {
    available()?;
    let mut attached = ATTACHED.lock().unwrap_or_else(|p| p.into_inner());
    if !*attached {
        activity::register_callbacks(Some(buffer_requested), Some(buffer_completed))
            .map_err(|e| err("cuptiActivityRegisterCallbacks", e))?;
        *attached = true;
    }
    Ok(())
}

/// Detach CUPTI from the process (`cuptiFinalize`), if it is attached: when the backend closes.
pub(crate) fn detach() {
    let mut attached = ATTACHED.lock().unwrap_or_else(|p| p.into_inner());
    if *attached && cudarc::cupti::result::finalize().is_ok() {
        *attached = false;
    }
}

/// CUPTI's clock in nanoseconds (the clock of the records' timestamps).
pub fn timestamp() -> Option<u64> {
    let mut t = 0u64;
    // SAFETY: writes one u64 through a valid pointer; only called once a recording started.
    unsafe { cudarc::cupti::result::get_timestamp(&mut t) }.ok()?;
    Some(t)
}

const KINDS: [CUpti_ActivityKind; 2] = [
    CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_MEMCPY,
    // CONCURRENT_KERNEL, not KERNEL: the latter serialises kernels to time them.
    CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
];
/// Links each driver call made while an external id is pushed to that id: how records find
/// their op (CUPTI has no call returning the correlation id of the last driver call, so the
/// recorder pushes each op's tag around its call instead). Enabled for the process.
const LINK_KIND: CUpti_ActivityKind = CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
const TAG_KIND: sys::CUpti_ExternalCorrelationKind =
    sys::CUpti_ExternalCorrelationKind::CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;

/// What a recording collected: copy and kernel records, and which op tag each driver call had.
#[derive(Debug, Default)]
pub struct Collected {
    pub records: Vec<Record>,
    pub links: Vec<(u32, u64)>,
}

/// Tag the driver calls this thread makes from now on with `tag` (until [`untag`]).
pub(crate) fn tag(tag: u64) -> bool {
    !tuning().no_tags && activity::push_external_correlation_id(TAG_KIND, tag).is_ok()
}

/// Stop tagging (after [`tag`] succeeded).
pub(crate) fn untag() {
    let mut last = 0u64;
    // SAFETY: only called after a successful `tag` on this thread, so an id is on the stack.
    let _ = unsafe { activity::pop_external_correlation_id(TAG_KIND, &mut last) };
}

/// Start collecting copy and kernel records for `ctx`. CUPTI sets itself up lazily on the first
/// ops after this (about 2 ms was seen on an H200), so the caller issues warm-up ops and then
/// calls [`discard`] before taking its origin.
pub(crate) fn start(ctx: CUcontext) -> Result<(), String> {
    attach()?;
    prefill_pool(4);
    take_records();
    for kind in KINDS {
        // SAFETY: `ctx` is the backend's live context. Some CUPTI versions refuse a kind per
        // context; then it is enabled for the process instead.
        if unsafe { activity::enable_context(ctx, kind) }.is_err() {
            activity::enable(kind).map_err(|e| err("cuptiActivityEnable", e))?;
        }
    }
    // Without links records are matched by position (see `timeline::matching`).
    let _ = activity::enable(LINK_KIND);
    Ok(())
}

/// Hand over and drop every record so far (the device is idle); returns the new origin.
pub(crate) fn discard() -> Result<u64, String> {
    activity::flush_all(1).map_err(|e| err("cuptiActivityFlushAll", e))?;
    take_records();
    timestamp().ok_or_else(|| "cuptiGetTimestamp failed".to_string())
}

/// Stop collecting (the caller has synchronised the device) and return the records. CUPTI
/// stays attached for the next recording (see [`attach`]) unless `detach-each` is set.
pub(crate) fn stop(ctx: CUcontext) -> Result<Collected, String> {
    // Flag 1 = CUPTI_ACTIVITY_FLAG_FLUSH_FORCED: also hand over partly filled buffers.
    let flushed = activity::flush_all(1).map_err(|e| err("cuptiActivityFlushAll", e));
    for kind in KINDS {
        // SAFETY: `ctx` is the backend's live context.
        let _ = unsafe { activity::disable_context(ctx, kind) };
        let _ = activity::disable(kind);
    }
    let _ = activity::disable(LINK_KIND);
    if tuning().detach_each {
        detach();
    }
    flushed?;
    Ok(take_records())
}

fn take_records() -> Collected {
    let records = std::mem::take(&mut *RECORDS.lock().unwrap_or_else(|p| p.into_inner()));
    let links = std::mem::take(&mut *LINKS.lock().unwrap_or_else(|p| p.into_inner()));
    Collected { records, links }
}

/// A buffer from the pool, or a new one with every page touched.
fn pooled_buffer() -> *mut u8 {
    let reused = POOL.lock().unwrap_or_else(|p| p.into_inner()).pop();
    match reused {
        Some(addr) => addr as *mut u8,
        None => new_buffer(),
    }
}

fn new_buffer() -> *mut u8 {
    match layout() {
        // SAFETY: the layout has a non-zero size; the buffer goes back to the pool, never freed
        // (a few MiB at most for the life of the process).
        Some(l) => unsafe { std::alloc::alloc_zeroed(l) },
        None => std::ptr::null_mut(),
    }
}

/// Put `n` page-touched buffers in the pool (before a recording, outside timed work).
fn prefill_pool(n: usize) {
    let have = POOL.lock().unwrap_or_else(|p| p.into_inner()).len();
    for _ in have..n {
        let p = new_buffer();
        if p.is_null() {
            return;
        }
        // SAFETY: `p` is a fresh BUFFER_BYTES allocation; writing it faults its pages in now.
        unsafe { std::ptr::write_bytes(p, 0, BUFFER_BYTES) };
        POOL.lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(p as usize);
    }
}

unsafe extern "C" fn buffer_requested(buf: *mut *mut u8, size: *mut usize, max: *mut usize) {
    let ptr = pooled_buffer();
    // SAFETY: CUPTI passes valid out-pointers. A null buffer tells CUPTI to drop records.
    unsafe {
        *buf = ptr;
        *size = if ptr.is_null() { 0 } else { BUFFER_BYTES };
        *max = 0;
    }
}

unsafe extern "C" fn buffer_completed(
    _ctx: CUcontext,
    _stream: u32,
    buf: *mut u8,
    _size: usize,
    valid: usize,
) {
    if buf.is_null() {
        return;
    }
    let (mut parsed, mut links) = (Vec::new(), Vec::new());
    let mut rec: *mut sys::CUpti_Activity = std::ptr::null_mut();
    // SAFETY: `buf` holds `valid` bytes of records written by CUPTI; each record pointer it
    // returns points inside it.
    while unsafe { activity::get_next_record(buf, valid, &mut rec) }.is_ok() {
        match unsafe { parse(rec.cast::<u8>()) } {
            Some(Parsed::Op(r)) => parsed.push(r),
            Some(Parsed::Link {
                correlation,
                external,
            }) => links.push((correlation, external)),
            None => {}
        }
    }
    RECORDS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .extend(parsed);
    LINKS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .extend(links);
    POOL.lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(buf as usize);
}
