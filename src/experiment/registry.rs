//! The experiment registry: the one place that says which experiments exist and, for each, its
//! id, title, parameters, metrics (name, unit, label, clock), chart and run function.
//!
//! Each experiment declares its [`ExperimentSpec`] (`spec.rs`) as `SPEC` in its own file; [`ALL`] lists them
//! in lesson order. Everything else reads this: `experiment::run`'s dispatch, option validation,
//! the CLI's value parser and completions, `check` (lesson references), the panel's views and
//! labels, and the parameter form. Adding an experiment is its file plus one line in [`ALL`].

use super::{
    alternatives, async_copy, batched_copies, default_stream, pageable_vs_pinned, pinned_alloc,
    pipeline,
};
// The declaration types live in `spec.rs`, which every experiment file reads; this file is only
// the list (and the look-ups over it), so the list importing each experiment makes no circle.
pub use super::spec::{
    Chart, ExperimentSpec, MetricSpec, Param, RunFn, RunWords, Timing, this_run,
};
use crate::report::Report;

/// Every experiment, in lesson order.
pub const ALL: [&ExperimentSpec; 7] = [
    &pageable_vs_pinned::SPEC,
    &pinned_alloc::SPEC,
    &async_copy::SPEC,
    &default_stream::SPEC,
    &batched_copies::SPEC,
    &alternatives::SPEC,
    &pipeline::SPEC,
];

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

/// What `report`'s experiment says of it beyond its metrics ([`RunWords`]): nothing for a
/// report of no registered experiment.
pub fn words(report: &Report) -> RunWords {
    find(&report.experiment).map_or(RunWords::NONE, |spec| spec.words)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Clock, TimingSource};

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
