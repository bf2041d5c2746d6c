//! Both issue orders at the best configuration (lesson 4, cards 6 and 8): the best streams x
//! chunks is timed and recorded in the order the search did not choose too, so the panel can
//! show the two timelines on one scale and the results can name the winning order.

use crate::gpu::StreamId;
use crate::report::{NamedTimeline, Op, Report};

use super::super::ExperimentError;
use super::super::metrics::{MS, put_summary};
use super::super::options::IssueOrder;
use super::super::session::Session;
use super::super::stats::Summary;
use super::schedule::{Buffers, Config, run_once, time_once};
use super::shape;

/// Two times closer than this fraction are a tie (measurement noise on real hardware).
pub const TIE: f64 = 0.01;

/// The metric holding the time of the best streams x chunks in `order`.
pub fn metric_name(order: IssueOrder) -> &'static str {
    match order {
        IssueOrder::PerChunk => "per_chunk_ms",
        IssueOrder::BreadthFirst => "breadth_first_ms",
    }
}

/// The other order.
pub fn other(order: IssueOrder) -> IssueOrder {
    match order {
        IssueOrder::PerChunk => IssueOrder::BreadthFirst,
        IssueOrder::BreadthFirst => IssueOrder::PerChunk,
    }
}

/// The name of the other order's timeline: `breadth-first, 7.21 ms · 3 streams x 32 chunks`.
pub fn timeline_name(cfg: Config, ms: f64) -> String {
    format!(
        "{}, {} · {}",
        cfg.order.name(),
        crate::timeline::format::format_duration_us(ms * 1e3),
        shape(cfg.streams, cfg.chunks)
    )
}

/// Time (`reps` runs) and record `best`'s shape in the other issue order; store both orders'
/// times as metrics (`best_time` is the best configuration's own summary) and return the
/// other order's timeline.
pub fn measure_other(
    s: &mut Session,
    b: &Buffers,
    (best, best_time): (Config, &Summary),
    streams: &[StreamId],
    reps: usize,
    report: &mut Report,
) -> Result<NamedTimeline, ExperimentError> {
    let cfg = Config {
        order: other(best.order),
        ..best
    };
    let times = (0..reps)
        .map(|_| time_once(s, b, cfg, streams))
        .collect::<Result<Vec<f64>, _>>()?;
    let ops: Vec<Op> = run_once(s, b, cfg, streams)?;
    let summary = Summary::of(&times).unwrap_or(*best_time);
    let m = &mut report.metrics;
    put_summary(m, metric_name(best.order), best_time, 1.0, MS);
    put_summary(m, metric_name(cfg.order), &summary, 1.0, MS);
    Ok(NamedTimeline {
        name: timeline_name(cfg, summary.median),
        ops,
    })
}

/// How the two orders compared at the best configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderResult {
    /// The faster order (`per-chunk`), or the chosen one when they tie.
    pub winner: &'static str,
    pub winner_ms: f64,
    pub loser: &'static str,
    pub loser_ms: f64,
    /// Within [`TIE`] of each other.
    pub tie: bool,
    /// `3 streams x 32 chunks`.
    pub shape: String,
}

impl OrderResult {
    /// `5.66 ms against 7.21 ms breadth-first (3 streams x 32 chunks)`, or for a tie
    /// `tied within 1% with breadth-first (5.66 ms and 5.67 ms, 3 streams x 32 chunks)`.
    pub fn describe(&self) -> String {
        let ms = |v: f64| crate::timeline::format::format_duration_us(v * 1e3);
        if self.tie {
            format!(
                "tied within 1% with {} ({} and {}, {})",
                self.loser,
                ms(self.winner_ms),
                ms(self.loser_ms),
                self.shape
            )
        } else {
            format!(
                "{} against {} {} ({})",
                ms(self.winner_ms),
                ms(self.loser_ms),
                self.loser,
                self.shape
            )
        }
    }
}

/// The two orders' result in a pipeline report, when both were measured.
pub fn order_result(report: &Report) -> Option<OrderResult> {
    let time = |o: IssueOrder| report.metrics.get(metric_name(o)).map(|m| m.value);
    let (per_chunk, breadth_first) = (time(IssueOrder::PerChunk)?, time(IssueOrder::BreadthFirst)?);
    let chosen = report.params.extra.get("best_order").map(String::as_str);
    let tie = (per_chunk - breadth_first).abs() <= TIE * per_chunk.min(breadth_first);
    let per_chunk_wins = if tie {
        chosen != Some(IssueOrder::BreadthFirst.name())
    } else {
        per_chunk < breadth_first
    };
    let (winner, loser) = if per_chunk_wins {
        (IssueOrder::PerChunk, IssueOrder::BreadthFirst)
    } else {
        (IssueOrder::BreadthFirst, IssueOrder::PerChunk)
    };
    Some(OrderResult {
        winner: winner.name(),
        winner_ms: time(winner)?,
        loser: loser.name(),
        loser_ms: time(loser)?,
        tie,
        shape: shape(report.params.streams?, report.params.chunks?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{BackendInfo, BackendKind, Metric, Params, TimingSource};

    fn report(per_chunk: f64, breadth_first: f64, chosen: IssueOrder) -> Report {
        let mut r = Report {
            schema_version: crate::report::SCHEMA_VERSION,
            experiment: "pipeline".into(),
            backend: BackendInfo {
                kind: BackendKind::Simulated,
                device: "d".into(),
                profile: None,
                reason: None,
                timing: TimingSource::Model,
            },
            params: Params {
                streams: Some(3),
                chunks: Some(32),
                ..Params::default()
            },
            metrics: Default::default(),
            timeline: Vec::new(),
            other_timelines: Vec::new(),
            series: Vec::new(),
            checks: Vec::new(),
            notes: Vec::new(),
        };
        r.params
            .extra
            .insert("best_order".into(), chosen.name().into());
        for (order, ms) in [
            (IssueOrder::PerChunk, per_chunk),
            (IssueOrder::BreadthFirst, breadth_first),
        ] {
            r.metrics
                .insert(metric_name(order).into(), Metric::new(ms, MS));
        }
        r
    }

    #[test]
    fn the_faster_order_wins_and_a_near_tie_says_so() {
        let win = order_result(&report(5.66, 7.21, IssueOrder::PerChunk)).expect("both orders");
        assert_eq!(
            (win.winner, win.loser, win.tie),
            ("per-chunk", "breadth-first", false)
        );
        assert_eq!(
            win.describe(),
            "5.66 ms against 7.21 ms breadth-first (3 streams x 32 chunks)"
        );
        let win = order_result(&report(7.0, 5.0, IssueOrder::BreadthFirst)).expect("both orders");
        assert_eq!(win.winner, "breadth-first");
        // Within 1%: a tie, named after the order the search chose.
        let tie = order_result(&report(5.66, 5.65, IssueOrder::PerChunk)).expect("both orders");
        assert!(tie.tie);
        assert_eq!(tie.winner, "per-chunk");
        assert!(
            tie.describe()
                .starts_with("tied within 1% with breadth-first")
        );
        let mut one = report(5.0, 6.0, IssueOrder::PerChunk);
        one.metrics.remove("breadth_first_ms");
        assert_eq!(order_result(&one), None);
    }
}
