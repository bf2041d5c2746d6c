//! The experiment worker: one thread that owns the GPU backend and runs experiments for the TUI,
//! so the UI thread never blocks on CUDA (opening a context, NVRTC compiles, long runs).
//!
//! The backend is opened on the worker thread (a CUDA context is bound to the thread that uses
//! it), once, at spawn; the first event says which backend runs and why. Each run reports its
//! phases and then its result. A panic inside an experiment is caught and reported as a failed
//! run, and the backend is reopened for the next run, because a panic may have left it half-way
//! through a sequence of driver calls.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

use crate::experiment::{self, ExperimentError, ExperimentOptions, RunContext};
use crate::gpu::detect::BackendSpec;
use crate::gpu::{DeviceInfo, Gpu, detect};
use crate::report::Report;

/// The worker thread's name. The TUI's panic hook checks it: a panic there is caught and shown
/// in the panel, so the hook must not restore the terminal or print over the screen.
pub const THREAD_NAME: &str = "experiment-worker";

/// What the worker tells the UI.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerEvent {
    /// The backend that runs experiments (or why none could be opened).
    Backend(Result<DeviceInfo, String>),
    /// Run `run_id` entered a new phase.
    Phase { run_id: u64, text: String },
    /// Run `run_id` finished.
    Done {
        run_id: u64,
        result: Result<Box<Report>, String>,
    },
}

/// How the worker runs one experiment (`experiment::run`; tests pass one that fails or panics).
pub type Runner =
    fn(&str, &mut dyn Gpu, &ExperimentOptions, &RunContext) -> Result<Report, ExperimentError>;

enum Request {
    Run {
        run_id: u64,
        experiment: String,
        options: ExperimentOptions,
    },
}

/// Handle to the worker thread. Dropping it stops the thread after the current run.
pub struct Worker {
    requests: Option<Sender<Request>>,
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Start the worker; `emit` receives every [`WorkerEvent`] (it is called on the worker thread).
    pub fn spawn(
        backend: BackendSpec,
        emit: impl Fn(WorkerEvent) + Send + 'static,
    ) -> std::io::Result<Worker> {
        Self::spawn_with(
            backend,
            |id, gpu, opts, ctx| experiment::run(id, gpu, opts, ctx),
            emit,
        )
    }

    /// [`Worker::spawn`] with another way to run experiments (for tests of failures and panics).
    pub fn spawn_with(
        backend: BackendSpec,
        runner: Runner,
        emit: impl Fn(WorkerEvent) + Send + 'static,
    ) -> std::io::Result<Worker> {
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let thread = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || serve(&backend, runner, &rx, &flag, &emit))?;
        Ok(Worker {
            requests: Some(tx),
            cancel,
            thread: Some(thread),
        })
    }

    /// Queue run `run_id` (the caller numbers runs; [`WorkerEvent`]s carry the id back).
    pub fn run(
        &mut self,
        run_id: u64,
        experiment: &str,
        options: ExperimentOptions,
    ) -> Result<(), String> {
        self.cancel.store(false, Ordering::Relaxed);
        let request = Request::Run {
            run_id,
            experiment: experiment.to_string(),
            options,
        };
        let sent = self.requests.as_ref().map(|tx| tx.send(request).is_ok());
        match sent {
            Some(true) => Ok(()),
            _ => Err("the experiment worker has stopped; restart cuda-academy".to_string()),
        }
    }

    /// Ask the running experiment to stop at its next step.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        // Closing the channel ends the loop; do not join: a long GPU call must not hold up quit.
        self.requests.take();
        self.thread.take();
    }
}

fn serve(
    spec: &BackendSpec,
    runner: Runner,
    requests: &Receiver<Request>,
    cancel: &AtomicBool,
    emit: &dyn Fn(WorkerEvent),
) {
    let mut gpu = open(spec, emit);
    while let Ok(Request::Run {
        run_id,
        experiment,
        options,
    }) = requests.recv()
    {
        if gpu.is_none() {
            gpu = open(spec, emit);
        }
        let Some(backend) = gpu.as_mut() else {
            let result = Err("no backend could be opened (see the status bar)".to_string());
            emit(WorkerEvent::Done { run_id, result });
            continue;
        };
        let progress = |text: &str| {
            emit(WorkerEvent::Phase {
                run_id,
                text: text.to_string(),
            })
        };
        let ctx = RunContext {
            cancel,
            progress: &progress,
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            runner(&experiment, backend.as_mut(), &options, &ctx)
        }));
        let result = match outcome {
            Ok(Ok(report)) => Ok(Box::new(report)),
            Ok(Err(err)) => Err(err.to_string()),
            Err(panic) => {
                gpu = None;
                Err(format!("the experiment crashed: {}", panic_message(&panic)))
            }
        };
        emit(WorkerEvent::Done { run_id, result });
    }
}

fn open(spec: &BackendSpec, emit: &dyn Fn(WorkerEvent)) -> Option<Box<dyn Gpu + Send>> {
    match detect::open(spec) {
        Ok(gpu) => {
            emit(WorkerEvent::Backend(Ok(gpu.info().clone())));
            Some(gpu)
        }
        Err(err) => {
            emit(WorkerEvent::Backend(Err(err.to_string())));
            None
        }
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;
    use std::sync::Mutex;
    use std::time::Duration;

    fn collect(runner: Runner, runs: u64) -> Vec<WorkerEvent> {
        let (tx, rx) = channel();
        let tx = Mutex::new(tx);
        let sim = BackendSpec::new(crate::gpu::detect::BackendChoice::Sim, 0);
        let mut worker = Worker::spawn_with(sim, runner, move |e| {
            let _ = tx.lock().unwrap().send(e);
        })
        .unwrap();
        let mut events = Vec::new();
        for run_id in 1..=runs {
            worker
                .run(run_id, "async-copy", ExperimentOptions::default())
                .unwrap();
            loop {
                let e = rx.recv_timeout(Duration::from_secs(60)).unwrap();
                let done = matches!(e, WorkerEvent::Done { .. });
                events.push(e);
                if done {
                    break;
                }
            }
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
}
