//! What recording the headline timeline costs (issue 10 §4: at most 2%): the best configuration
//! run again, recorded and unrecorded in turn, and the medians compared.
//!
//! The search's `best_ms` is not the unrecorded side: it is the fastest of several
//! configurations' medians, so the choice itself can bias it low, and a single recorded run
//! against it would charge that bias (and one run's noise) to the instrumentation. Fresh runs of
//! the chosen configuration, taken between the recorded ones so that drift in the link affects
//! both sides alike, measure only the recording. (On the H200, 2026-12-01, the two agreed within
//! 0.1% at the median of 9: the by-stage layout's recorded runs really are about 3% slower.)

use crate::gpu::StreamId;
use crate::report::{Op, OpKind};
use crate::timeline::format::format_duration_us;

use super::super::ExperimentError;
use super::super::session::Session;
use super::super::stats::Summary;
use super::schedule::{Buffers, Config, recorded_wall_ms, run_once, time_once};
use super::summary;

/// Recorded and unrecorded runs each (the last recorded run is the headline timeline).
pub const PAIRS: usize = 3;

/// The recorded and unrecorded runs of `cfg`, and the last recording.
#[derive(Debug)]
pub struct Overhead {
    /// Host wall time (ms) of each unrecorded run.
    pub unrecorded: Summary,
    /// Host wall time (ms) of each recorded run, the same span on the same clock.
    pub recorded: Summary,
    /// The last recorded run's timeline.
    pub ops: Vec<Op>,
}

/// A recorded run this much slower (%) than the unrecorded ones gets a note saying why.
pub const NOTED_PCT: f64 = 1.0;

impl Overhead {
    /// How much longer the recorded runs took, in % of the unrecorded ones (medians).
    pub fn pct(&self) -> f64 {
        (self.recorded.median / self.unrecorded.median - 1.0) * 100.0
    }

    /// What the learner should know when the timeline they look at ran measurably slower than
    /// the run it stands for: the device stamps the time of every copy while recording, and that
    /// costs time of its own (on the H200, 1.4-3.5 us a copy whichever way it is taken:
    /// BENCHMARKS.md, "Where recording costs"). `None` below [`NOTED_PCT`].
    pub fn note(&self) -> Option<String> {
        let pct = self.pct();
        if pct.is_nan() || pct < NOTED_PCT {
            return None;
        }
        let copies = self
            .ops
            .iter()
            .filter(|o| matches!(o.kind, OpKind::H2d | OpKind::D2h))
            .count();
        let ms = |v: f64| format_duration_us(v * 1e3);
        Some(format!(
            "the timeline is a recorded run: {} against {} unrecorded ({pct:.1}% longer, medians \
             of {PAIRS} each); recording stamps each of its {copies} copies with a device time, \
             and the stamps cost device time of their own",
            ms(self.recorded.median),
            ms(self.unrecorded.median),
        ))
    }
}

/// Run `cfg` [`PAIRS`] times unrecorded and [`PAIRS`] times recorded, alternating and ending
/// with a recording; `before_last` runs just before the last recording (the caller refills the
/// output there, so the verified output is that run's own).
pub fn measure(
    s: &mut Session,
    b: &Buffers,
    cfg: Config,
    streams: &[StreamId],
    before_last: impl FnOnce(&mut Session) -> Result<(), ExperimentError>,
) -> Result<Overhead, ExperimentError> {
    let mut unrecorded = Vec::with_capacity(PAIRS);
    let mut recorded = Vec::with_capacity(PAIRS);
    for _ in 0..PAIRS - 1 {
        unrecorded.push(time_once(s, b, cfg, streams)?);
        recorded.push(recorded_wall_ms(&run_once(s, b, cfg, streams)?));
    }
    unrecorded.push(time_once(s, b, cfg, streams)?);
    before_last(s)?;
    let ops = run_once(s, b, cfg, streams)?;
    recorded.push(recorded_wall_ms(&ops));
    Ok(Overhead {
        unrecorded: summary(&unrecorded),
        recorded: summary(&recorded),
        ops,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(samples: &[f64]) -> Summary {
        Summary::of(samples).expect("samples")
    }

    fn op(kind: OpKind) -> Op {
        Op {
            stream: 1,
            kind,
            start_us: 0.0,
            end_us: 1.0,
            bytes: 8,
            host_mem: None,
            engine: None,
            start_inferred: false,
            line: None,
            label: String::new(),
        }
    }

    #[test]
    fn a_measurably_slower_recording_is_explained_with_its_copy_count() {
        let ops = vec![op(OpKind::H2d), op(OpKind::Kernel), op(OpKind::D2h)];
        let o = Overhead {
            unrecorded: of(&[5.60, 5.60, 5.60]),
            recorded: of(&[5.80, 5.80, 5.80]),
            ops,
        };
        let note = o.note().expect("3.6% is noted");
        assert!(note.contains("5.80 ms against 5.60 ms"), "{note}");
        assert!(note.contains("3.6% longer"), "{note}");
        assert!(note.contains("each of its 2 copies"), "{note}");
        let close = Overhead {
            recorded: of(&[5.62, 5.62, 5.62]),
            ..o
        };
        assert_eq!(close.note(), None, "0.4% is noise, not noted");
    }

    #[test]
    fn the_overhead_compares_medians_of_like_runs() {
        let o = Overhead {
            unrecorded: of(&[5.60, 5.70, 5.65]),
            recorded: of(&[5.80, 5.75, 5.70]),
            ops: Vec::new(),
        };
        // 5.75 / 5.65 - 1
        assert!(
            (o.pct() - (5.75 / 5.65 - 1.0) * 100.0).abs() < 1e-9,
            "{}",
            o.pct()
        );
        let free = Overhead {
            recorded: of(&[5.60, 5.70, 5.65]),
            ..o
        };
        assert!(free.pct().abs() < 1e-9);
    }
}
