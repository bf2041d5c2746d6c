//! Why copies did not overlap kernels: for each upload or download that ran while no kernel
//! ran, in a run that had kernels, one cause named from the trace by explicit rules, tried in
//! this order (the first that holds is named):
//!
//! 1. `pageable-memory`: its host side is pageable; the driver stages it, so it cannot run
//!    beside the program's other work (certain: CUPTI says the memory kind).
//! 2. `legacy-default-stream`: it ran on the legacy default stream, which waits for, and holds
//!    up, every blocking stream (certain: the call named the null stream).
//! 3. `one-stream`: every copy and kernel of the run is on its stream; work in one stream runs
//!    in order (certain).
//! 4. `synchronous-copy`: it was a `cudaMemcpy` (no `Async`), and the host waited for it
//!    before issuing more (certain).
//! 5. `synchronisation`: the host waited (a stream, event or context synchronisation) between
//!    it and the kernel nearest it on another stream (a guess: the wait is there, that it was
//!    what kept them apart is inferred).
//! 6. `small-copies`: it moved fewer than [`SMALL_COPY`] bytes, so its per-call cost outweighs
//!    what it could hide (a guess).
//! 7. `dependency`: none of those: the program's own order (an event wait, or the kernel needs
//!    the data) kept them apart (a guess).
//!
//! "One copy direction at a time" and "a kernel that fills the GPU" are about copies against
//! copies and kernels against kernels; they are not judged yet. The cost of each cause is the
//! time its copies ran with no kernel beside them: at most what overlapping could have saved.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use serde::Serialize;

use crate::attach::file::{Record, Trace};
use crate::exercise::hazards::CardRef;

/// Copies under this many bytes are "small" (rule 6): below 64 KiB a copy's fixed cost of
/// some microseconds is most of its time on PCIe and NVLink-C2C alike.
pub const SMALL_COPY: u64 = 64 * 1024;

/// `CUpti_ActivityMemcpyKind` uploads and downloads; `CUpti_ActivityMemoryKind::PAGEABLE`.
const HTOD: u8 = 1;
const DTOH: u8 = 2;
const PAGEABLE: u8 = 1;

/// One cause, with the copies it kept from overlapping.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cause {
    pub cause: &'static str,
    /// The rule is certain (`false`: a guess, said so).
    pub certain: bool,
    pub copies: u64,
    /// Nanoseconds those copies ran with no kernel beside them.
    pub cost_ns: u64,
    pub explanation: &'static str,
    pub teaches: CardRef,
}

/// Why no overlap, over the whole run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct OverlapReport {
    /// Uploads and downloads that ran while no kernel ran (in a run with kernels).
    pub lone_copies: u64,
    pub lone_ns: u64,
    pub causes: Vec<Cause>,
}

struct Rule {
    cause: &'static str,
    certain: bool,
    explanation: &'static str,
    lesson: &'static str,
    card: &'static str,
}

const RULES: [Rule; 7] = [
    Rule {
        cause: "pageable-memory",
        certain: true,
        explanation: "the host side is pageable (malloc) memory: the driver stages the copy through its own pinned buffer, so it cannot run beside other work; allocate the host buffer with cudaMallocHost or pin it with cudaHostRegister",
        lesson: "async-copy",
        card: "From pageable memory, it depends on the size",
    },
    Rule {
        cause: "legacy-default-stream",
        certain: true,
        explanation: "the copy was on the legacy default stream, which waits for every blocking stream and holds them up; issue it to a stream of its own",
        lesson: "async-copy",
        card: "The legacy default stream serialises",
    },
    Rule {
        cause: "one-stream",
        certain: true,
        explanation: "every copy and kernel is on one stream, and work in one stream runs in order; split the work into chunks over two or more streams",
        lesson: "async-copy",
        card: "Work in one stream runs in order",
    },
    Rule {
        cause: "synchronous-copy",
        certain: true,
        explanation: "cudaMemcpy returns when the copy is done, so the host issued nothing while it ran; use cudaMemcpyAsync on a stream",
        lesson: "async-copy",
        card: "cudaMemcpyAsync queues the copy and returns",
    },
    Rule {
        cause: "synchronisation",
        certain: false,
        explanation: "the host waited (stream, event or device synchronisation) between the copy and the nearest kernel on another stream (a guess: the wait is in the trace, that it kept them apart is inferred); order streams with events instead of host waits",
        lesson: "pipeline",
        card: "Events: timing and dependencies",
    },
    Rule {
        cause: "small-copies",
        certain: false,
        explanation: "the copy is small, so its per-call cost is most of its time (a guess); copy bigger chunks",
        lesson: "pipeline",
        card: "Chunking",
    },
    Rule {
        cause: "dependency",
        certain: false,
        explanation: "none of the rules above holds: the program's own order (an event wait, or a kernel that needs the data) kept them apart (a guess)",
        lesson: "pipeline",
        card: "Double buffering: the per-chunk loop",
    },
];

struct Op {
    kind: u8,
    pageable: bool,
    bytes: u64,
    start: u64,
    end: u64,
    stream: u32,
    corr: u32,
}

/// What the report reads of a trace: its timed copies, kernels (start, end, stream) and
/// host waits, the streams that touched the legacy default stream, and the synchronous copies'
/// correlation ids.
#[derive(Default)]
struct Gathered {
    copies: Vec<Op>,
    kernels: Vec<(u64, u64, u32)>,
    waits: Vec<(u64, u64)>,
    legacy: HashSet<u32>,
    synchronous: HashSet<u32>,
}

fn gather(trace: &Trace) -> Gathered {
    let mut g = Gathered::default();
    let Gathered {
        copies,
        kernels,
        waits,
        legacy,
        synchronous,
    } = &mut g;
    for r in &trace.records {
        match r {
            Record::Memcpy(m) if m.start != 0 && m.end > m.start => copies.push(Op {
                kind: m.copy_kind,
                pageable: m.src_kind == PAGEABLE || m.dst_kind == PAGEABLE,
                bytes: m.bytes,
                start: m.start,
                end: m.end,
                stream: m.stream_id,
                corr: m.corr,
            }),
            Record::Kernel(k) if k.start != 0 && k.end > k.start => {
                kernels.push((k.start, k.end, k.stream_id));
            }
            Record::Sync(s) if s.start != 0 => waits.push((s.start, s.end)),
            Record::Api(a) if a.name.starts_with("cuMemcpy") => {
                if a.stream.unwrap_or(0) <= 1
                    && let Some(id) = a.stream_id
                {
                    legacy.insert(id);
                }
                if !a.name.contains("Async") {
                    synchronous.insert(a.corr);
                    legacy.extend(a.stream_id);
                }
            }
            Record::Api(a) if a.stream.is_some_and(|s| s <= 1) => legacy.extend(a.stream_id),
            _ => {}
        }
    }
    g
}

/// The report of `trace`.
pub fn report(trace: &Trace) -> OverlapReport {
    let Gathered {
        copies,
        kernels,
        waits,
        legacy,
        synchronous,
    } = gather(trace);
    let mut out = OverlapReport::default();
    if kernels.is_empty() {
        return out;
    }
    let streams: HashSet<u32> = copies
        .iter()
        .map(|c| c.stream)
        .chain(kernels.iter().map(|k| k.2))
        .collect();
    let mut by_rule: BTreeMap<usize, (u64, u64)> = BTreeMap::new();
    for c in copies.iter().filter(|c| c.kind == HTOD || c.kind == DTOH) {
        if kernels.iter().any(|&(s, e, _)| s < c.end && c.start < e) {
            continue;
        }
        let ns = c.end - c.start;
        out.lone_copies += 1;
        out.lone_ns += ns;
        let rule = if c.pageable {
            0
        } else if legacy.contains(&c.stream) {
            1
        } else if streams.len() == 1 {
            2
        } else if synchronous.contains(&c.corr) {
            3
        } else if waited_between(c, &kernels, &waits) {
            4
        } else if c.bytes < SMALL_COPY {
            5
        } else {
            6
        };
        let slot = by_rule.entry(rule).or_default();
        slot.0 += 1;
        slot.1 += ns;
    }
    out.causes = by_rule
        .into_iter()
        .map(|(i, (copies, cost_ns))| {
            let r = &RULES[i];
            Cause {
                cause: r.cause,
                certain: r.certain,
                copies,
                cost_ns,
                explanation: r.explanation,
                teaches: CardRef {
                    lesson: r.lesson,
                    card: r.card,
                },
            }
        })
        .collect();
    out
}

/// A host wait lies in the gap between `c` and the kernel on another stream nearest it.
fn waited_between(c: &Op, kernels: &[(u64, u64, u32)], waits: &[(u64, u64)]) -> bool {
    let gap = kernels
        .iter()
        .filter(|k| k.2 != c.stream)
        .map(|&(s, e, _)| {
            if e <= c.start {
                (e, c.start)
            } else {
                (c.end, s)
            }
        })
        .min_by_key(|(a, b)| b.saturating_sub(*a));
    gap.is_some_and(|(from, to)| waits.iter().any(|&(s, e)| s < to && from < e))
}

/// The report as the view's lines: one per cause, short (its numbers and card; the
/// explanation up to its first `:` or `;`), after a line saying how many copies ran alone.
pub fn view_lines(r: &OverlapReport) -> Vec<String> {
    if r.causes.is_empty() {
        return Vec::new();
    }
    let mut out = vec![format!(
        "why no overlap: {} copies ran while no kernel ran ({:.3} ms)",
        r.lone_copies,
        r.lone_ns as f64 / 1e6
    )];
    for c in &r.causes {
        let gist = c
            .explanation
            .split([':', ';'])
            .next()
            .unwrap_or(c.explanation);
        out.push(format!(
            "{}{}: {} copies, {:.3} ms: {gist} (learn: {} / {})",
            c.cause,
            if c.certain { "" } else { " (a guess)" },
            c.copies,
            c.cost_ns as f64 / 1e6,
            c.teaches.lesson,
            c.teaches.card
        ));
    }
    out
}

/// The report as text.
pub fn render(r: &OverlapReport) -> String {
    let mut out = String::from("\nwhy no overlap\n");
    if r.causes.is_empty() {
        out.push_str(
            "  every upload and download ran beside a kernel, or the run had no kernels\n",
        );
        return out;
    }
    let _ = writeln!(
        out,
        "  {} copies ran while no kernel ran ({:.1} us):",
        r.lone_copies,
        r.lone_ns as f64 / 1e3
    );
    for c in &r.causes {
        let _ = writeln!(
            out,
            "  {}{}: {} copies, {:.1} us: {}\n    learn: {} / {}",
            c.cause,
            if c.certain { "" } else { " (a guess)" },
            c.copies,
            c.cost_ns as f64 / 1e3,
            c.explanation,
            c.teaches.lesson,
            c.teaches.card
        );
    }
    out
}
