#![allow(clippy::unwrap_used, clippy::panic)]
use super::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::exercise::{Verdict, catalog};
use crate::gpu::detect::BackendChoice;

type Events = std::sync::mpsc::Receiver<WorkerEvent>;

fn spawn(runners: Runners) -> (Worker, Events) {
    let (tx, rx) = channel();
    let tx = Mutex::new(tx);
    let worker = Worker::spawn_with(BackendSpec::new(BackendChoice::Sim, 0), runners, move |e| {
        let _ = tx.lock().unwrap().send(e);
    })
    .unwrap();
    (worker, rx)
}

/// Events until (and with) the first one `last` picks.
fn until(rx: &Events, last: impl Fn(&WorkerEvent) -> bool) -> Vec<WorkerEvent> {
    let mut events = Vec::new();
    loop {
        let e = rx.recv_timeout(Duration::from_secs(120)).unwrap();
        let done = last(&e);
        events.push(e);
        if done {
            return events;
        }
    }
}

fn collect(runner: Runner, runs: u64) -> Vec<WorkerEvent> {
    let (mut worker, rx) = spawn(Runners {
        experiment: runner,
        ..Runners::default()
    });
    let mut events = Vec::new();
    for run_id in 1..=runs {
        worker
            .run(run_id, "async-copy", ExperimentOptions::default())
            .unwrap();
        events.extend(until(&rx, |e| matches!(e, WorkerEvent::Done { .. })));
    }
    events
}

#[test]
fn a_panic_in_an_experiment_is_a_failed_run_and_the_worker_goes_on() {
    fn boom(
        _: &str,
        _: &mut dyn Gpu,
        _: &ExperimentOptions,
        _: &RunContext,
    ) -> Result<Report, ExperimentError> {
        panic!("kernel exploded");
    }
    let events = collect(boom, 2);
    assert!(
        matches!(&events[0], WorkerEvent::Backend(Ok(_))),
        "{events:?}"
    );
    let failures: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            WorkerEvent::Done {
                result: Err(why), ..
            } => Some(why.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(failures.len(), 2, "{events:?}");
    assert!(
        failures[0].contains("crashed: kernel exploded"),
        "{failures:?}"
    );
    // The backend is reopened after a panic.
    let backends = events
        .iter()
        .filter(|e| matches!(e, WorkerEvent::Backend(_)))
        .count();
    assert_eq!(backends, 2);
}

#[test]
fn a_real_run_reports_phases_then_its_report() {
    let events = collect(|id, gpu, opts, ctx| experiment::run(id, gpu, opts, ctx), 1);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, WorkerEvent::Phase { run_id: 1, .. }))
    );
    match events.last() {
        Some(WorkerEvent::Done {
            run_id: 1,
            result: Ok(report),
        }) => {
            assert_eq!(report.experiment, "async-copy");
        }
        other => panic!("{other:?}"),
    }
}

fn verdict_of(event: &WorkerEvent) -> (&Verdict, bool) {
    match event {
        WorkerEvent::Checked {
            verdict, cancelled, ..
        } => (&verdict.0, *cancelled),
        other => panic!("not a verdict: {other:?}"),
    }
}

#[test]
fn a_check_runs_on_the_workers_backend_after_the_run_before_it() {
    let (mut worker, rx) = spawn(Runners::default());
    worker
        .run(1, "async-copy", ExperimentOptions::default())
        .unwrap();
    let id = "fix-the-race";
    let solution = catalog::find(id).unwrap().solution;
    worker.check(7, id, solution).unwrap();
    let events = until(&rx, |e| matches!(e, WorkerEvent::Checked { .. }));
    let done = events
        .iter()
        .position(|e| matches!(e, WorkerEvent::Done { run_id: 1, .. }))
        .expect("the run finished");
    let started = events
        .iter()
        .position(|e| *e == WorkerEvent::CheckStarted { check_id: 7 })
        .expect("the check said it started");
    assert!(done < started, "queued behind the run: {events:?}");
    let (verdict, cancelled) = verdict_of(events.last().unwrap());
    assert!(verdict.passed, "{:?}", verdict.checks);
    assert!(!cancelled);
    let backends = events
        .iter()
        .filter(|e| matches!(e, WorkerEvent::Backend(_)))
        .count();
    assert_eq!(backends, 1, "one backend for runs and checks");
}

#[test]
fn a_panic_in_a_check_is_a_failed_verdict_and_the_worker_goes_on() {
    fn boom(_: &str, _: &str, _: &mut dyn Gpu, _: &AtomicBool) -> Verdict {
        panic!("interpreter exploded");
    }
    let (mut worker, rx) = spawn(Runners {
        check: boom,
        ..Runners::default()
    });
    worker.check(1, "fix-the-race", "int main() {}").unwrap();
    let events = until(&rx, |e| matches!(e, WorkerEvent::Checked { .. }));
    let (verdict, _) = verdict_of(events.last().unwrap());
    assert!(!verdict.passed);
    assert!(
        verdict.checks[0]
            .detail
            .contains("crashed: interpreter exploded"),
        "{:?}",
        verdict.checks
    );
    worker
        .run(2, "async-copy", ExperimentOptions::default())
        .unwrap();
    let events = until(&rx, |e| matches!(e, WorkerEvent::Done { .. }));
    assert!(
        matches!(events.first(), Some(WorkerEvent::Backend(Ok(_)))),
        "the backend is reopened: {events:?}"
    );
    assert!(matches!(
        events.last(),
        Some(WorkerEvent::Done { result: Ok(_), .. })
    ));
}

#[test]
fn a_check_cancelled_while_it_runs_says_so() {
    // A check that waits for its cancel flag: cancelling is the only way it ends.
    fn waits(_: &str, _: &str, _: &mut dyn Gpu, cancel: &AtomicBool) -> Verdict {
        while !cancel.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(5));
        }
        failed_verdict("cancelled".into())
    }
    let (mut worker, rx) = spawn(Runners {
        check: waits,
        ..Runners::default()
    });
    worker.check(3, "fix-the-race", "").unwrap();
    until(&rx, |e| *e == WorkerEvent::CheckStarted { check_id: 3 });
    worker.cancel(); // an experiment cancel does not touch a check…
    worker.cancel_check(3); // …this does
    let events = until(&rx, |e| matches!(e, WorkerEvent::Checked { .. }));
    let (_, cancelled) = verdict_of(events.last().unwrap());
    assert!(cancelled);
}

/// The end-to-end tests' hook ([`super::hold`]): a held run stops at its first phase until it is
/// cancelled, then ends the way a cancelled run does. The runner goes straight from its first
/// phase to its second, so without the hold it reaches the second phase (and says it went on)
/// before the test can cancel it.
#[test]
fn a_held_run_waits_at_its_first_phase_until_cancelled() {
    fn two_phases(
        _: &str,
        _: &mut dyn Gpu,
        _: &ExperimentOptions,
        ctx: &RunContext,
    ) -> Result<Report, ExperimentError> {
        ctx.step("first")?;
        ctx.step("second")?;
        Err(ExperimentError::InvalidOption("went on uncancelled".into()))
    }
    let cancel = std::sync::Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel();
    let flag = std::sync::Arc::clone(&cancel);
    let run = std::thread::spawn(move || {
        let mut gpu = detect::open(&BackendSpec::new(BackendChoice::Sim, 0)).ok();
        let options = ExperimentOptions::default();
        let job = jobs::RunJob {
            run_id: 9,
            experiment: "async-copy",
            options: &options,
            hold: true,
        };
        let emit = move |e| {
            let _ = tx.send(e);
        };
        job.serve(two_phases, gpu.as_mut(), &flag, &emit)
    });
    let first = until(&rx, |e| matches!(e, WorkerEvent::Phase { .. }));
    assert_eq!(first.len(), 1, "{first:?}");
    cancel.store(true, Ordering::Relaxed);
    let rest = until(&rx, |e| matches!(e, WorkerEvent::Done { .. }));
    assert!(!run.join().unwrap(), "the run did not panic");
    assert_eq!(
        rest,
        vec![WorkerEvent::Done {
            run_id: 9,
            result: Err(ExperimentError::Cancelled.to_string()),
        }],
        "held at its first phase, then cancelled"
    );
}
