//! `staging-slots`: how many staging slots a ring keeps in flight. A slot is a page-locked
//! buffer an upload reads; it is in flight from its upload's issue until the host knows that
//! upload finished. The count is read from the call log through the one ordering model
//! ([`crate::ordering::Model`], driven here as the hazard checker drives it), not from the
//! timeline: it says how far ahead the program lets the host run, which a run whose memcpy is
//! slower than its uploads would not show (review 2026-12-01b: a ring of one slot passed,
//! the host waiting for every upload before it staged the next chunk).

use std::collections::HashMap;

use super::facts::{DevOp, Direction, Memory};
use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, HostWait, RegionId};
use crate::ordering::{Model, OpRef};

/// The most staging slots with an upload in flight at once.
pub(super) fn slots_in_flight(out: &Outcome, ops: &[DevOp<'_>]) -> usize {
    let uploads: HashMap<usize, RegionId> = ops
        .iter()
        .filter(|o| o.is_copy(Direction::H2d, Some(Memory::PageLocked)))
        .filter_map(|o| o.host.map(|(r, _)| (o.idx, r)))
        .collect();
    let mut model = Model::new();
    // Each slot's latest upload.
    let mut latest: HashMap<RegionId, OpRef> = HashMap::new();
    let mut most = 0;
    for (i, e) in out.log.iter().enumerate() {
        match &e.call {
            Call::Device(op) => {
                let Ok(issued) = model.issue(op.stream.0) else {
                    continue;
                };
                match op.host_wait() {
                    HostWait::None | HostWait::SourceTaken => {}
                    HostWait::Staged => model.learn_before(&issued),
                    HostWait::Completion => model.learn_op(&issued),
                }
                if let Some(slot) = uploads.get(&i) {
                    latest.insert(*slot, issued.op);
                    let busy = latest
                        .values()
                        .filter(|op| !model.host_knows_done(**op))
                        .count();
                    most = most.max(busy);
                }
            }
            Call::StreamCreate {
                stream, blocking, ..
            } => model.create_stream(stream.0, *blocking),
            Call::PerThreadStream { stream } => model.create_per_thread_stream(stream.0),
            Call::StreamDestroy { stream } => {
                let _ = model.destroy_stream(stream.0);
            }
            Call::EventCreate { event } => model.create_event(event.0),
            Call::EventDestroy { event } => {
                let _ = model.destroy_event(event.0);
            }
            Call::EventRecord { event, stream } => {
                let _ = model.record(event.0, stream.0);
            }
            Call::StreamWaitEvent { stream, event } => {
                let _ = model.wait_event(stream.0, event.0);
            }
            Call::StreamSync { stream } => {
                let _ = model.sync_stream(stream.0);
            }
            Call::EventSync { event } => {
                let _ = model.sync_event(event.0);
            }
            Call::DeviceSync => {
                model.sync_device();
            }
            Call::StreamQuery { stream, done: true } => {
                let _ = model.learn_stream(stream.0);
            }
            Call::EventQuery { event, done: true } => {
                let _ = model.learn_event(event.0);
            }
            Call::HostFuncRan { .. }
            | Call::Exit { .. }
            | Call::Alloc { .. }
            | Call::Free { .. }
            | Call::Register { .. }
            | Call::Unregister { .. }
            | Call::EventElapsed { .. }
            | Call::StreamQuery { done: false, .. }
            | Call::EventQuery { done: false, .. }
            | Call::HostRead { .. }
            | Call::HostWrite { .. } => {}
        }
    }
    most
}

/// At least `min` staging slots had an upload in flight at once.
pub(super) fn staging_slots(out: &Outcome, ops: &[DevOp<'_>], min: u32) -> Result<String, String> {
    let most = slots_in_flight(out, ops);
    let detail = format!(
        "at most {most} staging slot{} had an upload in flight at once (needs {min})",
        if most == 1 { "" } else { "s" }
    );
    if most >= min as usize {
        Ok(detail)
    } else {
        Err(format!(
            "{detail}: the host waited for each upload before it staged the next chunk, so staging and uploads never overlap; a ring keeps several slots in flight, and the host waits only for the slot it refills"
        ))
    }
}
