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
    crate::meminfo::total()
}

/// Today's date in UTC as `YYYY-MM-DD`.
pub fn today() -> String {
    crate::utc::Utc::at(std::time::SystemTime::now()).iso_date()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(derive_name("NVIDIA H200"), "h200");
        assert_eq!(derive_name("NVIDIA GeForce RTX 4090"), "geforce-rtx-4090");
        assert_eq!(derive_name("??"), "gpu");
    }
}
