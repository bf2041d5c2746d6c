//! Fitting the device front end's per-op costs ([`Profile::op_overhead_us`],
//! [`Profile::stream_wait_us`], [`Profile::download_under_upload_us`],
//! [`Profile::engine_switch_us`]) from the host-timed pipeline configurations `calibrate`'s own
//! pipeline run measured: the simulator runs the same configurations and each cost is chosen to
//! minimise its relative error.
//!
//! One stream issued breadth-first runs long chains of ops on one engine (only the per-op
//! overhead shows), one stream per chunk switches engine at every op (the stream wait shows),
//! and several streams make downloads from several channels share the link with uploads (the
//! toll and the switch show), so each cost is fitted, in that order, from the configurations
//! where it dominates.

use crate::gpu::StreamKind;
use crate::gpu::profile::Profile;
use crate::gpu::sim::SimGpu;
use crate::report::{HostMemKind, Report};

use super::super::ExperimentError;
use super::super::options::IssueOrder;
use super::super::pipeline::schedule::{Buffers, Config, time_once};
use super::super::session::Session;

/// One measured configuration: host time from the first call to the end of the sync.
pub use super::super::pipeline::grid::GridPoint as Point;
/// Every configuration a pipeline report's `ms_by_chunks_*` series hold (one parser: the grid's).
pub use super::super::pipeline::grid::points;

/// The simulated host time (ms) of one configuration over `bytes` with `profile`: the same
/// calls in the same order as the live pipeline's timed runs.
pub fn simulate_ms(profile: &Profile, bytes: u64, config: Config) -> Result<f64, ExperimentError> {
    let mut gpu = SimGpu::new(profile.clone(), "calibration fit".into());
    let mut s = Session::new(&mut gpu);
    let b = Buffers {
        input: s.host(bytes, HostMemKind::Pinned)?,
        output: s.host(bytes, HostMemKind::Pinned)?,
        dev: s.device(bytes)?,
        bytes,
    };
    let streams = (0..config.streams.max(1))
        .map(|_| s.stream(StreamKind::NonBlocking))
        .collect::<Result<Vec<_>, _>>()?;
    let ms = time_once(&mut s, &b, config, &streams)?;
    s.finish()?;
    Ok(ms)
}

/// Root mean square of the relative errors of `profile` over `points`.
pub fn rms_error(profile: &Profile, bytes: u64, points: &[Point]) -> Result<f64, ExperimentError> {
    let mut sum = 0.0;
    for p in points {
        let rel = simulate_ms(profile, bytes, p.config)? / p.ms - 1.0;
        sum += rel * rel;
    }
    Ok((sum / points.len().max(1) as f64).sqrt())
}

/// At most this many rounds of fitting the toll and the switch in turn (a round that moves
/// neither by more than [`SETTLED_US`] ends it): a fit that starts far from both needs four.
const MAX_ROUNDS: usize = 6;
const SETTLED_US: f64 = 0.05;

/// The upper end of every cost's search range, in microseconds.
const MAX_US: f64 = 40.0;

/// Golden-section search of `field` in [0, MAX_US] for the least error over `points`. Each step
/// keeps one of its two probes (the golden ratio puts it where the next step probes), so a
/// step costs one simulation of `points` instead of two: this fit is most of `calibrate`'s time
/// on the simulator.
fn fit_one(
    p: &mut Profile,
    field: fn(&mut Profile) -> &mut f64,
    bytes: u64,
    points: &[Point],
) -> Result<(), ExperimentError> {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0, MAX_US);
    let at = |p: &mut Profile, x: f64| {
        *field(p) = x;
        rms_error(p, bytes, points)
    };
    let (mut a, mut b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut at_a, mut at_b) = (at(p, a)?, at(p, b)?);
    for _ in 0..18 {
        if at_a <= at_b {
            (hi, b, at_b) = (b, a, at_a);
            a = hi - ratio * (hi - lo);
            at_a = at(p, a)?;
        } else {
            (lo, a, at_a) = (a, b, at_b);
            b = lo + ratio * (hi - lo);
            at_b = at(p, b)?;
        }
    }
    *field(p) = (lo + hi) / 2.0;
    Ok(())
}

/// Fit the four per-op costs of `p` from the pipeline report's configurations (see the module
/// docs). Returns the names of the fields fitted (none if the report has too few points).
///
/// The download toll and the engine switch both act only where several streams share the link,
/// so they are fitted together there, in turn until they settle. The by-stage configurations
/// are left out of the fit: they pay neither (one stream per direction keeps each engine on one
/// channel), so they validate the other two. The toll is fitted to host-timed runs rather than
/// read off a CUPTI timeline's gaps: CUPTI's copy records cost each copy 1.4-3.5 us themselves
/// on the H200 (BENCHMARKS.md, "Where recording costs"), so gaps read off a recorded run
/// overstate it.
pub fn fit_pacing(p: &mut Profile, r: &Report) -> Result<Vec<&'static str>, ExperimentError> {
    let all = points(r);
    let bytes = r.params.size;
    let pick = |f: &dyn Fn(&Config) -> bool| -> Vec<Point> {
        all.iter().copied().filter(|x| f(&x.config)).collect()
    };
    let chain = pick(&|c| c.streams == 1 && c.order == IssueOrder::BreadthFirst);
    let alternate = pick(&|c| c.streams == 1 && c.order == IssueOrder::PerChunk);
    let several = pick(&|c| c.streams > 1 && c.order != IssueOrder::ByStage);
    if chain.len() < 2 || alternate.len() < 2 || several.len() < 2 || bytes == 0 {
        return Ok(Vec::new());
    }
    fit_one(p, |p| &mut p.op_overhead_us, bytes, &chain)?;
    fit_one(p, |p| &mut p.stream_wait_us, bytes, &alternate)?;
    for _ in 0..MAX_ROUNDS {
        let before = (p.download_under_upload_us, p.engine_switch_us);
        fit_one(p, |p| &mut p.download_under_upload_us, bytes, &several)?;
        fit_one(p, |p| &mut p.engine_switch_us, bytes, &several)?;
        let moved = (p.download_under_upload_us - before.0)
            .abs()
            .max((p.engine_switch_us - before.1).abs());
        if moved < SETTLED_US {
            break;
        }
    }
    Ok(vec![
        "op_overhead_us",
        "stream_wait_us",
        "download_under_upload_us",
        "engine_switch_us",
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Series;

    /// A pipeline report whose series hold `truth`'s simulated times.
    fn report_of(truth: &Profile, bytes: u64) -> Report {
        // A real report's shape (the live fixture), with its series replaced.
        let live =
            include_str!("../../../tests/fixtures/h200-live-2026-12-01/pipeline-search-1.json");
        let mut r: Report = serde_json::from_str(live).expect("the fixture is a report");
        r.params.size = bytes;
        r.series.clear();
        for streams in [1, 2, 3, 4] {
            for order in [IssueOrder::PerChunk, IssueOrder::BreadthFirst] {
                let points = [2u32, 8, 32, 128]
                    .map(|chunks| {
                        let config = Config::equal(streams, chunks, order);
                        let ms = simulate_ms(truth, bytes, config).expect("simulates");
                        (f64::from(chunks), ms)
                    })
                    .to_vec();
                r.series.push(Series {
                    name: format!("ms_by_chunks_{streams}_streams_{}", order.name()),
                    x_unit: "chunks".into(),
                    y_unit: "ms".into(),
                    points,
                });
            }
        }
        r
    }

    #[test]
    fn the_fit_recovers_per_op_costs_it_did_not_know() {
        let mut truth = Profile::builtin("h200").expect("built-in profile");
        (
            truth.op_overhead_us,
            truth.stream_wait_us,
            truth.engine_switch_us,
            truth.download_under_upload_us,
        ) = (2.0, 6.0, 3.0, 5.0);
        let r = report_of(&truth, 16 << 20);
        assert_eq!(points(&r).len(), 32);
        let mut p = truth.clone();
        (
            p.op_overhead_us,
            p.stream_wait_us,
            p.engine_switch_us,
            p.download_under_upload_us,
        ) = (0.0, 0.0, 0.0, 0.0);
        let fitted = fit_pacing(&mut p, &r).expect("fits");
        assert_eq!(fitted.len(), 4, "{fitted:?}");
        for (got, want) in [
            (p.op_overhead_us, 2.0),
            (p.stream_wait_us, 6.0),
            (p.engine_switch_us, 3.0),
            (p.download_under_upload_us, 5.0),
        ] {
            assert!(
                (got - want).abs() < 0.5,
                "fitted {got}, truth {want}: {:?}",
                (
                    p.op_overhead_us,
                    p.stream_wait_us,
                    p.engine_switch_us,
                    p.download_under_upload_us
                )
            );
        }
    }
}
