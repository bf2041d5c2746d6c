//! The host's memory as Linux reports it in `/proc/meminfo`: the one reader for the size checks
//! (`experiment::fit`), out-of-memory messages (`gpu::cuda::memory`) and recorded profiles.

/// `MemAvailable` in bytes: what can be allocated without swapping. `None` off Linux or when
/// the file does not say.
pub fn available() -> Option<u64> {
    read_field("MemAvailable:")
}

/// `MemTotal` in bytes. `None` off Linux or when the file does not say.
pub fn total() -> Option<u64> {
    read_field("MemTotal:")
}

fn read_field(name: &str) -> Option<u64> {
    // A kernel pseudo-file (/proc, /sys): small, generated text that is always a readable
    // file, never a FIFO or device, so a plain read needs no `bounded_read` cap.
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    field(&text, name)
}

/// The value of `name` (e.g. `MemTotal:`) in a `/proc/meminfo` text (or any `/proc` file of
/// `NAME:   1234 kB` lines, such as `/proc/self/status`), converted from KiB to bytes.
pub fn field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_in_bytes() {
        let text = "MemTotal:       16384 kB\nMemFree:  10 kB\nMemAvailable:    8192 kB\n";
        assert_eq!(field(text, "MemTotal:"), Some(16384 * 1024));
        assert_eq!(field(text, "MemAvailable:"), Some(8192 * 1024));
        assert_eq!(field(text, "SwapTotal:"), None);
        assert_eq!(field("MemTotal: lots kB", "MemTotal:"), None);
    }
}
