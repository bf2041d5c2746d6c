//! The experiment worker: one thread that owns the GPU backend and runs experiments and exercise
//! checks for the TUI, one at a time, so the UI thread never blocks on CUDA (opening a context,
//! NVRTC compiles, long runs) and there is one CUDA context, not one per check.
//!
//! The backend is opened on the worker thread (a CUDA context is bound to the thread that uses
//! it), once, at spawn; the first event says which backend runs and why. Jobs queue in the order
//! sent ([`board`] keeps the queue and each job's cancel flag). A run reports its phases and then
//! its result; a check says when it starts and then its verdict. A panic inside either is caught
//! and reported as a failure, and the backend is reopened for the next job, because a panic may
//! have left it half-way through a sequence of driver calls.

pub mod board;
pub mod check;
pub mod hold;
mod jobs;

use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

use crate::exercise::SharedVerdict;
use crate::experiment::{self, ExperimentError, ExperimentOptions, RunContext};
use crate::gpu::detect::BackendSpec;
use crate::gpu::{DeviceInfo, Gpu, detect};
use crate::report::Report;
use board::Board;
pub use board::Job;
pub use check::{CheckRunner, check_exercise, failed_verdict};
use jobs::{Backend, CheckJob, RunJob, skipped};

/// The worker thread's name. The TUI's panic hook checks it: a panic there is caught and shown
/// in the panel, so the hook must not restore the terminal or print over the screen.
pub const THREAD_NAME: &str = "experiment-worker";

/// The worker's stack: checks walk the learner's program recursively (statements and
/// expressions up to `parse::MAX_DEPTH` levels, helper calls up to the interpreter's call
/// limit), which a default 2 MiB thread stack does not hold with room to spare in a debug
/// build; a stack overflow aborts the whole process, past any `catch_unwind`. Reserved, not
/// committed: only the pages touched are memory.
pub const WORKER_STACK: usize = 64 << 20;

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
    /// Check `check_id` left the queue: it runs now.
    CheckStarted { check_id: u64 },
    /// Check `check_id` of exercise `id` finished; `cancelled` when Esc stopped it (the verdict
    /// then holds what ran up to there, or nothing if it never started).
    Checked {
        check_id: u64,
        id: String,
        verdict: SharedVerdict,
        cancelled: bool,
    },
}

/// How the worker runs one experiment (`experiment::run`; tests pass one that fails or panics).
pub type Runner =
    fn(&str, &mut dyn Gpu, &ExperimentOptions, &RunContext) -> Result<Report, ExperimentError>;

/// What the worker runs jobs with.
#[derive(Clone, Copy)]
pub struct Runners {
    pub experiment: Runner,
    pub check: CheckRunner,
}

impl Default for Runners {
    fn default() -> Self {
        Runners {
            experiment: |id, gpu, opts, ctx| experiment::run(id, gpu, opts, ctx),
            check: check_exercise,
        }
    }
}

enum Request {
    Run {
        run_id: u64,
        experiment: String,
        options: ExperimentOptions,
    },
    Check {
        check_id: u64,
        id: String,
        text: String,
    },
}

impl Request {
    fn job(&self) -> Job {
        match self {
            Request::Run { run_id, .. } => Job::Run(*run_id),
            Request::Check { check_id, .. } => Job::Check(*check_id),
        }
    }
}

/// Handle to the worker thread. Dropping it stops the thread after the current job.
pub struct Worker {
    requests: Option<Sender<Request>>,
    board: Board,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Start the worker; `emit` receives every [`WorkerEvent`] (it is called on the worker thread).
    pub fn spawn(
        backend: BackendSpec,
        emit: impl Fn(WorkerEvent) + Send + 'static,
    ) -> std::io::Result<Worker> {
        Self::spawn_with(backend, Runners::default(), emit)
    }

    /// [`Worker::spawn`] with other ways to run jobs (for tests of failures and panics).
    pub fn spawn_with(
        backend: BackendSpec,
        runners: Runners,
        emit: impl Fn(WorkerEvent) + Send + 'static,
    ) -> std::io::Result<Worker> {
        let (tx, rx) = channel();
        let board = Board::default();
        let shared = board.clone();
        let thread = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .stack_size(WORKER_STACK)
            .spawn(move || serve(&backend, runners, &rx, &shared, &emit))?;
        Ok(Worker {
            requests: Some(tx),
            board,
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
        self.send(Request::Run {
            run_id,
            experiment: experiment.to_string(),
            options,
        })
    }

    /// Queue check `check_id` of `text` as exercise `id`; [`WorkerEvent::CheckStarted`] and
    /// [`WorkerEvent::Checked`] carry the id back.
    pub fn check(&mut self, check_id: u64, id: &str, text: &str) -> Result<(), String> {
        self.send(Request::Check {
            check_id,
            id: id.to_string(),
            text: text.to_string(),
        })
    }

    fn send(&mut self, request: Request) -> Result<(), String> {
        let job = request.job();
        self.board.queue(job);
        let sent = self.requests.as_ref().map(|tx| tx.send(request).is_ok());
        match sent {
            Some(true) => Ok(()),
            _ => Err("the experiment worker has stopped; restart cuda-academy".to_string()),
        }
    }

    /// Ask the experiment run (running or queued) to stop at its next step.
    pub fn cancel(&self) {
        self.board.cancel(|job| matches!(job, Job::Run(_)));
    }

    /// Ask check `check_id` (running or queued) to stop at its next step.
    pub fn cancel_check(&self, check_id: u64) {
        self.board.cancel(|job| job == Job::Check(check_id));
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.board.cancel(|_| true);
        // Closing the channel ends the loop; do not join: a long GPU call must not hold up quit.
        self.requests.take();
        self.thread.take();
    }
}

/// The worker thread: open the backend, then take jobs until the handle is dropped.
fn serve(
    backend: &BackendSpec,
    runners: Runners,
    requests: &Receiver<Request>,
    board: &Board,
    emit: &dyn Fn(WorkerEvent),
) {
    let mut gpu = open(backend, emit);
    let hold = hold::requested();
    while let Ok(request) = requests.recv() {
        let Some(cancel) = board.start(request.job()) else {
            emit(skipped(request));
            continue;
        };
        if gpu.is_none() {
            gpu = open(backend, emit);
        }
        let crashed = match request {
            Request::Run {
                run_id,
                experiment,
                options,
            } => {
                let job = RunJob {
                    run_id,
                    experiment: &experiment,
                    options: &options,
                    hold,
                };
                job.serve(runners.experiment, gpu.as_mut(), &cancel, emit)
            }
            Request::Check { check_id, id, text } => {
                emit(WorkerEvent::CheckStarted { check_id });
                let job = CheckJob {
                    check_id,
                    id: &id,
                    text: &text,
                };
                job.serve(runners.check, gpu.as_mut(), &cancel, emit)
            }
        };
        if crashed {
            gpu = None;
        }
        board.finish();
    }
}

fn open(backend: &BackendSpec, emit: &dyn Fn(WorkerEvent)) -> Option<Backend> {
    match detect::open(backend) {
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

#[cfg(test)]
mod tests;
