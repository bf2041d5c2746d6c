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

use crate::cli::BackendChoice;
use crate::experiment::{self, ExperimentOptions, RunContext};
use crate::gpu::{DeviceInfo, Gpu, detect};
use crate::report::Report;

/// What the worker tells the UI.
#[derive(Debug, Clone)]
pub enum WorkerEvent {
    /// The backend that runs experiments (or why none could be opened).
    Backend(Result<DeviceInfo, String>),
    /// Run `run_id` entered a new phase.
    Phase { run_id: u64, text: String },
    /// Run `run_id` finished.
    Done { run_id: u64, result: Result<Box<Report>, String> },
}

enum Request {
    Run { run_id: u64, experiment: String, options: ExperimentOptions },
}

/// Handle to the worker thread. Dropping it stops the thread after the current run.
pub struct Worker {
    requests: Option<Sender<Request>>,
    cancel: Arc<AtomicBool>,
    next_run: u64,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Start the worker; `emit` receives every [`WorkerEvent`] (it is called on the worker thread).
    pub fn spawn(
        choice: BackendChoice,
        device: u32,
        emit: impl Fn(WorkerEvent) + Send + 'static,
    ) -> std::io::Result<Worker> {
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let thread = std::thread::Builder::new()
            .name("experiment-worker".into())
            .spawn(move || serve(choice, device, &rx, &flag, &emit))?;
        Ok(Worker { requests: Some(tx), cancel, next_run: 1, thread: Some(thread) })
    }

    /// Queue a run; returns its id (used in [`WorkerEvent`]s).
    pub fn run(&mut self, experiment: &str, options: ExperimentOptions) -> Result<u64, String> {
        let run_id = self.next_run;
        self.next_run += 1;
        self.cancel.store(false, Ordering::Relaxed);
        let request = Request::Run { run_id, experiment: experiment.to_string(), options };
        let sent = self.requests.as_ref().map(|tx| tx.send(request).is_ok());
        match sent {
            Some(true) => Ok(run_id),
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
    choice: BackendChoice,
    device: u32,
    requests: &Receiver<Request>,
    cancel: &AtomicBool,
    emit: &dyn Fn(WorkerEvent),
) {
    let mut gpu = open(choice, device, emit);
    while let Ok(Request::Run { run_id, experiment, options }) = requests.recv() {
        if gpu.is_none() {
            gpu = open(choice, device, emit);
        }
        let Some(backend) = gpu.as_mut() else {
            let result = Err("no backend could be opened (see the status bar)".to_string());
            emit(WorkerEvent::Done { run_id, result });
            continue;
        };
        let progress = |text: &str| emit(WorkerEvent::Phase { run_id, text: text.to_string() });
        let ctx = RunContext { cancel, progress: &progress };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            experiment::run(&experiment, backend.as_mut(), &options, &ctx)
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

fn open(
    choice: BackendChoice,
    device: u32,
    emit: &dyn Fn(WorkerEvent),
) -> Option<Box<dyn Gpu + Send>> {
    match detect::open(choice, device) {
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
