//! What a recorded profile says about where and when it was recorded: its name, the date,
//! the host's memory.

/// `NVIDIA H200` -> `h200`; `NVIDIA GeForce RTX 4090` -> `geforce-rtx-4090`.
pub fn derive_name(device: &str) -> String {
    let lower = device.to_lowercase();
    let trimmed = lower.trim_start_matches("nvidia").trim();
    let mut out = String::new();
    for c in trimmed.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "gpu".into() } else { out }
}

/// Total host memory from `/proc/meminfo` (Linux), in bytes.
pub fn host_total_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Today's date in UTC as `YYYY-MM-DD` (civil-from-days, no time-zone database needed).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date_from_days((secs / 86_400) as i64)
}

/// Days since 1970-01-01 to `YYYY-MM-DD` (Howard Hinnant's algorithm).
pub fn date_from_days(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_names() {
        assert_eq!(date_from_days(0), "1970-01-01");
        assert_eq!(date_from_days(20_786), "2026-11-29");
        assert_eq!(derive_name("NVIDIA H200"), "h200");
        assert_eq!(derive_name("NVIDIA GeForce RTX 4090"), "geforce-rtx-4090");
        assert_eq!(derive_name("??"), "gpu");
    }
}
