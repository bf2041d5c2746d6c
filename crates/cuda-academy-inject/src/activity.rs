//! Activity records: CUPTI asks for buffers, fills them with what the GPU did (copies with
//! their memory kinds, memsets, kernels, synchronisations, event records, NVTX marks) and hands
//! each full one back; every record becomes one line at once and the buffer is freed, so memory
//! holds at most the buffers CUPTI has in flight.

use core::ffi::c_void;
use std::alloc::{Layout, alloc, dealloc};

use crate::api::c_text;
use crate::ids;
use crate::json::Line;
use crate::layout::*;

/// Size of each activity buffer (CUPTI's samples use 8 MiB; 4 MiB holds ~40 000 copies).
const BUFFER_BYTES: usize = 4 << 20;
/// CUPTI requires 8-byte-aligned buffers.
const BUFFER_ALIGN: usize = 8;

fn buffer_layout() -> Option<Layout> {
    Layout::from_size_align(BUFFER_BYTES, BUFFER_ALIGN).ok()
}

/// `CUpti_BuffersCallbackRequestFunc`: a fresh buffer (or none: CUPTI then drops records and
/// counts them, which the `dropped` line reports).
///
/// # Safety
/// Called by CUPTI with three valid out-pointers.
pub unsafe extern "C" fn buffer_requested(
    buffer: *mut *mut u8,
    size: *mut usize,
    max_records: *mut usize,
) {
    let fresh = std::panic::catch_unwind(|| match buffer_layout() {
        // SAFETY: the layout has a non-zero size.
        Some(layout) => unsafe { alloc(layout) },
        None => core::ptr::null_mut(),
    })
    .unwrap_or(core::ptr::null_mut());
    // SAFETY: CUPTI's out-pointers.
    unsafe {
        *buffer = fresh;
        *size = if fresh.is_null() { 0 } else { BUFFER_BYTES };
        *max_records = 0;
    }
}

/// `CUpti_BuffersCallbackCompleteFunc`: write out every record, report drops, free.
///
/// # Safety
/// Called by CUPTI with a buffer from [`buffer_requested`] holding `valid` bytes of records.
pub unsafe extern "C" fn buffer_completed(
    ctx: usize,
    stream_id: u32,
    buffer: *mut u8,
    _size: usize,
    valid: usize,
) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let Some(cupti) = crate::CUPTI.get() else {
            return;
        };
        if buffer.is_null() {
            return;
        }
        let mut record: *mut c_void = core::ptr::null_mut();
        // SAFETY: the buffer CUPTI filled, walked by CUPTI's own iterator until it stops.
        while unsafe { (cupti.get_next_record)(buffer, valid, &mut record) } == ids::SUCCESS {
            // SAFETY: CUPTI hands back a pointer to a whole record inside the buffer.
            if let Some(line) = unsafe { record_line(record) } {
                crate::sink::emit(&line);
            }
        }
        let mut dropped = 0usize;
        // SAFETY: writes one usize.
        let asked = unsafe { (cupti.dropped_records)(ctx, stream_id, &mut dropped) };
        if asked == ids::SUCCESS && dropped > 0 {
            crate::sink::emit(
                &Line::new("dropped")
                    .u64("records", dropped as u64)
                    .u64("stream_id", stream_id.into())
                    .finish(),
            );
        }
        // CUPTI hands buffers over at least every second (cuptiActivityFlushPeriod): each one
        // goes to disk with the API lines before it.
        crate::sink::flush();
    }));
    if let (false, Some(layout)) = (buffer.is_null(), buffer_layout()) {
        // SAFETY: every buffer CUPTI returns came from buffer_requested with this layout.
        unsafe { dealloc(buffer, layout) };
    }
}

/// One record as a line, or `None` for a kind not asked for.
///
/// # Safety
/// `record` points at a whole activity record.
pub unsafe fn record_line(record: *const c_void) -> Option<String> {
    // SAFETY: every record starts with its kind.
    let kind = unsafe { record.cast::<ActivityHead>().read_unaligned() }.kind;
    macro_rules! head {
        ($t:ty) => {
            // SAFETY: a record of this kind starts with these fields (layout_tests.rs).
            unsafe { record.cast::<$t>().read_unaligned() }
        };
    }
    let line = match kind {
        ids::KIND_MEMCPY => {
            let r = head!(MemcpyHead);
            Line::new("memcpy")
                .u64("copy_kind", r.copyKind.into())
                .u64("src_kind", r.srcKind.into())
                .u64("dst_kind", r.dstKind.into())
                .u64("flags", r.flags.into())
                .u64("bytes", r.bytes)
                .u64("start", r.start)
                .u64("end", r.end)
                .u64("device", r.deviceId.into())
                .u64("context", r.contextId.into())
                .u64("stream_id", r.streamId.into())
                .u64("corr", r.correlationId.into())
        }
        ids::KIND_MEMSET => {
            let r = head!(MemsetHead);
            Line::new("memset")
                .u64("value", r.value.into())
                .u64("bytes", r.bytes)
                .u64("start", r.start)
                .u64("end", r.end)
                .u64("device", r.deviceId.into())
                .u64("context", r.contextId.into())
                .u64("stream_id", r.streamId.into())
                .u64("corr", r.correlationId.into())
                .u64("mem_kind", r.memoryKind.into())
        }
        ids::KIND_CONCURRENT_KERNEL => {
            let r = head!(KernelHead);
            let dim = |v: [i32; 3]| v.map(|n| u64::try_from(n).unwrap_or(0));
            // SAFETY: the kernel's name, a string CUPTI owns while the buffer lives (or NULL).
            let name = unsafe { c_text(r.name) };
            Line::new("kernel")
                .str("name", &name)
                .dim3("grid", dim([r.gridX, r.gridY, r.gridZ]))
                .dim3("block", dim([r.blockX, r.blockY, r.blockZ]))
                .i64("static_shared", r.staticSharedMemory.into())
                .i64("dynamic_shared", r.dynamicSharedMemory.into())
                .u64("registers", r.registersPerThread.into())
                .u64("start", r.start)
                .u64("end", r.end)
                .u64("device", r.deviceId.into())
                .u64("context", r.contextId.into())
                .u64("stream_id", r.streamId.into())
                .u64("corr", r.correlationId.into())
        }
        ids::KIND_SYNCHRONIZATION => {
            let r = head!(SyncHead);
            Line::new("sync")
                .u64("sync_type", r.type_.into())
                .u64("start", r.start)
                .u64("end", r.end)
                .u64("corr", r.correlationId.into())
                .u64("context", r.contextId.into())
                .u64("stream_id", r.streamId.into())
                .u64("event_id", r.cudaEventId.into())
        }
        ids::KIND_CUDA_EVENT => {
            let r = head!(CudaEventHead);
            Line::new("event")
                .u64("corr", r.correlationId.into())
                .u64("context", r.contextId.into())
                .u64("stream_id", r.streamId.into())
                .u64("event_id", r.eventId.into())
        }
        ids::KIND_MARKER => {
            let r = head!(MarkerHead);
            // SAFETY: NVTX's strings, owned by CUPTI while the buffer lives (or NULL).
            let (name, domain) = unsafe { (c_text(r.name), c_text(r.domain)) };
            Line::new("marker")
                .u64("flags", r.flags.into())
                .u64("timestamp", r.timestamp)
                .u64("id", r.id.into())
                .str("name", &name)
                .str("domain", &domain)
        }
        _ => return None,
    };
    Some(line.finish())
}
