//! Metric names and units: a contract with the CLI's JSON, the TUI and the lessons.

use std::collections::BTreeMap;

use crate::report::Metric;

/// Decimal gigabytes per second (1e9 bytes/s), as bandwidthTest and nvbandwidth print.
pub const GBPS: &str = "GB/s";
/// Milliseconds per GiB of host memory.
pub const MS_PER_GIB: &str = "ms/GiB";
/// Microseconds.
pub const US: &str = "us";
/// Milliseconds.
pub const MS: &str = "ms";
/// A count of streams.
pub const STREAMS: &str = "streams";
/// A count of chunks.
pub const CHUNKS: &str = "chunks";
/// A ratio of two times (`speedup`: sequential / best).
pub const TIMES: &str = "x";
/// A fraction from 0 to 1 (`efficiency`: bound / best).
pub const RATIO: &str = "ratio";

/// The metrics each experiment must report, with their units (the contract in issue 3).
pub fn required(id: &str) -> &'static [(&'static str, &'static str)] {
    match id {
        "pageable-vs-pinned" => &[
            ("pinned_h2d_gbps", GBPS),
            ("pinned_d2h_gbps", GBPS),
            ("pageable_h2d_gbps", GBPS),
            ("pageable_d2h_gbps", GBPS),
        ],
        "pinned-alloc" => &[
            ("pinned_alloc_ms_per_gib", MS_PER_GIB),
            ("pageable_alloc_ms_per_gib", MS_PER_GIB),
            ("register_ms_per_gib", MS_PER_GIB),
            ("write_combined_h2d_gbps", GBPS),
        ],
        "async-copy" => &[
            ("async_return_us_pinned", US),
            ("async_return_us_pageable", US),
            ("copy_done_us_pinned", US),
            ("copy_done_us_pageable", US),
        ],
        "default-stream" => &[("legacy_default_ms", MS), ("nonblocking_ms", MS)],
        "pipeline" => &[
            ("sequential_ms", MS),
            ("best_ms", MS),
            ("best_streams", STREAMS),
            ("best_chunks", CHUNKS),
            ("speedup", TIMES),
            ("bidirectional_gbps", GBPS),
            ("bound_ms", MS),
            ("efficiency", RATIO),
        ],
        _ => &[],
    }
}

/// Insert `name = value unit`.
pub fn put(metrics: &mut BTreeMap<String, Metric>, name: &str, value: f64, unit: &str) {
    metrics.insert(name.to_string(), Metric::new(value, unit));
}
