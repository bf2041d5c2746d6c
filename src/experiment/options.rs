//! What a caller may ask of an experiment (`--size`, `--streams`, `--chunks`, ...), how sizes are
//! written, and the checks that turn absurd requests into clear errors before any GPU call.

use crate::report::HostMemKind;

/// One KiB, MiB and GiB in bytes.
pub const KIB: u64 = 1024;
pub const MIB: u64 = 1024 * KIB;
pub const GIB: u64 = 1024 * MIB;

/// The largest `--size` accepted at all (free memory may allow less).
pub const MAX_SIZE: u64 = 64 * GIB;
/// The most streams an experiment will create.
pub const MAX_STREAMS: u32 = 32;
/// The most chunks a pipeline will split its buffer into.
pub const MAX_CHUNKS: u32 = 4096;
/// The most operations (chunks x streams) one pipeline configuration may issue per stage.
pub const MAX_CHUNKS_TIMES_STREAMS: u64 = 32_768;

/// How a chunked pipeline issues its work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IssueOrder {
    /// `for chunk { H2D; kernel; D2H }`: each chunk's three steps together.
    PerChunk,
    /// All H2Ds, then all kernels, then all D2Hs.
    BreadthFirst,
    /// One stream per stage: every upload on an upload stream, every kernel on a compute
    /// stream, every download on a download stream, each chunk's stages linked by events
    /// (`cuEventRecord` after a chunk's upload, `cuStreamWaitEvent` before its kernel; likewise
    /// kernel to download). Always three streams.
    ByStage,
}

impl IssueOrder {
    /// Every layout, in the order they are tried.
    pub const ALL: [IssueOrder; 3] = [
        IssueOrder::PerChunk,
        IssueOrder::BreadthFirst,
        IssueOrder::ByStage,
    ];

    /// The name used in params and series (`per-chunk`, `breadth-first`, `by-stage`).
    pub fn name(self) -> &'static str {
        match self {
            IssueOrder::PerChunk => "per-chunk",
            IssueOrder::BreadthFirst => "breadth-first",
            IssueOrder::ByStage => "by-stage",
        }
    }
}

/// Options for one experiment run; `None` means the experiment's default.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExperimentOptions {
    /// The largest transfer size in bytes (pipeline: the whole buffer).
    pub size: Option<u64>,
    /// Pipeline: fix the stream count instead of sweeping it.
    pub streams: Option<u32>,
    /// Pipeline: fix the chunk count instead of sweeping it.
    pub chunks: Option<u32>,
    /// Pipeline: host memory of the pipeline's buffers (default pinned).
    pub host_mem: Option<HostMemKind>,
    /// Pipeline: fix the issue order instead of trying both.
    pub issue_order: Option<IssueOrder>,
    /// Repetitions per measurement (default: chosen by size).
    pub repetitions: Option<u32>,
}

/// Whether `size` is a size any experiment accepts (free memory may allow less).
pub fn check_size(size: u64) -> Result<(), String> {
    if size == 0 {
        return Err("--size must be at least 4 bytes, got 0".into());
    }
    if size > MAX_SIZE {
        return Err(format!(
            "--size {} is larger than the {} limit; pick a smaller size",
            format_bytes(size),
            format_bytes(MAX_SIZE)
        ));
    }
    if !size.is_multiple_of(4) {
        return Err(format!(
            "--size {size} is not a multiple of 4 bytes (the kernels work on f32s)"
        ));
    }
    Ok(())
}

/// Parse a byte count: `4096`, `64K`, `64KiB`, `256M`, `1G`, `1.5G` (K/M/G are powers of 1024;
/// a `B`, `iB` suffix and spaces are accepted).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits_end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(digits_end);
    if num.is_empty() {
        return Err(format!(
            "`{text}` is not a size; write bytes like 4096, 64K, 256M or 1G"
        ));
    }
    let unit = unit.trim().to_ascii_lowercase();
    let mult = match unit.trim_end_matches("ib").trim_end_matches('b') {
        "" => 1,
        "k" => KIB,
        "m" => MIB,
        "g" => GIB,
        "t" => 1024 * GIB,
        _ => {
            return Err(format!(
                "`{text}`: unknown unit `{unit}`; use K, M or G (powers of 1024)"
            ));
        }
    };
    let value: f64 = num
        .parse()
        .map_err(|_| format!("`{text}` is not a size; write bytes like 4096, 64K, 256M or 1G"))?;
    let bytes = value * mult as f64;
    if !bytes.is_finite() || bytes > u64::MAX as f64 / 2.0 {
        return Err(format!("`{text}` is too large"));
    }
    if bytes.fract() != 0.0 {
        return Err(format!("`{text}` is not a whole number of bytes"));
    }
    Ok(bytes as u64)
}

pub use crate::units::format_bytes;
