//! The `device-memory-at-most` criterion: the most device memory the run held at once, counted
//! from the call log (`cudaMalloc`/`cudaMallocAsync` add, `cudaFree`/`cudaFreeAsync` take away,
//! in issue order).
//!
//! Why: the double-buffering lesson's point is that a pipeline needs only a few chunk-sized
//! device buffers, reused, not a device copy of the whole data set. A program with full-size
//! buffers at offsets overlaps just as well, so only its footprint tells the two apart, and the
//! footprint is the same on every machine.

use std::collections::HashMap;

use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, DeviceOpKind, MemKind, RegionId};
use crate::units::format_bytes;

/// Whether at most `max_bytes` of device memory were live at once: the detail, passed or not.
pub(super) fn grade(out: &Outcome, max_bytes: u64) -> Result<String, String> {
    let (peak, line) = peak(out);
    if peak <= max_bytes {
        return Ok(format!("at most {} allocated at once", format_bytes(peak)));
    }
    let detail = format!(
        "{} of device memory allocated at once (reached on line {line}): give each stream \
         chunk-sized buffers and reuse them for its next chunks, instead of a device copy of \
         all the data",
        format_bytes(peak)
    );
    Err(detail)
}

/// The most device memory live at once, and the line of the allocation that reached it.
fn peak(out: &Outcome) -> (u64, u32) {
    let mut live: HashMap<RegionId, u64> = HashMap::new();
    let (mut now, mut peak, mut line) = (0u64, 0u64, 0u32);
    for e in &out.log {
        match &e.call {
            Call::Alloc {
                region,
                kind: MemKind::Device,
                bytes,
                ..
            } => {
                live.insert(*region, *bytes);
                now += bytes;
                if now > peak {
                    (peak, line) = (now, e.line);
                }
            }
            Call::Free { region, .. } => now -= live.remove(region).unwrap_or(0),
            Call::Device(op) if op.kind == DeviceOpKind::FreeAsync => {
                if let Some(w) = op.writes.first() {
                    now -= live.remove(&w.region).unwrap_or(0);
                }
            }
            // Host allocations, and a stream-ordered op that frees nothing, change nothing here.
            Call::Alloc { .. }
            | Call::Register { .. }
            | Call::Unregister { .. }
            | Call::StreamCreate { .. }
            | Call::StreamDestroy { .. }
            | Call::PerThreadStream { .. }
            | Call::EventCreate { .. }
            | Call::EventDestroy { .. }
            | Call::Device(_)
            | Call::EventRecord { .. }
            | Call::EventElapsed { .. }
            | Call::StreamWaitEvent { .. }
            | Call::StreamSync { .. }
            | Call::StreamQuery { .. }
            | Call::EventQuery { .. }
            | Call::EventSync { .. }
            | Call::DeviceSync
            | Call::HostRead { .. }
            | Call::HostWrite { .. }
            | Call::HostFuncRan { .. }
            | Call::Exit { .. } => {}
        }
    }
    (peak, line)
}
