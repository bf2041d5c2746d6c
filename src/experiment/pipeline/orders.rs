//! The best layout against the best of the others (lesson 4, cards 6 and 8): the fastest
//! configuration the search timed in any other issue order or layout (the runner-up) is timed
//! again and recorded, so the panel can show the two timelines on one scale and the results can
//! name the winning layout. With three layouts (per-chunk, breadth-first, by-stage) the runner-up
//! may have another shape than the best; reports from before by-stage compared the two orders at
//! one shape, and read the same way.

use std::collections::HashMap;

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
/// The report's key for the runner-up's streams x chunks (`3 streams x 16 chunks`).
pub const RUNNER_UP_SHAPE: &str = "runner_up_shape";

/// The metric holding the time of the best configuration in `order`.
pub fn metric_name(order: IssueOrder) -> &'static str {
    match order {
        IssueOrder::PerChunk => "per_chunk_ms",
        IssueOrder::BreadthFirst => "breadth_first_ms",
        IssueOrder::ByStage => "by_stage_ms",
    }
}

/// The fastest configuration of `times` in another order than `best`'s.
pub fn runner_up(times: &HashMap<Config, f64>, best: Config) -> Option<Config> {
    times
        .iter()
        .filter(|(c, _)| c.order != best.order)
        .min_by(|a, b| a.1.total_cmp(b.1))
        .map(|(c, _)| *c)
}

/// The name of the runner-up's timeline: `breadth-first, 7.21 ms · 3 streams x 32 chunks`.
pub fn timeline_name(cfg: Config, ms: f64) -> String {
    format!(
        "{}, {} · {}",
        cfg.order.name(),
        crate::timeline::format::format_duration_us(ms * 1e3),
        shape(cfg.streams, cfg.chunks)
    )
}

/// Time (`reps` runs) and record `runner`, the best of the other layouts; store its time and the
/// best configuration's (`best_time`, its own summary) as metrics, and return its timeline.
pub fn measure_other(
    s: &mut Session,
    b: &Buffers,
    (best, best_time): (Config, &Summary),
    (runner, streams): (Config, &[StreamId]),
    reps: usize,
    report: &mut Report,
) -> Result<NamedTimeline, ExperimentError> {
    let times = (0..reps)
        .map(|_| time_once(s, b, runner, streams))
        .collect::<Result<Vec<f64>, _>>()?;
    let ops: Vec<Op> = run_once(s, b, runner, streams)?;
    let summary = Summary::of(&times).unwrap_or(*best_time);
    let m = &mut report.metrics;
    put_summary(m, metric_name(best.order), best_time, 1.0, MS);
    put_summary(m, metric_name(runner.order), &summary, 1.0, MS);
    report
        .params
        .extra
        .insert(RUNNER_UP_SHAPE.into(), shape(runner.streams, runner.chunks));
    Ok(NamedTimeline {
        name: timeline_name(runner, summary.median),
        ops,
    })
}

/// The timelines the panel needs to draw any layout against per-chunk (lesson 4's cards on
/// breadth-first and on by-stage) that the best run and the runner-up (`recorded`) do not give:
/// per-chunk's and by-stage's best configurations, and breadth-first at per-chunk's best shape
/// (the same chunks, issued stage by stage: only the order differs). Each is recorded once and
/// named like the runner-up ([`timeline_name`]), with the time the search measured for it, or
/// the median of `reps` timed runs when the search did not try it.
pub fn record_layouts(
    s: &mut Session,
    b: &Buffers,
    times: &HashMap<Config, f64>,
    recorded: &[Config],
    (streams, reps): (&[StreamId], usize),
) -> Result<Vec<NamedTimeline>, ExperimentError> {
    let best_of = |order: IssueOrder| {
        times
            .iter()
            .filter(|(c, _)| c.order == order)
            .min_by(|a, b| a.1.total_cmp(b.1))
            .map(|(c, _)| *c)
    };
    let per_chunk = best_of(IssueOrder::PerChunk);
    let wanted = [
        per_chunk,
        per_chunk
            .map(|c| Config {
                order: IssueOrder::BreadthFirst,
                ..c
            })
            .or_else(|| best_of(IssueOrder::BreadthFirst)),
        best_of(IssueOrder::ByStage),
    ];
    let mut out = Vec::new();
    for cfg in wanted.into_iter().flatten() {
        if recorded.contains(&cfg) {
            continue;
        }
        let ms = match times.get(&cfg) {
            Some(&ms) => ms,
            None => {
                let samples = (0..reps.max(1))
                    .map(|_| time_once(s, b, cfg, streams))
                    .collect::<Result<Vec<f64>, _>>()?;
                Summary::of(&samples).map_or(f64::NAN, |m| m.median)
            }
        };
        out.push(NamedTimeline {
            name: timeline_name(cfg, ms),
            ops: run_once(s, b, cfg, streams)?,
        });
    }
    Ok(out)
}

/// The shape at the end of a layout timeline's name (`3 streams x 32 chunks`).
fn shape_in(name: &str) -> &str {
    name.rsplit(" · ").next().unwrap_or("")
}

/// The timeline of `order`'s run in a pipeline report, with its name (`breadth-first, 7.21 ms ·
/// 3 streams x 32 chunks`): the headline timeline when `order` is the best layout, else the
/// other timeline named after it; for breadth-first, the one at per-chunk's shape when there
/// is one (see [`record_layouts`]). `None` when the run did not record the layout.
pub fn layout_timeline(report: &Report, order: IssueOrder) -> Option<(String, &[Op])> {
    let prefix = format!("{}, ", order.name());
    let mut found: Vec<(String, &[Op])> = report
        .other_timelines
        .iter()
        .filter(|t| t.name.starts_with(&prefix))
        .map(|t| (t.name.clone(), t.ops.as_slice()))
        .collect();
    if report.params.extra.get("best_order").map(String::as_str) == Some(order.name())
        && !report.timeline.is_empty()
        && let (Some(best), Some(streams), Some(chunks)) = (
            report.metrics.get("best_ms"),
            report.params.streams,
            report.params.chunks,
        )
    {
        let name = format!(
            "{}, {} · {}",
            order.name(),
            crate::timeline::format::format_duration_us(best.value * 1e3),
            shape(streams, chunks)
        );
        found.insert(0, (name, report.timeline.as_slice()));
    }
    if order == IssueOrder::BreadthFirst
        && let Some((pc, _)) = layout_timeline(report, IssueOrder::PerChunk)
        && let Some(at) = found.iter().position(|(n, _)| shape_in(n) == shape_in(&pc))
    {
        return Some(found.swap_remove(at));
    }
    found.into_iter().next()
}

/// How the best layout compared with the best of the others.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderResult {
    /// The faster layout (`per-chunk`), or the chosen one when they tie.
    pub winner: &'static str,
    pub winner_ms: f64,
    pub loser: &'static str,
    pub loser_ms: f64,
    /// Within [`TIE`] of each other.
    pub tie: bool,
    /// `3 streams x 32 chunks`.
    pub shape: String,
    /// The loser's streams x chunks.
    pub loser_shape: String,
}

impl OrderResult {
    /// `5.66 ms against 7.21 ms breadth-first (3 streams x 32 chunks)`, or for a tie
    /// `tied within 1% with breadth-first (5.66 ms and 5.67 ms, 3 streams x 32 chunks)`; when the
    /// two shapes differ each time is followed by its own.
    pub fn describe(&self) -> String {
        let ms = |v: f64| crate::timeline::format::format_duration_us(v * 1e3);
        let same = self.shape == self.loser_shape;
        match (self.tie, same) {
            (true, true) => format!(
                "tied within 1% with {} ({} and {}, {})",
                self.loser,
                ms(self.winner_ms),
                ms(self.loser_ms),
                self.shape
            ),
            (true, false) => format!(
                "tied within 1% with {} ({}, {}; {}, {})",
                self.loser,
                ms(self.winner_ms),
                self.shape,
                ms(self.loser_ms),
                self.loser_shape
            ),
            (false, true) => format!(
                "{} against {} {} ({})",
                ms(self.winner_ms),
                ms(self.loser_ms),
                self.loser,
                self.shape
            ),
            (false, false) => format!(
                "{} ({}) against {} {} ({})",
                ms(self.winner_ms),
                self.shape,
                ms(self.loser_ms),
                self.loser,
                self.loser_shape
            ),
        }
    }
}

/// The best layout against the best other one in a pipeline report, when both were measured.
pub fn order_result(report: &Report) -> Option<OrderResult> {
    let time = |o: IssueOrder| report.metrics.get(metric_name(o)).map(|m| m.value);
    let chosen_name = report.params.extra.get("best_order")?;
    let chosen = IssueOrder::ALL
        .into_iter()
        .find(|o| o.name() == chosen_name)?;
    let chosen_ms = time(chosen)?;
    let (other, other_ms) = IssueOrder::ALL
        .into_iter()
        .filter(|&o| o != chosen)
        .filter_map(|o| Some((o, time(o)?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    let best_shape = shape(report.params.streams?, report.params.chunks?);
    let other_shape = report
        .params
        .extra
        .get(RUNNER_UP_SHAPE)
        .cloned()
        .unwrap_or_else(|| best_shape.clone());
    let tie = (chosen_ms - other_ms).abs() <= TIE * chosen_ms.min(other_ms);
    let chosen_wins = tie || chosen_ms < other_ms;
    let ((winner, winner_ms, shape), (loser, loser_ms, loser_shape)) = {
        let a = (chosen.name(), chosen_ms, best_shape);
        let b = (other.name(), other_ms, other_shape);
        if chosen_wins { (a, b) } else { (b, a) }
    };
    Some(OrderResult {
        winner,
        winner_ms,
        loser,
        loser_ms,
        tie,
        shape,
        loser_shape,
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

    /// With three layouts the winner is compared with the fastest of the other two, at its own
    /// shape.
    #[test]
    fn by_stage_is_compared_with_the_best_other_layout_at_its_shape() {
        let mut r = report(5.95, 7.10, IssueOrder::ByStage);
        r.metrics
            .insert("by_stage_ms".into(), Metric::new(5.80, MS));
        r.params
            .extra
            .insert(RUNNER_UP_SHAPE.into(), "3 streams x 16 chunks".into());
        let win = order_result(&r).expect("two layouts measured");
        assert_eq!(
            (win.winner, win.loser, win.tie),
            ("by-stage", "per-chunk", false)
        );
        assert_eq!(
            win.describe(),
            "5.80 ms (3 streams x 32 chunks) against 5.95 ms per-chunk (3 streams x 16 chunks)"
        );
        // A report without the chosen layout's own time names no winner.
        r.metrics.remove("by_stage_ms");
        assert_eq!(order_result(&r), None);
    }

    #[test]
    fn the_runner_up_is_the_fastest_point_of_another_layout() {
        let best = Config::equal(3, 32, IssueOrder::ByStage);
        let times: HashMap<Config, f64> = [
            (best, 5.8),
            (Config::equal(3, 64, IssueOrder::ByStage), 5.85),
            (Config::equal(3, 16, IssueOrder::PerChunk), 5.95),
            (Config::equal(4, 32, IssueOrder::BreadthFirst), 7.0),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            runner_up(&times, best),
            Some(Config::equal(3, 16, IssueOrder::PerChunk))
        );
        let alone: HashMap<Config, f64> = [(best, 5.8)].into_iter().collect();
        assert_eq!(runner_up(&alone, best), None);
    }
}
