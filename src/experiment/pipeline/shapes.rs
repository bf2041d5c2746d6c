//! The chunk shape the search chose, against a plain equal-chunk loop (issue 10 §4). Equal
//! chunks pay a fill (the first upload runs alone) and a drain (the last download runs alone);
//! tapered ends make both shorter. When the best configuration is tapered, its equal-chunk twin
//! is timed and recorded too, so the report and the panel show what the taper bought.

use crate::gpu::StreamId;
use crate::report::{NamedTimeline, Report};

use super::super::ExperimentError;
use super::super::metrics::{MS, put_summary};
use super::super::session::Session;
use super::super::stats::Summary;
use super::schedule::{Buffers, Config, run_once, time_once};
use super::shape;

/// The report's key for the best configuration's chunk sizes in words.
pub const CHUNK_SHAPE: &str = "chunk_shape";
/// The metric holding the best streams x chunks x order with equal chunks.
pub const EQUAL_CHUNKS_MS: &str = "equal_chunks_ms";

/// Note `best`'s chunk shape; when it is tapered, time (`reps` runs) and record its equal-chunk
/// twin, store that time as [`EQUAL_CHUNKS_MS`], and return the twin's timeline.
pub fn compare_with_equal(
    s: &mut Session,
    b: &Buffers,
    best: Config,
    streams: &[StreamId],
    reps: usize,
    report: &mut Report,
) -> Result<Option<NamedTimeline>, ExperimentError> {
    report
        .params
        .extra
        .insert(CHUNK_SHAPE.into(), best.chunk_shape(b.bytes));
    if best.effective_taper() == 1 {
        return Ok(None);
    }
    let equal = Config { taper: 1, ..best };
    let times = (0..reps)
        .map(|_| time_once(s, b, equal, streams))
        .collect::<Result<Vec<f64>, _>>()?;
    let Some(summary) = Summary::of(&times) else {
        return Ok(None);
    };
    let ops = run_once(s, b, equal, streams)?;
    put_summary(&mut report.metrics, EQUAL_CHUNKS_MS, &summary, 1.0, MS);
    Ok(Some(NamedTimeline {
        name: format!(
            "equal chunks, {} · {}",
            crate::timeline::format::format_duration_us(summary.median * 1e3),
            shape(equal.streams, equal.chunks)
        ),
        ops,
    }))
}

/// The best configuration's chunk sizes in words, when the report has them.
pub fn chunk_shape(report: &Report) -> Option<&str> {
    report.params.extra.get(CHUNK_SHAPE).map(String::as_str)
}
