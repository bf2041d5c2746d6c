//! Turning issued ops plus device times (CUPTI records or events) into timeline [`Op`]s.

use std::collections::HashMap;

use cudarc::driver::sys::CUevent;

use super::Issued;
use crate::gpu::GpuError;
use crate::gpu::cuda::cupti::{Collected, RecKind, Record};
use crate::gpu::cuda::events::elapsed_between as elapsed_ms;
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
        line: i.line,
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

/// Pair issued ops with CUPTI records. Each op's driver call was tagged with the op's index, and
/// the external-correlation records link every tagged call's correlation id to that index, so
/// a record finds its op by its correlation id: a dropped record leaves only its own op without
/// times, and a record no op issued (another library's copy) is ignored. A copy split into
/// several records (pageable staging) merges them. Without links (CUPTI refused the
/// external-correlation kind) records are paired by position instead.
pub fn match_records(issued: &[Issued], collected: Collected, origin_ns: u64) -> Vec<Op> {
    let Collected { mut records, links } = collected;
    records.retain(|r| r.kind != RecKind::OtherCopy);
    records.sort_by_key(|r| (r.correlation, r.start_ns));
    if links.is_empty() {
        return by_position(issued, &records, origin_ns);
    }
    let owner: HashMap<u32, u64> = links.into_iter().collect();
    let mut mine: Vec<Vec<Record>> = vec![Vec::new(); issued.len()];
    for r in records {
        let op = owner
            .get(&r.correlation)
            .and_then(|&tag| usize::try_from(tag).ok())
            .filter(|&i| i < issued.len() && rec_kind(issued[i].kind) == Some(r.kind));
        if let Some(i) = op {
            mine[i].push(r);
        }
    }
    issued
        .iter()
        .zip(&mine)
        .map(|(i, recs)| merged(i, recs, origin_ns))
        .collect()
}

/// An op with the device times of its records (marked when it has none).
fn merged(i: &Issued, recs: &[Record], origin_ns: u64) -> Op {
    let mut op = base_op(i);
    if rec_kind(i.kind).is_none() {
        return op;
    }
    let (Some(start), Some(end)) = (
        recs.iter().map(|r| r.start_ns).min(),
        recs.iter().map(|r| r.end_ns).max(),
    ) else {
        op.label.push_str(" (no CUPTI record)");
        return op;
    };
    let us = |ns: u64| (ns as f64 - origin_ns as f64) / 1000.0;
    op.start_us = us(start);
    op.end_us = us(end);
    op.engine = recs.iter().find_map(|r| r.channel);
    op.start_inferred = false;
    op
}

/// The fallback: records and ops both in issue order, so each op takes the next records of its
/// kind until its bytes are covered. One dropped record shifts every later op of its kind.
fn by_position(issued: &[Issued], records: &[Record], origin_ns: u64) -> Vec<Op> {
    let mut next = 0usize;
    let mut out = Vec::with_capacity(issued.len());
    for i in issued {
        let Some(want) = rec_kind(i.kind) else {
            out.push(base_op(i));
            continue;
        };
        let first = (next..records.len()).find(|&j| records[j].kind == want);
        let mut j = first.unwrap_or(records.len());
        let mut covered = 0u64;
        let start = j;
        while j < records.len() && records[j].kind == want {
            covered += records[j].bytes;
            j += 1;
            if want == RecKind::Kernel || covered >= i.bytes {
                break;
            }
        }
        if first.is_some() {
            next = j;
        }
        out.push(merged(i, &records[start..j], origin_ns));
    }
    out
}

pub(super) fn from_events(issued: &[Issued], origin: CUevent) -> Result<Vec<Op>, GpuError> {
    let mut last_end: std::collections::HashMap<u32, f64> = Default::default();
    let mut out = Vec::with_capacity(issued.len());
    for i in issued {
        let mut op = base_op(i);
        if let Some(ev) = i.end_event {
            op.end_us = f64::from(elapsed_ms(origin, ev)?) * 1000.0;
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
            line: None,
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

    fn linked(records: Vec<Record>, links: &[(u32, u64)]) -> Collected {
        Collected {
            records,
            links: links.to_vec(),
        }
    }

    /// Three ops (H2D, kernel, D2H) and records for them, the H2D split in two, out of order,
    /// with a D2D copy to ignore. Correlation ids 5, 6, 7 belong to ops 0, 1, 2.
    fn three() -> ([Issued; 3], Vec<Record>) {
        let ops = [
            issued(1, OpKind::H2d, 100),
            issued(2, OpKind::Kernel, 100),
            issued(1, OpKind::D2h, 100),
        ];
        let recs = vec![
            rec(RecKind::D2h, 100, 9_000, 10_000, 7),
            rec(RecKind::H2d, 60, 2_000, 3_000, 5),
            rec(RecKind::OtherCopy, 4, 0, 1, 4),
            rec(RecKind::Kernel, 0, 2_500, 8_000, 6),
            rec(RecKind::H2d, 40, 1_000, 2_000, 5),
        ];
        (ops, recs)
    }

    const LINKS: [(u32, u64); 3] = [(5, 0), (6, 1), (7, 2)];

    #[test]
    fn records_find_their_ops_by_correlation_and_split_copies_merge() {
        let (ops, recs) = three();
        for collected in [linked(recs.clone(), &LINKS), linked(recs, &[])] {
            let out = match_records(&ops, collected, 1_000);
            assert_eq!(out.len(), 3);
            assert_eq!((out[0].start_us, out[0].end_us), (0.0, 2.0));
            assert_eq!((out[1].start_us, out[1].end_us), (1.5, 7.0));
            assert_eq!((out[2].start_us, out[2].end_us), (8.0, 9.0));
            assert!(out.iter().all(|o| !o.start_inferred));
            assert_eq!(out[0].engine, Some(3));
            assert_eq!(out[1].stream, 2);
        }
    }

    #[test]
    fn a_dropped_record_does_not_shift_later_ops() {
        // Two uploads; the first one's record was dropped.
        let ops = [issued(1, OpKind::H2d, 100), issued(2, OpKind::H2d, 100)];
        let recs = vec![rec(RecKind::H2d, 100, 5_000, 6_000, 9)];
        let out = match_records(&ops, linked(recs.clone(), &[(8, 0), (9, 1)]), 0);
        assert!(out[0].label.contains("no CUPTI record"));
        assert!(out[0].start_inferred);
        assert_eq!((out[1].start_us, out[1].end_us), (5.0, 6.0));
        // By position the second upload's record would have gone to the first.
        let shifted = match_records(&ops, linked(recs, &[]), 0);
        assert_eq!(shifted[0].end_us, 6.0);
        assert!(shifted[1].label.contains("no CUPTI record"));
    }

    #[test]
    fn an_extra_record_is_ignored() {
        let (ops, mut recs) = three();
        // Another library's upload before ours (correlation 3, no tag) and one tagged with an
        // index that no op has.
        recs.push(rec(RecKind::H2d, 100, 0, 500, 3));
        recs.push(rec(RecKind::H2d, 100, 600, 700, 11));
        let out = match_records(
            &ops,
            linked(recs, &[(5, 0), (6, 1), (7, 2), (11, 9)]),
            1_000,
        );
        assert_eq!((out[0].start_us, out[0].end_us), (0.0, 2.0));
        assert_eq!((out[2].start_us, out[2].end_us), (8.0, 9.0));
    }

    #[test]
    fn an_op_without_a_record_is_kept_and_marked() {
        let out = match_records(&[issued(1, OpKind::H2d, 8)], Collected::default(), 0);
        assert!(out[0].start_inferred);
        assert!(out[0].label.contains("no CUPTI record"));
    }
}
