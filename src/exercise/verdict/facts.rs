//! What a run did, read from its call log and its timeline, for the behaviour criteria: each
//! device op with the memory kind of its host side at the time of the call and the timeline op
//! it became, and the rate of the fastest copy the timeline measured (the link's bound).
//!
//! A log op is matched to its timeline op by line, kind and stream: ops of one stream run in
//! the order they were issued, so the n-th such op in the log is the n-th on the timeline.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, DeviceOp, DeviceOpKind, MemKind, RegionId};
use crate::report::{Op, OpKind};

/// Which way a copy goes, as criteria name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    H2d,
    D2h,
}

impl Direction {
    pub fn name(self) -> &'static str {
        match self {
            Direction::H2d => "host-to-device",
            Direction::D2h => "device-to-host",
        }
    }

    fn matches(self, kind: DeviceOpKind) -> bool {
        matches!(
            (self, kind),
            (Direction::H2d, DeviceOpKind::CopyH2D) | (Direction::D2h, DeviceOpKind::CopyD2H)
        )
    }
}

/// Where a copy's host side lived when the copy was issued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Memory {
    /// `malloc`, not registered.
    Pageable,
    /// `cudaMallocHost` / `cudaHostAlloc`.
    Pinned,
    /// `malloc` page-locked with `cudaHostRegister`.
    Registered,
    /// Either of the two above: pinned is pinned, whichever call locked it (what a criterion
    /// names when the task does not care how the memory was page-locked).
    PageLocked,
}

impl Memory {
    pub fn name(self) -> &'static str {
        match self {
            Memory::Pageable => "pageable (`malloc`)",
            Memory::Pinned => "pinned (`cudaMallocHost`)",
            Memory::Registered => "registered (`cudaHostRegister`)",
            Memory::PageLocked => "page-locked (`cudaMallocHost` or `cudaHostRegister`)",
        }
    }

    /// Whether a copy whose host side was `actual` (never `PageLocked`) is of this kind.
    pub fn admits(self, actual: Memory) -> bool {
        match self {
            Memory::PageLocked => matches!(actual, Memory::Pinned | Memory::Registered),
            _ => self == actual,
        }
    }
}

/// One device op of the log.
#[derive(Debug, Clone)]
pub struct DevOp<'a> {
    /// Its index in the call log.
    pub idx: usize,
    pub line: u32,
    pub op: &'a DeviceOp,
    /// A copy's host side: the allocation and what it was at the call.
    pub host: Option<(RegionId, Memory)>,
    /// The timeline op it became, where the backend recorded one.
    pub timed: Option<&'a Op>,
}

impl DevOp<'_> {
    /// A copy going `dir`, from or to memory of kind `mem` (any kind when `None`).
    pub fn is_copy(&self, dir: Direction, mem: Option<Memory>) -> bool {
        dir.matches(self.op.kind) && mem.is_none_or(|m| self.host.is_some_and(|h| m.admits(h.1)))
    }

    pub fn bytes(&self) -> u64 {
        self.op
            .reads
            .first()
            .map_or(0, |r| r.end.saturating_sub(r.start))
    }
}

/// The run's device ops, in issue order.
pub fn device_ops(out: &Outcome) -> Vec<DevOp<'_>> {
    let mut kinds: HashMap<RegionId, MemKind> = HashMap::new();
    let mut registered: HashSet<RegionId> = HashSet::new();
    let mut seen: HashMap<(u32, OpKind, u32), usize> = HashMap::new();
    let mut timed = timeline_groups(&out.timeline);
    let mut ops = Vec::new();
    for (idx, e) in out.log.iter().enumerate() {
        match &e.call {
            Call::Alloc { region, kind, .. } => {
                kinds.insert(*region, *kind);
            }
            Call::Register { region } => {
                registered.insert(*region);
            }
            Call::Unregister { region } => {
                registered.remove(region);
            }
            Call::Device(op) => {
                let host_region = match op.kind {
                    DeviceOpKind::CopyH2D => op.reads.first().map(|r| r.region),
                    DeviceOpKind::CopyD2H => op.writes.first().map(|r| r.region),
                    DeviceOpKind::CopyD2D
                    | DeviceOpKind::Memset
                    | DeviceOpKind::Kernel
                    | DeviceOpKind::HostFunc
                    | DeviceOpKind::AllocAsync
                    | DeviceOpKind::FreeAsync => None,
                };
                let host = host_region.and_then(|r| {
                    let mem = match kinds.get(&r)? {
                        MemKind::Pinned => Memory::Pinned,
                        MemKind::Pageable if registered.contains(&r) => Memory::Registered,
                        MemKind::Pageable => Memory::Pageable,
                        MemKind::Device => return None,
                    };
                    Some((r, mem))
                });
                let timed = timeline_kind(op.kind).and_then(|k| {
                    let key = (e.line, k, op.stream.0);
                    let n = seen.entry(key).or_insert(0);
                    let found = timed.get_mut(&key).and_then(|v| v.get(*n).copied());
                    *n += 1;
                    found
                });
                ops.push(DevOp {
                    idx,
                    line: e.line,
                    op,
                    host,
                    timed,
                });
            }
            Call::Free { .. }
            | Call::StreamCreate { .. }
            | Call::StreamDestroy { .. }
            | Call::PerThreadStream { .. }
            | Call::EventCreate { .. }
            | Call::EventDestroy { .. }
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
    ops
}

/// The timeline kind a log op is drawn as (a memset is drawn as a kernel).
fn timeline_kind(k: DeviceOpKind) -> Option<OpKind> {
    match k {
        DeviceOpKind::CopyH2D => Some(OpKind::H2d),
        DeviceOpKind::CopyD2H => Some(OpKind::D2h),
        DeviceOpKind::Kernel | DeviceOpKind::Memset => Some(OpKind::Kernel),
        DeviceOpKind::CopyD2D
        | DeviceOpKind::HostFunc
        | DeviceOpKind::AllocAsync
        | DeviceOpKind::FreeAsync => None,
    }
}

/// Timeline ops by line, kind and stream, each group in start order.
fn timeline_groups(ops: &[Op]) -> HashMap<(u32, OpKind, u32), Vec<&Op>> {
    let mut groups: HashMap<(u32, OpKind, u32), Vec<&Op>> = HashMap::new();
    for op in ops {
        if let Some(line) = op.line {
            groups
                .entry((line, op.kind, op.stream))
                .or_default()
                .push(op);
        }
    }
    for g in groups.values_mut() {
        g.sort_by(|a, b| a.start_us.total_cmp(&b.start_us));
    }
    groups
}

/// From the first start to the last end of `ops` on the timeline, in microseconds; `None`
/// when none of them was recorded.
pub fn span_us<'a>(ops: impl IntoIterator<Item = &'a Op>) -> Option<(f64, f64)> {
    ops.into_iter().fold(None, |acc, op| match acc {
        None => Some((op.start_us, op.end_us)),
        Some((s, e)) => Some((f64::min(s, op.start_us), f64::max(e, op.end_us))),
    })
}

/// The fastest copy of at least 1 MiB the timeline measured, in GB/s: what the link reached in
/// this run. `None` when no such copy ran.
pub fn link_gbps(timeline: &[Op]) -> Option<f64> {
    timeline
        .iter()
        .filter(|o| matches!(o.kind, OpKind::H2d | OpKind::D2h) && o.bytes >= 1 << 20)
        .filter(|o| o.duration_us() > 0.0)
        .map(|o| o.bytes as f64 / (o.duration_us() * 1e3))
        .reduce(f64::max)
}
