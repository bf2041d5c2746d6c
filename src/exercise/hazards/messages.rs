//! What each hazard tells the learner: what happens, on which lines, what to do instead, and
//! which lesson card teaches it. Messages say what the API promises, and where today's driver
//! does more (it waits in `cudaFree`, it stages pageable copies) they say so as a fact about
//! the driver, not a promise (`ordering::rules`).

use super::{CardRef, Checker, HazardKind};
use crate::exercise::log::{DeviceOp, DeviceOpKind, HostWait, RegionId};

/// The lesson (id) and card (title) that teach each kind of hazard.
pub(super) fn card(kind: HazardKind) -> (&'static str, &'static str) {
    match kind {
        HazardKind::ReadBeforeSync => ("async-copy", "Returning is not finishing"),
        HazardKind::WriteWhileInFlight | HazardKind::FreeWhileInFlight => (
            "async-copy",
            "Keep the host buffer alive until the copy completes",
        ),
        HazardKind::DeviceRace => ("pipeline", "Events: timing and dependencies"),
        HazardKind::PageableAsync => ("async-copy", "From pageable memory, it depends on the size"),
        HazardKind::DefaultStream => ("async-copy", "The legacy default stream serialises"),
        HazardKind::Leak => ("pinned-memory", "cudaMallocHost and cudaFreeHost"),
    }
}

/// The card of a leaked stream: the one that creates a stream and destroys it when done
/// (review 2026-12-01b CK11: it pointed at the pinned-memory card).
pub(super) const STREAM_LEAK: CardRef = CardRef {
    lesson: "async-copy",
    card: "It takes a stream",
};

/// The card of a leaked event: the one that teaches events.
pub(super) const EVENT_LEAK: CardRef = CardRef {
    lesson: "pipeline",
    card: "Events: timing and dependencies",
};

/// Every card a hazard may point at, for the test that each exists in the lessons.
pub(super) fn every_card() -> Vec<CardRef> {
    let mut cards: Vec<CardRef> = HazardKind::ALL.into_iter().map(CardRef::of).collect();
    cards.extend([STREAM_LEAK, EVENT_LEAK]);
    cards
}

/// Two device ops nothing orders, touching the same bytes.
pub(super) fn device_race(
    c: &Checker,
    (op, stream): (&DeviceOp, u32),
    other: &DeviceOp,
    other_line: u32,
    region: RegionId,
) -> String {
    let name = c.name(region);
    let (here, there) = (c.stream_name(stream), c.stream_name(other.stream.0));
    let fix = if stream == other.stream.0 {
        String::new()
    } else {
        format!(
            "; record an event on {there} after line {other_line} and make {here} wait for it (`cudaEventRecord` + `cudaStreamWaitEvent`) before this call"
        )
    };
    let frees = op.kind == DeviceOpKind::FreeAsync;
    let allocates = other.kind == DeviceOpKind::AllocAsync;
    let what = match (frees, allocates) {
        (true, _) => format!(
            "`{}` frees `{name}` on {here} while the `{}` on line {other_line} ({there}) may still use it",
            op.call, other.call
        ),
        (false, true) => format!(
            "`{}` on {here} uses `{name}`, which the `{}` on line {other_line} ({there}) may not have allocated yet",
            op.call, other.call
        ),
        (false, false) => format!(
            "`{}` on {here} and the `{}` on line {other_line} on {there} both touch `{name}`, at least one writing, and nothing orders them: the GPU may run them in either order or at once",
            op.call, other.call
        ),
    };
    format!("{what}{fix}")
}

/// Freeing memory that queued work may still use.
pub(super) fn free_in_flight(
    c: &Checker,
    call: &str,
    region: RegionId,
    op: &str,
    other: u32,
) -> String {
    let name = c.name(region);
    format!(
        "`{call}` of `{name}` while the `{op}` on line {other} may still use it. Today's driver waits here for the device to finish (a hidden stall that ends any overlap, and not a promise of the API: on another driver the memory could be reused under the copy); wait for that work first (cudaStreamSynchronize or cudaEventSynchronize), then free"
    )
}

/// A `cudaMemcpyAsync` with pageable host memory.
pub(super) fn pageable_async(c: &Checker, op: &DeviceOp) -> String {
    let host = if op.kind == DeviceOpKind::CopyH2D {
        op.reads.first()
    } else {
        op.writes.first()
    };
    let name = host.map(|r| c.name(r.region)).unwrap_or_default();
    let until = match op.host_wait() {
        HostWait::Completion => "until the copy had finished",
        HostWait::None | HostWait::SourceTaken | HostWait::Staged => {
            "until the driver had copied the source into its own pinned staging buffer (for a large copy, until the copy had finished)"
        }
    };
    format!(
        "`{}` with pageable memory `{name}`: this call blocked here {until}, so it could not overlap the host's work (on systems where the GPU reads pageable memory directly, ATS, it may not block); pin `{name}` (cudaMallocHost or cudaHostRegister), or copy it through a pinned staging buffer",
        op.call
    )
}
