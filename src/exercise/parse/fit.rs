//! Whether tree-sitter's parse of a text fits in the memory this process has left. tree-sitter
//! aborts the whole process when an allocation fails (review 2026-12-01 U4: exit 134; in the
//! TUI the tutorial ends), so a parse that might not fit is refused before it starts. The text
//! measured is the one tree-sitter is given: the file after its macros are expanded (review
//! 2026-12-01b CK4: 417 bytes of macros became 4 MiB of `(`).

/// The most memory parsing may take per byte of text: tree-sitter's tree for a 0.9 MB file
/// of unbalanced `(` (its worst case, review 2026-12-01 U4) took about 250 times the input.
pub const PARSE_BYTES_PER_SOURCE_BYTE: u64 = 300;

/// Why parsing `text_len` bytes might not fit in the memory this process has left (the
/// address-space limit, `ulimit -v`, or free memory), or `None`.
pub fn parse_would_not_fit(text_len: usize) -> Option<String> {
    parse_misfit(text_len, crate::experiment::fit::host_available())
}

fn parse_misfit(text_len: usize, free: Option<u64>) -> Option<String> {
    let need = (text_len as u64).saturating_mul(PARSE_BYTES_PER_SOURCE_BYTE);
    let free = free?;
    (need > free).then(|| {
        format!(
            "the file ({text_len} bytes, its macros expanded) may need up to {} MiB of memory to parse, and this process has {} MiB left (its address-space limit, `ulimit -v`, or free memory): make the file smaller, or raise the limit",
            need.div_ceil(1 << 20),
            free >> 20
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Review 2026-12-01 U4: a parse that might not fit is refused with what to do.
    #[test]
    fn a_parse_that_might_not_fit_is_refused_before_it_starts() {
        let mib = 1u64 << 20;
        assert_eq!(parse_misfit(900_000, None), None, "unknown: try");
        assert_eq!(parse_misfit(4_000, Some(100 * mib)), None);
        let why = parse_misfit(900_000, Some(100 * mib)).unwrap_or_default();
        assert!(
            why.contains("900000 bytes") && why.contains("ulimit -v"),
            "{why}"
        );
        assert!(why.contains("100 MiB left"), "{why}");
    }
}
