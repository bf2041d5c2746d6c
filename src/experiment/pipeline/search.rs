//! Searching the configuration space (streams x chunks x issue order x chunk shape) coarse to
//! fine: a coarse grid of equal chunks, then the neighbours of the best point, then the best
//! points with tapered ends (first and last chunk smaller: a shorter fill and drain), then the
//! few fastest (and the simplest of those within 1% of the fastest) re-measured with repetitions
//! so one lucky run cannot win. Among configurations within 1% of the fastest, the simplest is
//! "best": fewest streams, then fewest chunks, then equal chunks, then per-chunk order, then
//! breadth-first, then by-stage (lesson 4: two or three streams suffice). By-stage always counts
//! as three streams (upload, compute, download), and comes last among equals because it needs two
//! events per chunk on top of the copies and kernels.
//!
//! Every layout is refined on its own: the neighbours of each layout's fastest coarse point are
//! tried, and its fastest point gets tapered variants, so the comparison of layouts does not
//! depend on which one the coarse grid favoured.

use std::collections::{BTreeSet, HashMap};

use crate::gpu::StreamId;

use super::super::options::{IssueOrder, KIB};
use super::super::session::Session;
use super::super::stats::Summary;
use super::super::{ExperimentError, RunContext};
use super::schedule::{Buffers, Config, time_once};
use super::steps::STAGE_STREAMS;

/// How many of the fastest configurations are re-measured, and how often.
const FINALISTS: usize = 3;
pub const FINAL_REPS: usize = 3;
/// Times within this fraction of the fastest count as equally fast.
pub const TIE: f64 = 0.01;

/// Chunk counts of the coarse grid (powers of 4 from 2 to 128).
const COARSE_CHUNKS: [u32; 4] = [2, 8, 32, 128];
/// The chunk counts the search may reach (powers of 2).
pub const MIN_CHUNKS: u32 = 2;
pub const MAX_CHUNKS: u32 = 256;
/// Chunks smaller than this are not worth a copy's fixed cost.
const MIN_CHUNK_BYTES: u64 = 4 * KIB;
/// The tapers tried on the best equal-chunk points: ends of 1/2, 1/4 and 1/8 of a chunk.
pub const TAPERS: [u32; 3] = [2, 4, 8];
/// How many of the fastest equal-chunk points get tapered variants.
const TAPERED_BASES: usize = 2;

/// The dimensions of the search: fixed values from the options, or ranges to sweep.
#[derive(Debug, Clone)]
pub struct Space {
    pub streams: Vec<u32>,
    pub chunks: Option<u32>,
    pub orders: Vec<IssueOrder>,
    pub bytes: u64,
}

impl Space {
    /// The space for a buffer of `bytes` on a device with `copy_engines`, with the fixed values.
    pub fn new(
        bytes: u64,
        copy_engines: u32,
        (streams, chunks, order): (Option<u32>, Option<u32>, Option<IssueOrder>),
    ) -> Space {
        // One stream per copy engine plus one for the kernel is the most that can help.
        let max_streams = (copy_engines + 1).clamp(2, 4);
        Space {
            streams: streams.map_or_else(|| (1..=max_streams).collect(), |s| vec![s]),
            chunks,
            orders: order.map_or_else(
                // With the streams fixed to another count, by-stage (always three) is not tried.
                || {
                    IssueOrder::ALL
                        .into_iter()
                        .filter(|&o| {
                            o != IssueOrder::ByStage || streams.is_none_or(|s| s == STAGE_STREAMS)
                        })
                        .collect()
                },
                |o| vec![o],
            ),
            bytes,
        }
    }

    /// The most streams any configuration of the space runs on.
    pub fn max_streams(&self) -> u32 {
        let by_stage = self.orders.contains(&IssueOrder::ByStage);
        let most = self.streams.iter().copied().max().unwrap_or(1);
        if by_stage {
            most.max(STAGE_STREAMS)
        } else {
            most
        }
    }

    fn chunk_ok(&self, c: u32) -> bool {
        (MIN_CHUNKS..=MAX_CHUNKS).contains(&c) && self.bytes / u64::from(c) >= MIN_CHUNK_BYTES
    }

    fn chunk_values(&self, wanted: &[u32]) -> Vec<u32> {
        if let Some(c) = self.chunks {
            return vec![c];
        }
        let v: Vec<u32> = wanted
            .iter()
            .copied()
            .filter(|&c| self.chunk_ok(c))
            .collect();
        if v.is_empty() { vec![MIN_CHUNKS] } else { v }
    }

    fn grid(&self, streams: &[u32], chunks: &[u32], orders: &[IssueOrder]) -> Vec<Config> {
        let mut out = Vec::new();
        for &order in orders {
            // By-stage has one stream per stage, whatever the stream counts swept.
            let streams = if order == IssueOrder::ByStage {
                &[STAGE_STREAMS][..]
            } else {
                streams
            };
            for &s in streams {
                for &c in &self.chunk_values(chunks) {
                    out.push(Config::equal(s, c, order));
                }
            }
        }
        out
    }

    /// The coarse grid.
    pub fn coarse(&self) -> Vec<Config> {
        self.grid(&self.streams, &COARSE_CHUNKS, &self.orders)
    }

    /// The neighbours of `best` in its layout: half and double the chunks, one stream fewer or
    /// more.
    pub fn around(&self, best: Config) -> Vec<Config> {
        let near_streams: BTreeSet<u32> = [
            best.streams.saturating_sub(1),
            best.streams,
            best.streams + 1,
        ]
        .into_iter()
        .filter(|s| self.streams.contains(s))
        .collect();
        let c = best.chunks;
        let chunks = [c / 2, c, c.saturating_mul(2)];
        let near: Vec<u32> = near_streams.into_iter().collect();
        self.grid(&near, &chunks, &[best.order])
    }

    /// `base` with tapered ends ([`TAPERS`]), where it has ends to taper (3 chunks or more) and
    /// its smallest chunk stays worth a copy.
    pub fn tapered(&self, base: Config) -> Vec<Config> {
        if base.chunks < 3 {
            return Vec::new();
        }
        TAPERS
            .iter()
            .map(|&taper| Config { taper, ..base })
            .filter(|c| super::schedule::chunk_range(self.bytes, *c, 0).1 >= MIN_CHUNK_BYTES)
            .collect()
    }
}

/// Coarse grid, then neighbours of the best, then the finalists re-measured. Returns the best
/// configuration, the summary of its re-measured times (ms), and every configuration's
/// single-run time.
pub fn search(
    s: &mut Session,
    b: &Buffers,
    space: &Space,
    streams: &[StreamId],
    ctx: &RunContext,
) -> Result<(Config, Summary, HashMap<Config, f64>), ExperimentError> {
    let mut times: HashMap<Config, f64> = HashMap::new();
    let measure = |s: &mut Session,
                   list: Vec<Config>,
                   times: &mut HashMap<Config, f64>|
     -> Result<(), ExperimentError> {
        let todo: Vec<Config> = list
            .into_iter()
            .filter(|c| !times.contains_key(c))
            .collect();
        for (i, cfg) in todo.iter().enumerate() {
            ctx.step(&format!("{} ({}/{})", cfg.describe(), i + 1, todo.len()))?;
            times.insert(*cfg, time_once(s, b, *cfg, streams)?);
        }
        Ok(())
    };
    measure(s, space.coarse(), &mut times)?;
    for &order in &space.orders {
        if let Some(cfg) = fastest_of(&times, order) {
            measure(s, space.around(cfg), &mut times)?;
        }
    }
    // Tapered ends on the fastest two points, and on each layout's fastest.
    let mut bases = fastest(&times, TAPERED_BASES);
    for &order in &space.orders {
        bases.extend(fastest_of(&times, order).filter(|c| !bases.contains(c)));
    }
    for cfg in bases {
        measure(s, space.tapered(cfg), &mut times)?;
    }
    let mut finals: Vec<(Config, Summary)> = Vec::new();
    for cfg in finalists(&times) {
        ctx.step(&format!("re-measure {}", cfg.describe()))?;
        let mut t = Vec::new();
        for _ in 0..FINAL_REPS {
            t.push(time_once(s, b, cfg, streams)?);
        }
        if let Some(summary) = Summary::of(&t) {
            finals.push((cfg, summary));
        }
    }
    let medians: Vec<(Config, f64)> = finals.iter().map(|(c, t)| (*c, t.median)).collect();
    let best = simplest_within(&medians, TIE).unwrap_or(Config::SEQUENTIAL);
    let summary = finals
        .into_iter()
        .find(|(c, _)| *c == best)
        .map(|(_, t)| t)
        .ok_or_else(|| ExperimentError::InvalidOption("no configuration could be timed".into()))?;
    Ok((best, summary, times))
}

/// What is re-measured: the fastest few, and the simplest few within [`TIE`] of the fastest
/// (so a simpler configuration that ties is not lost to noise in its single run).
fn finalists(times: &HashMap<Config, f64>) -> Vec<Config> {
    let mut out = fastest(times, FINALISTS);
    let all: Vec<(Config, f64)> = times.iter().map(|(c, t)| (*c, *t)).collect();
    let mut near = within(&all, TIE);
    near.sort_by_key(simplicity);
    for cfg in near.into_iter().take(FINALISTS) {
        if !out.contains(&cfg) {
            out.push(cfg);
        }
    }
    out
}

/// The configurations within `tolerance` (a fraction) of the fastest of `times`.
fn within(times: &[(Config, f64)], tolerance: f64) -> Vec<Config> {
    let fastest = times.iter().map(|(_, t)| *t).fold(f64::INFINITY, f64::min);
    times
        .iter()
        .filter(|(_, t)| *t <= fastest * (1.0 + tolerance))
        .map(|(c, _)| *c)
        .collect()
}

/// Simpler sorts first: fewer streams, then fewer chunks, then equal chunks, then per-chunk,
/// breadth-first, by-stage (see the module docs).
fn simplicity(c: &Config) -> (u32, u32, u32, u8) {
    let layout = match c.order {
        IssueOrder::PerChunk => 0,
        IssueOrder::BreadthFirst => 1,
        IssueOrder::ByStage => 2,
    };
    (c.streams, c.chunks, c.effective_taper(), layout)
}

/// The best of `times`: the simplest configuration within `tolerance` of the fastest.
pub fn simplest_within(times: &[(Config, f64)], tolerance: f64) -> Option<Config> {
    within(times, tolerance).into_iter().min_by_key(simplicity)
}

/// The fastest configuration of `times` in `order`, if any was timed.
fn fastest_of(times: &HashMap<Config, f64>, order: IssueOrder) -> Option<Config> {
    times
        .iter()
        .filter(|(c, _)| c.order == order)
        .min_by(|a, b| {
            a.1.total_cmp(b.1)
                .then(simplicity(a.0).cmp(&simplicity(b.0)))
        })
        .map(|(c, _)| *c)
}

/// The `n` fastest configurations, fastest first (ties broken by fewer streams, then chunks).
fn fastest(times: &HashMap<Config, f64>, n: usize) -> Vec<Config> {
    let mut v: Vec<(&Config, &f64)> = times.iter().collect();
    v.sort_by(|a, b| {
        a.1.total_cmp(b.1)
            .then(simplicity(a.0).cmp(&simplicity(b.0)))
    });
    v.into_iter().take(n).map(|(c, _)| *c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_respects_fixed_values_and_small_buffers() {
        let s = Space::new(256 << 20, 3, (None, None, None));
        assert_eq!(s.streams, vec![1, 2, 3, 4]);
        // Two orders over 1-4 streams, and by-stage (always three streams), at 4 chunk counts.
        assert_eq!(s.coarse().len(), 4 * 4 * 2 + 4);
        assert_eq!(s.max_streams(), 4);
        let two = Space::new(256 << 20, 1, (None, None, None));
        assert_eq!(two.streams, vec![1, 2]);
        assert_eq!(two.max_streams(), 3, "by-stage needs its three");
        let fixed_two = Space::new(256 << 20, 3, (Some(2), None, None));
        assert!(!fixed_two.orders.contains(&IssueOrder::ByStage));
        let fixed_three = Space::new(256 << 20, 3, (Some(3), None, None));
        assert!(fixed_three.orders.contains(&IssueOrder::ByStage));
        let fixed = Space::new(
            256 << 20,
            3,
            (Some(3), Some(32), Some(IssueOrder::PerChunk)),
        );
        assert_eq!(fixed.coarse().len(), 1);
        let small = Space::new(16 * KIB, 3, (None, None, None));
        assert!(small.coarse().iter().all(|c| c.chunks <= 4));
        let around = s.around(Config::equal(4, 256, IssueOrder::PerChunk));
        assert!(
            around
                .iter()
                .all(|c| c.streams >= 3 && c.chunks <= 256 && c.chunks >= 128)
        );
    }

    fn cfg(streams: u32, chunks: u32, order: IssueOrder) -> Config {
        Config::equal(streams, chunks, order)
    }

    #[test]
    fn tapered_variants_need_ends_and_chunks_worth_a_copy() {
        let s = Space::new(256 << 20, 3, (None, None, None));
        let t = s.tapered(cfg(3, 16, IssueOrder::PerChunk));
        assert_eq!(t.iter().map(|c| c.taper).collect::<Vec<_>>(), TAPERS);
        assert!(s.tapered(cfg(3, 2, IssueOrder::PerChunk)).is_empty());
        // 64 KiB over 8 chunks: 8 KiB chunks; ends of 1/4 (2 KiB) are below the 4 KiB floor.
        let small = Space::new(64 * KIB, 3, (None, None, None));
        let t = small.tapered(cfg(2, 8, IssueOrder::PerChunk));
        assert!(t.iter().all(|c| c.taper < 4), "{t:?}");
        // Within 1%, equal chunks are simpler than tapered ones; beyond it the taper wins.
        let tapered = Config {
            taper: 4,
            ..cfg(3, 16, IssueOrder::PerChunk)
        };
        let near = [(cfg(3, 16, IssueOrder::PerChunk), 5.75), (tapered, 5.72)];
        assert_eq!(simplest_within(&near, TIE), Some(near[0].0));
        let apart = [(cfg(3, 16, IssueOrder::PerChunk), 5.75), (tapered, 5.55)];
        assert_eq!(simplest_within(&apart, TIE), Some(tapered));
    }

    #[test]
    fn ties_within_one_percent_go_to_fewer_streams_then_fewer_chunks() {
        use IssueOrder::{BreadthFirst, PerChunk};
        // The walkthrough's case: 3 and 4 streams tie at 5.53 ms; 4 was recommended.
        let tied = [
            (cfg(4, 64, PerChunk), 5.533_370_121_825_719),
            (cfg(3, 64, PerChunk), 5.533_370_121_826_185),
        ];
        assert_eq!(simplest_within(&tied, TIE), Some(cfg(3, 64, PerChunk)));
        // Within 1%: fewer streams win even when slower; then fewer chunks; then per-chunk.
        let near = [
            (cfg(4, 32, PerChunk), 5.50),
            (cfg(2, 64, BreadthFirst), 5.54),
            (cfg(2, 128, PerChunk), 5.52),
            (cfg(2, 64, PerChunk), 5.545),
        ];
        assert_eq!(simplest_within(&near, TIE), Some(cfg(2, 64, PerChunk)));
        // More than 1% slower is not a tie, however simple.
        let apart = [(cfg(4, 32, PerChunk), 5.50), (cfg(1, 2, PerChunk), 5.60)];
        assert_eq!(simplest_within(&apart, TIE), Some(cfg(4, 32, PerChunk)));
        assert_eq!(simplest_within(&[], TIE), None);
    }

    #[test]
    fn a_simpler_tie_is_re_measured_even_when_not_among_the_fastest_three() {
        use IssueOrder::PerChunk;
        let times: HashMap<Config, f64> = [
            (cfg(4, 64, PerChunk), 5.500),
            (cfg(4, 128, PerChunk), 5.501),
            (cfg(3, 128, PerChunk), 5.502),
            (cfg(2, 64, PerChunk), 5.530),
            (cfg(1, 2, PerChunk), 9.0),
        ]
        .into_iter()
        .collect();
        let f = finalists(&times);
        assert!(f.contains(&cfg(2, 64, PerChunk)), "{f:?}");
        assert!(!f.contains(&cfg(1, 2, PerChunk)));
    }
}
