//! Human-readable numbers for the timeline, its details line and the trace export: byte counts in
//! binary units ("8 MiB"), durations with a unit chosen by size ("152 µs", "6.20 ms") and bandwidth.

use crate::report::{HostMemKind, OpKind};

/// A byte count in binary units, e.g. `512 B`, `4 KiB`, `1.5 MiB`, `8 MiB`.
///
/// Whole values print without decimals; others with one decimal so labels stay short.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = UNITS[0];
    for next in &UNITS[1..] {
        if value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = next;
    }
    if (value - value.round()).abs() < 0.05 {
        format!("{value:.0} {unit}")
    } else {
        format!("{value:.1} {unit}")
    }
}

/// A duration given in microseconds, with the unit chosen by its size and three significant
/// digits: `850 ns`, `2.20 µs`, `152 µs`, `6.20 ms`, `1.25 s`.
pub fn format_duration_us(us: f64) -> String {
    if !us.is_finite() {
        return "?".to_string();
    }
    let abs = us.abs();
    let (value, unit) = if abs < 1.0 {
        (us * 1000.0, "ns")
    } else if abs < 1000.0 {
        (us, "µs")
    } else if abs < 1_000_000.0 {
        (us / 1000.0, "ms")
    } else {
        (us / 1_000_000.0, "s")
    };
    format!("{} {unit}", three_digits(value))
}

/// A number with three significant digits (no exponent): `55.1`, `2.20`, `152`, `6200`.
pub fn three_digits(value: f64) -> String {
    let abs = value.abs();
    if abs >= 100.0 || abs == 0.0 {
        format!("{value:.0}")
    } else if abs >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

/// Bandwidth in GB/s (10^9 bytes per second) of `bytes` moved in `duration_us`, or `None` when
/// there is nothing to divide (no bytes, or a zero or negative duration).
pub fn gbps(bytes: u64, duration_us: f64) -> Option<f64> {
    if bytes == 0 || !duration_us.is_finite() || duration_us <= 0.0 {
        return None;
    }
    // bytes / (us * 1e-6 s) / 1e9 = bytes / (us * 1e3)
    Some(bytes as f64 / (duration_us * 1e3))
}

/// The short name of an op kind as shown on bars and in traces: `H2D`, `D2H`, `kernel`, `host`.
pub fn kind_name(kind: OpKind) -> &'static str {
    match kind {
        OpKind::H2d => "H2D",
        OpKind::D2h => "D2H",
        OpKind::Kernel => "kernel",
        OpKind::Host => "host",
    }
}

/// The name of a host memory kind as the screen shows it: `pageable`, `pinned`, ...
pub fn host_mem_name(kind: HostMemKind) -> &'static str {
    match kind {
        HostMemKind::Pageable => "pageable",
        HostMemKind::Pinned => "pinned",
        HostMemKind::WriteCombined => "write-combined",
        HostMemKind::Registered => "registered",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_use_binary_units() {
        assert_eq!(format_bytes(0), "0 B");
        assert_eq!(format_bytes(1023), "1023 B");
        assert_eq!(format_bytes(4096), "4 KiB");
        assert_eq!(format_bytes(8 << 20), "8 MiB");
        assert_eq!(format_bytes(3 << 19), "1.5 MiB");
        assert_eq!(format_bytes(256 << 30), "256 GiB");
    }

    #[test]
    fn durations_pick_a_unit() {
        assert_eq!(format_duration_us(0.85), "850 ns");
        assert_eq!(format_duration_us(2.2), "2.20 µs");
        assert_eq!(format_duration_us(152.3), "152 µs");
        assert_eq!(format_duration_us(6200.0), "6.20 ms");
        assert_eq!(format_duration_us(1_250_000.0), "1.25 s");
    }

    #[test]
    fn bandwidth_is_bytes_over_time() {
        // 55 GB in one second.
        let v = gbps(55_000_000_000, 1_000_000.0).unwrap();
        assert!((v - 55.0).abs() < 1e-9);
        assert_eq!(gbps(0, 10.0), None);
        assert_eq!(gbps(10, 0.0), None);
    }
}
