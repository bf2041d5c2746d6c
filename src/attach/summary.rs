//! What a trace says, per stream: the copies by direction (count, bytes, how many from or to
//! pageable memory), memsets, kernels, the time span, and for the whole run whether uploads
//! and downloads overlapped kernels (the time each copy ran while some kernel ran). Pure: a
//! [`Trace`] in, a [`Summary`] out, printed as text or as `--json` (versioned: [`SCHEMA_VERSION`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::file::{Record, Trace};

/// The version of `trace --open --json`'s layout; bumped when a field changes meaning, goes or
/// is added (2: `findings` and `overlap_report`, from `judge`).
pub const SCHEMA_VERSION: u32 = 2;

/// `CUpti_ActivityMemcpyKind` values.
const HTOD: u8 = 1;
const DTOH: u8 = 2;
const DTOD: u8 = 8;
/// `CUpti_ActivityMemoryKind::PAGEABLE`.
const PAGEABLE: u8 = 1;

/// Copies of one direction.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Copies {
    pub count: u64,
    pub bytes: u64,
    /// From or to pageable host memory (staged by the driver, never asynchronous).
    pub pageable: u64,
    /// Nanoseconds the copies ran.
    pub busy_ns: u64,
}

/// One stream's work.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StreamSummary {
    /// CUPTI's stream id (as the activity records give it).
    pub stream_id: u32,
    pub device: u32,
    pub uploads: Copies,
    pub downloads: Copies,
    pub device_to_device: Copies,
    pub other_copies: Copies,
    pub memsets: u64,
    pub kernels: u64,
    pub kernel_ns: u64,
    /// Stream synchronizations and event waits recorded on this stream.
    pub syncs: u64,
    /// Copies, memsets and kernels CUPTI recorded with no timestamps: the program ended (an
    /// `exit` from another thread) before they ran; not in the counts and times above.
    pub never_ran: u64,
    /// First start and last end of its GPU work, ns on CUPTI's clock.
    pub first_ns: u64,
    pub last_ns: u64,
    /// Its kernels that took the most time, longest first (at most [`TOP_KERNELS`]).
    pub top_kernels: Vec<KernelTime>,
}

/// How many kernels per stream the summary names.
pub const TOP_KERNELS: usize = 3;

/// One kernel (by its name as the driver reports it, mangled) on one stream.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct KernelTime {
    pub name: String,
    pub launches: u64,
    pub ns: u64,
}

/// Copies of one direction against kernels, over the whole run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Overlap {
    pub copies: u64,
    /// Copies that ran, at least partly, while a kernel ran.
    pub overlapped: u64,
    pub copy_ns: u64,
    /// Of `copy_ns`, the time some kernel ran too.
    pub overlapped_ns: u64,
}

/// The summary of a trace.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    pub schema_version: u32,
    /// `ok`, or why nothing was traced (the library's header).
    pub status: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
    /// The library's exit flush ran: nothing recorded was lost.
    pub complete: bool,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub driver_version: Option<i64>,
    pub cupti_version: Option<u64>,
    pub api_calls: u64,
    /// Calls that returned an error.
    pub failed_calls: u64,
    pub context_syncs: u64,
    pub dropped_records: u64,
    pub bad_lines: usize,
    /// Span of all GPU work, ns.
    pub span_ns: u64,
    pub streams: Vec<StreamSummary>,
    pub uploads_vs_kernels: Overlap,
    pub downloads_vs_kernels: Overlap,
    pub notes: Vec<String>,
}

/// What one pass over the records gathers.
#[derive(Default)]
struct Tally {
    streams: BTreeMap<u32, StreamSummary>,
    /// Per stream, per kernel name: (launches, ns).
    kernel_names: BTreeMap<u32, BTreeMap<String, (u64, u64)>>,
    kernels: Vec<(u64, u64)>,
    /// (copy kind, start, end) of every copy.
    copies: Vec<(u8, u64, u64)>,
    api_calls: u64,
    failed_calls: u64,
    context_syncs: u64,
}

impl Tally {
    fn add(&mut self, record: &Record) {
        match record {
            Record::Api(call) => {
                self.api_calls += 1;
                self.failed_calls += u64::from(call.ret != 0);
            }
            Record::Memcpy(m) if !timed(m.start, m.end) => {
                stream(&mut self.streams, m.stream_id, Some(m.device)).never_ran += 1;
            }
            Record::Memset(m) if !timed(m.start, m.end) => {
                stream(&mut self.streams, m.stream_id, Some(m.device)).never_ran += 1;
            }
            Record::Kernel(k) if !timed(k.start, k.end) => {
                stream(&mut self.streams, k.stream_id, Some(k.device)).never_ran += 1;
            }
            Record::Memcpy(m) => {
                let st = stream(&mut self.streams, m.stream_id, Some(m.device));
                let slot = match m.copy_kind {
                    HTOD => &mut st.uploads,
                    DTOH => &mut st.downloads,
                    DTOD => &mut st.device_to_device,
                    _ => &mut st.other_copies,
                };
                slot.count += 1;
                slot.bytes += m.bytes;
                slot.pageable += u64::from(m.src_kind == PAGEABLE || m.dst_kind == PAGEABLE);
                slot.busy_ns += m.end.saturating_sub(m.start);
                span(st, m.start, m.end);
                self.copies.push((m.copy_kind, m.start, m.end));
            }
            Record::Memset(m) => {
                let st = stream(&mut self.streams, m.stream_id, Some(m.device));
                st.memsets += 1;
                span(st, m.start, m.end);
            }
            Record::Kernel(k) => {
                let st = stream(&mut self.streams, k.stream_id, Some(k.device));
                let ns = k.end.saturating_sub(k.start);
                st.kernels += 1;
                st.kernel_ns += ns;
                span(st, k.start, k.end);
                self.kernels.push((k.start, k.end));
                let per_name = self.kernel_names.entry(k.stream_id).or_default();
                let entry = per_name.entry(k.name.clone()).or_default();
                entry.0 += 1;
                entry.1 += ns;
            }
            Record::Sync(sync) => match sync.sync_type {
                2 | 3 => stream(&mut self.streams, sync.stream_id, None).syncs += 1,
                4 => self.context_syncs += 1,
                _ => {}
            },
            _ => {}
        }
    }

    /// Uploads and downloads against the union of kernel time.
    fn overlaps(&self) -> (Overlap, Overlap) {
        let busy = union(self.kernels.clone());
        let (mut up, mut down) = (Overlap::default(), Overlap::default());
        for &(kind, start, end) in &self.copies {
            let slot = match kind {
                HTOD => &mut up,
                DTOH => &mut down,
                _ => continue,
            };
            let shared = covered(&busy, start, end);
            slot.copies += 1;
            slot.copy_ns += end.saturating_sub(start);
            slot.overlapped_ns += shared;
            slot.overlapped += u64::from(shared > 0);
        }
        (up, down)
    }

    /// The streams in id order, each with its kernels that took longest.
    fn into_streams(mut self) -> Vec<StreamSummary> {
        let mut out: Vec<StreamSummary> = std::mem::take(&mut self.streams).into_values().collect();
        for st in &mut out {
            // A stream with no timed work (only syncs) shows 0..0.
            if st.first_ns == u64::MAX {
                st.first_ns = 0;
            }
            let mut names: Vec<KernelTime> = self
                .kernel_names
                .remove(&st.stream_id)
                .unwrap_or_default()
                .into_iter()
                .map(|(name, (launches, ns))| KernelTime { name, launches, ns })
                .collect();
            names.sort_by(|a, b| b.ns.cmp(&a.ns).then_with(|| a.name.cmp(&b.name)));
            names.truncate(TOP_KERNELS);
            st.top_kernels = names;
        }
        out
    }
}

/// Whether CUPTI timed the op: an op the program's end cut off comes with start and end both 0
/// (seen on the H200: `tests/fixtures/trace-programs/h200/exit_from_thread.trace.jsonl`).
fn timed(start: u64, end: u64) -> bool {
    (start, end) != (0, 0) && end >= start
}

fn span(st: &mut StreamSummary, start: u64, end: u64) {
    st.first_ns = st.first_ns.min(start);
    st.last_ns = st.last_ns.max(end);
}

/// Summarise `trace`.
pub fn summarize(trace: &Trace) -> Summary {
    let mut tally = Tally::default();
    for record in &trace.records {
        tally.add(record);
    }
    assemble(tally, trace)
}

/// Summarise the trace at `path` as it is read, keeping no record (`trace` runs this after a
/// program of a million copies; the tally keeps 24 bytes per copy for the overlap).
pub fn summarize_path(path: &std::path::Path) -> anyhow::Result<Summary> {
    let mut tally = Tally::default();
    let trace = super::file::scan_path(path, |record| tally.add(&record))?;
    Ok(assemble(tally, &trace))
}

/// The summary of what `tally` gathered from `trace`'s records.
fn assemble(tally: Tally, trace: &Trace) -> Summary {
    let (uploads_vs_kernels, downloads_vs_kernels) = tally.overlaps();
    let first = tally
        .streams
        .values()
        .map(|st| st.first_ns)
        .min()
        .unwrap_or(0);
    let last = tally
        .streams
        .values()
        .map(|st| st.last_ns)
        .max()
        .unwrap_or(0);
    let header = trace.header.as_ref();
    Summary {
        schema_version: SCHEMA_VERSION,
        status: header.map(|h| h.status.clone()).unwrap_or_default(),
        detail: header.map(|h| h.detail.clone()).unwrap_or_default(),
        complete: trace.complete,
        exit_code: trace.exit.and_then(|e| e.code),
        signal: trace.exit.and_then(|e| e.signal),
        driver_version: header.and_then(|h| h.driver_version),
        cupti_version: header.and_then(|h| h.cupti_version),
        api_calls: tally.api_calls,
        failed_calls: tally.failed_calls,
        context_syncs: tally.context_syncs,
        dropped_records: trace.dropped,
        bad_lines: trace.bad_lines,
        span_ns: last.saturating_sub(first.min(last)),
        streams: tally.into_streams(),
        uploads_vs_kernels,
        downloads_vs_kernels,
        notes: trace.notes.clone(),
    }
}

/// Stream `id`'s entry, made on first sight (`first_ns` at its most until work is seen).
fn stream(
    streams: &mut BTreeMap<u32, StreamSummary>,
    id: u32,
    device: Option<u32>,
) -> &mut StreamSummary {
    let st = streams.entry(id).or_insert_with(|| StreamSummary {
        stream_id: id,
        first_ns: u64::MAX,
        ..Default::default()
    });
    if let Some(device) = device {
        st.device = device;
    }
    st
}

/// The union of intervals, sorted and disjoint.
fn union(mut spans: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    spans.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(spans.len());
    for (start, end) in spans {
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// How much of `[start, end)` the disjoint sorted `busy` covers.
fn covered(busy: &[(u64, u64)], start: u64, end: u64) -> u64 {
    let from = busy.partition_point(|(_, e)| *e <= start);
    busy[from..]
        .iter()
        .take_while(|(s, _)| *s < end)
        .map(|(s, e)| (*e).min(end).saturating_sub((*s).max(start)))
        .sum()
}

/// Nanoseconds as `1.234 ms`.
fn ms(ns: u64) -> String {
    format!("{:.3} ms", ns as f64 / 1e6)
}

fn copies_text(what: &str, c: &Copies) -> Option<String> {
    (c.count > 0).then(|| {
        let pageable = if c.pageable > 0 {
            format!(", {} pageable", c.pageable)
        } else {
            String::new()
        };
        format!(
            "{what} {} ({}{pageable}, {})",
            c.count,
            crate::units::format_bytes(c.bytes),
            ms(c.busy_ns)
        )
    })
}

/// One stream's line, and a line per kernel it spent most time in (names cleaned and cut).
fn stream_text(st: &StreamSummary) -> String {
    let mut parts: Vec<String> = [
        copies_text("uploads", &st.uploads),
        copies_text("downloads", &st.downloads),
        copies_text("device copies", &st.device_to_device),
        copies_text("other copies", &st.other_copies),
    ]
    .into_iter()
    .flatten()
    .collect();
    if st.kernels > 0 {
        parts.push(format!("kernels {} ({})", st.kernels, ms(st.kernel_ns)));
    }
    if st.memsets > 0 {
        parts.push(format!("memsets {}", st.memsets));
    }
    if st.syncs > 0 {
        parts.push(format!("syncs {}", st.syncs));
    }
    if st.never_ran > 0 {
        parts.push(format!(
            "{} never ran (the program ended first)",
            st.never_ran
        ));
    }
    let mut out = format!(
        "stream {} (device {}): {}\n",
        st.stream_id,
        st.device,
        parts.join(", ")
    );
    for k in &st.top_kernels {
        let name = crate::sanitize::truncate(&k.name, KERNEL_NAME_COLUMNS);
        let _ = writeln!(out, "  {name}: {} launches, {}", k.launches, ms(k.ns));
    }
    out
}

/// The most columns of a kernel's name shown (C++ names mangle long).
const KERNEL_NAME_COLUMNS: usize = 60;

/// The summary as text (every outside string cleaned).
pub fn render(s: &Summary) -> String {
    let mut out = String::new();
    let status = if s.status == "ok" {
        "traced".to_string()
    } else {
        format!("not traced ({}): {}", s.status, s.detail)
    };
    let _ = writeln!(out, "{}", crate::sanitize::clean_line(&status));
    let ended = match (s.exit_code, s.signal) {
        (Some(c), _) => format!("exit code {c}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        (None, None) => "end not recorded".to_string(),
    };
    let complete = if s.complete {
        "complete"
    } else {
        "INCOMPLETE: the program ended without the exit flush; the last records may be missing"
    };
    let _ = writeln!(out, "program: {ended}; trace {complete}");
    let _ = writeln!(
        out,
        "{} driver API calls ({} failed), {} context synchronizations, GPU span {}",
        s.api_calls,
        s.failed_calls,
        s.context_syncs,
        ms(s.span_ns)
    );
    for st in &s.streams {
        out.push_str(&stream_text(st));
    }
    for (what, o) in [
        ("uploads", s.uploads_vs_kernels),
        ("downloads", s.downloads_vs_kernels),
    ] {
        if o.copies > 0 {
            let _ = writeln!(
                out,
                "{what}: {} of {} overlapped a kernel ({} of {})",
                o.overlapped,
                o.copies,
                ms(o.overlapped_ns),
                ms(o.copy_ns)
            );
        }
    }
    if s.dropped_records > 0 || s.bad_lines > 0 {
        let _ = writeln!(
            out,
            "lost: {} records dropped, {} damaged lines",
            s.dropped_records, s.bad_lines
        );
    }
    for note in &s.notes {
        let _ = writeln!(out, "note: {}", crate::sanitize::clean_line(note));
    }
    out
}

#[cfg(test)]
#[path = "summary_tests.rs"]
mod tests;
