//! What an experiment declares about itself ([`ExperimentSpec`]: id, title, parameters, metrics
//! with unit, label and clock, chart, headline and run function). Every experiment file reads
//! these types and `registry.rs` lists the declarations: the types live here, apart from the
//! list, so that the list importing each experiment makes no import circle (issue 20).

use crate::gpu::Gpu;
use crate::report::{Clock, Op, Report, TimingSource};

use super::options::IssueOrder;
use super::{ExperimentError, ExperimentOptions, RunContext};

/// How an experiment runs: validated options in, a report out.
pub type RunFn =
    fn(&mut dyn Gpu, &ExperimentOptions, &RunContext) -> Result<Report, ExperimentError>;

/// One experiment's declaration.
#[derive(Debug)]
pub struct ExperimentSpec {
    /// The id used on the command line, in lesson front matter and in JSON (a contract).
    pub id: &'static str,
    /// One line for people (CLI help, completions).
    pub title: &'static str,
    /// The options that apply, in the order the parameter form shows them.
    pub params: &'static [Param],
    /// The size a run uses when none is asked for (bytes).
    pub default_size: u64,
    /// Every metric the experiment reports.
    pub metrics: &'static [MetricSpec],
    /// The chart the panel draws, if any.
    pub chart: Option<Chart>,
    /// Whether a fresh report opens on the chart (else the timeline).
    pub opens_on_chart: bool,
    /// What the headline timeline shows, for labels when it is compared with another.
    pub headline: fn(&Report) -> String,
    /// What the results and `run`'s table say of a run beyond its metrics.
    pub words: RunWords,
    /// Runs it.
    pub run: RunFn,
}

/// An option a caller may set (ranges and parsing live in `experiment::options`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// The largest transfer (pipeline: the whole buffer).
    Size,
    /// Fix the stream count instead of sweeping it.
    Streams,
    /// Fix the chunk count instead of sweeping it.
    Chunks,
    /// Pinned or pageable host buffers.
    HostMem,
    /// Per-chunk or breadth-first issue.
    Order,
}

/// Which clock a metric is taken on, before the backend is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// The host's clock around driver calls.
    Host,
    /// Device start/end times (CUPTI, or events where CUPTI is missing).
    Device,
    /// A ratio of a device-clock value and a host-clock value.
    Mixed,
}

impl Timing {
    /// The clock a run on a backend timing its ops with `source` used.
    pub fn clock(self, source: TimingSource) -> Clock {
        match (self, source) {
            (_, TimingSource::Model) => Clock::Model,
            (Timing::Host, _) => Clock::HostWall,
            (Timing::Mixed, _) => Clock::Mixed,
            (Timing::Device, TimingSource::Cupti) => Clock::DeviceCupti,
            (Timing::Device, TimingSource::Events) => Clock::DeviceEvents,
        }
    }
}

/// One metric an experiment reports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MetricSpec {
    /// The contract name, e.g. `pinned_h2d_gbps`.
    pub name: &'static str,
    /// The unit (see `experiment::metrics`).
    pub unit: &'static str,
    /// What people read, e.g. `pinned H2D`.
    pub label: &'static str,
    /// The clock it is taken on.
    pub timing: Timing,
    /// Part of the contract: every run reports it.
    pub required: bool,
}

impl MetricSpec {
    /// A contract metric.
    pub const fn required(
        name: &'static str,
        unit: &'static str,
        label: &'static str,
        timing: Timing,
    ) -> MetricSpec {
        MetricSpec {
            name,
            unit,
            label,
            timing,
            required: true,
        }
    }

    /// A supporting metric (reported, but not part of the contract).
    pub const fn extra(
        name: &'static str,
        unit: &'static str,
        label: &'static str,
        timing: Timing,
    ) -> MetricSpec {
        MetricSpec {
            required: false,
            ..MetricSpec::required(name, unit, label, timing)
        }
    }
}

/// The charts the panel knows how to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chart {
    /// Bandwidth against transfer size, one curve per memory kind and direction.
    BandwidthBySize,
    /// Per-GiB allocation costs and bandwidth of each kind of host memory.
    HostMemoryBars,
    /// When an async copy call returned against when the copy was done.
    AsyncReturnBars,
    /// Best time of every streams x chunks point, per issue order.
    PipelineSweep,
}

impl Chart {
    /// What the panel's bottom border calls the view that shows it.
    pub fn view_name(self) -> &'static str {
        match self {
            Chart::PipelineSweep => "sweep",
            _ => "chart",
        }
    }
}

/// A run in the experiment's own words (and its layouts' timelines), for the screens that show
/// its results, so that no view names an experiment (issue 26). Each answers `None` where the
/// run has nothing to say.
#[derive(Debug, Clone, Copy)]
pub struct RunWords {
    /// The shape of the configuration it ran: `3 streams x 32 chunks`.
    pub shape: fn(&Report) -> Option<String>,
    /// The sizes of its pieces: `first and last 8.5 MiB, 14 x 17.1 MiB`.
    pub pieces: fn(&Report) -> Option<String>,
    /// Which of the layouts it compared won, and by how much: (`per-chunk`, `5.66 ms against
    /// 7.21 ms breadth-first (3 streams x 32 chunks)`).
    pub winner: fn(&Report) -> Option<(String, String)>,
    /// The timeline of the run of one issue order or layout, with its name, where the run
    /// recorded it (the panel's comparison of layouts).
    pub layout: LayoutFn,
}

/// See [`RunWords::layout`]: the timeline's name and its operations.
pub type LayoutFn = fn(&Report, IssueOrder) -> Option<(String, &[Op])>;

impl RunWords {
    /// Nothing beyond the metrics.
    pub const NONE: RunWords = RunWords {
        shape: |_| None,
        pieces: |_| None,
        winner: |_| None,
        layout: |_, _| None,
    };
}

/// The headline timeline's name when nothing more specific applies.
pub fn this_run(_: &Report) -> String {
    "this run".to_string()
}

impl ExperimentSpec {
    /// Whether option `param` applies.
    pub fn takes(&self, param: Param) -> bool {
        self.params.contains(&param)
    }

    /// The declaration of metric `name`, if this experiment reports it.
    pub fn metric(&self, name: &str) -> Option<&'static MetricSpec> {
        self.metrics.iter().find(|m| m.name == name)
    }

    /// The contract metrics, in declaration order.
    pub fn required(&self) -> impl Iterator<Item = &'static MetricSpec> {
        self.metrics.iter().filter(|m| m.required)
    }

    /// Give every metric of `report` its clock, from its declaration and the backend's timing.
    pub fn stamp_clocks(&self, report: &mut Report) {
        let source = report.backend.timing;
        for (name, metric) in &mut report.metrics {
            if let Some(spec) = self.metric(name) {
                metric.clock = Some(spec.timing.clock(source));
            }
        }
    }
}
