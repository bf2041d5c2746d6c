//! The pipeline's registry entry: its options, metrics, chart and how its timelines are named.

use crate::report::Report;

use super::super::metrics::{CHUNKS, GBPS, MS, RATIO, STREAMS, TIMES};
use super::super::spec::{Chart, ExperimentSpec, MetricSpec, Param, RunWords, Timing};
use super::{DEFAULT_SIZE, ID, run};

/// The registry's declaration (see [`crate::experiment::registry`]).
pub const SPEC: ExperimentSpec = ExperimentSpec {
    id: ID,
    title: "chunked copies and kernels over several streams, searched for the fastest",
    params: &[
        Param::Size,
        Param::Streams,
        Param::Chunks,
        Param::HostMem,
        Param::Order,
    ],
    default_size: DEFAULT_SIZE,
    metrics: &[
        MetricSpec::required("sequential_ms", MS, "sequential", Timing::Host),
        MetricSpec::required("best_ms", MS, "best pipeline", Timing::Host),
        MetricSpec::required("best_streams", STREAMS, "best streams", Timing::Host),
        MetricSpec::required("best_chunks", CHUNKS, "best chunks", Timing::Host),
        MetricSpec::extra("best_taper", TIMES, "chunk-end taper", Timing::Host),
        MetricSpec::extra(
            super::shapes::EQUAL_CHUNKS_MS,
            MS,
            "best with equal chunks",
            Timing::Host,
        ),
        MetricSpec::extra("per_chunk_ms", MS, "per-chunk order", Timing::Host),
        MetricSpec::extra("breadth_first_ms", MS, "breadth-first order", Timing::Host),
        MetricSpec::extra("by_stage_ms", MS, "by-stage layout", Timing::Host),
        MetricSpec::required("speedup", TIMES, "speedup", Timing::Host),
        MetricSpec::required(
            "bidirectional_gbps",
            GBPS,
            "both directions",
            Timing::Device,
        ),
        MetricSpec::required("bound_ms", MS, "lower bound", Timing::Device),
        // The bound is on the device clock and the best time on the host's.
        MetricSpec::required("efficiency", RATIO, "bound / best", Timing::Mixed),
        MetricSpec::extra("h2d_alone_ms", MS, "H2D alone", Timing::Device),
        MetricSpec::extra("kernel_alone_ms", MS, "kernel alone", Timing::Device),
        MetricSpec::extra("d2h_alone_ms", MS, "D2H alone", Timing::Device),
        MetricSpec::extra(
            "recorded_ms",
            MS,
            "recorded run (timeline on)",
            Timing::Host,
        ),
        MetricSpec::extra(
            "unrecorded_ms",
            MS,
            "best re-run, not recorded",
            Timing::Host,
        ),
        MetricSpec::extra(
            "instrumentation_overhead_pct",
            "%",
            "recorded run's extra time",
            Timing::Host,
        ),
    ],
    chart: Some(Chart::PipelineSweep),
    opens_on_chart: false,
    headline: headline_name,
    words: RunWords {
        shape: run_shape,
        pieces: |report| super::shapes::chunk_shape(report).map(String::from),
        winner: |report| {
            super::order_result(report).map(|win| (win.winner.to_string(), win.describe()))
        },
        layout: super::orders::layout_timeline,
    },
    run,
};

/// The headline timeline's label: `best: per-chunk, 5.66 ms · 3 streams x 32 chunks` (order
/// and time first, so a narrow panel that cuts the label keeps them).
fn headline_name(report: &Report) -> String {
    let order = report
        .params
        .extra
        .get("best_order")
        .map_or("?", String::as_str);
    let time = report
        .metrics
        .get("best_ms")
        .map(|m| {
            format!(
                ", {}",
                crate::timeline::format::format_duration_us(m.value * 1e3)
            )
        })
        .unwrap_or_default();
    let (streams, chunks) = (report.params.streams, report.params.chunks);
    format!(
        "best: {order}{time} · {}",
        shape(streams.unwrap_or(0), chunks.unwrap_or(0))
    )
}

/// The streams and chunks a run used, where it fixed both: `3 streams x 32 chunks`.
fn run_shape(report: &Report) -> Option<String> {
    Some(shape(report.params.streams?, report.params.chunks?))
}

/// `1 stream x 1 chunk`, `3 streams x 32 chunks`.
pub fn shape(streams: u32, chunks: u32) -> String {
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{} x {}",
        plural(streams, "stream", "streams"),
        plural(chunks, "chunk", "chunks")
    )
}
