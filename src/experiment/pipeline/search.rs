//! Searching the configuration space (streams x chunks x issue order) coarse to fine: a coarse
//! grid, then the neighbours of the best point, then the few fastest re-measured with repetitions
//! so one lucky run cannot win.

use std::collections::{BTreeSet, HashMap};

use crate::gpu::StreamId;

use super::super::options::{IssueOrder, KIB};
use super::super::session::{Session, device_span_us};
use super::super::stats::median;
use super::super::{ExperimentError, RunContext};
use super::schedule::{Buffers, Config, run_once};

/// How many of the fastest configurations are re-measured, and how often.
const FINALISTS: usize = 3;
const FINAL_REPS: usize = 3;

/// Chunk counts of the coarse grid (powers of 4 from 2 to 128).
const COARSE_CHUNKS: [u32; 4] = [2, 8, 32, 128];
/// The chunk counts the search may reach (powers of 2).
pub const MIN_CHUNKS: u32 = 2;
pub const MAX_CHUNKS: u32 = 256;
/// Chunks smaller than this are not worth a copy's fixed cost.
const MIN_CHUNK_BYTES: u64 = 4 * KIB;

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
            orders: order.map_or_else(|| IssueOrder::ALL.to_vec(), |o| vec![o]),
            bytes,
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

    fn grid(&self, streams: &[u32], chunks: &[u32]) -> Vec<Config> {
        let mut out = Vec::new();
        for &s in streams {
            for &c in &self.chunk_values(chunks) {
                for &order in &self.orders {
                    out.push(Config {
                        streams: s,
                        chunks: c,
                        order,
                    });
                }
            }
        }
        out
    }

    /// The coarse grid.
    pub fn coarse(&self) -> Vec<Config> {
        self.grid(&self.streams, &COARSE_CHUNKS)
    }

    /// The neighbours of `best`: half and double the chunks, one stream fewer or more.
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
        self.grid(&near_streams.into_iter().collect::<Vec<_>>(), &chunks)
    }
}

/// Coarse grid, then neighbours of the best, then the fastest few re-measured. Returns the best
/// configuration, its median time in ms, and every configuration's single-run time.
pub fn search(
    s: &mut Session,
    b: &Buffers,
    space: &Space,
    streams: &[StreamId],
    ctx: &RunContext,
) -> Result<(Config, f64, HashMap<Config, f64>), ExperimentError> {
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
            times.insert(*cfg, device_span_us(&run_once(s, b, *cfg, streams)?) / 1e3);
        }
        Ok(())
    };
    measure(s, space.coarse(), &mut times)?;
    let first = fastest(&times, 1);
    for cfg in first {
        measure(s, space.around(cfg), &mut times)?;
    }
    let mut best = (Config::SEQUENTIAL, f64::INFINITY);
    for cfg in fastest(&times, FINALISTS) {
        ctx.step(&format!("re-measure {}", cfg.describe()))?;
        let mut t = Vec::new();
        for _ in 0..FINAL_REPS {
            t.push(device_span_us(&run_once(s, b, cfg, streams)?) / 1e3);
        }
        let ms = median(&t);
        if ms < best.1 {
            best = (cfg, ms);
        }
    }
    Ok((best.0, best.1, times))
}

/// The `n` fastest configurations, fastest first (ties broken by fewer streams, then chunks).
fn fastest(times: &HashMap<Config, f64>, n: usize) -> Vec<Config> {
    let mut v: Vec<(&Config, &f64)> = times.iter().collect();
    v.sort_by(|a, b| {
        a.1.total_cmp(b.1)
            .then((a.0.streams, a.0.chunks, a.0.order.name()).cmp(&(
                b.0.streams,
                b.0.chunks,
                b.0.order.name(),
            )))
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
        assert_eq!(s.coarse().len(), 4 * 4 * 2);
        let fixed = Space::new(
            256 << 20,
            3,
            (Some(3), Some(32), Some(IssueOrder::PerChunk)),
        );
        assert_eq!(fixed.coarse().len(), 1);
        let small = Space::new(16 * KIB, 3, (None, None, None));
        assert!(small.coarse().iter().all(|c| c.chunks <= 4));
        let around = s.around(Config {
            streams: 4,
            chunks: 256,
            order: IssueOrder::PerChunk,
        });
        assert!(
            around
                .iter()
                .all(|c| c.streams >= 3 && c.chunks <= 256 && c.chunks >= 128)
        );
    }
}
