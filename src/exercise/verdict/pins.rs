//! The `pins-at-most` criterion: how many times the run page-locked host memory, counted from
//! the call log (what the program did, so a loop that pins in every round counts every round,
//! whatever the file looks like).
//!
//! Why a count and not only a time: pinning a buffer costs the OS a walk over every page, a cost
//! that depends on the machine's kernel and memory: on the H200 host the starter's 14 extra
//! 64 MiB pinned allocations added 29% and 37% in two live runs (BENCHMARKS.md), because its
//! host fill and check dominate, so a 1.2x time limit caught it by 7%. A time limit tight
//! enough for one machine is within noise on another; the number of pinned allocations is the
//! behaviour the lesson teaches, and the same everywhere.

use std::collections::BTreeMap;

use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, MemKind};

/// The criterion's name in the verdict.
pub(super) fn title(count: u32) -> String {
    let times = match count {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        n => format!("{n} times"),
    };
    format!("pins host memory at most {times}")
}

/// Whether the run pinned at most `count` times: the detail, passed or not.
pub(super) fn grade(out: &Outcome, count: u32) -> Result<String, String> {
    // Line -> how many times the run pinned there.
    let mut by_line: BTreeMap<u32, u32> = BTreeMap::new();
    let mut registrations = 0u32;
    for e in &out.log {
        let pins = matches!(
            &e.call,
            Call::Alloc {
                kind: MemKind::Pinned,
                ..
            } | Call::Register { .. }
        );
        if matches!(&e.call, Call::Register { .. }) {
            registrations += 1;
        }
        if pins {
            *by_line.entry(e.line).or_default() += 1;
        }
    }
    let total: u32 = by_line.values().sum();
    if total <= count {
        return Ok(format!("{total} pinned allocation(s)"));
    }
    let lines: Vec<String> = by_line
        .iter()
        .map(|(line, n)| format!("line {line} x{n}"))
        .collect();
    // Name what the run did: allocations are released with cudaFreeHost, registrations with
    // cudaHostUnregister, so the advice names the release that fits.
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let allocations = |n| plural(n, "pinned allocation", "pinned allocations");
    let (what, release) = match (total - registrations, registrations) {
        (_, 0) => (allocations(total), "free them"),
        (0, r) => (
            format!(
                "{} (`cudaHostRegister`)",
                plural(r, "registration", "registrations")
            ),
            "unregister them",
        ),
        (a, r) => (
            format!(
                "{total} pinnings ({}, {})",
                allocations(a),
                plural(r, "registration", "registrations")
            ),
            "release them",
        ),
    };
    let detail = format!(
        "{what} ({}): each one locks every page of its buffer; pin the buffers once, before \
         the loop, and {release} once after it",
        lines.join(", ")
    );
    Err(detail)
}
