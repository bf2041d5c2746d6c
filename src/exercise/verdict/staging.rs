//! The criteria of a staging program (lesson 4, "A pinned staging ring"): the input stays in
//! the pageable memory it came in (`input-stays-pageable`), and the run never holds more than
//! a set amount of page-locked host memory at once (`pinned-at-most`), so the staging is done
//! by a few small pinned slots, not by pinning the data or a pinned copy of all of it. Both
//! read the call log: what the program allocated, registered and filled, never its text.

use std::collections::{BTreeMap, HashMap};

use crate::exercise::calls::CallId;
use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, MemKind, RegionId};
use crate::units::format_bytes;

/// The buffers `fill_input` wrote (the program's input) were allocated pageable (`malloc`)
/// and never registered, nor copied from while registered.
pub(super) fn input_stays_pageable(out: &Outcome) -> Result<String, String> {
    let mut kinds: HashMap<RegionId, (MemKind, u32)> = HashMap::new();
    // Input region -> the line of its first fill.
    let mut inputs: BTreeMap<RegionId, u32> = BTreeMap::new();
    let mut registered: Vec<(RegionId, u32)> = Vec::new();
    for e in &out.log {
        match &e.call {
            Call::Alloc { region, kind, .. } => {
                kinds.insert(*region, (*kind, e.line));
            }
            Call::Register { region } => registered.push((*region, e.line)),
            Call::HostWrite { range, .. } if e.call.host_access_by() == Some(CallId::FillInput) => {
                inputs.entry(range.region).or_insert(e.line);
            }
            Call::Free { .. }
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
    if inputs.is_empty() {
        return Err("the program never calls `fill_input`, so there is no input to stage".into());
    }
    for (region, fill_line) in &inputs {
        let name = out
            .region_names
            .get(region)
            .cloned()
            .unwrap_or_else(|| "the input".into());
        if let Some((MemKind::Pinned, line)) = kinds.get(region) {
            return Err(format!(
                "`{name}` (filled at line {fill_line}) was allocated pinned at line {line}: the input comes in pageable memory (`malloc`) and must stay there; stage it through small pinned slots"
            ));
        }
        if let Some((_, line)) = registered.iter().find(|(r, _)| r == region) {
            return Err(format!(
                "`{name}` (filled at line {fill_line}) was page-locked with `cudaHostRegister` at line {line}: the input must stay pageable; stage it through small pinned slots"
            ));
        }
    }
    let names: Vec<String> = inputs
        .keys()
        .map(|r| {
            out.region_names
                .get(r)
                .map_or_else(|| "the input".into(), |n| format!("`{n}`"))
        })
        .collect();
    Ok(format!("{} stayed pageable", names.join(", ")))
}

/// The most page-locked host memory (pinned allocations and registered buffers) held at once
/// during the run is at most `max_bytes`.
pub(super) fn pinned_at_most(out: &Outcome, max_bytes: u64) -> Result<String, String> {
    let mut sizes: HashMap<RegionId, (u64, bool)> = HashMap::new(); // bytes, pinned at alloc
    let mut held: HashMap<RegionId, u64> = HashMap::new();
    let (mut now, mut peak, mut peak_line) = (0u64, 0u64, 0u32);
    for e in &out.log {
        let (region, locks) = match &e.call {
            Call::Alloc {
                region,
                kind,
                bytes,
                ..
            } => {
                sizes.insert(*region, (*bytes, *kind == MemKind::Pinned));
                (*region, *kind == MemKind::Pinned)
            }
            Call::Register { region } => (*region, true),
            Call::Unregister { region } | Call::Free { region, .. } => (*region, false),
            Call::StreamCreate { .. }
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
            | Call::Exit { .. } => continue,
        };
        if locks {
            let bytes = sizes.get(&region).map_or(0, |s| s.0);
            if held.insert(region, bytes).is_none() {
                now += bytes;
            }
            if now > peak {
                (peak, peak_line) = (now, e.line);
            }
        } else if let Some(bytes) = held.remove(&region) {
            now -= bytes;
        }
    }
    let detail = format!(
        "at most {} page-locked at once (line {peak_line}), limit {}",
        format_bytes(peak),
        format_bytes(max_bytes)
    );
    if peak <= max_bytes {
        Ok(detail)
    } else {
        Err(format!(
            "{detail}: pin only a few chunk-sized staging slots, not the data or a copy of all of it"
        ))
    }
}
