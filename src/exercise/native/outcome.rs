//! A traced native run as the interpreter's [`Outcome`], so that the exercise's criteria grade
//! it unchanged: the call log is the trace's driver calls (`attach::judge::import`, the one
//! import), with the header's helpers (`marks`) put in by time as the host accesses the
//! interpreter logs for them (`check_output` reads its floats, `fill_input` writes them); the
//! timeline is each logged device op's GPU activity (matched by correlation id), on the log's
//! streams and lines; `check_output`'s answers, the reported figures and `host_work` come from
//! the marks. As in `attach::judge`, a log line is the driver call's number in the trace.
//!
//! What a trace does not hold stays out, never guessed: the program's own host accesses
//! (`h[i] = …`), the bytes its kernels touch, the arguments of `spin` and `transform`.

use std::collections::{BTreeMap, HashMap};

use super::marks::{self, Helper, Mark};
use crate::attach::file::{ApiCall, Record, Trace};
use crate::attach::judge;
use crate::exercise::interp::{HostSpan, Outcome, OutputCheck};
use crate::exercise::log::{Call, DeviceOpKind, Entry, Range, RegionId};
use crate::report::{HostMemKind, Op, OpKind};

/// The range of a helper's pointer that no allocation the trace saw holds.
const NOWHERE: RegionId = RegionId(u32::MAX);

/// A native run's outcome, and how many of the header's marks did not parse.
#[derive(Debug, Clone, Default)]
pub struct Native {
    pub outcome: Outcome,
    pub bad_marks: usize,
    /// Helper calls whose pointer is in no allocation the trace saw (a stack or global array):
    /// their host access is not logged.
    pub unplaced: usize,
    /// Kernel launches whose parameters the trace lacks: they touch nothing in the log.
    pub kernels_unwatched: u64,
    /// Launches whose ranges were assumed from their parameters.
    pub kernels_assumed: usize,
}

/// `trace` as an outcome; `output` is what the program printed, `exit_code` how it ended.
pub fn of_trace(trace: &Trace, output: String, exit_code: i64) -> Native {
    let imported = judge::import(trace);
    let calls: Vec<&ApiCall> = trace
        .records
        .iter()
        .filter_map(|r| {
            if let Record::Api(c) = r {
                Some(c)
            } else {
                None
            }
        })
        .collect();
    let call_at = |line: u32| calls.get((line as usize).wrapping_sub(1)).copied();
    let regions = bases(&imported.log, &call_at);
    let (found, bad_marks) = marks::of_trace(trace);
    let mut native = Native {
        bad_marks,
        kernels_unwatched: imported.kernels,
        kernels_assumed: imported.assumed.len(),
        ..Native::default()
    };
    let out = &mut native.outcome;
    out.output = output;
    out.exit_code = exit_code;
    out.region_names = imported.names.clone();
    out.log = with_host_accesses(&imported.log, &found, &regions, &call_at);
    let origin = origin_ns(trace, &calls);
    let mut begun: Option<u64> = None;
    for m in &found {
        match &m.what {
            Helper::CheckOutput {
                ptr,
                bytes,
                spins,
                passed,
            } => {
                let range = place(&regions, *ptr, *bytes).unwrap_or_else(|| {
                    native.unplaced += 1;
                    Range {
                        region: NOWHERE,
                        start: 0,
                        end: *bytes,
                    }
                });
                out.checks.push(OutputCheck {
                    line: m.line,
                    passed: *passed,
                    range,
                    spins: *spins,
                });
            }
            Helper::FillInput { ptr, bytes } => {
                if place(&regions, *ptr, *bytes).is_none() {
                    native.unplaced += 1;
                }
            }
            Helper::Report { name, value } => {
                out.metrics.insert(name.clone(), *value);
            }
            Helper::HostWorkBegin => begun = Some(m.at_ns),
            Helper::HostWorkEnd => {
                if let Some(start) = begun.take() {
                    out.host_work.push(HostSpan {
                        line: m.line,
                        start_us: us(origin, start),
                        end_us: us(origin, m.at_ns),
                    });
                }
            }
        }
    }
    out.output_region = output_region(&out.log);
    out.timeline = timeline(trace, &out.log, &call_at, origin);
    native
}

/// Each allocation's base address and size, from the driver call that made it or from the
/// first copy or memset that touched it (a `malloc` block the trace saw only through a copy).
fn bases<'a>(
    log: &[Entry],
    call_at: &impl Fn(u32) -> Option<&'a ApiCall>,
) -> BTreeMap<RegionId, (u64, u64)> {
    let mut sizes: HashMap<RegionId, u64> = HashMap::new();
    let mut found = BTreeMap::new();
    for e in log {
        let call = call_at(e.line);
        match &e.call {
            Call::Alloc { region, bytes, .. } => {
                sizes.insert(*region, *bytes);
                if let Some(c) = call
                    && let Some(ptr) = c.ptr
                    && !c.name.starts_with("cuMemcpy")
                    && !c.name.starts_with("cuMemset")
                {
                    found.insert(*region, (ptr, *bytes));
                }
            }
            Call::Register { region } => {
                if let Some(ptr) = call.and_then(|c| c.ptr) {
                    let bytes = sizes.get(region).copied().unwrap_or(0);
                    found.entry(*region).or_insert((ptr, bytes));
                }
            }
            Call::Device(op) => {
                let Some(c) = call else { continue };
                let sides = [(op.reads.first(), c.src), (op.writes.first(), c.dst)];
                for (range, addr) in sides {
                    if let (Some(r), Some(addr)) = (range, addr) {
                        let bytes = sizes.get(&r.region).copied().unwrap_or(r.end);
                        found
                            .entry(r.region)
                            .or_insert((addr.wrapping_sub(r.start), bytes));
                    }
                }
            }
            // No host address to learn from these: each named, so a new kind of entry is
            // decided here (the match is held exhaustive by tests/it/exhaustive_matches.rs).
            Call::Free { .. }
            | Call::Unregister { .. }
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
            | Call::HostFuncRan { .. }
            | Call::HostRead { .. }
            | Call::HostWrite { .. }
            | Call::Exit { .. } => {}
        }
    }
    found
}

/// The range `[ptr, ptr + bytes)` in the allocation that holds `ptr`, the newest first.
fn place(regions: &BTreeMap<RegionId, (u64, u64)>, ptr: u64, bytes: u64) -> Option<Range> {
    regions
        .iter()
        .rev()
        .find(|(_, (base, size))| *base <= ptr && ptr < base.saturating_add((*size).max(1)))
        .map(|(id, (base, _))| Range {
            region: *id,
            start: ptr - base,
            end: ptr - base + bytes,
        })
}

/// The log with a `HostRead` for each `check_output` and a `HostWrite` for each `fill_input`,
/// each before the first driver call that began after it (its line: the driver call before it).
fn with_host_accesses<'a>(
    log: &[Entry],
    found: &[Mark],
    regions: &BTreeMap<RegionId, (u64, u64)>,
    call_at: &impl Fn(u32) -> Option<&'a ApiCall>,
) -> Vec<Entry> {
    let mut out = Vec::with_capacity(log.len() + found.len());
    let mut next = found.iter().peekable();
    let mut last_line = 1;
    let put = |m: &Mark, line: u32, out: &mut Vec<Entry>| {
        let (ptr, bytes, write, what) = match m.what {
            Helper::CheckOutput { ptr, bytes, .. } => (ptr, bytes, false, "check_output"),
            Helper::FillInput { ptr, bytes } => (ptr, bytes, true, "fill_input"),
            _ => return,
        };
        let Some(range) = place(regions, ptr, bytes) else {
            return;
        };
        let what = what.to_string();
        let call = if write {
            Call::HostWrite { range, what }
        } else {
            Call::HostRead { range, what }
        };
        out.push(Entry { line, call });
    };
    for e in log {
        let start = call_at(e.line).map_or(0, |c| c.start);
        while let Some(m) = next.next_if(|m| m.at_ns < start) {
            put(m, last_line, &mut out);
        }
        last_line = e.line;
        out.push(e.clone());
    }
    for m in next {
        put(m, last_line, &mut out);
    }
    out
}

/// The host buffer the last device-to-host copy wrote, and its size (as the interpreter sets
/// `output_region`).
fn output_region(log: &[Entry]) -> Option<(RegionId, u64)> {
    let region = log.iter().rev().find_map(|e| {
        let Call::Device(op) = &e.call else {
            return None;
        };
        (op.kind == DeviceOpKind::CopyD2H)
            .then(|| op.writes.first().map(|r| r.region))
            .flatten()
    })?;
    let bytes = log.iter().rev().find_map(|e| {
        let Call::Alloc {
            region: r, bytes, ..
        } = &e.call
        else {
            return None;
        };
        (*r == region).then_some(*bytes)
    })?;
    Some((region, bytes))
}

/// The first driver call's start (or the first GPU activity's, when earlier), ns.
fn origin_ns(trace: &Trace, calls: &[&ApiCall]) -> u64 {
    let api = calls.iter().map(|c| c.start).filter(|s| *s > 0).min();
    let gpu = trace
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Memcpy(m) => Some(m.start),
            Record::Memset(m) => Some(m.start),
            Record::Kernel(k) => Some(k.start),
            Record::Header(_)
            | Record::Note { .. }
            | Record::Api(_)
            | Record::Sync(_)
            | Record::Event { .. }
            | Record::Marker { .. }
            | Record::Dropped { .. }
            | Record::End { .. }
            | Record::Exit(_)
            | Record::Unknown => None,
        })
        .filter(|s| *s > 0)
        .min();
    api.into_iter().chain(gpu).min().unwrap_or(0)
}

fn us(origin: u64, ns: u64) -> f64 {
    (ns as f64 - origin as f64) / 1000.0
}

/// What the GPU ran for one correlation id: its span, bytes and host memory kind.
#[derive(Default)]
struct Ran {
    start: u64,
    end: u64,
    bytes: u64,
    host_mem: Option<HostMemKind>,
}

/// Every logged device op that the GPU timed, on the log's stream, with its log line.
fn timeline<'a>(
    trace: &Trace,
    log: &[Entry],
    call_at: &impl Fn(u32) -> Option<&'a ApiCall>,
    origin: u64,
) -> Vec<Op> {
    let mut ran: HashMap<u32, Ran> = HashMap::new();
    let mut add = |corr: u32, start: u64, end: u64, bytes: u64, mem: Option<HostMemKind>| {
        if start == 0 && end == 0 {
            return;
        }
        let r = ran.entry(corr).or_insert(Ran {
            start,
            end,
            ..Ran::default()
        });
        r.start = r.start.min(start);
        r.end = r.end.max(end);
        r.bytes += bytes;
        r.host_mem = r.host_mem.or(mem);
    };
    for rec in &trace.records {
        match rec {
            Record::Memcpy(m) => {
                let host = if m.copy_kind == 1 {
                    m.src_kind
                } else {
                    m.dst_kind
                };
                let mem = match host {
                    1 => Some(HostMemKind::Pageable),
                    2 => Some(HostMemKind::Pinned),
                    _ => None,
                };
                add(m.corr, m.start, m.end, m.bytes, mem);
            }
            Record::Memset(m) => add(m.corr, m.start, m.end, m.bytes, None),
            Record::Kernel(k) => add(k.corr, k.start, k.end, 0, None),
            // Not GPU work with a span of its own.
            Record::Header(_)
            | Record::Note { .. }
            | Record::Api(_)
            | Record::Sync(_)
            | Record::Event { .. }
            | Record::Marker { .. }
            | Record::Dropped { .. }
            | Record::End { .. }
            | Record::Exit(_)
            | Record::Unknown => {}
        }
    }
    let mut ops = Vec::new();
    for e in log {
        let Call::Device(op) = &e.call else { continue };
        let Some(r) = call_at(e.line).and_then(|c| ran.get(&c.corr)) else {
            continue;
        };
        let kind = match op.kind {
            DeviceOpKind::CopyH2D => OpKind::H2d,
            DeviceOpKind::CopyD2H => OpKind::D2h,
            DeviceOpKind::Kernel | DeviceOpKind::Memset | DeviceOpKind::CopyD2D => OpKind::Kernel,
            DeviceOpKind::HostFunc | DeviceOpKind::AllocAsync | DeviceOpKind::FreeAsync => {
                continue;
            }
        };
        ops.push(Op {
            stream: op.stream.0,
            kind,
            start_us: us(origin, r.start),
            end_us: us(origin, r.end),
            bytes: r.bytes,
            host_mem: r.host_mem,
            engine: None,
            start_inferred: false,
            line: Some(e.line),
            label: op.call.clone(),
        });
    }
    ops
}
