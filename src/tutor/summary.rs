//! The timeline in words for the model: per stream, what ran when (and from which line), then
//! which device operations of different streams overlapped. A model reads a list better than a
//! picture, and the learner's "why does my second stream wait?" is answered by these lines.

use crate::report::{Op, OpKind};

/// Most operations listed per stream (the rest are counted).
pub const MAX_OPS_PER_STREAM: usize = 24;
/// Most overlaps listed.
pub const MAX_OVERLAPS: usize = 16;

fn kind(op: &Op) -> &'static str {
    match op.kind {
        OpKind::H2d => "H2D copy",
        OpKind::D2h => "D2H copy",
        OpKind::Kernel => "kernel",
        OpKind::Host => "host call",
    }
}

fn describe(op: &Op) -> String {
    let mut out = format!(
        "{} {:.1}-{:.1} us {}",
        kind(op),
        op.start_us,
        op.end_us,
        crate::sanitize::clean_line(&op.label)
    );
    if let Some(mem) = op.host_mem {
        out.push_str(&format!(", {} host memory", mem.name()));
    }
    if op.bytes > 0 && op.kind != OpKind::Host {
        out.push_str(&format!(", {} bytes", op.bytes));
    }
    if let Some(line) = op.line {
        out.push_str(&format!(" (line {line})"));
    }
    out
}

/// The timeline of `ops` in words; empty when there is none.
pub fn timeline(ops: &[Op]) -> String {
    let mut streams: Vec<u32> = ops
        .iter()
        .filter(|o| o.kind != OpKind::Host)
        .map(|o| o.stream)
        .collect();
    streams.sort_unstable();
    streams.dedup();
    let mut out = String::new();
    for s in &streams {
        let name = if *s == 0 {
            "stream 0 (legacy default)".to_string()
        } else {
            format!("stream {s}")
        };
        out.push_str(&format!("{name}:\n"));
        let mine: Vec<&Op> = ops
            .iter()
            .filter(|o| o.stream == *s && o.kind != OpKind::Host)
            .collect();
        for op in mine.iter().take(MAX_OPS_PER_STREAM) {
            out.push_str(&format!("  {}\n", describe(op)));
        }
        if mine.len() > MAX_OPS_PER_STREAM {
            out.push_str(&format!(
                "  … and {} more\n",
                mine.len() - MAX_OPS_PER_STREAM
            ));
        }
    }
    let host: Vec<&Op> = ops.iter().filter(|o| o.kind == OpKind::Host).collect();
    if !host.is_empty() {
        out.push_str("host:\n");
        for op in host.iter().take(MAX_OPS_PER_STREAM) {
            out.push_str(&format!("  {}\n", describe(op)));
        }
        if host.len() > MAX_OPS_PER_STREAM {
            out.push_str(&format!(
                "  … and {} more\n",
                host.len() - MAX_OPS_PER_STREAM
            ));
        }
    }
    if !streams.is_empty() {
        out.push_str(&overlaps(ops));
    }
    out
}

/// Device operations of different streams that ran at the same time.
fn overlaps(ops: &[Op]) -> String {
    let device: Vec<&Op> = ops.iter().filter(|o| o.kind != OpKind::Host).collect();
    let mut found = Vec::new();
    for (i, a) in device.iter().enumerate() {
        for b in &device[i + 1..] {
            let both = a.start_us.max(b.start_us) < a.end_us.min(b.end_us);
            if a.stream != b.stream && both {
                found.push(format!(
                    "  {} on stream {} with {} on stream {}",
                    describe(a),
                    a.stream,
                    describe(b),
                    b.stream
                ));
            }
        }
    }
    match found.len() {
        0 => "overlaps: none (no two streams' operations ran at the same time)\n".to_string(),
        n => {
            let mut out = String::from("overlaps:\n");
            for line in found.iter().take(MAX_OVERLAPS) {
                out.push_str(line);
                out.push('\n');
            }
            if n > MAX_OVERLAPS {
                out.push_str(&format!("  … and {} more\n", n - MAX_OVERLAPS));
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(stream: u32, kind: OpKind, start: f64, end: f64, line: u32) -> Op {
        Op {
            stream,
            kind,
            start_us: start,
            end_us: end,
            bytes: 1024,
            host_mem: None,
            engine: None,
            start_inferred: false,
            line: Some(line),
            label: "x".into(),
        }
    }

    #[test]
    fn streams_their_ops_and_overlaps() {
        let ops = [
            op(1, OpKind::H2d, 0.0, 10.0, 5),
            op(2, OpKind::Kernel, 5.0, 20.0, 9),
            op(1, OpKind::D2h, 20.0, 30.0, 12),
            op(0, OpKind::Host, 0.0, 31.0, 14),
        ];
        let text = timeline(&ops);
        assert!(
            text.contains("stream 1:\n  H2D copy 0.0-10.0 us x, 1024 bytes (line 5)"),
            "{text}"
        );
        assert!(text.contains("stream 2:\n  kernel 5.0-20.0 us"), "{text}");
        assert!(
            text.contains("host:\n  host call 0.0-31.0 us x (line 14)"),
            "{text}"
        );
        assert!(
            text.contains(
                "overlaps:\n  H2D copy 0.0-10.0 us x, 1024 bytes (line 5) on stream 1 with kernel"
            ),
            "{text}"
        );
        assert!(
            !text.contains("D2H copy 20.0-30.0 us x, 1024 bytes (line 12) on stream"),
            "touching is not overlapping"
        );
        let apart = [
            op(1, OpKind::H2d, 0.0, 10.0, 5),
            op(2, OpKind::Kernel, 10.0, 20.0, 9),
        ];
        assert!(timeline(&apart).contains("overlaps: none"));
        assert_eq!(timeline(&[]), "");
    }
}
