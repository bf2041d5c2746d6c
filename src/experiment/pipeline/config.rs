//! One pipeline configuration: how the work is split (streams, chunks, the taper of the ends)
//! and issued, the buffers it runs over, and the byte range of each chunk. Read by the steps
//! (`steps.rs`) and the timing (`schedule.rs`) alike, so neither imports the other for it.

use crate::gpu::{DevBuf, HostBuf, Kernel};

use super::super::options::IssueOrder;

/// The light kernel of the pipeline (exact in `f32` for the fill pattern): the standard
/// transform, `gpu`'s one definition of it.
pub const TRANSFORM: Kernel = Kernel::TRANSFORM;

/// How the work is split and issued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Config {
    pub streams: u32,
    pub chunks: u32,
    pub order: IssueOrder,
    /// The chunks' shape: 1 = equal chunks; `k` > 1 = the first and the last chunk are `1/k` of
    /// the others, so the fill (the first upload runs alone) and the drain (the last download
    /// runs alone) are shorter than a plain equal-chunk loop's.
    pub taper: u32,
}

impl Config {
    /// The whole buffer through one stream: the sequential baseline.
    pub const SEQUENTIAL: Config = Config::equal(1, 1, IssueOrder::PerChunk);

    /// Equal chunks: what a plain chunk loop does.
    pub const fn equal(streams: u32, chunks: u32, order: IssueOrder) -> Config {
        Config {
            streams,
            chunks,
            order,
            taper: 1,
        }
    }

    /// The taper that applies: none below 3 chunks (every chunk would be an edge).
    pub fn effective_taper(&self) -> u32 {
        if self.chunks >= 3 {
            self.taper.max(1)
        } else {
            1
        }
    }

    /// e.g. `3 streams x 32 chunks, breadth-first` (`, ends 1/4` when tapered).
    pub fn describe(&self) -> String {
        let ends = match self.effective_taper() {
            1 => String::new(),
            k => format!(", ends 1/{k}"),
        };
        format!(
            "{} streams x {} chunks, {}{ends}",
            self.streams,
            self.chunks,
            self.order.name()
        )
    }

    /// The chunk sizes in words, for the report and the screen: `16 chunks of 16 MiB`, or
    /// `first and last 4 MiB, 14 x 17.1 MiB`.
    pub fn chunk_shape(&self, bytes: u64) -> String {
        use super::super::options::format_bytes;
        let (_, edge) = chunk_range(bytes, *self, 0);
        let (_, middle) = chunk_range(bytes, *self, self.chunks / 2);
        match self.effective_taper() {
            1 => format!("{} chunks of {}", self.chunks, format_bytes(middle)),
            _ => format!(
                "first and last {}, {} x {}",
                format_bytes(edge),
                self.chunks - 2,
                format_bytes(middle)
            ),
        }
    }
}

/// The pipeline's buffers: input and output on the host, one device buffer.
#[derive(Debug, Clone, Copy)]
pub struct Buffers {
    pub input: HostBuf,
    pub output: HostBuf,
    pub dev: DevBuf,
    pub bytes: u64,
}

/// The byte offset and length of chunk `i` of `cfg`'s chunks over `bytes` (whole `f32`s):
/// chunk `i` covers the floats from weight `before(i)` to `before(i + 1)` of the total, where
/// every chunk weighs the taper except the two ends, which weigh 1 (exact integer math: the
/// chunks tile the buffer with no gap or overlap).
pub fn chunk_range(bytes: u64, cfg: Config, i: u32) -> (u64, u64) {
    let (n, k) = (
        u64::from(cfg.chunks.max(1)),
        u64::from(cfg.effective_taper()),
    );
    let before = |i: u64| match i {
        0 => 0,
        i if i >= n => 2 + (n - 2) * k,
        i => 1 + (i - 1) * k,
    };
    let floats = bytes / 4;
    let (lo, hi) = if k == 1 {
        (u64::from(i) * floats / n, (u64::from(i) + 1) * floats / n)
    } else {
        // A taper applies from 3 chunks on, so `n - 2` cannot underflow here.
        let total = before(n);
        let at = |i: u64| (u128::from(floats) * u128::from(before(i)) / u128::from(total)) as u64;
        (at(u64::from(i)), at(u64::from(i) + 1))
    };
    (lo * 4, (hi - lo) * 4)
}
