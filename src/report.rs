//! What an experiment run produces, whichever backend ran it: metrics, a timeline of device
//! operations, chart series and verification checks.
//!
//! This is the JSON contract of `cuda-academy run --json` (see README, "Experiment JSON") and the
//! data every screen of the experiment panel reads. The UI cannot tell which backend produced a
//! report except through [`BackendInfo`], which it must show.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Bumped whenever a field of [`Report`] changes meaning or disappears (2: each metric carries
/// its `clock`, sample count `n` and `spread`).
pub const SCHEMA_VERSION: u32 = 2;

/// One experiment run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema_version: u32,
    /// Experiment id, e.g. `pipeline` (a contract: see `experiment::registry`).
    pub experiment: String,
    pub backend: BackendInfo,
    /// The parameters the run actually used (after clamping to what fits).
    pub params: Params,
    /// Metric name (a contract, e.g. `pinned_h2d_gbps`) -> value with unit.
    pub metrics: BTreeMap<String, Metric>,
    /// The headline run's operations on one time origin (microseconds from that origin).
    pub timeline: Vec<Op>,
    /// Other runs' timelines (e.g. the sequential baseline), each on its own origin.
    #[serde(default)]
    pub other_timelines: Vec<NamedTimeline>,
    /// Data for charts (bandwidth vs size, per-configuration times, ...).
    #[serde(default)]
    pub series: Vec<Series>,
    /// Data and invariant checks (e.g. "pipeline output matches the host").
    #[serde(default)]
    pub checks: Vec<Check>,
    /// Free-form remarks for the reader (clamped sizes, missing NVRTC, ...).
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Which backend produced a report. The flag says `gpu`/`sim`, JSON says `cuda`/`simulated`,
/// the screen says Live/Simulated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BackendInfo {
    pub kind: BackendKind,
    /// Device name: the real GPU, or the GPU the simulator's profile was recorded on.
    pub device: String,
    /// Simulator only: the profile's name (e.g. `h200`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Why this backend runs (e.g. "no CUDA driver found (libcuda.so not loadable)").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Where the timeline's device times come from.
    pub timing: TimingSource,
}

/// `cuda` (a real GPU through cudarc) or `simulated` (the calibrated model).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackendKind {
    Cuda,
    Simulated,
}

impl BackendKind {
    /// The word the screen uses: "Live" or "Simulated".
    pub fn screen_name(self) -> &'static str {
        match self {
            BackendKind::Cuda => "Live",
            BackendKind::Simulated => "Simulated",
        }
    }
}

/// How device start and end times were obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimingSource {
    /// CUPTI activity records: real device start/end of every copy and kernel.
    Cupti,
    /// CUDA events against one origin: ends are measured, starts are inferred.
    Events,
    /// The simulator's model.
    Model,
}

/// The parameters of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// Largest transfer size in bytes.
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streams: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunks: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<u32>,
    /// Anything experiment-specific (issue order, host memory kind, repetitions, ...).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, String>,
}

/// A number with its unit, the clock that measured it, and how many samples it summarises, e.g.
/// `{ "value": 55.1, "unit": "GB/s", "clock": "device-cupti", "n": 5, "spread": {..} }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    pub value: f64,
    pub unit: String,
    /// Which clock measured it (filled in from the experiment registry after a run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// Timed samples behind the value (the median of `n` runs; for a ratio, the fewer of its
    /// two sides); 1 for a single measurement or a count.
    #[serde(default = "one")]
    pub n: u32,
    /// The samples' spread, when there is more than one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<Spread>,
}

fn one() -> u32 {
    1
}

/// How far repeated samples of one metric lie apart, in the metric's unit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub min: f64,
    pub max: f64,
    /// Interquartile range (q3 - q1).
    pub iqr: f64,
}

/// The clock behind a metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Clock {
    /// The host's monotonic clock, from the first call issued to the last call's return.
    HostWall,
    /// Device start and end times from CUPTI activity records.
    DeviceCupti,
    /// Device times from CUDA events (ends measured, starts inferred).
    DeviceEvents,
    /// The simulator's model (every figure of a simulated run).
    Model,
    /// A ratio whose two sides come from different clocks (the registry's label says which).
    Mixed,
}

impl Clock {
    /// The JSON word, also shown on screen: `host-wall`, `device-cupti`, ...
    pub fn name(self) -> &'static str {
        match self {
            Clock::HostWall => "host-wall",
            Clock::DeviceCupti => "device-cupti",
            Clock::DeviceEvents => "device-events",
            Clock::Model => "model",
            Clock::Mixed => "mixed",
        }
    }
}

impl Metric {
    /// One measurement (or a count) of `value` `unit`; the clock comes from the registry.
    pub fn new(value: f64, unit: &str) -> Self {
        Metric {
            value,
            unit: unit.to_string(),
            clock: None,
            n: 1,
            spread: None,
        }
    }

    /// The value as the median of `n` samples spread as `spread` (no spread for one sample).
    pub fn with_samples(mut self, n: u32, spread: Spread) -> Self {
        self.n = n.max(1);
        self.spread = (n > 1).then_some(spread);
        self
    }
}

/// What an operation on the timeline is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpKind {
    /// Host to device copy.
    H2d,
    /// Device to host copy.
    D2h,
    Kernel,
    /// A host API call (from its issue to its return), on the host lane.
    Host,
}

/// The kind of host memory a copy used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HostMemKind {
    /// Ordinary `malloc`/`Vec` memory.
    Pageable,
    /// `cudaMallocHost` / `cuMemHostAlloc(flags 0)`.
    Pinned,
    /// `cudaHostAlloc(cudaHostAllocWriteCombined)`.
    WriteCombined,
    /// Pageable memory page-locked with `cudaHostRegister`.
    Registered,
}

impl HostMemKind {
    /// Its name wherever a person reads it (`pageable`, `pinned`, `write-combined`,
    /// `registered`): the one table, the same words as its JSON form.
    pub fn name(self) -> &'static str {
        match self {
            HostMemKind::Pageable => "pageable",
            HostMemKind::Pinned => "pinned",
            HostMemKind::WriteCombined => "write-combined",
            HostMemKind::Registered => "registered",
        }
    }

    /// Its metric-name form (`write_combined_h2d_gbps`): the name with `_` for `-`.
    pub fn key(self) -> &'static str {
        match self {
            HostMemKind::WriteCombined => "write_combined",
            other => other.name(),
        }
    }
}

/// One copy, kernel or host call on the timeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Op {
    /// The stream it ran in (0 is the legacy default stream). Host ops carry the stream they act on.
    pub stream: u32,
    pub kind: OpKind,
    /// Microseconds from the timeline's origin.
    pub start_us: f64,
    pub end_us: f64,
    /// Bytes moved (copies) or processed (kernels); 0 for host calls.
    pub bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_mem: Option<HostMemKind>,
    /// The copy engine / channel that ran it, where the backend knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<u32>,
    /// True when `start_us` was inferred (e.g. from an event recorded before the op) rather than
    /// measured on the device.
    #[serde(default)]
    pub start_inferred: bool,
    /// The line of the learner's program that issued it (exercise checks only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Short label, e.g. `H2D chunk 3`, `cudaStreamSynchronize`, `transform`.
    #[serde(default)]
    pub label: String,
}

impl Op {
    pub fn duration_us(&self) -> f64 {
        self.end_us - self.start_us
    }
}

/// A timeline that is not the headline one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NamedTimeline {
    pub name: String,
    pub ops: Vec<Op>,
}

/// A chart's data: y against x.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// e.g. `pinned_h2d_gbps_by_size`.
    pub name: String,
    pub x_unit: String,
    pub y_unit: String,
    /// (x, y) pairs, x ascending.
    pub points: Vec<(f64, f64)>,
}

/// A verification or invariant check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub name: String,
    pub passed: bool,
    #[serde(default)]
    pub detail: String,
}
