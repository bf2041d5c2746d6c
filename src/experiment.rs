//! The experiments that prove each lesson's claims, written once against [`crate::gpu::Gpu`], so
//! they run unchanged on the real GPU and on the simulator.
//!
//! Which experiments exist, with their ids (a contract: CLI, lesson front matter, JSON),
//! parameters, metrics and charts, is declared once, in [`registry`]. Each experiment lives in
//! its own file and declares its `SPEC` there; the shared pieces are options
//! and validation ([`options`]), statistics ([`stats`]), size sweeps ([`sweep`]), data checks
//! ([`verify`]), resource and host-lane bookkeeping ([`session`]) and cancellation ([`context`]).

use crate::gpu::{Gpu, GpuError};
use crate::report::{Params, Report, SCHEMA_VERSION};

pub mod alternatives;
pub mod async_copy;
pub mod batched_copies;
pub mod calibrate;
pub mod context;
pub mod default_stream;
pub mod fit;
pub mod measure;
pub mod metrics;
pub mod options;
pub mod pageable_vs_pinned;
pub mod pinned_alloc;
pub mod pipeline;
pub mod registry;
pub mod session;
pub mod spec;
pub mod stats;
pub mod sweep;
pub mod validate;
pub mod verify;

pub use context::RunContext;
pub use options::{ExperimentOptions, IssueOrder, parse_size};

/// Why an experiment did not produce a report.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExperimentError {
    #[error(
        "unknown experiment `{id}`; valid experiments: {}",
        registry::ids().collect::<Vec<_>>().join(", ")
    )]
    UnknownExperiment { id: String },
    #[error("{0}")]
    InvalidOption(String),
    #[error(
        "--size {asked} needs {needed} of {what} memory, but only {free} is free; the largest \
         size that fits is --size {fits}"
    )]
    TooLarge {
        what: &'static str,
        asked: String,
        needed: String,
        free: String,
        fits: String,
    },
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error("the experiment was cancelled")]
    Cancelled,
}

/// Run experiment `id` on `gpu`: validate the options, run, and return the report.
pub fn run(
    id: &str,
    gpu: &mut dyn Gpu,
    opts: &ExperimentOptions,
    ctx: &RunContext,
) -> Result<Report, ExperimentError> {
    let spec = registry::find(id)
        .ok_or_else(|| ExperimentError::UnknownExperiment { id: id.to_string() })?;
    opts.validate(spec)?;
    let result = (spec.run)(gpu, opts, ctx);
    gpu.run_finished();
    // A cancel flag seen by the backend comes back as a GPU error; report it as one thing.
    match result {
        Err(ExperimentError::Gpu(GpuError::Cancelled)) => Err(ExperimentError::Cancelled),
        Ok(mut report) => {
            renumber_streams(&mut report);
            spec.stamp_clocks(&mut report);
            explain_bandwidths(&*gpu, &mut report);
            Ok(report)
        }
        other => other,
    }
}

/// "Explain my number": the backend's notes on the link under the report's GB/s figures (their
/// share of its per-direction limit, a link below its maximum, NUMA placement), shown with the
/// other notes in `run`'s table and the TUI's results.
fn explain_bandwidths(gpu: &dyn Gpu, report: &mut Report) {
    let gbps: Vec<(&str, f64)> = report
        .metrics
        .iter()
        .filter(|(_, m)| m.unit == metrics::GBPS && m.value.is_finite())
        .map(|(name, m)| (name.as_str(), m.value))
        .collect();
    let notes = gpu.bandwidth_notes(&gbps);
    report.notes.extend(notes);
}

/// Number the streams of a report 1, 2, 3, ... in the order the backend created them (the
/// legacy default stream stays 0). Backends number streams per process (the real one also
/// creates streams of its own to warm up), so without this the same experiment would show
/// `stream 4` on one run and `stream 9` on the next.
pub fn renumber_streams(report: &mut Report) {
    let mut ids: Vec<u32> = std::iter::once(&report.timeline)
        .chain(report.other_timelines.iter().map(|t| &t.ops))
        .flatten()
        .map(|op| op.stream)
        .filter(|&s| s != 0)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let new_id = |old: u32| match ids.binary_search(&old) {
        Ok(i) if old != 0 => i as u32 + 1,
        _ => old,
    };
    let timelines = std::iter::once(&mut report.timeline)
        .chain(report.other_timelines.iter_mut().map(|t| &mut t.ops));
    for op in timelines.flatten() {
        op.stream = new_id(op.stream);
    }
}

/// The size a run uses (`requested`, or `default` halved until `need` fits in the free device
/// and host memory) and its empty report with that size, noting any clamping.
pub(crate) fn sized_report(
    id: &str,
    gpu: &dyn Gpu,
    requested: Option<u64>,
    default: u64,
    need: fit::Need,
) -> Result<(u64, Report), ExperimentError> {
    let (size, note) = fit::fit_size(requested, default, need, fit::Free::of(gpu.info()))?;
    let mut report = new_report(
        id,
        gpu,
        Params {
            size,
            ..Params::default()
        },
    );
    report.notes.extend(note);
    Ok((size, report))
}

/// An empty report for `id` on `gpu`'s backend with `params`.
pub(crate) fn new_report(id: &str, gpu: &dyn Gpu, params: Params) -> Report {
    Report {
        schema_version: SCHEMA_VERSION,
        experiment: id.to_string(),
        backend: gpu.info().backend.clone(),
        params,
        metrics: Default::default(),
        timeline: Vec::new(),
        other_timelines: Vec::new(),
        series: Vec::new(),
        checks: Vec::new(),
        notes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{BackendInfo, BackendKind, NamedTimeline, Op, OpKind, TimingSource};

    fn op(stream: u32) -> Op {
        Op {
            stream,
            kind: OpKind::H2d,
            start_us: 0.0,
            end_us: 1.0,
            bytes: 4,
            host_mem: None,
            engine: None,
            start_inferred: false,
            line: None,
            label: String::new(),
        }
    }

    #[test]
    fn streams_are_numbered_from_one_in_creation_order_across_timelines() {
        let backend = BackendInfo {
            kind: BackendKind::Cuda,
            device: "d".into(),
            profile: None,
            reason: None,
            timing: TimingSource::Cupti,
        };
        let mut r = Report {
            schema_version: SCHEMA_VERSION,
            experiment: "pipeline".into(),
            backend,
            params: Params::default(),
            metrics: Default::default(),
            timeline: vec![op(9), op(0), op(7)],
            other_timelines: vec![NamedTimeline {
                name: "sequential".into(),
                ops: vec![op(4), op(7)],
            }],
            series: Vec::new(),
            checks: Vec::new(),
            notes: Vec::new(),
        };
        renumber_streams(&mut r);
        let streams: Vec<u32> = r.timeline.iter().map(|o| o.stream).collect();
        assert_eq!(streams, [3, 0, 2]);
        let seq: Vec<u32> = r.other_timelines[0].ops.iter().map(|o| o.stream).collect();
        assert_eq!(seq, [1, 2]);
    }
}
