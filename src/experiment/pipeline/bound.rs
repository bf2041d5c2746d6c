//! The pipeline's lower bound: no schedule beats its longest stage alone, nor all its bytes in
//! both directions at once over the link's bidirectional bandwidth.
//!
//! Both directions are measured on two streams of the bound's own, whatever `--streams` the
//! learner chose: with one stream an upload and a download cannot run together, so a bound
//! measured on the user's streams collapses to the sequential time and a run with no speedup
//! would report an efficiency near 1.

use crate::gpu::{StreamId, StreamKind};
use crate::report::Op;

use super::super::ExperimentError;
use super::super::session::{Session, device_span_us};
use super::super::stats::Summary;
use super::schedule::Buffers;

/// Repetitions of the bidirectional measurement (its median is used).
const REPS: usize = 5;

/// The bound in ms: the longest stage alone or every byte up and down at `bidir_gbps`.
pub fn bound_ms(longest_stage_ms: f64, bytes: u64, bidir_gbps: f64) -> f64 {
    longest_stage_ms.max(2.0 * bytes as f64 / bidir_gbps.max(1e-9) / 1e6)
}

/// Half the buffer up and the other half down at once, on two private non-blocking streams
/// (freed with the session): total GB/s of each of `REPS` tries (device clock of the recorded
/// timeline) and the last run's timeline.
pub fn bidirectional(s: &mut Session, b: &Buffers) -> Result<(Summary, Vec<Op>), ExperimentError> {
    let up = s.stream(StreamKind::NonBlocking)?;
    let down = s.stream(StreamKind::NonBlocking)?;
    let half = b.bytes / 8 * 4;
    // The streams are new: the first work on each pays one-off set-up (with CUPTI attached, a
    // gap before the download starts), which on the H200 read as 85 GB/s instead of 100 and
    // made the bound slower than the best pipeline. One round trip first, not timed.
    round_trip(s, b, (up, down), half)?;
    let mut rates = Vec::with_capacity(REPS);
    let mut ops = Vec::new();
    for _ in 0..REPS {
        s.begin()?;
        round_trip(s, b, (up, down), half)?;
        ops = s.end()?;
        rates.push(2.0 * half as f64 / device_span_us(&ops) / 1e3);
    }
    Ok((super::summary(&rates), ops))
}

/// `half` bytes up on `up` and the other half down on `down` at once, then wait for both.
fn round_trip(
    s: &mut Session,
    b: &Buffers,
    (up, down): (StreamId, StreamId),
    half: u64,
) -> Result<(), ExperimentError> {
    s.call(up, "cuMemcpyHtoDAsync", |g| {
        g.copy_h2d_async(up, b.dev, 0, b.input, 0, half)
    })?;
    s.call(down, "cuMemcpyDtoHAsync", |g| {
        g.copy_d2h_async(down, b.output, half, b.dev, half, half)
    })?;
    s.call(StreamId::LEGACY_DEFAULT, "cuCtxSynchronize", |g| {
        g.device_sync()
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::experiment::{ExperimentOptions, RunContext};
    use crate::gpu::profile::Profile;
    use crate::gpu::sim::SimGpu;
    use crate::report::Report;

    fn pipeline(streams: Option<u32>) -> Report {
        let profile = Profile::builtin("h200").expect("the built-in profile loads");
        let mut gpu = SimGpu::new(profile, "test".into());
        let opts = ExperimentOptions {
            size: Some(32 << 20),
            streams,
            ..Default::default()
        };
        crate::experiment::run("pipeline", &mut gpu, &opts, &RunContext::silent())
            .expect("the pipeline runs on the simulator")
    }

    fn metric(r: &Report, name: &str) -> f64 {
        r.metrics.get(name).map_or(f64::NAN, |m| m.value)
    }

    #[test]
    fn one_stream_has_no_speedup_and_a_low_efficiency() {
        let one = pipeline(Some(1));
        let speedup = metric(&one, "speedup");
        let efficiency = metric(&one, "efficiency");
        assert!((speedup - 1.0).abs() < 0.1, "speedup {speedup}");
        // One stream serialises H2D, kernel and D2H: about 2x the bidirectional bound.
        assert!(efficiency < 0.65, "efficiency {efficiency} with one stream");
        let bound = metric(&one, "bound_ms");
        let best = metric(&one, "best_ms");
        assert!((efficiency - bound / best).abs() < 1e-9);
        // The bound does not depend on the learner's streams.
        let free = pipeline(None);
        let rel = bound / metric(&free, "bound_ms") - 1.0;
        assert!(
            rel.abs() < 0.01,
            "bound {bound} vs {}",
            metric(&free, "bound_ms")
        );
        assert!(metric(&free, "efficiency") > 0.8);
    }
}
