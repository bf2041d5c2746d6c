//! Turning issued ops plus device times (CUPTI records or events) into timeline [`Op`]s.
#![allow(unsafe_code)]

use cudarc::driver::sys::{self, CUevent};

use super::Issued;
use crate::gpu::GpuError;
use crate::gpu::cuda::cupti::{RecKind, Record};
use crate::gpu::cuda::error::check;
use crate::report::{Op, OpKind};

fn base_op(i: &Issued) -> Op {
    Op {
        stream: i.stream,
        kind: i.kind,
        start_us: i.issue_us,
        end_us: i.issue_us,
        bytes: i.bytes,
        host_mem: i.host_mem,
        engine: None,
        start_inferred: true,
        label: i.label.to_string(),
    }
}

fn rec_kind(k: OpKind) -> Option<RecKind> {
    match k {
        OpKind::H2d => Some(RecKind::H2d),
        OpKind::D2h => Some(RecKind::D2h),
        OpKind::Kernel => Some(RecKind::Kernel),
        OpKind::Host => None,
    }
}

/// Pair issued ops with CUPTI records. Both are in issue order (records by correlation id), so
/// each op takes the next records of its kind; a copy split into several records (pageable
/// staging) takes records until its bytes are covered.
pub fn match_records(issued: &[Issued], mut records: Vec<Record>, origin_ns: u64) -> Vec<Op> {
    records.retain(|r| r.kind != RecKind::OtherCopy);
    records.sort_by_key(|r| (r.correlation, r.start_ns));
    let us = |ns: u64| (ns as f64 - origin_ns as f64) / 1000.0;
    let mut next = 0usize;
    let mut out = Vec::with_capacity(issued.len());
    for i in issued {
        let mut op = base_op(i);
        let Some(want) = rec_kind(i.kind) else {
            out.push(op);
            continue;
        };
        let Some(first) = (next..records.len()).find(|&j| records[j].kind == want) else {
            op.label.push_str(" (no CUPTI record)");
            out.push(op);
            continue;
        };
        let (mut start, mut end, mut covered) = (u64::MAX, 0u64, 0u64);
        let mut j = first;
        while j < records.len() && records[j].kind == want {
            let r = records[j];
            start = start.min(r.start_ns);
            end = end.max(r.end_ns);
            covered += r.bytes;
            op.engine = op.engine.or(r.channel);
            j += 1;
            if want == RecKind::Kernel || covered >= i.bytes {
                break;
            }
        }
        next = j;
        op.start_us = us(start);
        op.end_us = us(end);
        op.start_inferred = false;
        out.push(op);
    }
    out
}

pub(super) fn from_events(issued: &[Issued], origin: CUevent) -> Result<Vec<Op>, GpuError> {
    let mut last_end: std::collections::HashMap<u32, f64> = Default::default();
    let mut out = Vec::with_capacity(issued.len());
    for i in issued {
        let mut op = base_op(i);
        if let Some(ev) = i.end_event {
            let mut ms = 0f32;
            // SAFETY: both events were recorded and have completed (the device is synchronised).
            check("cuEventElapsedTime", unsafe {
                sys::cuEventElapsedTime_v2(&mut ms, origin, ev)
            })?;
            op.end_us = f64::from(ms) * 1000.0;
            let prev = last_end.get(&i.stream).copied().unwrap_or(0.0);
            op.start_us = prev.max(i.issue_us).min(op.end_us);
            last_end.insert(i.stream, op.end_us);
        }
        out.push(op);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::HostMemKind;

    fn issued(stream: u32, kind: OpKind, bytes: u64) -> Issued {
        Issued {
            stream,
            kind,
            bytes,
            host_mem: Some(HostMemKind::Pageable),
            label: "x",
            issue_us: 1.0,
            end_event: None,
        }
    }

    fn rec(kind: RecKind, bytes: u64, start: u64, end: u64, corr: u32) -> Record {
        Record {
            kind,
            bytes,
            start_ns: start,
            end_ns: end,
            correlation: corr,
            channel: Some(3),
        }
    }

    #[test]
    fn records_pair_with_ops_in_issue_order_and_split_copies_merge() {
        let ops = [
            issued(1, OpKind::H2d, 100),
            issued(2, OpKind::Kernel, 100),
            issued(1, OpKind::D2h, 100),
        ];
        // Out of order, a D2D copy to ignore, and the H2D split in two records.
        let recs = vec![
            rec(RecKind::D2h, 100, 9_000, 10_000, 7),
            rec(RecKind::H2d, 60, 2_000, 3_000, 5),
            rec(RecKind::OtherCopy, 4, 0, 1, 4),
            rec(RecKind::Kernel, 0, 2_500, 8_000, 6),
            rec(RecKind::H2d, 40, 1_000, 2_000, 5),
        ];
        let out = match_records(&ops, recs, 1_000);
        assert_eq!(out.len(), 3);
        assert_eq!((out[0].start_us, out[0].end_us), (0.0, 2.0));
        assert_eq!((out[1].start_us, out[1].end_us), (1.5, 7.0));
        assert_eq!((out[2].start_us, out[2].end_us), (8.0, 9.0));
        assert!(out.iter().all(|o| !o.start_inferred));
        assert_eq!(out[0].engine, Some(3));
        assert_eq!(out[1].stream, 2);
    }

    #[test]
    fn an_op_without_a_record_is_kept_and_marked() {
        let out = match_records(&[issued(1, OpKind::H2d, 8)], Vec::new(), 0);
        assert!(out[0].start_inferred);
        assert!(out[0].label.contains("no CUPTI record"));
    }
}
