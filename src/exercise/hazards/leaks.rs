//! Leaks: memory, registrations, streams and events still held when `main` returns. A program
//! that ends itself with `exit()` leaks nothing: the operating system frees a process's memory
//! and the CUDA driver its device memory, pinned pages, streams and events when it exits, which
//! is how the classic `CHECK` macro ends a run. A `main` that returns with buffers still held is
//! reported: that is the habit the exercises teach (free what you allocate), and a function
//! with the same code called in a loop would run out of memory.

use std::collections::{BTreeMap, HashMap};

use super::messages::{EVENT_LEAK, STREAM_LEAK};
use super::{CardRef, Checker, HazardKind};
use crate::exercise::calls::CallId;
use crate::exercise::log::{Call, DeviceOpKind, Entry, MemKind, RegionId};
use crate::gpu::{EventId, StreamId};

/// Something the program holds until it releases it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Handle {
    Region(RegionId),
    Stream(StreamId),
    Event(EventId),
}

/// One handle still held: where it was made, what to say, the card that teaches releasing it.
struct Held {
    line: u32,
    message: String,
    card: CardRef,
}

/// The call that releases memory from `call` of `kind`.
fn release_of(kind: MemKind, call: CallId) -> &'static str {
    match kind {
        MemKind::Pageable => "free",
        MemKind::Pinned => "cudaFreeHost",
        MemKind::Device if call == CallId::CudaMallocAsync => "cudaFreeAsync (or cudaFree)",
        MemKind::Device => "cudaFree",
    }
}

/// What a log entry does to what the program holds.
enum Effect {
    /// Makes a handle the program must release.
    Opens(Handle, Held),
    /// Releases a handle.
    Releases(Handle),
    Registers(RegionId),
    Unregisters(RegionId),
    /// `free`, `cudaFree`, `cudaFreeHost`: releases the region, which must not be registered.
    Frees(RegionId),
    /// `exit()`: the process ends and the system releases everything still held.
    Exits,
    Nothing,
}

/// What `e` does to the program's handles; `name` names a region for messages.
fn effect(e: &Entry, name: &dyn Fn(&RegionId) -> String) -> Effect {
    let opens = |h, message, card| {
        Effect::Opens(
            h,
            Held {
                line: e.line,
                message,
                card,
            },
        )
    };
    match &e.call {
        Call::Alloc {
            region, kind, call, ..
        } => opens(
            Handle::Region(*region),
            format!(
                "`{}` ({} on line {}) is never released; call `{}` when you are done with it",
                name(region),
                call.name(),
                e.line,
                release_of(*kind, *call)
            ),
            CardRef::of(HazardKind::Leak),
        ),
        Call::StreamCreate { stream, name, .. } => {
            let var = if name.is_empty() {
                String::new()
            } else {
                format!("`{name}` ")
            };
            opens(
                Handle::Stream(*stream),
                format!(
                    "the stream {var}created on line {} is never destroyed; call `cudaStreamDestroy`",
                    e.line
                ),
                STREAM_LEAK,
            )
        }
        Call::EventCreate { event } => opens(
            Handle::Event(*event),
            format!(
                "the event created on line {} is never destroyed; call `cudaEventDestroy`",
                e.line
            ),
            EVENT_LEAK,
        ),
        Call::Register { region } => Effect::Registers(*region),
        Call::Unregister { region } => Effect::Unregisters(*region),
        Call::Free { region, .. } => Effect::Frees(*region),
        Call::Exit { .. } => Effect::Exits,
        // A stream-ordered free releases its allocation too.
        Call::Device(op) => match op.writes.first() {
            Some(w) if op.kind == DeviceOpKind::FreeAsync => {
                Effect::Releases(Handle::Region(w.region))
            }
            Some(_) | None => Effect::Nothing,
        },
        Call::StreamDestroy { stream } => Effect::Releases(Handle::Stream(*stream)),
        Call::EventDestroy { event } => Effect::Releases(Handle::Event(*event)),
        // The per-thread stream is the runtime's, not the program's to destroy.
        Call::PerThreadStream { .. }
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
        | Call::HostFuncRan { .. } => Effect::Nothing,
    }
}

/// Everything allocated, registered or created and not released by the end of `main`; nothing
/// when the program called `exit()` (the module's doc says why). A free of a registered buffer
/// before that is reported either way: it happened while the program ran.
pub(super) fn leaks(log: &[Entry], names: &HashMap<RegionId, String>, c: &mut Checker) {
    let name = |r: &RegionId| {
        names
            .get(r)
            .cloned()
            .unwrap_or_else(|| format!("allocation #{}", r.0 + 1))
    };
    // Held handles by creation order (the log index), so the report follows the program.
    let mut held: BTreeMap<usize, Held> = BTreeMap::new();
    let mut open: HashMap<Handle, usize> = HashMap::new();
    let mut registered: HashMap<RegionId, u32> = HashMap::new();
    for (i, e) in log.iter().enumerate() {
        let mut release = |h: Handle| {
            if let Some(i) = open.remove(&h) {
                held.remove(&i);
            }
        };
        match effect(e, &name) {
            Effect::Opens(h, what) => {
                open.insert(h, i);
                held.insert(i, what);
            }
            Effect::Releases(h) => release(h),
            Effect::Registers(region) => {
                registered.insert(region, e.line);
            }
            Effect::Unregisters(region) => {
                registered.remove(&region);
            }
            Effect::Frees(region) => {
                if let Some(reg_line) = registered.remove(&region) {
                    c.report(HazardKind::Leak, e.line, Some(reg_line), format!("`{}` is freed while still registered (line {reg_line}); call `cudaHostUnregister` first", name(&region)));
                }
                release(Handle::Region(region));
            }
            // Nothing runs after `exit`: what is still held goes back to the system.
            Effect::Exits => return,
            Effect::Nothing => {}
        }
    }
    for (region, line) in registered {
        c.report(
            HazardKind::Leak,
            line,
            None,
            format!(
                "`{}` is registered here and never unregistered; call `cudaHostUnregister`",
                name(&region)
            ),
        );
    }
    for h in held.into_values() {
        c.report_teaching(HazardKind::Leak, h.line, None, h.message, h.card);
    }
}
