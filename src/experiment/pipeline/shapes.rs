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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::options::{IssueOrder, MIB};
    use crate::experiment::{ExperimentOptions, RunContext};
    use crate::gpu::StreamKind;
    use crate::gpu::profile::Profile;
    use crate::gpu::sim::SimGpu;
    use crate::report::{HostMemKind, OpKind, Params};

    fn sim() -> SimGpu {
        let profile = Profile::builtin("h200").expect("the built-in profile");
        SimGpu::new(profile, "test".into())
    }

    fn empty_report() -> Report {
        crate::experiment::new_report("pipeline", &sim(), Params::default())
    }

    /// A tapered best gets its equal-chunk twin timed and recorded; the twin's ops are equal in
    /// size while the best's first and last chunks are smaller. An equal best gets neither.
    #[test]
    fn a_tapered_best_is_compared_with_its_equal_chunk_twin() {
        let mut gpu = sim();
        let mut s = Session::new(&mut gpu);
        let bytes = 64 * MIB;
        let b = Buffers {
            input: s.host(bytes, HostMemKind::Pinned).expect("host"),
            output: s.host(bytes, HostMemKind::Pinned).expect("host"),
            dev: s.device(bytes).expect("device"),
            bytes,
        };
        let streams: Vec<StreamId> = (0..3)
            .map(|_| s.stream(StreamKind::NonBlocking).expect("stream"))
            .collect();
        let equal = Config::equal(3, 8, IssueOrder::PerChunk);
        let mut report = empty_report();
        let none = compare_with_equal(&mut s, &b, equal, &streams, 2, &mut report).expect("runs");
        assert!(none.is_none());
        assert!(!report.metrics.contains_key(EQUAL_CHUNKS_MS));
        assert_eq!(chunk_shape(&report), Some("8 chunks of 8 MiB"));

        let tapered = Config { taper: 4, ..equal };
        let twin = compare_with_equal(&mut s, &b, tapered, &streams, 2, &mut report)
            .expect("runs")
            .expect("a tapered best has a twin");
        assert!(twin.name.starts_with("equal chunks, "), "{}", twin.name);
        let uploads: Vec<u64> = twin
            .ops
            .iter()
            .filter(|o| o.kind == OpKind::H2d)
            .map(|o| o.bytes)
            .collect();
        assert_eq!(uploads, vec![8 * MIB; 8]);
        assert!(report.metrics[EQUAL_CHUNKS_MS].value > 0.0);
        assert_eq!(
            chunk_shape(&report),
            Some("first and last 2.5 MiB, 6 x 9.8 MiB")
        );
    }

    /// The search tries tapered shapes around its best points and says which shape won.
    #[test]
    fn the_search_tries_tapered_shapes_and_reports_the_chosen_one() {
        let opts = ExperimentOptions {
            size: Some(64 * MIB),
            ..ExperimentOptions::default()
        };
        let r = crate::experiment::run("pipeline", &mut sim(), &opts, &RunContext::silent())
            .expect("the pipeline runs");
        let tapered = super::super::grid::points(&r)
            .into_iter()
            .filter(|p| p.config.taper > 1)
            .count();
        assert!(tapered >= 3, "tapered points timed: {tapered}");
        // Each layout's fastest point gets tapered variants, not only the two fastest overall.
        for order in [IssueOrder::PerChunk, IssueOrder::ByStage] {
            let points = super::super::grid::points(&r);
            assert!(
                points
                    .iter()
                    .any(|p| p.config.order == order && p.config.taper > 1),
                "no tapered {} point",
                order.name()
            );
        }
        assert!(r.metrics.contains_key("best_taper"));
        assert!(chunk_shape(&r).is_some_and(|s| s.contains("MiB")));
    }
}
