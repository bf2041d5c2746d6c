//! Units for people: byte counts in binary units and bandwidth in decimal GB/s. The one place
//! these conversions live; the experiments, the timeline, the trace export and the CLI all use it.

/// A byte count in binary units: `512 B`, `4 KiB`, `1.5 MiB`, `7.96 GiB`, `256 GiB`.
///
/// Whole values print without decimals; others with one decimal, or two when one would round
/// to a whole number (so "free 7.96 GiB" never reads as "8.0 GiB" beside "needs 8 GiB").
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
    if value.fract() == 0.0 {
        return format!("{value:.0} {unit}");
    }
    let one = format!("{value:.1}");
    if one.ends_with(".0") {
        format!("{value:.2} {unit}")
    } else {
        format!("{one} {unit}")
    }
}

/// Bandwidth in GB/s (10^9 bytes per second) of `bytes` moved in `duration_us`, or `None` when
/// there is nothing to divide (no bytes, or a zero, negative or non-finite duration).
pub fn gbps(bytes: u64, duration_us: f64) -> Option<f64> {
    if bytes == 0 || !duration_us.is_finite() || duration_us <= 0.0 {
        return None;
    }
    // bytes / (us * 1e-6 s) / 1e9 = bytes / (us * 1e3)
    Some(bytes as f64 / (duration_us * 1e3))
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
        assert_eq!(format_bytes(3 << 40), "3 TiB");
    }

    #[test]
    fn near_whole_values_keep_their_difference() {
        // 7.96 GiB must not print as "8.0 GiB".
        assert_eq!(
            format_bytes((7.96 * (1u64 << 30) as f64) as u64),
            "7.96 GiB"
        );
    }

    #[test]
    fn bandwidth_is_bytes_over_time() {
        // 55 GB in one second.
        let v = gbps(55_000_000_000, 1_000_000.0).unwrap_or(0.0);
        assert!((v - 55.0).abs() < 1e-9);
        assert!((gbps(1_000_000_000, 1e6).unwrap_or(0.0) - 1.0).abs() < 1e-12);
        assert_eq!(gbps(0, 10.0), None);
        assert_eq!(gbps(10, 0.0), None);
        assert_eq!(gbps(10, f64::NAN), None);
    }
}
