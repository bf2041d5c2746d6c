//! A trace's records as the experiments' timeline (`report::Op`s): the one place where trace
//! records become timeline ops, for the `trace` view and for `--trace-out`'s Chrome trace.
//!
//! - every copy, memset and kernel CUPTI timed goes on its stream (`stream_id`), in microseconds
//!   from the earliest op kept; uploads are `H2d`, downloads `D2h`, with the host memory kind
//!   CUPTI gave (pageable or pinned). The timeline has no glyph for a device-to-device or peer
//!   copy or a memset: they are drawn as device work (`█`, [`OpKind::Kernel`]) and say what they
//!   are in their label, as the exercises' timeline draws a memset;
//! - a driver API call the host spent at least [`HOST_SPAN_MIN_US`] in goes on the host lane
//!   (the same threshold as the exercises' timeline: a wait, a blocking copy, a first call that
//!   creates the context), labelled with its name;
//! - an op CUPTI left untimed (start and end 0: the program ended before it ran) is counted, not
//!   drawn; past [`MAX_OPS`] ops the rest are counted, not kept (bounded memory for a trace of a
//!   million copies).
//!
//! The records carry no copy-engine channel, so every copy has `engine: None` (the engine view
//! shows one `copies` lane).

use std::path::Path;

use super::file::{self, Memcpy, Record, Trace};
use crate::exercise::interp::HOST_SPAN_MIN_US;
use crate::report::{
    BackendInfo, BackendKind, HostMemKind, Op, OpKind, Params, Report, TimingSource,
};
use crate::sanitize::clean_line;

/// The most ops kept for the view; a longer trace is shown up to here and says so.
pub const MAX_OPS: usize = 200_000;

/// `CUpti_ActivityMemcpyKind` values (`CUPTI_ACTIVITY_MEMCPY_KIND_*`).
const HTOD: u8 = 1;
const DTOH: u8 = 2;
const DTOD: u8 = 8;
const PTOP: u8 = 10;
/// `CUpti_ActivityMemoryKind` values (`CUPTI_ACTIVITY_MEMORY_KIND_*`).
const PAGEABLE: u8 = 1;
const PINNED: u8 = 2;

/// A trace's timeline.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TraceTimeline {
    /// Device ops and host waits, microseconds from `origin_ns`.
    pub ops: Vec<Op>,
    /// The earliest op's start, ns on CUPTI's clock (the clock of every record).
    pub origin_ns: u64,
    /// Device ops CUPTI left untimed (the program ended before they ran).
    pub untimed: u64,
    /// Ops past [`MAX_OPS`], not kept.
    pub left_out: u64,
}

impl TraceTimeline {
    /// A time on CUPTI's clock (ns) as microseconds on this timeline.
    pub fn us_of(&self, ns: u64) -> f64 {
        us_between(self.origin_ns, ns)
    }
}

/// Collects ops record by record, so a file can be read in the memory of one line.
#[derive(Debug, Default)]
pub struct Builder {
    /// Ops with their start and end still in ns.
    ops: Vec<(u64, u64, Op)>,
    untimed: u64,
    left_out: u64,
}

impl Builder {
    /// Take what `record` puts on the timeline.
    pub fn add(&mut self, record: &Record) {
        let placed = match record {
            Record::Memcpy(m) => self.timed(m.start, m.end).then(|| copy(m)),
            Record::Memset(m) => self.timed(m.start, m.end).then(|| {
                let label = format!("memset {}", crate::units::format_bytes(m.bytes));
                (
                    m.start,
                    m.end,
                    device_op(m.stream_id, OpKind::Kernel, m.bytes, label),
                )
            }),
            Record::Kernel(k) => self.timed(k.start, k.end).then(|| {
                let op = device_op(k.stream_id, OpKind::Kernel, 0, clean_line(&k.name));
                (k.start, k.end, op)
            }),
            Record::Api(call) if host_wait(call.start, call.end) => {
                let op = Op {
                    stream: call.stream_id.unwrap_or(0),
                    kind: OpKind::Host,
                    start_us: 0.0,
                    end_us: 0.0,
                    // As every host op: the bytes are the device ops' (the label names the call).
                    bytes: 0,
                    host_mem: None,
                    engine: None,
                    start_inferred: false,
                    line: None,
                    label: clean_line(&call.name),
                };
                Some((call.start, call.end, op))
            }
            _ => None,
        };
        if let Some(placed) = placed {
            if self.ops.len() < MAX_OPS {
                self.ops.push(placed);
            } else {
                self.left_out += 1;
            }
        }
    }

    /// Whether CUPTI timed a device op (see `summary::timed`); counts it when it did not.
    fn timed(&mut self, start: u64, end: u64) -> bool {
        let timed = (start, end) != (0, 0) && end >= start;
        self.untimed += u64::from(!timed);
        timed
    }

    /// The timeline, on the earliest kept op's start.
    pub fn finish(self) -> TraceTimeline {
        let origin_ns = self.ops.iter().map(|(s, _, _)| *s).min().unwrap_or(0);
        let ops = self
            .ops
            .into_iter()
            .map(|(start, end, mut op)| {
                op.start_us = us_between(origin_ns, start);
                op.end_us = us_between(origin_ns, end);
                op
            })
            .collect();
        TraceTimeline {
            ops,
            origin_ns,
            untimed: self.untimed,
            left_out: self.left_out,
        }
    }
}

/// The timeline of a trace read whole.
pub fn of_trace(trace: &Trace) -> TraceTimeline {
    let mut builder = Builder::default();
    for record in &trace.records {
        builder.add(record);
    }
    builder.finish()
}

/// The timeline of the trace file at `path`, read a line at a time.
pub fn of_path(path: &Path) -> anyhow::Result<TraceTimeline> {
    let mut builder = Builder::default();
    file::scan_path(path, |record| builder.add(&record))?;
    Ok(builder.finish())
}

/// The timeline as a [`Report`] of experiment `trace` (CUPTI-timed, no metrics), for the one
/// Chrome/Perfetto writer `run --trace` uses (`crate::trace`).
pub fn report(tl: &TraceTimeline) -> Report {
    Report {
        schema_version: crate::report::SCHEMA_VERSION,
        experiment: "trace".to_string(),
        backend: BackendInfo {
            kind: BackendKind::Cuda,
            device: "the traced program's GPU".to_string(),
            profile: None,
            reason: None,
            timing: TimingSource::Cupti,
        },
        params: Params::default(),
        metrics: Default::default(),
        timeline: tl.ops.clone(),
        other_timelines: Vec::new(),
        series: Vec::new(),
        checks: Vec::new(),
        notes: Vec::new(),
    }
}

/// Microseconds from `origin` to `ns` (negative before it).
fn us_between(origin: u64, ns: u64) -> f64 {
    if ns >= origin {
        (ns - origin) as f64 / 1e3
    } else {
        -((origin - ns) as f64 / 1e3)
    }
}

/// Whether an API call kept the host long enough to be drawn (start and end both set).
fn host_wait(start: u64, end: u64) -> bool {
    start != 0 && end >= start && (end - start) as f64 / 1e3 >= HOST_SPAN_MIN_US
}

fn device_op(stream: u32, kind: OpKind, bytes: u64, label: String) -> Op {
    Op {
        stream,
        kind,
        start_us: 0.0,
        end_us: 0.0,
        bytes,
        host_mem: None,
        engine: None,
        start_inferred: false,
        line: None,
        label,
    }
}

/// A copy's op: direction, host memory kind, and a label for the kinds drawn as device work.
fn copy(m: &Memcpy) -> (u64, u64, Op) {
    let (kind, host, label) = match m.copy_kind {
        HTOD => (OpKind::H2d, m.src_kind, String::new()),
        DTOH => (OpKind::D2h, m.dst_kind, String::new()),
        DTOD => (OpKind::Kernel, 0, "device-to-device copy".to_string()),
        PTOP => (OpKind::Kernel, 0, "peer copy".to_string()),
        other => (OpKind::Kernel, 0, format!("copy (CUPTI kind {other})")),
    };
    let mut op = device_op(m.stream_id, kind, m.bytes, label);
    op.host_mem = match host {
        PAGEABLE => Some(HostMemKind::Pageable),
        PINNED => Some(HostMemKind::Pinned),
        _ => None,
    };
    (m.start, m.end, op)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(lines: &str) -> Trace {
        let header = r#"{"t":"header","format_version":1,"status":"ok"}"#;
        file::read(format!("{header}\n{lines}").as_bytes()).unwrap()
    }

    #[test]
    fn copies_kernels_and_memsets_go_on_their_streams_from_the_first_start() {
        let t = trace(concat!(
            r#"{"t":"memcpy","copy_kind":1,"src_kind":1,"dst_kind":3,"bytes":64,"start":1000,"end":3000,"device":0,"stream_id":7,"corr":1}"#,
            "\n",
            r#"{"t":"kernel","name":"k\u001b[2J","grid":[1,1,1],"block":[1,1,1],"start":4000,"end":9000,"device":0,"stream_id":8,"corr":2}"#,
            "\n",
            r#"{"t":"memset","bytes":16,"start":500,"end":700,"device":0,"stream_id":7,"corr":3}"#,
            "\n",
            r#"{"t":"memcpy","copy_kind":8,"src_kind":3,"dst_kind":3,"bytes":8,"start":600,"end":800,"device":0,"stream_id":8,"corr":4}"#,
            "\n",
        ));
        let tl = of_trace(&t);
        assert_eq!(tl.origin_ns, 500);
        assert_eq!(tl.ops.len(), 4);
        let up = &tl.ops[0];
        assert_eq!((up.kind, up.stream, up.bytes), (OpKind::H2d, 7, 64));
        assert_eq!((up.start_us, up.end_us), (0.5, 2.5));
        assert_eq!(up.host_mem, Some(HostMemKind::Pageable));
        let k = &tl.ops[1];
        assert_eq!((k.kind, k.stream, k.end_us), (OpKind::Kernel, 8, 8.5));
        assert!(!k.label.contains('\u{1b}'), "{:?}", k.label);
        assert!(tl.ops[2].label.starts_with("memset"));
        assert_eq!(tl.ops[3].label, "device-to-device copy");
        assert_eq!(tl.us_of(1500), 1.0);
    }

    #[test]
    fn only_calls_the_host_waited_in_reach_the_host_lane_and_untimed_ops_are_counted() {
        let t = trace(concat!(
            r#"{"t":"api","name":"cuStreamSynchronize","start":1000,"end":51000,"stream_id":3}"#,
            "\n",
            r#"{"t":"api","name":"cuLaunchKernel","start":2000,"end":4000}"#,
            "\n",
            r#"{"t":"kernel","name":"k","grid":[1,1,1],"block":[1,1,1],"start":0,"end":0,"device":0,"stream_id":3,"corr":2}"#,
            "\n",
        ));
        let tl = of_trace(&t);
        assert_eq!(tl.ops.len(), 1);
        let wait = &tl.ops[0];
        assert_eq!((wait.kind, wait.stream), (OpKind::Host, 3));
        assert_eq!(wait.label, "cuStreamSynchronize");
        assert_eq!(wait.duration_us(), 50.0);
        assert_eq!(tl.untimed, 1);
    }
}
