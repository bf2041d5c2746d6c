//! The `median-of-timed-copies` criterion: a figure measured the way lesson 1 ("Timing a copy
//! honestly") says to: one warm-up copy first, then `count` copies, each between its own pair of
//! events whose elapsed time the program read, and the figure agrees with the median of what
//! the timeline measured for those copies.
//!
//! Why not compare with a reference run: one copy varies from run to run by more than any
//! tolerance that still means something (pageable uploads on the H200 read 6.7 to 9 GB/s), so a
//! reference of one cold sample can fail a program that measures better than it. Holding the
//! figure to this run's own copies fails hard-coded and copied figures on every machine and
//! passes an honest median on any link.

use std::collections::HashSet;

use super::bracket::{self, Bracketed};
use super::facts::{DevOp, Direction, Memory};
use super::poll::Poll;
use super::timed;
use crate::exercise::interp::Outcome;
use crate::units::format_bytes;

/// Which copies are timed and how many samples the figure needs.
#[derive(Debug, Clone, Copy)]
pub struct Timed {
    pub direction: Direction,
    pub memory: Memory,
    pub min_bytes: u64,
    pub count: u32,
}

/// `metric` is the median of at least `t.count` event-timed copies after a warm-up copy.
pub(super) fn median_of_timed_copies(
    out: &Outcome,
    ops: &[DevOp<'_>],
    metric: &str,
    t: Timed,
    tol_pct: f64,
    poll: &Poll,
) -> Result<String, String> {
    let x = timed::reported(out, metric)?;
    let what = format!(
        "{} copies from {} memory of {} or more",
        t.direction.name(),
        t.memory.name(),
        format_bytes(t.min_bytes)
    );
    // The warm-up: the first such copy, timed or not, never counts as a sample.
    let Some(warm_up) = ops.iter().find(|o| o.is_copy(t.direction, Some(t.memory))) else {
        return Err(format!("the program makes no {what}"));
    };
    let samples = samples(out, ops, metric, t, warm_up.idx, poll)?;
    if samples.len() < t.count as usize {
        return Err(format!(
            "{} of the {what} were timed by their own pair of events after the first (the warm-up), needs {}: copy once untimed, then time each of {} copies between a `cudaEventRecord` before and one after it, and report the median",
            samples.len(),
            t.count,
            t.count
        ));
    }
    let m = median(&samples);
    timed::agrees(
        metric,
        x,
        m,
        tol_pct,
        &format!("the median of the {} event-timed copies", samples.len()),
    )
}

/// What the timeline measured, in `metric`'s unit, for each event pair that brackets copies of
/// `t`'s kind (and not the warm-up at log index `warm_up`) and whose elapsed time was read.
fn samples(
    out: &Outcome,
    ops: &[DevOp<'_>],
    metric: &str,
    t: Timed,
    warm_up: usize,
    poll: &Poll,
) -> Result<Vec<f64>, String> {
    let index = Bracketed::new(ops, t.direction, Some(t.memory));
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    let mut found = Vec::new();
    for p in bracket::timed_pairs(out, poll)? {
        poll.tick()?;
        if !seen.insert((p.start, p.end)) || (p.start < warm_up && warm_up < p.end) {
            continue;
        }
        let inside = index.inside(&p);
        if inside.bytes < t.min_bytes {
            continue;
        }
        let (s, e) = inside
            .span
            .ok_or("the timed copies were not on the timeline")?;
        found.push(timed::in_unit(metric, e - s, inside.bytes)?);
    }
    Ok(found)
}

/// The median (the mean of the middle two for an even count); `v` is not empty.
fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let mid = s.len() / 2;
    if s.len() % 2 == 1 {
        s[mid]
    } else {
        (s[mid - 1] + s[mid]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }
}
