//! Leaks: memory, registrations, streams and events still held when the program ends.

use std::collections::HashMap;

use super::messages::{EVENT_LEAK, STREAM_LEAK};
use super::{CardRef, Checker, HazardKind};
use crate::exercise::log::{Call, DeviceOpKind, Entry, RegionId};

/// Everything allocated, registered or created and not released by the end.
pub(super) fn leaks(log: &[Entry], names: &HashMap<RegionId, String>, c: &mut Checker) {
    let name = |r: &RegionId| {
        names
            .get(r)
            .cloned()
            .unwrap_or_else(|| format!("allocation #{}", r.0 + 1))
    };
    // (line, message, the card that teaches releasing it), in creation order
    let mut held: Vec<(u32, String, CardRef)> = Vec::new();
    let mut open: HashMap<String, usize> = HashMap::new();
    let mut registered: HashMap<RegionId, u32> = HashMap::new();
    for e in log {
        let (key, msg, card) = match &e.call {
            Call::Alloc {
                region, name: call, ..
            } => {
                let release = match call.as_str() {
                    "malloc" => "free",
                    "cudaMalloc" => "cudaFree",
                    "cudaMallocAsync" => "cudaFreeAsync (or cudaFree)",
                    _ => "cudaFreeHost",
                };
                (
                    format!("r{}", region.0),
                    format!(
                        "`{}` ({call} on line {}) is never released; call `{release}` when you are done with it",
                        name(region),
                        e.line
                    ),
                    CardRef::of(HazardKind::Leak),
                )
            }
            Call::StreamCreate { stream, name, .. } => (
                format!("s{}", stream.0),
                format!(
                    "the stream {}created on line {} is never destroyed; call `cudaStreamDestroy`",
                    if name.is_empty() {
                        String::new()
                    } else {
                        format!("`{name}` ")
                    },
                    e.line
                ),
                STREAM_LEAK,
            ),
            Call::EventCreate { event } => (
                format!("e{}", event.0),
                format!(
                    "the event created on line {} is never destroyed; call `cudaEventDestroy`",
                    e.line
                ),
                EVENT_LEAK,
            ),
            Call::Register { region } => {
                registered.insert(*region, e.line);
                continue;
            }
            Call::Unregister { region } => {
                registered.remove(region);
                continue;
            }
            Call::Free { region, .. } => {
                if let Some(reg_line) = registered.remove(region) {
                    c.report(HazardKind::Leak, e.line, Some(reg_line), format!("`{}` is freed while still registered (line {reg_line}); call `cudaHostUnregister` first", name(region)));
                }
                if let Some(i) = open.remove(&format!("r{}", region.0)) {
                    held[i].1.clear();
                }
                continue;
            }
            // A stream-ordered free releases its allocation too.
            Call::Device(op) if op.kind == DeviceOpKind::FreeAsync => {
                if let Some(region) = op.writes.first().map(|r| r.region)
                    && let Some(i) = open.remove(&format!("r{}", region.0))
                {
                    held[i].1.clear();
                }
                continue;
            }
            Call::StreamDestroy { stream } => {
                if let Some(i) = open.remove(&format!("s{}", stream.0)) {
                    held[i].1.clear();
                }
                continue;
            }
            Call::EventDestroy { event } => {
                if let Some(i) = open.remove(&format!("e{}", event.0)) {
                    held[i].1.clear();
                }
                continue;
            }
            _ => continue,
        };
        open.insert(key, held.len());
        held.push((e.line, msg, card));
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
    for (line, msg, card) in held {
        if !msg.is_empty() {
            c.report_teaching(HazardKind::Leak, line, None, msg, card);
        }
    }
}
