//! The experiment registry: the one place that says which experiments exist and, for each, its
//! id, title, parameters, metrics (name, unit, label, clock), chart and run function.
//!
//! Each experiment declares its [`ExperimentSpec`] as `SPEC` in its own file; [`ALL`] lists them
//! in lesson order. Everything else reads this: `experiment::run`'s dispatch, option validation,
//! the CLI's value parser and completions, `check` (lesson references), the panel's views and
//! labels, and the parameter form. Adding an experiment is its file plus one line in [`ALL`].

use crate::gpu::Gpu;
use crate::report::{Clock, Report, TimingSource};

use super::{
    ExperimentError, ExperimentOptions, RunContext, async_copy, default_stream, pageable_vs_pinned,
    pinned_alloc, pipeline,
};

/// Every experiment, in lesson order.
pub const ALL: [&ExperimentSpec; 5] = [
    &pageable_vs_pinned::SPEC,
    &pinned_alloc::SPEC,
    &async_copy::SPEC,
    &default_stream::SPEC,
    &pipeline::SPEC,
];

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

/// The headline timeline's name when nothing more specific applies.
pub fn this_run(_: &Report) -> String {
    "this run".to_string()
}

/// The experiment `id`, if there is one.
pub fn find(id: &str) -> Option<&'static ExperimentSpec> {
    ALL.into_iter().find(|s| s.id == id)
}

/// Every id, in lesson order.
pub fn ids() -> impl Iterator<Item = &'static str> {
    ALL.into_iter().map(|s| s.id)
}

/// The declaration of metric `name`, from whichever experiment reports it.
pub fn metric(name: &str) -> Option<(&'static ExperimentSpec, &'static MetricSpec)> {
    ALL.into_iter().find_map(|e| e.metric(name).map(|m| (e, m)))
}

/// The label people read for metric `name` (its raw name when undeclared).
pub fn label(name: &str) -> &str {
    metric(name).map_or(name, |(_, m)| m.label)
}

/// The id closest to `wrong` (a typo), for "did you mean" hints.
pub fn closest_id(wrong: &str) -> Option<&'static str> {
    closest(wrong, ids())
}

/// The metric name closest to `wrong`.
pub fn closest_metric(wrong: &str) -> Option<&'static str> {
    closest(
        wrong,
        ALL.into_iter()
            .flat_map(|e| e.metrics.iter().map(|m| m.name)),
    )
}

/// The candidate within a few edits of `wrong`, nearest first.
fn closest(wrong: &str, candidates: impl Iterator<Item = &'static str>) -> Option<&'static str> {
    candidates
        .map(|c| (edit_distance(wrong, c), c))
        .filter(|(d, c)| *d <= 3.max(c.len() / 4))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_a_metric_means_the_same_wherever_it_is_declared() {
        let mut ids: Vec<&str> = ids().collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), ALL.len());
        for spec in ALL {
            for (i, m) in spec.metrics.iter().enumerate() {
                assert!(
                    spec.metrics[..i].iter().all(|o| o.name != m.name),
                    "{}: {} declared twice",
                    spec.id,
                    m.name
                );
                let (_, first) = metric(m.name).expect("declared");
                assert_eq!((first.unit, first.label), (m.unit, m.label), "{}", m.name);
            }
        }
    }

    #[test]
    fn typos_find_their_intended_name() {
        assert_eq!(closest_id("pipline"), Some("pipeline"));
        assert_eq!(closest_id("nothing-like-it"), None);
        assert_eq!(closest_metric("pinned_h2d_gpbs"), Some("pinned_h2d_gbps"));
        assert_eq!(label("best_ms"), "best pipeline");
        assert_eq!(label("made_up"), "made_up");
    }

    #[test]
    fn a_simulated_run_is_on_the_model_clock_whatever_the_metric() {
        assert_eq!(Timing::Host.clock(TimingSource::Model), Clock::Model);
        assert_eq!(
            Timing::Device.clock(TimingSource::Cupti),
            Clock::DeviceCupti
        );
        assert_eq!(
            Timing::Device.clock(TimingSource::Events),
            Clock::DeviceEvents
        );
        assert_eq!(Timing::Host.clock(TimingSource::Cupti), Clock::HostWall);
        assert_eq!(Timing::Mixed.clock(TimingSource::Cupti), Clock::Mixed);
    }
}
