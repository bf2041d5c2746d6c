//! What a saved run keeps besides its metrics, so the experiment panel can show the last run
//! after a relaunch ([`RunDetail`]): the checks, notes and chart series, and the timelines where
//! they fit in [`DETAIL_CAP`] bytes. Timelines can be large (a 128-chunk pipeline records
//! hundreds of operations per run), so they are kept greedily, headline first, and the ones left
//! out are named (the panel says so). Files written before this field existed have none: such a
//! run quotes its metrics as before and the panel shows them without checks.

use serde::{Deserialize, Serialize};

use super::{RunSource, SavedRun};
use crate::report::{
    BackendInfo, BackendKind, Check, NamedTimeline, Op, Report, Series, TimingSource,
};

/// Most bytes (compact JSON) the detail of one saved run may take: the progress file keeps one
/// run per experiment, so the file stays under a few hundred KiB whatever the runs recorded.
pub const DETAIL_CAP: usize = 96 << 10;

/// The name [`RunDetail::left_out`] gives the headline timeline.
pub const HEADLINE: &str = "timeline";

/// See the module docs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunDetail {
    /// The report format the run was made with.
    pub schema_version: u32,
    /// Simulator only: the profile's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Where the timeline's device times came from.
    pub timing: TimingSource,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<Check>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<Series>,
    /// The headline timeline, when it fitted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeline: Vec<Op>,
    /// The other timelines that fitted, in the report's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_timelines: Vec<NamedTimeline>,
    /// What the run had and the file does not keep ([`HEADLINE`], other timelines' names, or
    /// `series`), to say so on screen.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
}

/// A saved detail, or `None` when it does not parse (a newer version wrote a kind of run this
/// build does not know): only the detail is lost, never the progress file.
pub(super) fn lenient<'de, D>(deserializer: D) -> Result<Option<RunDetail>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).ok())
}

fn json_len<T: Serialize>(value: &T) -> usize {
    serde_json::to_vec(value).map_or(usize::MAX, |v| v.len())
}

impl SavedRun {
    /// A run to save from `report`, completed at `at` (ms since the epoch): its metrics, and
    /// the detail that fits in [`DETAIL_CAP`].
    pub fn from_report(report: &Report, at: u64) -> SavedRun {
        SavedRun {
            at,
            source: RunSource {
                experiment: report.experiment.clone(),
                backend: report.backend.kind,
                device: report.backend.device.clone(),
                params: report.params.clone(),
            },
            metrics: report.metrics.clone(),
            detail: Some(RunDetail::bounded(report, DETAIL_CAP)),
        }
    }

    /// The report this run can still show: metrics, and the checks, notes, series and timelines
    /// its detail kept. A run saved without detail (a file from before it was kept) gives its
    /// metrics alone; its timing source is then unknown and set from the backend kind (the
    /// simulator models every figure; a GPU run says events), so check [`SavedRun::detail`]
    /// before showing it.
    pub fn report(&self) -> Report {
        let empty = RunDetail {
            schema_version: crate::report::SCHEMA_VERSION,
            profile: None,
            timing: match self.source.backend {
                BackendKind::Simulated => TimingSource::Model,
                BackendKind::Cuda => TimingSource::Events,
            },
            checks: Vec::new(),
            notes: Vec::new(),
            series: Vec::new(),
            timeline: Vec::new(),
            other_timelines: Vec::new(),
            left_out: Vec::new(),
        };
        let detail = self.detail.clone().unwrap_or(empty);
        let report = Report {
            schema_version: detail.schema_version,
            experiment: self.source.experiment.clone(),
            backend: BackendInfo {
                kind: self.source.backend,
                device: self.source.device.clone(),
                profile: detail.profile,
                reason: None,
                timing: detail.timing,
            },
            params: self.source.params.clone(),
            metrics: self.metrics.clone(),
            timeline: detail.timeline,
            other_timelines: detail.other_timelines,
            series: detail.series,
            checks: detail.checks,
            notes: detail.notes,
        };
        cleaned(report)
    }
}

/// `report` with every text it holds through the sanitiser: it was read from a file that
/// anyone can edit, and the panel puts these texts on the terminal.
fn cleaned(mut r: Report) -> Report {
    let clean = |t: &mut String| *t = crate::sanitize::clean(t).into_owned();
    clean(&mut r.experiment);
    clean(&mut r.backend.device);
    r.backend.profile.iter_mut().for_each(clean);
    r.params.extra.values_mut().for_each(clean);
    r.metrics = std::mem::take(&mut r.metrics)
        .into_iter()
        .map(|(mut name, mut m)| {
            clean(&mut name);
            clean(&mut m.unit);
            (name, m)
        })
        .collect();
    let ops = r
        .timeline
        .iter_mut()
        .chain(r.other_timelines.iter_mut().flat_map(|t| t.ops.iter_mut()));
    ops.for_each(|op| clean(&mut op.label));
    r.other_timelines
        .iter_mut()
        .for_each(|t| clean(&mut t.name));
    for series in &mut r.series {
        clean(&mut series.name);
        clean(&mut series.x_unit);
        clean(&mut series.y_unit);
    }
    for check in &mut r.checks {
        clean(&mut check.name);
        clean(&mut check.detail);
    }
    r.notes.iter_mut().for_each(clean);
    r
}

impl RunDetail {
    /// `report`'s detail in at most `cap` bytes: checks and notes always (a few hundred bytes),
    /// the series when they fit, then the headline timeline and each other timeline in turn
    /// while they fit; what does not is named in `left_out`.
    pub fn bounded(report: &Report, cap: usize) -> RunDetail {
        let mut detail = RunDetail {
            schema_version: report.schema_version,
            profile: report.backend.profile.clone(),
            timing: report.backend.timing,
            checks: report.checks.clone(),
            notes: report.notes.clone(),
            series: Vec::new(),
            timeline: Vec::new(),
            other_timelines: Vec::new(),
            left_out: Vec::new(),
        };
        // Names left out are counted with a margin: each adds its own bytes to the list.
        let mut used = json_len(&detail);
        let mut take = |bytes: usize, name: &str, left_out: &mut Vec<String>| -> bool {
            let fits = used.saturating_add(bytes) <= cap;
            if fits {
                used += bytes;
            } else {
                left_out.push(name.to_string());
                used = used.saturating_add(name.len() + 3);
            }
            fits
        };
        if !report.series.is_empty()
            && take(json_len(&report.series), "series", &mut detail.left_out)
        {
            detail.series = report.series.clone();
        }
        if !report.timeline.is_empty()
            && take(json_len(&report.timeline), HEADLINE, &mut detail.left_out)
        {
            detail.timeline = report.timeline.clone();
        }
        // Another timeline is drawn against the headline one: without it, none is kept.
        for other in &report.other_timelines {
            if detail.timeline.is_empty() {
                detail.left_out.push(other.name.clone());
            } else if take(json_len(other), &other.name, &mut detail.left_out) {
                detail.other_timelines.push(other.clone());
            }
        }
        detail
    }

    /// Whether the headline timeline was left out of the file.
    pub fn timeline_left_out(&self) -> bool {
        self.left_out.iter().any(|n| n == HEADLINE)
    }
}

#[cfg(test)]
#[path = "detail_tests.rs"]
mod tests;
