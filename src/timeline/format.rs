//! Human-readable numbers for the timeline, its details line and the trace export: byte counts in
//! binary units ("8 MiB"), durations with a unit chosen by size ("152 µs", "6.20 ms") and bandwidth.

use crate::report::OpKind;

pub use crate::units::{format_bytes, gbps};

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

/// The short name of an op kind as shown on bars and in traces: `H2D`, `D2H`, `kernel`, `host`.
pub fn kind_name(kind: OpKind) -> &'static str {
    match kind {
        OpKind::H2d => "H2D",
        OpKind::D2h => "D2H",
        OpKind::Kernel => "kernel",
        OpKind::Host => "host",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_pick_a_unit() {
        assert_eq!(format_duration_us(0.85), "850 ns");
        assert_eq!(format_duration_us(2.2), "2.20 µs");
        assert_eq!(format_duration_us(152.3), "152 µs");
        assert_eq!(format_duration_us(6200.0), "6.20 ms");
        assert_eq!(format_duration_us(1_250_000.0), "1.25 s");
    }
}
