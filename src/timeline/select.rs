//! Op selection order and the details line of a selected op.

use crate::report::{HostMemKind, Op, OpKind};
use crate::timeline::cells::KIND_ORDER;
use crate::timeline::format::{format_bytes, format_duration_us, gbps, kind_name, three_digits};

/// Indices of `ops` in time order: by start, then stream, then kind (as in
/// [`KIND_ORDER`]), then position. `[`/`]` walk this order, across lanes.
pub fn time_order(ops: &[Op]) -> Vec<usize> {
    let slot = |k: OpKind| KIND_ORDER.iter().position(|x| *x == k).unwrap_or(0);
    let mut order: Vec<usize> = (0..ops.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&ops[a], &ops[b]);
        x.start_us
            .total_cmp(&y.start_us)
            .then(x.stream.cmp(&y.stream))
            .then(slot(x.kind).cmp(&slot(y.kind)))
            .then(a.cmp(&b))
    });
    order
}

/// Everything the details line says about one op.
#[derive(Debug, Clone, PartialEq)]
pub struct OpDetails {
    pub kind: OpKind,
    pub stream: u32,
    pub bytes: u64,
    pub start_us: f64,
    pub duration_us: f64,
    /// Bytes over duration, for copies.
    pub gbps: Option<f64>,
    pub host_mem: Option<HostMemKind>,
    pub engine: Option<u32>,
    pub start_inferred: bool,
    pub label: String,
    /// The line of the exercise program that issued it (exercise checks only).
    pub line: Option<u32>,
}

impl OpDetails {
    /// The details of `op`.
    pub fn of(op: &Op) -> Self {
        OpDetails {
            kind: op.kind,
            stream: op.stream,
            bytes: op.bytes,
            start_us: op.start_us,
            duration_us: op.duration_us(),
            // A rate only means something for a copy (a spin kernel's "GB/s" would not).
            gbps: matches!(op.kind, OpKind::H2d | OpKind::D2h)
                .then(|| gbps(op.bytes, op.duration_us()))
                .flatten(),
            host_mem: op.host_mem,
            engine: op.engine,
            start_inferred: op.start_inferred,
            label: op.label.clone(),
            line: op.line,
        }
    }

    /// One line, most important first, e.g.
    /// `H2D · stream 2 · engine 1 · 8 MiB · 152 µs · 55.1 GB/s · pinned · at 1.20 ms · H2D chunk 3`.
    pub fn summary(&self) -> String {
        self.summary_within(usize::MAX)
    }

    /// [`Self::summary`] in at most `width` characters: the least important parts (the label
    /// of a copy or kernel, then the start time, the host memory, the rate, the size) are left
    /// out until it fits; the kind, stream, engine and duration always stay.
    pub fn summary_within(&self, width: usize) -> String {
        // (text, drop rank: 0 never, higher goes first)
        // An exercise's host call is on no stream: its line says where it is instead.
        let place = match (self.kind, self.line) {
            (OpKind::Host, Some(line)) => format!("line {line}"),
            _ => format!("stream {}", self.stream),
        };
        let mut parts: Vec<(String, u8)> = vec![(kind_name(self.kind).to_string(), 0), (place, 0)];
        if let (false, Some(line)) = (self.kind == OpKind::Host, self.line) {
            parts.push((format!("line {line}"), 1));
        }
        if let Some(engine) = self.engine {
            parts.push((format!("engine {engine}"), 0));
        }
        if self.bytes > 0 {
            parts.push((format_bytes(self.bytes), 2));
        }
        parts.push((format_duration_us(self.duration_us), 0));
        if let Some(rate) = self.gbps {
            parts.push((format!("{} GB/s", three_digits(rate)), 3));
        }
        if let Some(mem) = self.host_mem {
            parts.push((mem.name().to_string(), 4));
        }
        if self.start_inferred {
            parts.push(("start inferred".to_string(), 1));
        }
        parts.push((format!("at {}", format_duration_us(self.start_us)), 5));
        if !self.label.is_empty() {
            // A host op is its call: its label goes last of all.
            let rank = if self.kind == OpKind::Host { 1 } else { 6 };
            parts.push((self.label.clone(), rank));
        }
        let join = |parts: &[(String, u8)]| {
            parts
                .iter()
                .map(|(t, _)| t.as_str())
                .collect::<Vec<_>>()
                .join(" · ")
        };
        let mut line = join(&parts);
        while line.chars().count() > width {
            let Some(drop) = parts.iter().map(|(_, r)| *r).filter(|r| *r > 0).max() else {
                break;
            };
            parts.retain(|(_, r)| *r != drop);
            line = join(&parts);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_line_drops_the_label_first_and_never_the_engine() {
        let mut o = op(OpKind::D2h, 3, 1210.0, 1362.5);
        o.bytes = 8 << 20;
        o.host_mem = Some(HostMemKind::Pinned);
        o.engine = Some(2);
        o.label = "cuMemcpyDtoHAsync pinned".into();
        let d = OpDetails::of(&o);
        let full = d.summary();
        assert!(full.ends_with("cuMemcpyDtoHAsync pinned"), "{full}");
        let fit = d.summary_within(60);
        assert!(fit.chars().count() <= 60, "{fit}");
        assert!(fit.contains("engine 2") && fit.contains("152 µs"), "{fit}");
        assert!(!fit.contains("cuMemcpy"), "{fit}");
        let tiny = d.summary_within(10);
        assert!(tiny.contains("engine 2"), "the engine stays: {tiny}");
    }
    use crate::timeline::sample::op;

    #[test]
    fn time_order_is_by_start_then_stream() {
        let ops = vec![
            op(OpKind::D2h, 2, 5.0, 6.0),
            op(OpKind::H2d, 1, 0.0, 1.0),
            op(OpKind::Kernel, 3, 5.0, 9.0),
            op(OpKind::H2d, 1, 5.0, 7.0),
        ];
        assert_eq!(time_order(&ops), vec![1, 3, 0, 2]);
    }

    #[test]
    fn details_compute_bandwidth_and_say_everything() {
        let mut o = op(OpKind::H2d, 2, 1000.0, 1152.5);
        o.bytes = 8 << 20;
        o.host_mem = Some(HostMemKind::Pinned);
        o.engine = Some(1);
        o.start_inferred = true;
        o.label = "H2D chunk 3".into();
        let d = OpDetails::of(&o);
        let rate = d.gbps.unwrap();
        assert!((rate - (8u64 << 20) as f64 / 152.5e3).abs() < 1e-9);
        assert_eq!(
            d.summary(),
            "H2D · stream 2 · engine 1 · 8 MiB · 152 µs · 55.0 GB/s · pinned · start inferred \
             · at 1.00 ms · H2D chunk 3"
        );
    }

    #[test]
    fn host_calls_have_no_bandwidth() {
        let d = OpDetails::of(&op(OpKind::Host, 1, 0.0, 2.2));
        assert_eq!(d.gbps, None);
        assert_eq!(d.summary(), "host · stream 1 · 2.20 µs · at 0 ns");
    }
}
