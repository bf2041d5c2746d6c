//! Grading: parse the learner's file, run it, check it for hazards, and hold the run against the
//! exercise's criteria. Criteria read what the program did (its `check_output` results, its
//! reported metrics, its hazards, its call log and timeline), never its text; a reported
//! metric is held to what the timeline measured where a criterion says which ops it times. Criteria that compare with "this machine"
//! run the exercise's solution on the same machine in the same process as the reference.

mod behaviour;
mod bracket;
mod criteria;
mod devmem;
mod ending;
mod errcheck;
mod facts;
mod passes;
mod pins;
mod poll;
mod repeats;
mod reported;
mod ring;
mod staging;
#[cfg(test)]
mod tests;
mod timed;
mod work;

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::Exercise;
use super::hazards::{self, Hazard, HazardKind};
use super::interp::{self, Halt, Halted, Limits};
use super::metrics::{self, ReportedMetric};
use super::{Diagnostic, parse};
use crate::gpu::Gpu;
use crate::report::Op;
pub use criteria::Criterion;
use criteria::grade;
use poll::Poll;

/// One graded criterion.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckResult {
    pub name: String,
    pub passed: bool,
    pub detail: String,
}

/// Everything a check found.
#[derive(Debug, Clone, Default)]
pub struct Verdict {
    pub passed: bool,
    pub checks: Vec<CheckResult>,
    pub diagnostics: Vec<Diagnostic>,
    pub hazards: Vec<Hazard>,
    /// What the program reported, with units (see [`super::metrics`]).
    pub metrics: BTreeMap<String, ReportedMetric>,
    /// The device ops, then the host lane's calls (`interp::Outcome::host_calls`).
    pub timeline: Vec<Op>,
    pub output: String,
    /// The check was cancelled before it finished: nothing was graded.
    pub cancelled: bool,
}

impl Verdict {
    /// One line: passed, or the first thing that failed.
    pub fn summary(&self, id: &str) -> String {
        if self.cancelled {
            return format!("{id}: cancelled before the check finished");
        }
        if self.passed {
            return format!("{id}: passed ({} checks)", self.checks.len());
        }
        let failed = self.checks.iter().filter(|c| !c.passed).count();
        format!(
            "{id}: not yet: {failed} of {} checks failed",
            self.checks.len()
        )
    }
}

/// Check `source` against `ex` on `gpu` (the live GPU or the simulator; one that has already run
/// experiments is fine: everything a run creates is released before it returns).
pub fn check(
    ex: &Exercise,
    source: &str,
    gpu: &mut dyn Gpu,
    limits: Limits,
    cancel: &AtomicBool,
) -> Verdict {
    // One deadline for every phase: the run, the hazard search, the reference run, grading.
    let halt = Halt::new(cancel, limits.max_wall);
    let mut v = Verdict::default();
    // The parse polls the same halt, and refuses a text tree-sitter might not fit in memory.
    let program = match parse::parse_within(source, halt) {
        Ok(p) => p,
        Err(parse::NotParsed::Halted(Halted::Cancelled)) => {
            return cancelled(v, "cancelled while the file was parsed".into());
        }
        Err(parse::NotParsed::Halted(why)) => {
            return stopped(v, why, "while the file was parsed");
        }
        Err(parse::NotParsed::Problems(diags)) => {
            v.checks.push(failed(
                "parses",
                format!(
                    "{} problem(s) in the file, first: {}",
                    diags.len(),
                    diags[0]
                ),
            ));
            v.diagnostics = diags;
            return v;
        }
    };
    let outcome = interp::run_within(&program, gpu, limits, halt);
    v.metrics = metrics::describe(&outcome.metrics, gpu.info().backend.timing);
    let ops: Vec<Op> = outcome
        .timeline
        .iter()
        .chain(&outcome.host_calls)
        .cloned()
        .collect();
    v.timeline = numbered_streams(&outcome.log, &ops);
    v.output = outcome.output.clone();
    if outcome.cancelled {
        let line = outcome.error.as_ref().map_or(1, |e| e.line);
        return cancelled(v, format!("cancelled at line {line} before it finished"));
    }
    // Calls that returned an error code: the run went on, and the learner should know.
    v.diagnostics.extend(
        outcome
            .cuda_errors
            .iter()
            .map(|e| Diagnostic::at(e.line, 1, e.to_string())),
    );
    if let Some(err) = &outcome.error {
        v.checks.push(failed("runs to the end", err.to_string()));
        v.diagnostics.push(err.clone());
        // What the program did up to the stop may explain it (an elapsed time asked of an
        // event still pending); leaks are beside the point in a run that stopped early.
        match hazards(&outcome, ex, halt) {
            Ok(found) => v.hazards = found,
            Err(Halted::Cancelled) => return cancelled(v, HAZARDS_CANCELLED.into()),
            // The run's own stop is the message; the search for its hazards was cut short.
            Err(Halted::OutOfTime(_) | Halted::OutOfMemory(_)) => {}
        }
        v.hazards.retain(|h| h.kind != HazardKind::Leak);
        return v;
    }
    // The exit status: a non-zero one fails here, and the criteria still judge what ran.
    v.checks.push(ending::ended(&outcome));
    match hazards(&outcome, ex, halt) {
        Ok(found) => v.hazards = found,
        Err(Halted::Cancelled) => return cancelled(v, HAZARDS_CANCELLED.into()),
        Err(why @ (Halted::OutOfTime(_) | Halted::OutOfMemory(_))) => {
            return stopped(v, why, "while the run was checked for hazards");
        }
    }
    // Each reference program the criteria name runs once: this exercise's solution, or
    // another exercise's (`None` and `Some(id)`).
    let mut references: Vec<(Option<&str>, Result<ReferenceRun, String>)> = Vec::new();
    for want in ex.criteria.iter().filter_map(Criterion::reference) {
        if !references.iter().any(|(id, _)| *id == want) {
            references.push((want, reference_run(ex, want, gpu, limits, halt)));
        }
    }
    let ops = facts::device_ops(&outcome);
    // Grading looks at the stop between criteria and inside the long ones (review 2026-12-01b
    // CK5, ED6): a stop there ends the check as one in the run would.
    let poll = Poll::new(halt);
    for c in &ex.criteria {
        if poll.look().is_err() {
            break;
        }
        let reference = c
            .reference()
            .and_then(|want| references.iter().find(|(id, _)| *id == want))
            .map(|(_, r)| r);
        let run = criteria::Run {
            out: &outcome,
            ops: &ops,
            hazards: &v.hazards,
            program: &program,
        };
        let graded = grade(c, &run, reference, &poll);
        if poll.stopped().is_some() {
            break;
        }
        v.checks.push(graded);
    }
    match poll.stopped().or_else(|| halt.halted()) {
        // Cancelled during the reference run: its figures are missing, so grade nothing.
        Some(Halted::Cancelled) => {
            return cancelled(
                v,
                "cancelled while the reference solution ran or the run was graded".into(),
            );
        }
        Some(why @ (Halted::OutOfTime(_) | Halted::OutOfMemory(_))) => {
            return stopped(
                v,
                why,
                "while the reference solution ran or the run was graded",
            );
        }
        None => {}
    }
    v.passed = v.checks.iter().all(|c| c.passed);
    v
}

/// Grade one criterion on a run that did not come from the interpreter (a traced native run,
/// `exercise::native`), with the same graders; `reference` is the reference program's run when
/// the criterion names one (then also traced natively), or why there is none.
pub(crate) fn grade_run(
    c: &Criterion,
    out: &interp::Outcome,
    found: &[Hazard],
    program: &super::ast::Program,
    reference: Option<Result<&interp::Outcome, String>>,
) -> CheckResult {
    static NEVER: AtomicBool = AtomicBool::new(false);
    let poll = Poll::new(Halt::cancel_only(&NEVER));
    let reference = reference.map(|r| {
        r.map(|o| ReferenceRun {
            metrics: o.metrics.clone(),
            work: work::of(o, &facts::device_ops(o)),
        })
    });
    let ops = facts::device_ops(out);
    let run = criteria::Run {
        out,
        ops: &ops,
        hazards: found,
        program,
    };
    grade(c, &run, reference.as_ref(), &poll)
}

/// What a reference program (an exercise's solution) did in this check: the figures it
/// reported and its work (`verdict/work.rs`).
#[derive(Debug, Clone)]
pub(crate) struct ReferenceRun {
    pub metrics: BTreeMap<String, f64>,
    pub work: work::Work,
}

const HAZARDS_CANCELLED: &str = "cancelled while the run was checked for hazards";

/// The run's hazards, or why `halt` stopped the search.
fn hazards(outcome: &interp::Outcome, ex: &Exercise, halt: Halt) -> Result<Vec<Hazard>, Halted> {
    hazards::check_within(&outcome.log, &outcome.region_names, ex.overlap, halt)
}

/// `v` stopped by the wall-clock limit or the memory budget (`why`) in a phase after the run
/// (`when`): one failed check and a diagnostic saying so, nothing graded.
fn stopped(mut v: Verdict, why: Halted, when: &str) -> Verdict {
    let message = format!("{} ({when})", why.message());
    v.passed = false;
    v.hazards.clear();
    v.checks = vec![failed("runs to the end", message.clone())];
    v.diagnostics.push(Diagnostic::at(1, 1, message));
    v
}

/// `v` as a cancelled check: one failed check saying so, nothing graded.
fn cancelled(mut v: Verdict, what: String) -> Verdict {
    v.cancelled = true;
    v.passed = false;
    v.hazards.clear();
    v.checks = vec![failed(
        "runs to the end",
        format!("{what}; nothing was graded"),
    )];
    v
}

/// The solution (of exercise `other` when given), run on the same backend: what "this
/// machine" reaches.
fn reference_run(
    ex: &Exercise,
    other: Option<&str>,
    gpu: &mut dyn Gpu,
    limits: Limits,
    halt: Halt,
) -> Result<ReferenceRun, String> {
    let solution = match other {
        None => ex.solution,
        Some(id) => {
            ex.reference_solutions
                .iter()
                .find(|(r, _)| r == id)
                .ok_or_else(|| format!("the reference exercise `{id}` is not in this build"))?
                .1
        }
    };
    let program = parse::parse_within(solution, halt).map_err(|e| match e {
        parse::NotParsed::Problems(d) => format!("the reference solution does not parse: {}", d[0]),
        // The check's own stop, which `check` reports once grading is cut short.
        parse::NotParsed::Halted(h) => h.message(),
    })?;
    let out = interp::run_within(&program, gpu, limits, halt);
    match out.error {
        Some(e) => Err(format!(
            "the reference run (the exercise's solution) failed: {e}"
        )),
        None => {
            let work = work::of(&out, &facts::device_ops(&out));
            Ok(ReferenceRun {
                metrics: out.metrics,
                work,
            })
        }
    }
}

fn failed(name: &str, detail: String) -> CheckResult {
    CheckResult {
        name: name.into(),
        passed: false,
        detail,
    }
}

/// The timeline with its streams numbered from 1 in the order the program created them (the
/// legacy default stream stays 0), as the hazard messages number them: the backend's own ids
/// run on across checks ("stream 7", then "stream 23").
fn numbered_streams(log: &[super::log::Entry], ops: &[Op]) -> Vec<Op> {
    let mut numbers = std::collections::HashMap::new();
    for e in log {
        if let super::log::Call::StreamCreate { stream, .. }
        | super::log::Call::PerThreadStream { stream } = &e.call
        {
            let n = numbers.len() as u32 + 1;
            numbers.entry(stream.0).or_insert(n);
        }
    }
    ops.iter()
        .map(|op| Op {
            stream: numbers.get(&op.stream).copied().unwrap_or(op.stream),
            ..op.clone()
        })
        .collect()
}
