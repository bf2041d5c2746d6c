//! Op selection order and the details line of a selected op.

use crate::report::{HostMemKind, Op, OpKind};
use crate::timeline::cells::KIND_ORDER;
use crate::timeline::format::{
    format_bytes, format_duration_us, gbps, host_mem_name, kind_name, three_digits,
};

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
    /// Bytes over duration, for ops that move bytes.
    pub gbps: Option<f64>,
    pub host_mem: Option<HostMemKind>,
    pub engine: Option<u32>,
    pub start_inferred: bool,
    pub label: String,
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
            gbps: gbps(op.bytes, op.duration_us()),
            host_mem: op.host_mem,
            engine: op.engine,
            start_inferred: op.start_inferred,
            label: op.label.clone(),
        }
    }

    /// One line, most important first, e.g.
    /// `H2D · stream 2 · 8 MiB · 152 µs · 55.1 GB/s · pinned · engine 1 · at 1.20 ms · H2D chunk 3`.
    pub fn summary(&self) -> String {
        let mut parts = vec![
            kind_name(self.kind).to_string(),
            format!("stream {}", self.stream),
        ];
        if self.bytes > 0 {
            parts.push(format_bytes(self.bytes));
        }
        parts.push(format_duration_us(self.duration_us));
        if let Some(rate) = self.gbps {
            parts.push(format!("{} GB/s", three_digits(rate)));
        }
        if let Some(mem) = self.host_mem {
            parts.push(host_mem_name(mem).to_string());
        }
        if let Some(engine) = self.engine {
            parts.push(format!("engine {engine}"));
        }
        if self.start_inferred {
            parts.push("start inferred".to_string());
        }
        parts.push(format!("at {}", format_duration_us(self.start_us)));
        if !self.label.is_empty() {
            parts.push(self.label.clone());
        }
        parts.join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
            "H2D · stream 2 · 8 MiB · 152 µs · 55.0 GB/s · pinned · engine 1 · start inferred \
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
